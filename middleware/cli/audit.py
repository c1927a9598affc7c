"""``ruleweave audit TRANSCRIPT…``: did the rules reach the model, and did it follow them?

Reads Claude Code transcripts, Codex CLI session logs and ruleweave's event log (or folders of
them), finds each rule's text as the model received it, joins that with the store's delivery
record (``--store``), and checks the model's writes and commands against each checkable rule
(docs/audit.md). Exit 0: done; 1: ``--fail-on broken`` and a rule was broken after delivery;
2: usage, or a store that cannot be read. Unreadable transcripts are warnings, never failures.
"""

from __future__ import annotations

import argparse
from typing import Any

from ruleweave.cli.common import UsageError, add_cwd, add_json, config_from, print_json


def register(subparsers: Any) -> None:
    """Add the ``audit`` subcommand."""
    parser = subparsers.add_parser(
        "audit", help="check transcripts: which rules reached the model, and were they followed",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    parser.add_argument("transcripts", nargs="+", metavar="TRANSCRIPT",
                        help="Claude Code transcripts, Codex session logs, ruleweave event logs, or folders")
    add_cwd(parser)
    add_json(parser)
    parser.add_argument("--since", metavar="DATE", help="only sessions started on or after DATE (ISO 8601)")
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME", help="only this rule (repeatable)"
    )
    parser.add_argument("--fail-on", choices=("broken",), help="exit 1 when a rule was broken after delivery")
    parser.add_argument("--store", metavar="URL",
                        help="the hooks' store, for delivered vs received (e.g. sqlite:// for the default)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Audit the transcripts; exit 0, or 1 with ``--fail-on broken`` and a broken rule."""
    from ruleweave.audit import audit
    from ruleweave.audit.dates import seconds
    from ruleweave.audit.render import lines
    from ruleweave.audit.start import StartContexts
    from ruleweave.ruleset import RuleSet

    since = None
    if args.since is not None:
        since = seconds(args.since)
        if since is None:
            raise UsageError(f"--since {args.since} is not an ISO 8601 date.")
    config = config_from(argparse.Namespace(**{**vars(args), "store": None}))
    ruleset = RuleSet.load(config)
    store = _open(args.store)
    try:
        start = StartContexts(config) if store is not None else None
        report = audit(args.transcripts, ruleset.rules, str(config.project_root or config.cwd),
                       store=store, since=since, only=tuple(args.rule), start=start)
    finally:
        if store is not None:
            store.close()
    if args.json:
        print_json(report)
    else:
        for line in lines(report):
            print(line)
    return 1 if args.fail_on == "broken" and report["totals"]["broken"] else 0


def _open(url: str | None) -> Any:
    if url is None:
        return None
    from ruleweave.cli.explain_session import _missing_file
    from ruleweave.store.url import open_store

    if _missing_file(url):
        raise UsageError(f"--store {url} names no existing state file.")
    return open_store(url)
