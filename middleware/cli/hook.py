"""``ruleweave hook claude-code``: answer one Claude Code hook event (stdin JSON → stdout JSON).

``ruleweave.cli.main`` hands ``hook claude-code`` straight to
``ruleweave.hosts.claude_code.command`` before building this parser, so a hook
process imports no other subcommand; the parser here serves ``--help``.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    """Add the ``hook`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "hook",
        help="answer one agent hook event on stdin (Claude Code command hooks)",
        description="Read one Claude Code hook event (JSON) on stdin and print the hook's answer. "
        "Always exits 0: problems go to the hook log, never to the agent.",
    )
    parser.add_argument("agent", choices=["claude-code"], help="the agent whose hook event this is")
    parser.add_argument("--cwd", metavar="DIR", help="the project directory (default: the event's cwd)")
    parser.add_argument("--root", metavar="DIR", help="the project root (default: nearest .git above)")
    parser.add_argument(
        "--store", metavar="URL", default="sqlite://",
        help="session state (default sqlite://: $RULEWEAVE_STATE_DIR/state.db or the user state dir)",
    )
    parser.add_argument("--event-log", metavar="PATH", help="also write every event as JSON lines here")
    parser.add_argument(
        "--include-native", action="store_true",
        help="also inject what Claude Code loads itself (.claude/rules, CLAUDE.md, AGENTS.md)",
    )
    parser.add_argument("--no-snapshot", action="store_true", help="always load the rules (no warm start)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Answer the event on stdin (``main`` normally short-circuits to this)."""
    from ruleweave.hosts.claude_code.command import run as run_hook

    argv = [f"--{key.replace('_', '-')}={value}" for key in ("cwd", "root", "store", "event_log")
            if (value := getattr(args, key)) is not None]
    argv += ["--include-native"] * args.include_native + ["--no-snapshot"] * args.no_snapshot
    return run_hook(argv)
