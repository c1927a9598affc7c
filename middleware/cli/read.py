"""``ruleweave read rule://NAME``: print a rule as a session's rule:// resolves it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ruleweave.cli.common import add_cwd, add_json, add_store, config_from, print_json
from ruleweave.errors import RuleNotFoundError
from ruleweave.ruleset import RuleSet


def register(subparsers: Any) -> None:
    """Add the ``read`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "read", help="print the rule a rule://NAME address names"
    )
    add_cwd(parser)
    add_json(parser)
    add_store(parser)
    parser.add_argument("--session", default="cli-read", metavar="ID", help="the session id to read in")
    parser.add_argument("uri", metavar="rule://NAME")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the rule; exit 1 with the available names when there is none."""
    session = RuleSet.load(config_from(args)).session(args.session)
    try:
        doc = session.resolve(args.uri)
    except RuleNotFoundError as exc:
        print(f"ruleweave: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print_json(
            {
                "name": doc.name, "uri": doc.uri, "bucket": doc.bucket.value,
                "provider": doc.provider, "path": doc.path, "description": doc.description,
                "globs": list(doc.globs), "content": doc.content,
            }
        )
    else:
        sys.stdout.write(doc.content + "\n")
    return 0
