"""The options of ``ruleweave hook`` and ``ruleweave install``, declared once and read twice.

Each option is an ``Option`` record in ``HOOK_OPTIONS`` or ``INSTALL_OPTIONS``.
``add_arguments`` registers the records on an argparse parser (``--help`` and
the CLI reference come from there); ``parse`` is the hook process's own light
reader of the same records (a hook runs per tool call, and argparse costs it
start-up time). Both accept exactly the same spellings: ``--name VALUE``,
``--name=VALUE``, a flag alone, no abbreviations.

This module is on the hook's fast path: standard library only, no ``typing``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: the hook's fast path imports this module
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable, Sequence
    from typing import Any

    from ruleweave.errors import HookUsageError


class Option:
    """One command-line option: a flag that stores a constant, or an option that takes a value.

    Attributes:
        flag: Its spelling (``--event-log``).
        dest: The attribute it sets (``event_log``).
        help: One line for ``--help`` and the CLI reference.
        metavar: The value's placeholder (``PATH``); ``None`` for a flag, which takes no value.
        default: The value when the option is not given.
        const: What a flag stores when given.
        group: Options of one group exclude each other (``--project``/``--user``).
    """

    __slots__ = ("const", "default", "dest", "flag", "group", "help", "metavar")

    def __init__(
        self,
        flag: str,
        dest: str,
        help: str,
        *,
        metavar: str | None = None,
        default: Any = None,
        const: Any = True,
        group: str | None = None,
    ) -> None:
        self.flag = flag
        self.dest = dest
        self.help = help
        self.metavar = metavar
        self.default = default
        self.const = const
        self.group = group

    @property
    def takes_value(self) -> bool:
        """Whether the option is followed by a value (else it is a flag)."""
        return self.metavar is not None

    def __repr__(self) -> str:
        return f"Option({self.flag!r})"


HOOK_OPTIONS: tuple[Option, ...] = (
    Option("--cwd", "cwd", "the project directory (default: the event's cwd)", metavar="DIR"),
    Option("--root", "root", "the project root (default: the nearest directory above the cwd holding .git)",
           metavar="DIR"),
    Option("--store", "store",
           "session state (default sqlite://: $RULEWEAVE_STATE_DIR/state.db or the user state dir)",
           metavar="URL", default="sqlite://"),
    Option("--event-log", "event_log", "also write every event as JSON lines here", metavar="PATH"),
    Option("--include-native", "include_native",
           "also inject the rules and instruction files the agent reads itself",
           default=False),
    Option("--no-snapshot", "snapshot", "always load the rules (no warm start)", default=True, const=False),
)
"""The options of ``ruleweave hook <agent>``, for every agent."""

INSTALL_OPTIONS: tuple[Option, ...] = (
    Option("--project", "scope", "the project's settings, shared with the team (default)",
           const="project", default="project", group="scope"),
    Option("--local", "scope", "the project's local settings, this checkout only",
           const="local", default="project", group="scope"),
    Option("--user", "scope", "the user's settings, for every project",
           const="user", default="project", group="scope"),
    Option("--dry-run", "dry_run", "print the diff; write nothing", default=False),
    Option("--uninstall", "uninstall", "remove ruleweave's hooks only", default=False),
    Option("--absolute", "absolute", "write this installation's absolute path instead of a bare `ruleweave`",
           default=False),
    Option("--hook-type", "hook_type",
           "command: a process per event; mcp: calls to the registered `ruleweave mcp` server (default: mcp "
           "where the installed agent supports it, else command)", metavar="command|mcp"),
    Option("--server", "server",
           "opencode: the plugin asks this running `ruleweave mcp --http HOST:PORT --host opencode` first "
           "(http://127.0.0.1:PORT/mcp), the hook command when it cannot answer", metavar="URL"),
)
"""The options of ``ruleweave install <agent>`` (``--cwd``/``--root`` come from ``cli.common``)."""


class HookOptions:
    """The values of ``HOOK_OPTIONS`` for one hook process (a plain class: ``dataclasses`` costs the
    fast path start-up time).

    Args:
        values: ``dest`` → value for any of ``HOOK_OPTIONS``; the others take their default.

    Raises:
        TypeError: A name that is no option's ``dest``.

    Attributes:
        cwd: The project directory (default: the event's ``cwd``).
        root: The project root (default: the nearest directory above ``cwd`` holding ``.git``).
        store: The session store URL (default ``sqlite://``: the state directory's ``state.db``).
        event_log: Also write every session event, and the hook's own, to this JSON-lines file.
        include_native: Keep what the agent reads itself (for Claude Code the ``claude``
            provider, ``CLAUDE.md``/``AGENTS.md``).
        snapshot: Answer from the snapshot when it is current.
    """

    __slots__ = tuple(option.dest for option in HOOK_OPTIONS)
    # For type checkers: one annotation per option (a missing slot fails every hook, so tests see it).
    cwd: str | None
    root: str | None
    store: str
    event_log: str | None
    include_native: bool
    snapshot: bool

    def __init__(self, **values: Any) -> None:
        for option in HOOK_OPTIONS:
            setattr(self, option.dest, values.pop(option.dest, option.default))
        if values:
            raise TypeError(f"not a hook option: {', '.join(sorted(values))}")

    def __repr__(self) -> str:
        shown = ", ".join(f"{option.dest}={getattr(self, option.dest)!r}" for option in HOOK_OPTIONS)
        return f"HookOptions({shown})"


def usage(command: str, declared: Iterable[Option]) -> str:
    """The one-line usage of ``ruleweave <command>`` with the ``declared`` options."""
    spelled = (f"[{o.flag} {o.metavar}]" if o.takes_value else f"[{o.flag}]" for o in declared)
    return f"usage: ruleweave {command} {' '.join(spelled)}"


def parse(argv: Sequence[str], declared: Sequence[Option], command: str) -> dict[str, Any]:
    """The values of ``declared`` that ``argv`` sets, read as argparse reads them (see the module docstring).

    Args:
        argv: The arguments after the command (and its agent).
        declared: The command's options.
        command: The command, for the usage line (``hook claude-code``).

    Returns:
        ``dest`` → value, for each option given (the last one wins).

    Raises:
        HookUsageError: An unknown option, a flag given a value, an option missing its value, or
            two options of one group.
    """
    by_flag = {option.flag: option for option in declared}
    values: dict[str, Any] = {}
    chosen: dict[str, str] = {}
    items = list(argv)
    if items == ["--"]:
        return values  # argparse takes a lone "--" right after the agent as the end of its options
    items.reverse()  # popped from the end: the next argument is items[-1]
    while items:
        item = items.pop()
        name, eq, value = item.partition("=")
        option = by_flag.get(name)
        if option is None or (eq and not option.takes_value):
            raise _usage_error(f"unknown option {item!r}; {usage(command, declared)}")
        if option.takes_value and not eq:
            if not items or _looks_like_option(items[-1]):
                raise _usage_error(f"the option {name} needs a value.")
            value = items.pop()
        if option.group is not None:
            other = chosen.setdefault(option.group, option.flag)
            if other != option.flag:
                raise _usage_error(f"the option {option.flag} is not allowed with {other}.")
        values[option.dest] = value if option.takes_value else option.const
    return values


def _looks_like_option(item: str) -> bool:
    """Whether argparse would read ``item`` as an option rather than as the value before it: it starts
    with ``-`` and is not ``-`` alone, a negative number or text with a space."""
    if not item.startswith("-") or item == "-" or " " in item:
        return False
    import re  # only for a value that starts with '-' (argparse's own test)

    return re.match(r"^-\d+$|^-\d*\.\d+$", item) is None


def _usage_error(message: str) -> HookUsageError:
    from ruleweave.errors import HookUsageError  # only on a usage error: the fast path skips the import

    return HookUsageError(message)


def add_arguments(parser: argparse.ArgumentParser, declared: Iterable[Option]) -> None:
    """Register ``declared`` on an argparse parser (give it ``allow_abbrev=False``, as ``parse`` takes no
    abbreviations).

    Args:
        parser: The command's parser.
        declared: Its options; those of one ``group`` become one mutually exclusive group.
    """
    groups: dict[str, Any] = {}
    for option in declared:
        target: Any = parser
        if option.group is not None:
            target = groups.get(option.group)
            if target is None:
                target = groups[option.group] = parser.add_mutually_exclusive_group()
        if option.takes_value:
            target.add_argument(option.flag, dest=option.dest, metavar=option.metavar, default=option.default,
                                help=option.help)
        else:
            target.add_argument(option.flag, dest=option.dest, action="store_const", const=option.const,
                                default=option.default, help=option.help)
