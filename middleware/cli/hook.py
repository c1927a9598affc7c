"""``ruleweave hook <agent>``: answer one agent hook event (stdin JSON → stdout JSON).

``ruleweave.cli.main`` hands ``hook <agent>`` straight to
``ruleweave.hosts._command`` before building this parser, so a hook process
imports no other subcommand; the parser here serves ``--help`` (and a
command line that puts options before the agent). Both read the one
declaration of the options, ``ruleweave.hosts._options.HOOK_OPTIONS``.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from ruleweave.hosts import HOSTS, Host, host
from ruleweave.hosts._options import HOOK_OPTIONS, HookOptions, add_arguments


def register(subparsers: Any) -> None:
    """Add the ``hook`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "hook",
        help="answer one agent hook event on stdin (the command an agent's hook runs)",
        description=textwrap.fill(
            "Read one hook event (JSON) of the agent on stdin and print the hook's answer. "
            "Always exits 0: problems go to the hook log, never to the agent.", width=78
        ),
        epilog="agents:\n" + "\n".join(_described(host(name)) for name in HOSTS),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,  # as the hook's own reader of the options
    )
    parser.add_argument("agent", choices=HOSTS, help="the agent whose hook event this is")
    add_arguments(parser, HOOK_OPTIONS)
    parser.set_defaults(func=run)


def _described(agent: Host) -> str:
    """One host for ``--help``: its events, its limit and what it reads itself."""
    native = sorted(agent.native_files)
    if agent.native_names is not None:
        native[-1] += " (its own settings may name others)"
    if agent.native_provider:
        native.insert(0, f"the {agent.native_provider} provider's rules")
    fallback = (
        f", and {', '.join(sorted(agent.native_fallback))} in a project without those files"
        if agent.native_fallback else ""
    )
    unit = "bytes" if agent.context_unit == "utf8" else "characters"
    text = (
        f"{agent.name}: {agent.title} hooks {', '.join(agent.events)}; at most "
        f"{agent.context_limit:,} {unit} per answer; it reads {', '.join(native)}{fallback} itself "
        "(left out unless --include-native)"
    )
    return textwrap.fill(text, width=78, initial_indent="  ", subsequent_indent="    ")


def run(args: argparse.Namespace) -> int:
    """Answer the event on stdin (``main`` normally short-circuits to the hook process)."""
    from ruleweave.hosts._command import run as run_hook

    options = HookOptions(**{option.dest: getattr(args, option.dest) for option in HOOK_OPTIONS})
    return run_hook(args.agent, options=options)
