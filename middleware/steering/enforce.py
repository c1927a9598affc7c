"""Refuse a tool call that uses a substitute the decision forbids.

A forbidden id (``curl``, ``raw_playwright``, ``native_search_as_answer``)
is matched against a tool call through a :class:`ToolPattern`:

- ``tools``: shell-style patterns on the tool's name, case-insensitive,
  tried on the full name and on its last segment (``mcp__browser__click``
  → ``click``);
- ``programs``: for shell-like tools (:data:`SHELL_TOOLS`), patterns on
  each simple command of the command line (found under
  :data:`COMMAND_KEYS`). A pattern without a space matches the program's
  name (``curl`` matches ``/usr/bin/curl -s x``); one with a space matches
  the command's words (``git push*``). Pipelines, ``&&``, ``;``, env
  assignments, wrappers (``sudo``, ``env``, ``npx``, ...) and ``sh -c``
  strings are looked through.

:data:`DEFAULT_TOOL_MAP` covers common ids; any other id ``x`` matches a tool
named ``x`` and a program ``x``. A caller's ``tool_map`` entries replace the
defaults per id. An ``allow`` key with a truthy value narrows a forbid: when
the same call also matches the allowed id (or the allowed id equals the
forbidden one), the call is let through — the ``<steering>`` block tells the
model how narrow the exception is.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from types import MappingProxyType
from typing import Any

from ruleweave.steering.decision import Decision

SHELL_TOOLS: frozenset[str] = frozenset(
    {
        "bash",
        "shell",
        "sh",
        "zsh",
        "run_command",
        "run_shell_command",
        "run_terminal_cmd",
        "run_in_terminal",
        "execute",
        "execute_command",
        "exec",
        "exec_command",
        "terminal",
        "local_shell",
        "powershell",
    }
)
"""Tool names (lowercase, last segment) whose arguments hold a command line."""

COMMAND_KEYS: tuple[str, ...] = (
    "command",
    "cmd",
    "commands",
    "command_line",
    "commandLine",
    "script",
)
"""Argument keys of a shell-like tool that hold the command line."""

_WRAPPERS = frozenset(
    {
        "sudo",
        "env",
        "command",
        "exec",
        "nohup",
        "time",
        "nice",
        "timeout",
        "xargs",
        "npx",
        "bunx",
        "pnpx",
        "uvx",
    }
)
_OPTION_VALUES: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "sudo": frozenset({"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"}),
        "env": frozenset({"-u", "-C", "-S", "--unset", "--chdir", "--split-string"}),
        "nice": frozenset({"-n", "--adjustment"}),
        "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
        "time": frozenset({"-f", "-o", "--format", "--output"}),
        "xargs": frozenset({"-I", "-n", "-P", "-d", "-a", "-s", "-L", "-E", "-i"}),
    }
)
"""Wrapper options whose value is the next word (``sudo -u root curl``)."""
_KEYWORDS = frozenset(
    {"if", "then", "else", "elif", "while", "until", "do", "!", "{", "}", "fi", "done", "esac"}
)
_SEPARATORS = "();<>|&`\n"
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
_WEB_SEARCH = (
    "web_search",
    "websearch",
    "*web_search*",
    "google_search",
    "bing_search",
    "search_web",
)


@dataclass(frozen=True, slots=True)
class ToolPattern:
    """How a forbidden id shows up in a tool call.

    Attributes:
        tools: Patterns on the tool name.
        programs: Patterns on shell commands (see the module docstring).
    """

    tools: tuple[str, ...] = ()
    programs: tuple[str, ...] = ()

    @classmethod
    def parse(cls, items: Iterable[str]) -> ToolPattern:
        """Build from strings: ``shell:PATTERN`` (programs), ``tool:PATTERN`` or bare (tools).

        Args:
            items: Pattern strings, e.g. ``["playwright*", "shell:playwright"]``.

        Returns:
            The pattern.
        """
        tools: list[str] = []
        programs: list[str] = []
        for item in items:
            if item.startswith("shell:"):
                programs.append(item.removeprefix("shell:"))
            else:
                tools.append(item.removeprefix("tool:"))
        return cls(tuple(tools), tuple(programs))


DEFAULT_TOOL_MAP: Mapping[str, ToolPattern] = MappingProxyType(
    {
        "curl": ToolPattern(("curl",), ("curl",)),
        "wget": ToolPattern(("wget",), ("wget",)),
        "raw_playwright": ToolPattern(("*playwright*",), ("playwright",)),
        "playwright": ToolPattern(("*playwright*",), ("playwright",)),
        "native_search": ToolPattern(_WEB_SEARCH),
        "native_search_as_answer": ToolPattern(_WEB_SEARCH),
        "web_search": ToolPattern(_WEB_SEARCH),
        "native_fetch": ToolPattern(("web_fetch", "webfetch", "fetch", "fetch_url")),
        "web_fetch": ToolPattern(("web_fetch", "webfetch", "fetch", "fetch_url")),
        "raw_shell": ToolPattern(tuple(sorted(SHELL_TOOLS))),
        "direct_shell": ToolPattern(tuple(sorted(SHELL_TOOLS))),
        "git_push": ToolPattern(programs=("git push*",)),
        "force_push": ToolPattern(programs=("git push*--force*", "git push* -f*")),
        "rm_rf": ToolPattern(programs=("rm -rf*", "rm -fr*", "rm -r -f*")),
        "sudo": ToolPattern(programs=("sudo",)),
    }
)
"""Patterns for common forbid ids; override per id with ``tool_map``."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """A tool call the decision forbids.

    Attributes:
        rule: The id of the rule that forbade it.
        reason: That rule's reason (or a generic one).
        forbidden: The forbidden id the call matched.
        tool: The tool's name.
        matched: What matched: ``tool <name>`` or ``program <command>``.
        message: A sentence for the model naming the rule and its reason.
    """

    rule: str
    reason: str
    forbidden: str
    tool: str
    matched: str
    message: str


def check_tool(
    decision: Decision,
    tool_name: str,
    args: Mapping[str, Any] | None,
    *,
    tool_map: Mapping[str, ToolPattern] | None = None,
    canonical: Callable[[str], str] | None = None,
) -> Refusal | None:
    """Refuse a tool call that matches a forbidden id, unless an ``allow`` narrows it.

    Args:
        decision: This turn's decision.
        tool_name: The tool the model called.
        args: The call's arguments.
        tool_map: Patterns per forbid id, replacing :data:`DEFAULT_TOOL_MAP` entries.
        canonical: Tool name → its kind (``ruleweave.session.tool_names``): a pattern naming one
            alias of a kind (``delete_file``) matches every alias (``rm``, ``remove_file``),
            and every alias of ``bash`` is a shell.

    Returns:
        The refusal for the first forbidden id (in decision order) the call
        matches, or None when the call may run.
    """
    if not decision.forbid:
        return None
    patterns = {**DEFAULT_TOOL_MAP, **(tool_map or {})}
    commands = list(_commands(tool_name, args or {}, canonical))
    allowed = [key for key, value in decision.allow.items() if value not in (False, None, "", 0)]
    for forbidden in decision.forbid:
        pattern = patterns.get(forbidden) or _fallback(forbidden)
        matched = _matches(pattern, tool_name, commands, canonical)
        if matched is None:
            continue
        if any(
            key == forbidden
            or _matches(patterns.get(key) or _fallback(key), tool_name, commands, canonical)
            for key in allowed
        ):
            continue
        rule = decision.forbidden_by.get(forbidden, "?")
        reason = decision.reason_of(rule) or "The skill forbids this substitute."
        route = f" Follow the route {decision.route!r} instead." if decision.route else ""
        sentence = reason.strip()
        if not sentence.endswith((".", "!", "?")):
            sentence += "."
        message = (
            f"Refused {tool_name!r} ({matched}): steering rule {rule!r} forbids "
            f"{forbidden!r}. Reason: {sentence}{route}"
        )
        return Refusal(rule, reason, forbidden, tool_name, matched, message)
    return None


_WILD = re.compile(r"[*?\[]")


def _fallback(forbidden: str) -> ToolPattern:
    return ToolPattern((forbidden, forbidden.replace("_", "-")), (forbidden,))


def _matches(
    pattern: ToolPattern,
    tool_name: str,
    commands: Sequence[list[str]],
    canonical: Callable[[str], str] | None = None,
) -> str | None:
    """What in the call matches ``pattern``: ``tool X``, ``program Y``, or None."""
    full = tool_name.lower()
    short = _short_name(full)
    kind = canonical(short) if canonical is not None else None
    for glob in pattern.tools:
        lowered = glob.lower()
        if fnmatchcase(full, lowered) or fnmatchcase(short, lowered):
            return f"tool {tool_name}"
        # Another alias of the same kind (``delete_file`` forbids ``rm``): names only, no globs.
        if canonical is not None and not _WILD.search(lowered) and canonical(lowered) == kind:
            return f"tool {tool_name}"
    for words in commands:
        line = " ".join(words)
        program = words[0].rsplit("/", 1)[-1]
        for glob in pattern.programs:
            target = " ".join([program, *words[1:]]) if " " in glob else program
            if fnmatchcase(target, glob):
                return f"program {line}"
    return None


def _short_name(name: str) -> str:
    for separator in ("__", ".", "/", ":"):
        name = name.rsplit(separator, 1)[-1]
    return name


def _commands(
    tool_name: str, args: Mapping[str, Any], canonical: Callable[[str], str] | None = None
) -> Iterator[list[str]]:
    """Every simple command (as words, wrappers included) a shell-like call runs."""
    short = _short_name(tool_name.lower())
    if short not in SHELL_TOOLS and (canonical is None or canonical(short) != "bash"):
        return
    for key in COMMAND_KEYS:
        value = args.get(key)
        if isinstance(value, str):
            yield from split_command(value)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            yield from _simple(list(value))


def split_command(line: str) -> Iterator[list[str]]:
    """The simple commands of a shell command line, as word lists.

    Each command is yielded from every program position: ``sudo curl x``
    yields ``[sudo, curl, x]`` and ``[curl, x]``; ``bash -c 'curl x'`` also
    yields the commands inside the string.

    Args:
        line: A command line.

    Returns:
        An iterator of word lists.
    """
    line = line.replace("\\\n", " ")  # a continued line
    lexer = shlex.shlex(line, posix=True, punctuation_chars=_SEPARATORS)
    lexer.whitespace = " \t\r"  # a newline ends a command, like ';'
    lexer.whitespace_split = True
    lexer.commenters = ""  # comments end at the newline, which shlex would swallow
    try:
        tokens = list(lexer)
    except ValueError:  # unbalanced quotes: fall back to plain words
        tokens = line.split()
    words: list[str] = []
    skip_next = comment = False
    for token in tokens:
        if comment and token != "\n":
            continue
        comment = False
        if skip_next:
            skip_next = False
            continue
        if token.startswith("#") and not words:
            comment = True
            continue
        if token and all(ch in _SEPARATORS for ch in token):
            if "<" in token or ">" in token:
                skip_next = True  # the redirection target is a file, not a program
                if words and words[-1].isdigit():
                    words.pop()  # a file descriptor: 2>/dev/null
                continue
            yield from _simple(words)
            words = []
        else:
            words.append(token)
    yield from _simple(words)


def _simple(words: list[str]) -> Iterator[list[str]]:
    index = 0
    while index < len(words) and (
        words[index] in _KEYWORDS or ("=" in words[index] and not words[index].startswith("-"))
    ):
        index += 1  # reserved words (then, do, ...) and NAME=value assignments
    while index < len(words):
        rest = words[index:]
        yield rest
        program = rest[0].rsplit("/", 1)[-1]
        if program in _SHELLS:
            for position, word in enumerate(rest[1:-1], start=1):
                if word.startswith("-") and "c" in word:
                    yield from split_command(rest[position + 1])
                    break
            return
        if program not in _WRAPPERS:
            return
        index += 1
        takes_value = _OPTION_VALUES.get(program, frozenset())
        while index < len(words) and (
            words[index].startswith("-") or "=" in words[index] or words[index][:1].isdigit()
        ):
            index += 2 if words[index] in takes_value else 1
