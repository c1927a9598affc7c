"""``ruleweave explain PATH…``: which scoped rules and nested instruction files fire, and why."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ruleweave.cli.common import add_cwd, add_json, config_from, print_json
from ruleweave.paths import display
from ruleweave.ruleset import RuleSet


def register(subparsers: Any) -> None:
    """Add the ``explain`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "explain", help="show which rules a tool call touching PATH would inject"
    )
    add_cwd(parser)
    add_json(parser)
    parser.add_argument("paths", nargs="+", metavar="PATH", help="paths, relative to --cwd")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Explain each path; exit 0 (nothing firing is not an error)."""
    config = config_from(args)
    ruleset = RuleSet.load(config)
    report: list[dict[str, Any]] = []
    for raw in args.paths:
        path = Path(os.path.normpath(config.cwd / raw))
        matches = ruleset.notices.for_paths([path])
        report.append(
            {
                "path": display(path, config.root),
                "rules": [
                    {"name": m.name, "provider": m.provider, "glob": m.glob}
                    for m in matches
                    if m.kind == "rule"
                ],
                "instructions": [{"path": m.name} for m in matches if m.kind == "instructions"],
            }
        )
    if args.json:
        print_json({"paths": report})
        return 0
    for entry in report:
        print(entry["path"])
        if not entry["rules"] and not entry["instructions"]:
            print("  (nothing fires)")
        for rule in entry["rules"]:
            print(f"  rule {rule['name']} [{rule['provider']}] via {rule['glob']}")
        for nested in entry["instructions"]:
            print(f"  instructions {nested['path']}")
    return 0
