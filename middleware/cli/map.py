"""``ruleweave map``: one self-contained HTML page of which rules apply where, for which agent, what
they cost and what lint finds wrong with them (``--json``: the data behind it).

The page is written to ``--out FILE`` (default ``ruleweave-map.html`` in the
current directory, ``-`` for standard output), atomically; ``--json`` prints
the data instead (and writes the page too only when ``--out`` is given).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ruleweave.cli.common import UsageError, add_cwd, add_json, config_from, print_json
from ruleweave.lint.agents import AGENT_IDS

DEFAULT_OUT = "ruleweave-map.html"
"""Where the page goes without ``--out`` (relative to the current directory)."""


def register(subparsers: Any) -> None:
    """Add the ``map`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "map", help="write one HTML page: which rules apply where, for which agent, and what they cost",
        description="Write a self-contained HTML page (no network, opens from disk): the directory tree "
        "coloured by the rules that apply there for the chosen agent, each rule's coverage and which "
        "agents load it (and why not), the prompt and notice budgets, and lint's findings.",
    )
    add_cwd(parser)
    add_json(parser)
    parser.add_argument(
        "--out", metavar="FILE.html",
        help=f"where to write the page ('-' for standard output; default: {DEFAULT_OUT} in the current "
        "directory, or no page with --json)",
    )
    parser.add_argument(
        "--agent", nargs="+", default=[], metavar="NAME",
        help="the agents to compare, the first one shown first (default: ruleweave and every agent that "
        f"reads something in the project; agents: {', '.join(AGENT_IDS)})",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the map; write the page or print the JSON. Exit 0; 2 for a bad option or an unwritable file."""
    from ruleweave.cli.install import write_settings
    from ruleweave.rulemap import build_map, render_page

    agents = [name.lower() for name in args.agent]
    strange = [name for name in agents if name not in AGENT_IDS]
    if strange:
        known = ", ".join(AGENT_IDS)
        raise UsageError(f"--agent {strange[0]} is not an agent ruleweave knows; agents: {known}.")
    out = args.out if args.out is not None else (None if args.json else DEFAULT_OUT)
    if out not in (None, "-") and Path(out).is_dir():
        raise UsageError(f"--out {out} is a directory; name a file.")
    data = build_map(config_from(args), agents)
    if args.json:
        print_json(data)
    if out is None:
        return 0
    page = render_page(data)
    if out == "-":
        sys.stdout.write(page)
        return 0
    try:
        write_settings(Path(out), page)
    except OSError as exc:
        raise UsageError(f"cannot write {out} ({exc.strerror or exc}).") from exc
    project = data["project"]
    folded = f", folded below depth {project['folded_below']}" if project["folded_below"] else ""
    print(
        f"wrote {out} ({len(page.encode('utf-8')):,} bytes): {project['shown']:,} of "
        f"{project['directories']:,} directories{folded}, {len(data['rules']):,} rules, "
        f"{len(data['agents'])} agents, {data['summary']['findings']:,} findings",
        file=sys.stderr if args.json else sys.stdout,
    )
    return 0
