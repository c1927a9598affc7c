"""``ruleweave scan``: every rule found, its provider, bucket and shadowed copies."""

from __future__ import annotations

import argparse
from typing import Any

from ruleweave._files.paths import display
from ruleweave.cli.common import add_cwd, add_json, config_from, print_json, print_warnings
from ruleweave.rulemap.inventory import inventory, streamed
from ruleweave.rules import Bucket
from ruleweave.ruleset import RuleSet


def register(subparsers: Any) -> None:
    """Add the ``scan`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "scan", help="list discovered rules, their buckets and warnings"
    )
    add_cwd(parser)
    add_json(parser)
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 when discovery produced warnings"
    )
    parser.add_argument(
        "--wide", action="store_true",
        help="print every cell whole (by default the table fits 100 columns, long cells end in …)",
    )
    parser.add_argument(
        "--all", action="store_true",
        help="also list every nested rule folder below the root (read on first touch in a session)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Scan and print; 1 with ``--strict`` when there are warnings."""
    config = config_from(args)
    ruleset = RuleSet.load(config)
    found, buckets = ruleset.discovery, ruleset.buckets
    warnings = tuple(w for w in ruleset.warnings if w.severity != "info")
    notes = tuple(w for w in ruleset.warnings if w.severity == "info")
    root = config.root
    nested = ruleset.notices.nested_rules.all_folders() if args.all and ruleset.notices.nested_rules else []
    if args.json:
        print_json(inventory(ruleset, nested if args.all else None))
    else:
        ttsr = streamed(ruleset)
        rows: list[tuple[str, str, str, str, str]] = []
        for r in found.rules:
            detail = (
                f"{', '.join(ttsr[r.name][0])} / {ttsr[r.name][1]}" if r.name in ttsr
                else ", ".join(r.globs) or "-"
            )
            shadowed = ", ".join(f"{s.provider}:{display(s.path, root)}" for s in r.shadowed) or "-"
            rows.append((buckets.by_rule[r.name].value, r.name, r.source.provider, detail, shadowed))
        for line in table(rows, None if args.wide else WIDTH):
            print(line)
        print(f"\n{len(found.rules)} rules, {len(found.shadowed)} shadowed")
        if ruleset.blob.files or ruleset.blob.scoped:
            print("\ninstruction files:")
            for f in ruleset.blob.files:
                cut = f" (cut, {f.bytes_dropped} bytes dropped)" if f.truncated else ""
                print(f"  {f.path}: {f.bytes} bytes{cut}")
        for s in ruleset.blob.scoped:  # Amp's globs: frontmatter: sent on a matching touch
            print(f"  {s.file.display}: on a touch matching {', '.join(s.globs)}")
        if not config.builtin_rules:
            print("built-in rules: off (turn on with --builtin-rules all, or builtin_rules=True)")
        if args.all:
            print(f"\nnested rule folders ({len(nested)}), read on a tool call's first touch below them:")
            for folder in nested:
                for name, rule in folder.rules.items():
                    bucket = folder.buckets.get(name, Bucket.MANUAL).value
                    globs = ", ".join(rule.globs) or "-"
                    print(f"  {name}  {rule.source.provider}  {bucket}  {globs}")
            nested_all = [w for f in nested for w in f.warnings]
            warnings = (*warnings, *(w for w in nested_all if w.severity != "info"))
            notes = (*notes, *(w for w in nested_all if w.severity == "info"))
        print_warnings((*warnings, *notes), root)
    return 1 if args.strict and warnings else 0


WIDTH = 100
"""Columns the default table fits in."""

_BUCKETS = ("generic", "rulebook", "scoped", "ttsr", "manual", "instructions")


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, ending in ``…`` when cut."""
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def table(rows: list[tuple[str, str, str, str, str]], width: int | None) -> list[str]:
    """The rules grouped by bucket, one line each: name, provider, globs or TTSR scope, shadowed copies.

    Args:
        rows: ``(bucket, name, provider, globs or scope, shadowed)`` per rule, in precedence order.
        width: Columns to fit (cells end in ``…`` when cut), or ``None`` for whole cells.

    Returns:
        The lines: a header, then per bucket a ``<bucket> (N)`` line and its rules.
    """
    header = ("NAME", "PROVIDER", "GLOBS / TTSR SCOPE", "SHADOWED")
    cells = [row[1:] for row in rows]
    widths = [max(len(c[i]) for c in [header, *cells]) for i in range(4)]
    if width is not None:
        widths[0] = min(widths[0], 30)
        widths[1] = min(widths[1], 10)
        room = width - 2 - widths[0] - widths[1] - 6
        widths[2] = min(widths[2], max(room - min(widths[3], room // 3), 10))
        widths[3] = max(room - widths[2], 8)

    def line(values: tuple[str, ...], indent: str) -> str:
        shown = [v if width is None else shorten(v, widths[i]) for i, v in enumerate(values)]
        first = shown[0].ljust(widths[0] - len(indent) + 2)
        return (indent + "  ".join([first, *(v.ljust(widths[i + 1]) for i, v in enumerate(shown[1:3])),
                                    shown[3]])).rstrip()

    out = [line(header, "")]
    for bucket in _BUCKETS:
        group = [row for row in rows if row[0] == bucket]
        if group:
            out.append(f"{bucket} ({len(group)})")
            out.extend(line(row[1:], "  ") for row in group)
    return out
