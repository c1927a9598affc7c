"""The ``ruleweave`` command line.

Each subcommand lives in its own module with ``register(subparsers)``;
exit codes are 0 ok, 1 findings, 2 usage or unreadable input. Whatever a
subcommand prints goes through ``escaped_output``: rule names, paths and
bodies come from repositories, and none may drive the terminal.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: ``ruleweave hook <agent>`` must start without importing it
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


COMMANDS: tuple[str, ...] = (
    "scan",
    "lint",
    "prompt",
    "explain",
    "map",
    "read",
    "spec",
    "ttsr",
    "replay",
    "audit",
    "mcp",
    "hook",
    "install",
)
"""Subcommand modules under ``ruleweave.cli``, in help order."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered.

    Args:
        only: Register this subcommand alone: it parses its own arguments as the whole
            parser would, without importing every other subcommand's module (a command an
            agent runs through its shell, like ``ruleweave read``, starts that much sooner).
    """
    import argparse
    import importlib

    parser = argparse.ArgumentParser(
        prog="ruleweave",
        description="Discover a repository's coding-agent rules and weave them into sessions.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        try:
            module = importlib.import_module(f"ruleweave.cli.{name}")
        except ModuleNotFoundError:
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code.

    Args:
        argv: Arguments without the program name (default: ``sys.argv[1:]``).

    Returns:
        0 ok, 1 findings or failures, 2 usage or unreadable input.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["hook"] and len(arguments) > 1 and not {"-h", "--help"} & set(arguments):
        from ruleweave.hosts import HOSTS

        if arguments[1] in HOSTS:
            return _hook(arguments[1], arguments[2:], exit_now=argv is None)
    if arguments[:2] == ["spec", "decide"]:
        # A spec is decided from its compiled form (kept, or checked against the grammar's table),
        # without the parser or pydantic; the full command explains what that path does not take.
        from ruleweave.steering.quick import answer

        code = answer(arguments[2:])
        if code is not None:
            return code
    return parse_and_run(arguments)


def parse_and_run(argv: Sequence[str]) -> int:
    """Run the CLI through its argument parser alone, without :func:`main`'s fast paths.

    ``main`` answers ``hook AGENT`` without the parser and ``spec decide``
    without pydantic when it can; both print what this prints, and tests
    compare the two.

    Args:
        argv: Arguments without the program name.

    Returns:
        0 ok, 1 findings or failures, 2 usage or unreadable input.
    """
    arguments = list(argv)
    from ruleweave.cli.common import UsageError, escaped_output
    from ruleweave.errors import ConfigError, StoreError

    # A known subcommand is parsed by a parser holding it alone; anything else (``--help``, a typo)
    # by the whole parser, whose messages list every subcommand.
    parser = build_parser(arguments[0] if arguments[:1] and arguments[0] in COMMANDS else None)
    try:
        args = parser.parse_args(arguments)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    with escaped_output():
        try:
            return int(args.func(args))
        except (UsageError, StoreError, ConfigError) as exc:
            print(f"ruleweave: {exc}", file=sys.stderr)
            return 2
        except BrokenPipeError:
            return 0


def _hook(agent: str, options: Sequence[str], exit_now: bool) -> int:
    """``ruleweave hook <agent>``: a hook process runs per tool call, so it skips the parser, which
    imports every subcommand (``ruleweave.hosts._options.parse`` reads the same option declarations)."""
    from ruleweave.hosts._command import run

    code = run(agent, options)
    if exit_now:  # the console script: skip interpreter teardown and SQLite's checkpoint on close
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
