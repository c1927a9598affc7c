"""``ruleweave prompt``: the assembled prompt blocks and the instruction budget report."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ruleweave.cli.common import add_cwd, add_json, config_from, print_json, read_input
from ruleweave.ruleset import RuleSet


def register(subparsers: Any) -> None:
    """Add the ``prompt`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "prompt", help="print what a session adds to the system prompt, with the budget report"
    )
    add_cwd(parser)
    add_json(parser)
    parser.add_argument(
        "--custom-prompt", metavar="FILE",
        help="your own system prompt; generic rules it already contains are left out",
    )
    parser.add_argument(
        "--custom-template", action="store_true",
        help="list rules with the <rule name> template instead of <domain-rules>",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the prompt (text, or JSON per DESIGN §12)."""
    custom = read_input(args.custom_prompt) if args.custom_prompt else None
    ruleset = RuleSet.load(
        config_from(args, custom_system_prompt=custom, custom_template=args.custom_template)
    )
    parts = ruleset.prompt_parts()
    budget = {
        "limit": parts.budget.limit,
        "used": parts.budget.used,
        "cut": [{"path": path, "bytes_dropped": dropped} for path, dropped in parts.budget.cut],
    }
    if args.json:
        print_json(
            {
                "text": parts.text,
                "generic": parts.generic,
                "domain": parts.domain,
                "instructions": parts.instructions,
                "budget": budget,
            }
        )
        return 0
    sys.stdout.write(parts.text + "\n")
    report = sys.stderr
    print(
        f"\n-- instructions: {parts.budget.used} of {parts.budget.limit} bytes", file=report
    )
    for path, dropped in parts.budget.cut:
        print(f"   cut {path}: {dropped} bytes dropped", file=report)
    if parts.deduplicated:
        print(f"-- already in the prompt: {', '.join(parts.deduplicated)}", file=report)
    for warning in parts.warnings:
        print(f"-- warning: {warning}", file=report)
    return 0
