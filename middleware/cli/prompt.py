"""``ruleweave prompt``: the assembled prompt blocks and the budget report of every block."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ruleweave.cli.common import add_cwd, add_json, config_from, print_json, print_warnings, read_input
from ruleweave.prompt._budget import BlockBudget
from ruleweave.ruleset import RuleSet

_TITLES = {"instructions": "instructions", "generic": "<generic-rules>", "domain": "<domain-rules>"}


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
    """Print the prompt (text, or JSON per docs/cli.md#json-output)."""
    custom = read_input(args.custom_prompt) if args.custom_prompt else None
    ruleset = RuleSet.load(
        config_from(args, custom_system_prompt=custom, custom_template=args.custom_template)
    )
    parts = ruleset.prompt_parts()
    if args.json:
        print_json(
            {
                "text": parts.text,
                "generic": parts.generic,
                "domain": parts.domain,
                "instructions": parts.instructions,
                "budget": parts.budget.as_json(),
            }
        )
        return 0
    sys.stdout.write(parts.text + "\n")
    report = sys.stderr
    print(f"\n-- prompt: {parts.budget.used} of {parts.budget.limit} bytes", file=report)
    for block in parts.budget.blocks:
        print(_block_line(block), file=report)
        for cut in block.cut:
            what = f"rule://{cut.name} ({cut.path})" if cut.name else cut.path
            print(f"   cut {what}: {cut.bytes_dropped} bytes dropped", file=report)
    if parts.deduplicated:
        print(f"-- already in the prompt: {', '.join(parts.deduplicated)}", file=report)
    print_warnings(parts.warnings, ruleset.config.root, report)
    return 0


def _block_line(block: BlockBudget) -> str:
    """``-- <block>: USED of LIMIT bytes`` (``USED bytes, no limit of its own`` without one)."""
    title = _TITLES.get(block.block, block.block)
    if block.limit is None:
        return f"-- {title}: {block.used} bytes (no cap of its own)"
    return f"-- {title}: {block.used} of {block.limit} bytes"
