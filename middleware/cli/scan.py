"""``ruleweave scan``: every rule found, its provider, bucket and shadowed copies."""

from __future__ import annotations

import argparse
from typing import Any

from ruleweave.cli.common import add_cwd, add_json, config_from, print_json, print_warnings
from ruleweave.paths import display
from ruleweave.rules import Bucket
from ruleweave.ruleset import RuleSet
from ruleweave.ttsr import describe


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
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Scan and print; 1 with ``--strict`` when there are warnings."""
    config = config_from(args)
    ruleset = RuleSet.load(config)
    found, buckets = ruleset.discovery, ruleset.buckets
    warnings = ruleset.warnings
    root = config.root
    ttsr = {
        r.name: info
        for r in found.rules
        if buckets.by_rule[r.name] is Bucket.TTSR and (info := describe(r, config)) is not None
    }
    if args.json:
        print_json(
            {
                "rules": [
                    {
                        "name": r.name,
                        "provider": r.source.provider,
                        "bucket": buckets.by_rule[r.name].value,
                        "path": r.path,
                        "globs": list(r.globs),
                        "always_apply": r.always_apply,
                        "description": r.description,
                        "shadowed": [{"provider": s.provider, "path": s.path} for s in r.shadowed],
                        **(
                            {"scope": ttsr[r.name][0], "interrupt_mode": ttsr[r.name][1]}
                            if r.name in ttsr else {}
                        ),
                    }
                    for r in found.rules
                ],
                "warnings": [
                    {"path": w.path, "message": w.message if not w.line else f"line {w.line}: {w.message}"}
                    for w in warnings
                ],
                "instructions": [
                    {"path": f.path, "bytes": f.bytes, "truncated": f.truncated}
                    for f in ruleset.blob.files
                ],
            }
        )
    else:
        rows = [("NAME", "PROVIDER", "BUCKET", "GLOBS", "TTSR", "SHADOWED")]
        for r in found.rules:
            rows.append(
                (
                    r.name,
                    r.source.provider,
                    buckets.by_rule[r.name].value,
                    ", ".join(r.globs) or "-",
                    f"{', '.join(ttsr[r.name][0])} / {ttsr[r.name][1]}" if r.name in ttsr else "-",
                    ", ".join(f"{s.provider}:{display(s.path, root)}" for s in r.shadowed) or "-",
                )
            )
        widths = [max(len(row[i]) for row in rows) for i in range(5)]
        for row in rows:
            cells = "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:5]))
            print(cells + "  " + row[5])
        print(f"\n{len(found.rules)} rules, {len(found.shadowed)} shadowed")
        if ruleset.blob.files:
            print("\ninstruction files:")
            for f in ruleset.blob.files:
                cut = f" (cut, {f.bytes_dropped} bytes dropped)" if f.truncated else ""
                print(f"  {f.path}: {f.bytes} bytes{cut}")
        print_warnings(warnings, root)
    return 1 if args.strict and warnings else 0
