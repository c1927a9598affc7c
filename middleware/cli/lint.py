"""``ruleweave lint``: dead globs, agents' limits, duplicates and drift, unreachable rules, agent views."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from ruleweave.cli.common import UsageError, add_cwd, add_json, config_from, print_json
from ruleweave.lint import AGENT_IDS, CODES, lint
from ruleweave.lint.report import render_json, render_text


def register(subparsers: Any) -> None:
    """Add the ``lint`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "lint", help="check rules and instruction files: dead globs, limits, drift, unreachable rules",
        description="Check every rule folder (nested ones too) and instruction file of the project. "
        f"Finding codes: {', '.join(CODES)}.",
    )
    add_cwd(parser)
    add_json(parser)
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 when there is any warning (info lines never fail)"
    )
    parser.add_argument(
        "--fail-on", nargs="+", default=[], metavar="CODE",
        help=f"exit 1 when a finding has one of these codes ({', '.join(CODES)})",
    )
    parser.add_argument(
        "--agent", nargs="+", default=[], metavar="NAME",
        help=f"also show what these agents load at session start and which rules attach by path "
        f"({', '.join(AGENT_IDS)}); --json without it shows every agent that loads something here",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Lint and print; 1 with ``--strict`` and a warning, or with a ``--fail-on`` code found."""
    unknown = [code for code in args.fail_on if code not in CODES]
    if unknown:
        raise UsageError(f"--fail-on {unknown[0]} is not a finding code; codes: {', '.join(CODES)}.")
    agents = [name.lower() for name in args.agent]
    strange = [name for name in agents if name not in AGENT_IDS]
    if strange:
        raise UsageError(f"--agent {strange[0]} is not an agent lint knows; agents: {', '.join(AGENT_IDS)}.")
    report = lint(config_from(args), agents or (AGENT_IDS if args.json else ()))
    if args.json and not agents:
        # Without --agent, JSON reports every agent that loads something here (text stays short).
        report = replace(report, views=tuple(view for view in report.views if not view.empty))
    if args.json:
        print_json(render_json(report))
    else:
        for line in render_text(report):
            print(line)
    failing = set(args.fail_on)
    if any(f.code in failing for f in report.findings):
        return 1
    if args.strict and any(f.severity == "warning" for f in report.findings):
        return 1
    return 0
