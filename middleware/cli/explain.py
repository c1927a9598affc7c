"""``ruleweave explain PATH…``: which scoped rules and nested instruction files fire, and why.

Each rule names the folder it came from (a nested ``apps/web/.cursor/rules``
too); a path under a directory the repository ignores says so, since nested
rules and instruction files are never read there.

``ruleweave explain --session ID`` prints a session's delivery record instead
(``explain_session``): what the hooks sent, cut, queued and took from the queue.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ruleweave._files.paths import display
from ruleweave.cli.common import UsageError, add_cwd, add_json, config_from, print_json
from ruleweave.ruleset import RuleSet


def register(subparsers: Any) -> None:
    """Add the ``explain`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "explain", help="show which rules a tool call touching PATH would inject"
    )
    add_cwd(parser)
    add_json(parser)
    parser.add_argument("paths", nargs="*", metavar="PATH", help="paths, relative to --cwd")
    parser.add_argument(
        "--session", metavar="ID",
        help="instead of paths: print the delivery record of this agent session (what its hooks sent, "
        "cut, queued and took from the queue, per rule and file)",
    )
    parser.add_argument(
        "--store", metavar="URL",
        help="with --session: where the session lives (default: sqlite://, the hooks' state.db)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Explain each path, or print a session's record; exit 0 (nothing firing is not an error).

    Raises:
        UsageError: Neither paths nor ``--session``, or both; ``--store`` without ``--session``.
    """
    if args.session is not None:
        if args.paths:
            raise UsageError("explain takes paths or --session, not both.")
        from ruleweave.cli.explain_session import run_session

        return run_session(args.session, args.store, as_json=args.json)
    if not args.paths:
        raise UsageError("explain needs a PATH, or --session ID.")
    if args.store is not None:
        raise UsageError("--store goes with --session.")
    config = config_from(args)
    ruleset = RuleSet.load(config)
    report: list[dict[str, Any]] = []
    for raw in args.paths:
        path = Path(os.path.normpath(config.cwd / raw))
        matches = ruleset.notices.for_paths([path])
        entry: dict[str, Any] = {
            "path": display(path, config.root),
            "rules": [
                {
                    "name": m.name, "provider": m.provider, "glob": m.glob,
                    "folder": display(os.path.dirname(m.path), config.root),
                }
                for m in matches
                if m.kind == "rule"
            ],
            "instructions": [{"path": m.name} for m in matches if m.kind == "instructions"],
        }
        listings = [{"folder": m.name, "rules": m.body.splitlines()} for m in matches if m.kind == "listing"]
        if listings:
            entry["listings"] = listings
        ignored = _ignored_below(ruleset, str(path))
        if ignored is not None:
            entry["ignored"] = display(ignored, config.root)
        report.append(entry)
    if args.json:
        print_json({"paths": report})
        return 0
    for entry in report:
        print(entry["path"])
        if not entry["rules"] and not entry["instructions"] and not entry.get("listings"):
            print("  (nothing fires)")
        for rule in entry["rules"]:
            via = f" via {rule['glob']}" if rule["glob"] else " (applies to its folder's subtree)"
            print(f"  rule {rule['name']} [{rule['provider']}]{via}  from {rule['folder']}")
        for nested in entry["instructions"]:
            print(f"  instructions {nested['path']}")
        for listing in entry.get("listings", ()):
            print(f"  listed in {listing['folder']}: " + " ".join(listing["rules"]))
        if "ignored" in entry:
            print(f"  (under {entry['ignored']}, which the repository ignores: no nested rules read there)")
    return 0


def _ignored_below(ruleset: RuleSet, path: str) -> str | None:
    """The outermost ignored directory between the project root and ``path``, if any."""
    tree = ruleset.nested.tree
    parent = os.path.dirname(path)
    if not tree.inside(parent):
        return None
    current = tree.root
    for part in parent[len(tree.root.rstrip(os.sep)) + 1 :].split(os.sep):
        current = os.path.join(current, part)
        if tree.ignored(current):
            return current
    return None
