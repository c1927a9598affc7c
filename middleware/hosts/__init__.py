"""Hosts: the CLI agents ruleweave serves through their hooks, one declaration per agent.

A host is one module, ``ruleweave.hosts.<name with _>``, whose ``HOST`` is a
``Host``: its name on the command line, its hook events and the normalised kind
of each, its tool names and the arguments that name paths, what the agent reads
itself (left out by default), its context limit per answer, how its hook input
becomes a ``HookEvent`` and how an answer is encoded back into its output JSON,
how the hook answers (from a snapshot, or by loading the rules), and its installer.
``HOSTS`` lists them: ``ruleweave hook`` and ``ruleweave install`` take their
choices from it, and the hook process (``_command``) imports only the one it runs.

Adding an agent is its module (``codex.py`` with ``HOST = Host(name="codex", ...)``),
its name in ``HOSTS`` and its installer module; ``tests/hosts/test_registry.py``
checks that the declaration is complete. A host's ``read_event`` reads its hook input with the
``payload_*`` functions (a key of the wrong type reads as absent); a host whose hooks take Claude
Code's settings schema installs through ``_hooks_json``.

This module is on every hook process's path: standard library only, no ``typing``.
"""

from __future__ import annotations

import sys
from _collections_abc import Mapping  # what collections.abc re-exports; os loaded it already, so it is free

TYPE_CHECKING = False  # not typing's: the hook's fast path imports this module
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path
    from typing import Any, Protocol

    from ruleweave.config import RuleweaveConfig
    from ruleweave.hosts._hook_log import HookLog
    from ruleweave.hosts._options import HookOptions

    Answer = dict[str, Any] | None
    """What a hook prints: a JSON object, or nothing."""

    class Installer(Protocol):
        """What a host's installer module (``Host.installer``) provides to ``ruleweave install``."""

        def settings_file(self, scope: str, config: RuleweaveConfig) -> Path:
            """The agent's config file for one of ``Host.scopes``."""

        def install(self, settings: Any, command: str, *, hook_type: str) -> tuple[dict[str, Any], list[str]]:
            """``settings`` (parsed) with the hooks added (``hook_type`` ``command`` or ``mcp``); one line
            per change."""

        def uninstall(self, settings: Any) -> tuple[dict[str, Any], list[str]]:
            """``settings`` without ruleweave's entries; one line per change."""

        def mcp_file(self, scope: str, config: RuleweaveConfig) -> Path:
            """The agent's file keeping the MCP servers of one of ``Host.scopes``."""

        def install_server(
            self, data: Any, scope: str, config: RuleweaveConfig, program: str
        ) -> tuple[dict[str, Any], list[str]]:
            """``data`` (parsed) with ``<program> mcp --host <agent>`` registered; one line per change."""

        def uninstall_server(
            self, data: Any, scope: str, config: RuleweaveConfig
        ) -> tuple[dict[str, Any], list[str]]:
            """``data`` without ruleweave's MCP server; one line per change."""

        def agent_version(self) -> tuple[int, ...] | None:
            """The installed agent's version (``None``: not found)."""

        def supports_mcp_hooks(self, version: tuple[int, ...] | None) -> bool:
            """Whether that version calls MCP tools as hooks."""

    class FileInstaller(Protocol):
        """An installer that writes files of any format (``Host.installer`` modules with ``change``).

        ``ruleweave install`` reads each file of ``files`` (refusing one that is a link out of the
        project), applies ``change``, and writes, diffs or deletes the result.
        """

        def files(self, scope: str, config: RuleweaveConfig) -> list[Path]:
            """Every file an install in ``scope`` may write."""

        def change(
            self, path: Path, text: str | None, *, command: str, uninstall: bool
        ) -> tuple[str | None, list[str]]:
            """``path``'s new text (``text`` ``None``: the file is absent; ``None`` back: no file), and one
            line per change; ``command`` is the hook command line (``ruleweave hook codex``).

            Raises:
                SettingsError: The file has a shape the agent would not read either.
            """


HOSTS: tuple[str, ...] = ("claude-code", "codex", "qwen", "gemini", "cline", "opencode")
"""Every host, by the name ``ruleweave hook``/``install`` take; ``claude-code`` is declared in
``ruleweave.hosts.claude_code`` (the name with ``_`` for ``-``)."""

# Normalised event kinds: what happened, whatever the agent calls its event.
SESSION_START = "session.start"
"""A new session (the prompt contribution)."""
SESSION_RESUME = "session.resume"
"""A resumed session (the prompt contribution, unless already given)."""
SESSION_CLEAR = "session.clear"
"""The conversation was cleared (notices re-armed, the prompt contribution again)."""
SESSION_COMPACT = "session.compact"
"""The conversation is (being) compacted (notices re-armed)."""
PRE_COMPACT = "session.precompact"
"""The conversation is about to be compacted, and the agent takes no context now (notices re-armed,
the start context waits in the queue for the next event that can add context)."""
USER_PROMPT = "user.prompt"
"""The user sent a prompt (steering)."""
BEFORE_TOOL = "tool.before"
"""A tool is about to run (refusals, streamed rules on its complete arguments, and the notices of the
files an edit is about to change, where the agent can add context before a tool)."""
AFTER_TOOL = "tool.after"
"""A tool ran (notices for the paths it touched)."""
AGENT_START = "agent.start"
"""A subagent starts with a fresh context (the prompt contribution and the rules its task names)."""
STOP = "stop"
"""The model finished its reply (streamed rules on the reply)."""
CHUNK = "chunk"
"""A streamed chunk of the model's reply (streamed rules, where the agent exposes chunks)."""

KINDS = frozenset({
    SESSION_START, SESSION_RESUME, SESSION_CLEAR, SESSION_COMPACT, PRE_COMPACT, USER_PROMPT, BEFORE_TOOL,
    AFTER_TOOL, AGENT_START, STOP, CHUNK,
})
"""Every normalised event kind."""

# What an answer does, for ``Host.encode``.
CONTEXT = "context"
"""Add text to the conversation (the tool result, the prompt, the session's start)."""
DENY = "deny"
"""Refuse the tool call, with the text as the reason the model sees."""
BLOCK = "block"
"""Keep the model going, with the text as the reason (a reply a streamed rule rejects)."""
NOTE = "note"
"""Show the text to the user, not the model (ruleweave's own trouble: a store it cannot use)."""

REPLIES = frozenset({CONTEXT, DENY, BLOCK, NOTE})

SHELL_READ_TEMPLATES = {
    "rule_address": "the shell command `ruleweave read {shell}`",
    "rule_protocol": (
        "Each rule listed in <domain-rules> can be read in full with the shell command "
        "`ruleweave read 'rule://<name>'` (the address in single quotes). Before you work on files a rule "
        "covers, or on the task its description names, read that rule first and follow it."
    ),
    "custom_rules": (
        "<rules>\n"
        "You MUST read a rule below with the shell command `ruleweave read 'rule://<name>'` (the address "
        "in single quotes) before working on anything it covers.\n"
        "{rules}\n"
        "</rules>"
    ),
}
"""How a model reads a whole rule where the agent has a shell but no ``rule://`` reader (Codex, Gemini
CLI, Qwen Code, Cline, OpenCode): ``ruleweave read``, which the hooks need on ``PATH`` anyway, with the
address quoted for the shell (``prompt.address``'s ``{shell}``)."""
"""Every kind of answer a host may be asked to encode."""

MISS = object()
"""What ``Host.answer_warm`` returns when it cannot answer (the rules are loaded instead)."""


class HookEvent:
    """One hook event, whatever the agent: what ``Host.read_event`` makes of its hook input.

    A plain class with slots: ``dataclasses`` and ``typing`` cost a hook process start-up time.

    Attributes:
        name: The agent's own name for the event (``PostToolUse``), ``None`` when missing.
        kind: Its normalised kind (``AFTER_TOOL``), ``None`` for an event ruleweave does not answer.
        session_id: The agent's session id (``''`` when missing).
        cwd: The session's directory as the agent sent it (``None`` when absent); the runner
            refuses one that is not absolute.
        source: How a session started (``startup``, ``resume``, ``clear``, ``compact``), if given.
        tool: The tool's name as the agent spells it (``''`` outside tool events).
        args: The tool's arguments (``{}`` when missing).
        call_id: The tool call's id, if given.
        result: The tool's result, as the agent sent it.
        text: The user's prompt, the model's reply or the streamed chunk (``''`` when none).
        turn_id: The user turn's id, if given.
        agent_id: The subagent the event belongs to (``None``: the main agent).
        agent_type: The subagent's kind as the agent names it (``general-purpose``), if given.
        stop_active: The agent is already continuing because of a stop hook (never block again).
    """

    __slots__ = (
        "agent_id", "agent_type", "args", "call_id", "cwd", "kind", "name", "result", "session_id", "source",
        "stop_active", "text", "tool", "turn_id",
    )

    def __init__(
        self,
        name: str | None,
        kind: str | None,
        session_id: str,
        *,
        cwd: str | None = None,
        source: str | None = None,
        tool: str = "",
        args: Mapping[str, Any] | None = None,
        call_id: str | None = None,
        result: Any = None,
        text: str = "",
        turn_id: str | None = None,
        agent_id: str | None = None,
        agent_type: str | None = None,
        stop_active: bool = False,
    ) -> None:
        self.name = name
        self.kind = kind
        self.session_id = session_id
        self.cwd = cwd
        self.source = source
        self.tool = tool
        self.args: Mapping[str, Any] = args if args is not None else {}
        self.call_id = call_id
        self.result = result
        self.text = text
        self.turn_id = turn_id
        self.agent_id = agent_id
        self.agent_type = agent_type
        self.stop_active = stop_active


def payload_text(payload: Mapping[str, Any], key: str) -> str:
    """``payload[key]`` if it is a string, else ``''`` (a hook input's key of the wrong type reads as absent).

    Args:
        payload: A hook input, or an object inside one.
        key: The key to read.

    Returns:
        The string, or ``''``.
    """
    value = payload.get(key)
    return value if isinstance(value, str) else ""


def payload_id(payload: Mapping[str, Any], key: str) -> str | None:
    """``payload[key]`` if it is a non-empty string (an id), else ``None``.

    Args:
        payload: A hook input, or an object inside one.
        key: The key to read.

    Returns:
        The id, or ``None``.
    """
    value = payload.get(key)
    return value if isinstance(value, str) and value else None


def payload_mapping(payload: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """``payload[key]`` if it is an object (a tool's arguments), else ``{}``.

    Args:
        payload: A hook input, or an object inside one.
        key: The key to read.

    Returns:
        The object, or an empty one.
    """
    value = payload.get(key)
    return value if isinstance(value, Mapping) else {}


def payload_cwd(value: Any) -> str | None:
    """A hook input's directory as ``HookEvent.cwd`` takes it.

    Args:
        value: The value the agent sent (``payload.get("cwd")``).

    Returns:
        ``value`` when it is a string or ``None``; anything else becomes text that is never absolute,
        which the runner refuses.
    """
    return value if value is None or isinstance(value, str) else "<not a string>"


def payload_kind(
    payload: Mapping[str, Any], events: Mapping[str, str], sources: Mapping[str, str]
) -> tuple[str | None, str | None, str | None]:
    """The event's name, kind and ``source`` from a Claude-style hook input (``hook_event_name``,
    ``source``).

    Args:
        payload: The hook input.
        events: The host's ``Host.events``.
        sources: SessionStart's ``source`` → its kind (any other source: ``SESSION_START``).

    Returns:
        The name (``None``: not a string), its kind (``None``: an event ruleweave does not answer), and
        the source (``None``: not a string).
    """
    name = payload.get("hook_event_name")
    name = name if isinstance(name, str) else None
    kind = events.get(name) if name is not None else None
    source = payload.get("source")
    source = source if isinstance(source, str) else None
    if kind == SESSION_START and source is not None:
        kind = sources.get(source, SESSION_START)
    return name, kind, source


class Host:
    """One CLI agent as ruleweave serves it through its hooks (see the module docstring).

    Attributes:
        name: The agent's name on the command line (``claude-code``).
        title: Its name in prose (``Claude Code``).
        events: Each hook event ruleweave answers → its normalised kind (one of ``KINDS``),
            in the order the installer adds them.
        tools: Each of the agent's tools that touches files → the argument names that name
            its paths (a tool's kind comes from ``ruleweave.session.tool_names``).
        native_provider: The discovery provider whose rules the agent loads itself.
        native_files: Instruction files the agent loads itself (root and nested).
        native_fallback: Instruction files the agent loads itself only where none of ``native_files``
            is on the walk (Claude Code's ``AGENTS.md`` fallback); see the host's ``native`` module.
        context_limit: The most characters one answer may add to the conversation.
        read_event: The hook input (a JSON object) → a ``HookEvent``; never raises.
        encode: ``(event, reply, text)`` → the JSON object the agent reads, ``reply`` one of
            ``REPLIES``; ``None`` when the agent has no way to say that at this event. A ``NOTE``'s
            object is merged into the event's answer.
        answer_warm: ``(payload, options)`` → the answer from the host's snapshot, or ``MISS``;
            ``None``: the shared engine's (``ruleweave.hosts._core.answer``).
        answer_cold: ``(payload, options, log, state, write_snapshot)`` → the answer from a freshly
            loaded rule set (``write_snapshot``: also refresh the snapshot for the next events);
            ``None``: the shared engine's ``HostHooks`` over the loaded rules.
        scopes: Each config scope ``ruleweave install`` can write (``project``, ``local``,
            ``user``) → the file it names, for help texts; the first is the default.
        installer: The module that merges the hooks into the agent's config: ``Installer`` (JSON
            settings and an MCP server), or ``FileInstaller`` (any files, the module has ``change``).
        notice_before: Tools whose notices go out with the pre-tool event (the agent adds that context
            before the tool's result), not after it.
        delegation_tools: Tools that start a subagent: their task waits for the subagent's start event.
        extractors: The module whose ``EXTRACTORS`` (tool → ``Extractor``; ``extractor_for``)
            read the paths of tools whose arguments name them in their own way (a shell command, a
            search pattern, a patch); ``None``: the default extractor alone.
        read_rule_templates: Template defaults saying how a cut rule is read in full at this host (an
            MCP tool it has registered); ``None``: the ``rule://`` links.
        native_check: ``config`` → whether the agent loads ``native_fallback`` itself in that project;
            ``None``: it never does.
        native_walk_only: The agent loads ``native_files`` only on the walk from the project root to
            its cwd, never below (Codex, Qwen Code): nested ones still come as notices.
        native_walk_budget: ``config`` → the bytes of those walk files the agent reads, root first
            (Codex's ``project_doc_max_bytes``): what it cuts past them comes from the hooks;
            ``None``: it reads them whole.
        native_user: ``config`` → the user-tier instruction files the agent reads itself (its own
            ``~/.claude/CLAUDE.md``, ``$CODEX_HOME/AGENTS.md``); ``None``: none.
        context_unit: How the agent counts ``context_limit``: ``utf16`` (JavaScript string length:
            Claude Code and the Node agents) or ``utf8`` (bytes: Codex counts bytes / 4 as tokens).
        native_names: ``config`` → the instruction file names the agent loads itself in that project,
            where its own settings say which (Gemini CLI's and Qwen Code's ``context.fileName``): used
            instead of ``native_files`` (and ``native_fallback``); ``None``: ``native_files``.
        distrusted: ``config`` → whether the agent does not trust that project (Codex's
            ``trust_level = "untrusted"``, Qwen Code's folder trust): it then loads none of its
            instruction files, and the hooks answer nothing there; ``None``: the agent has no such
            setting, or runs no hook where it does not trust (Gemini CLI).
        hooks_off: ``config`` → why the agent's own settings run no hook of ruleweave's there
            (``disableAllHooks`` of Claude Code and Qwen Code, Gemini CLI's ``hooksConfig``), named
            for ``ruleweave install`` to say; ``None`` when they run (or the host cannot tell).
    """

    __slots__ = (
        "answer_cold", "answer_warm", "context_limit", "context_unit", "delegation_tools", "distrusted",
        "encode", "events", "extractors", "hooks_off", "installer", "name", "native_check", "native_fallback",
        "native_files", "native_names", "native_provider", "native_user", "native_walk_budget",
        "native_walk_only", "notice_before", "read_event", "read_rule_templates", "scopes", "title", "tools",
    )

    def __init__(
        self,
        *,
        name: str,
        title: str,
        events: Mapping[str, str],
        tools: Mapping[str, tuple[str, ...]],
        native_provider: str | None,
        native_files: frozenset[str],
        native_fallback: frozenset[str] = frozenset(),
        context_limit: int,
        read_event: Callable[[Mapping[str, Any]], HookEvent],
        encode: Callable[[HookEvent, str, str], Answer],
        scopes: Mapping[str, str],
        installer: str,
        answer_warm: Callable[[Mapping[str, Any], HookOptions], object] | None = None,
        answer_cold: Callable[[Mapping[str, Any], HookOptions, HookLog, str, bool], Answer] | None = None,
        notice_before: frozenset[str] = frozenset(),
        delegation_tools: frozenset[str] = frozenset(),
        extractors: str | None = None,
        read_rule_templates: Mapping[str, str] | None = None,
        native_check: Callable[[RuleweaveConfig], bool] | None = None,
        native_walk_only: bool = False,
        native_walk_budget: Callable[[RuleweaveConfig], int] | None = None,
        native_user: Callable[[RuleweaveConfig], Sequence[Path]] | None = None,
        native_names: Callable[[RuleweaveConfig], frozenset[str]] | None = None,
        distrusted: Callable[[RuleweaveConfig], bool] | None = None,
        context_unit: str = "utf16",
        hooks_off: Callable[[RuleweaveConfig], str | None] | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.events = events
        self.tools = tools
        self.native_provider = native_provider
        self.native_files = native_files
        self.native_fallback = native_fallback
        self.context_limit = context_limit
        self.read_event = read_event
        self.encode = encode
        self.answer_warm = answer_warm
        self.answer_cold = answer_cold
        self.scopes = scopes
        self.installer = installer
        self.notice_before = notice_before
        self.delegation_tools = delegation_tools
        self.extractors = extractors
        self.read_rule_templates = read_rule_templates
        self.native_check = native_check
        self.native_walk_only = native_walk_only
        self.native_walk_budget = native_walk_budget
        self.native_user = native_user
        self.context_unit = context_unit
        self.native_names = native_names
        self.distrusted = distrusted
        self.hooks_off = hooks_off

    def extractor_for(self, tool: str) -> Any:
        """The host's own extractor for ``tool`` (``extractors``; names match case-insensitively, as
        ``TouchExtractors`` registers them), or ``None`` for a tool the default extractor reads."""
        if self.extractors is None:
            return None
        table = _LOWERED.get(self.extractors)
        if table is None:
            import sys

            __import__(self.extractors)  # not importlib: the hook's warm path runs without it
            found = sys.modules[self.extractors].EXTRACTORS
            table = _LOWERED[self.extractors] = {tool.lower(): fn for tool, fn in found.items()}
        return table.get(tool.lower())

    def __repr__(self) -> str:
        return f"Host({self.name!r})"


_LOWERED: dict[str, dict[str, Any]] = {}
"""Each extractor module's ``EXTRACTORS`` by lower-cased tool name (``Host.extractor_for``)."""


def host(name: str) -> Host:
    """The declaration of the host ``name`` (its module is imported now).

    Args:
        name: One of ``HOSTS``.

    Returns:
        The module's ``HOST``.

    Raises:
        ConfigError: ``name`` is not in ``HOSTS``.
    """
    if name not in HOSTS:
        from ruleweave.errors import ConfigError

        raise ConfigError(f"unknown agent {name!r}; ruleweave serves {', '.join(HOSTS)}.")
    module = f"{__name__}.{name.replace('-', '_')}"
    __import__(module)  # not importlib: the hook's fast path runs without it
    declared: Host = sys.modules[module].HOST
    return declared
