"""``ruleweave replay LOG``: re-run a logged session against today's rules (``--economy``: its bytes)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ruleweave.cli.common import UsageError, add_json, print_json
from ruleweave.errors import ReplayError
from ruleweave.replay import replay
from ruleweave.replay.economy import economy, to_json


def register(subparsers: Any) -> None:
    """Add the ``replay`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay", help="re-run a logged session against today's rules and print what differs"
    )
    parser.add_argument("log", metavar="LOG", help="a JSON-lines event log")
    parser.add_argument("--cwd", metavar="DIR", help="where to replay (default: the logged cwd)")
    parser.add_argument("--root", metavar="DIR", help="the project root (default: as logged)")
    parser.add_argument(
        "--economy", action="store_true",
        help="report the bytes of rule text ruleweave delivered against two baselines, and the "
        "rules that cost most",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay; 0 when nothing differs, 1 when something does, 2 for an unusable log."""
    for option in ("cwd", "root"):
        value = getattr(args, option)
        if value is not None and not Path(value).is_dir():
            raise UsageError(f"--{option} {value} is not a directory.")
    if args.economy:
        return _economy(args)
    try:
        report = replay(args.log, cwd=args.cwd, root=args.root)
    except ReplayError as exc:
        raise UsageError(str(exc)) from exc
    if args.json:
        print_json(report.to_json())
    else:
        replayed = sum(s.replayed for s in report.sessions)
        if report.clean:
            print(f"clean: {len(report.sessions)} session(s), {replayed} tool call(s) replay unchanged")
        else:
            print(report.format())
        if report.skipped:
            lines = ", ".join(map(str, report.skipped))
            print(f"ruleweave: skipped lines that are not events: {lines}", file=sys.stderr)
        for session in report.sessions:
            for note in session.notes:
                print(f"ruleweave: session {session.session}: {note}", file=sys.stderr)
    return 0 if report.clean else 1


def _economy(args: argparse.Namespace) -> int:
    """Print the context economy of each logged session; 0, or 2 for an unusable log."""
    try:
        reports = economy(args.log, cwd=args.cwd, root=args.root)
    except ReplayError as exc:
        raise UsageError(str(exc)) from exc
    if args.json:
        print_json(to_json(reports))
    else:
        print("\n\n".join(report.format() for report in reports))
    return 0
