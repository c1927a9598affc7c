"""MCP server adapter: the repository's rules for every MCP host (``ruleweave mcp``).

Use::

    from ruleweave import RuleweaveConfig
    from ruleweave.adapters.mcp import create_server

    create_server(RuleweaveConfig(cwd=".")).run()            # stdio
    create_server(config).run("streamable-http", host="127.0.0.1", port=8765)

or from a host's MCP configuration: ``ruleweave mcp --cwd /path/to/repo``.
The server (an ``mcp.server.mcpserver.MCPServer``) offers, each a thin
translation to the MCP session's ``RuleSession``:

* ``instructions``: the prompt contribution (``RuleSet.prompt_parts``), which
  hosts put in the model's context when they connect, and a sentence asking
  the model to call ``rules_for_paths`` before it reads or edits files;
* resources ``rule://{name}``: each rule the session resolves, listed (names
  may hold ``/`` and ``:``, e.g. ``rule://apps/web:deploy``; a percent-escaped
  name reads the same rule);
* the prompt ``ruleweave-system``: ``system_prompt()``;
* tools ``rules_for_paths(paths)`` (the notices these paths call for that this
  MCP session has not been given yet: ``after_tool_call`` — how a host without
  hooks still gets path-scoped rules), ``read_rule(name)`` (``resolve``; an
  unknown name is an error result, ``isError``) and ``explain(paths)`` (what
  fires for each path and why, nothing claimed). A call with wrong arguments
  gets one sentence naming the arguments the tool takes.

Beside a host's hooks (``host="claude-code"``, ``ruleweave mcp --host
claude-code``, what ``ruleweave install claude-code`` registers; or
``host="opencode"``, the server ``ruleweave install opencode --server URL``
points OpenCode's plugin at) the hooks deliver the rules, so the server repeats
none of them: its ``instructions`` only say how to read a whole rule, there is
no ``rules_for_paths``, and the tool ``hook`` answers the host's hook events
exactly as ``ruleweave hook <agent>`` would (``ruleweave.hosts._core.served``):
Claude Code's ``mcp_tool`` hooks pass each input key as an argument
(``ruleweave.hosts.claude_code.served``), OpenCode's plugin the whole event as
the argument ``event``.

Sessions: a streamable-HTTP client that keeps an MCP session (``Mcp-Session-Id``)
gets a ruleweave session of its own; everything else — stdio (one host per
process), stateless HTTP clients — shares the server's session
(``session_id``, default one per server). State lives in the configured store.

Notes:
    ``MCPServer`` configures INFO logging on the root logger; the server is made
    with ``log_level="WARNING"`` so that ruleweave's events (INFO on the
    ``ruleweave.events`` logger) and MCP's request lines stay off stderr unless
    asked for (``ruleweave mcp --events``). Nothing is written to stdout, the
    stdio protocol's channel. MCP cannot push a notice into a tool result of the
    host's own tools: the model has to call ``rules_for_paths`` (or the host's
    hooks call ``hook``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from ruleweave._files.paths import display
from ruleweave.adapters.seams import (
    ConfigError,
    MissingDependencyError,
    RuleNotFoundError,
    RuleSession,
    RuleSet,
    RuleweaveConfig,
    SessionPool,
    SessionStore,
)
from ruleweave.hosts._core.served import SERVED_HOSTS

try:
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ResourceError, ToolError, UnexpectedToolError
    from mcp.shared.uri_template import UriTemplate
    from mcp.types import Resource as ResourceInfo
except ImportError as exc:  # pragma: no cover - exercised by re-importing without mcp
    raise MissingDependencyError("mcp", "mcp") from exc
from pydantic import ValidationError

if TYPE_CHECKING:
    from mcp.types import CallToolResult, InputRequiredResult

    from ruleweave.hosts._core.served import HookServer

__all__ = ["RULE_TEMPLATE", "RuleweaveMCPServer", "create_server"]

RULE_TEMPLATE = "rule://{+name}"
"""The resource template of a rule (reserved expansion: names keep their ``/`` and ``:``)."""

SESSION_HEADER = "mcp-session-id"
"""The streamable-HTTP header naming an MCP session."""

NOTHING_NEW = "No rules apply to these paths that this session has not been given already."
"""What ``rules_for_paths`` answers when nothing new applies."""

PATHS_HINT = (
    "Before reading or editing files, call the tool `rules_for_paths` with their paths: it returns the "
    "project rules and instruction files that apply to them and that you have not been given yet."
)
"""Closes the server's instructions: how a host without hooks gets path-scoped rules."""

HOSTED_INSTRUCTIONS = (
    "The project's rules reach you through this agent's hooks, in the conversation and in tool results. "
    "To read a rule in full, call the tool `read_rule` with the rule's name, as a notice or the "
    "<domain-rules> listing names it."
)
"""The server's instructions beside a host's hooks: how to read a whole rule, nothing the hooks deliver."""

HOSTS = SERVED_HOSTS
"""The hosts whose hooks the server can answer (``host=``): those whose hooks can call an MCP tool."""

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
"""The levels ``MCPServer`` accepts for its logging."""

_TEMPLATE = UriTemplate.parse(RULE_TEMPLATE)


class RuleweaveMCPServer(MCPServer[Any]):
    """An ``MCPServer`` serving one rule set; ``list_resources`` lists every rule ``rule://`` resolves.

    Build it with ``create_server``.

    Args:
        pool: The sessions of the rule set.
        session_id: The session of requests that carry no MCP session.
        **options: ``MCPServer`` options.
    """

    def __init__(self, pool: SessionPool, session_id: str, **options: Any) -> None:
        super().__init__(**options)
        self.pool = pool
        self.session_id = session_id
        self.hooks: HookServer | None = None

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        """``MCPServer.call_tool``, with every failure said in one sentence (an ``isError`` result).

        Raises:
            ToolError: Arguments the tool does not take (the sentence names those it takes), or the
                tool's own refusal (an unknown rule), without the SDK's prefix or validation dump.
        """
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(self._wrong_arguments(name, arguments)) from None
            if isinstance(cause, (ToolError, ResourceError)):
                raise ToolError(str(cause)) from None
            raise

    def _wrong_arguments(self, name: str, arguments: Mapping[str, Any]) -> str:
        """One sentence: what the tool takes, and what it was given."""
        tool = self._tool_manager.get_tool(name)
        schema = tool.parameters if tool is not None else {}
        properties = schema.get("properties", {})
        required = set(schema.get("required", ()))
        takes = ", ".join(
            f"{key} ({_kind(spec)}{'' if key in required else ', optional'})"
            for key, spec in properties.items()
        )
        given = ", ".join(sorted(str(key) for key in arguments)) or "none"
        return f"The tool {name} takes {takes or 'no arguments'}; it was given {given}."

    def session_for(self, ctx: Context[Any, Any] | None) -> RuleSession:
        """The ruleweave session of the MCP session a request belongs to.

        Args:
            ctx: The request's context.

        Returns:
            The session of its ``Mcp-Session-Id``, else the server's own.
        """
        try:
            headers = ctx.headers if ctx is not None else None
        except ValueError:  # no request in flight
            headers = None
        mcp_session = headers.get(SESSION_HEADER) if headers is not None else None
        return self.pool.get(f"mcp-{mcp_session}" if mcp_session else self.session_id)

    async def list_resources(self) -> list[ResourceInfo]:
        """One resource per rule ``rule://`` resolves now (nested rules once their folder was read)."""
        ruleset = self.pool.ruleset
        listed: list[ResourceInfo] = []
        for name in ruleset.rule_names():
            found = ruleset.find_rule(name)
            description = found[0].description if found is not None else None
            listed.append(
                ResourceInfo(
                    uri=_TEMPLATE.expand({"name": name}), name=name, description=description,
                    mime_type="text/markdown",
                )
            )
        return listed


def create_server(
    config: RuleweaveConfig | None = None,
    *,
    ruleset: RuleSet | None = None,
    store: SessionStore | None = None,
    session_id: str | None = None,
    name: str = "ruleweave",
    log_level: LogLevel = "WARNING",
    host: str | None = None,
    hook_store: str = "sqlite://",
) -> RuleweaveMCPServer:
    """An MCP server offering the rules of ``config`` (see the module docstring).

    Args:
        config: Where to find the rules (default: ``RuleweaveConfig()`` for the
            process cwd). Give this or ``ruleset``.
        ruleset: An already loaded rule set.
        store: Session state (default: the rule set's store, ``config.store``).
        session_id: The session of requests without an MCP session (default: a
            fresh id, one per server: stdio gets one per process).
        name: The server's name, as hosts show it.
        log_level: The level ``MCPServer`` sets on the root logger when it has no
            handlers yet (``INFO`` lets ruleweave's events through).
        host: Serve beside this host's hooks (one of ``HOSTS``): instructions that repeat
            nothing the hooks deliver, no ``rules_for_paths``, and the tool ``hook``.
        hook_store: The store URL the ``hook`` tool keeps sessions in: the command hook's
            (default ``sqlite://``), so both kinds of hook share one session.

    Returns:
        The server; call ``run()`` (stdio) or ``run("streamable-http", host=..., port=...)``.

    Raises:
        ConfigError: Both ``config`` and ``ruleset`` given, or a host not in ``HOSTS``.
    """
    if config is not None and ruleset is not None:
        raise ConfigError("Give create_server a config or a ruleset, not both.")
    if host is not None and host not in HOSTS:
        raise ConfigError(f"create_server serves the hooks of {', '.join(HOSTS)}, not {host!r}.")
    rules = ruleset if ruleset is not None else RuleSet.load(config)
    pool = SessionPool(rules, store=store, adapter="mcp")
    if host is None:
        instructions = "\n\n".join(part for part in (rules.prompt_parts().text, PATHS_HINT) if part)
    else:
        instructions = HOSTED_INSTRUCTIONS
    server = RuleweaveMCPServer(
        pool, session_id or f"mcp-{uuid.uuid4().hex}", name=name, instructions=instructions,
        log_level=log_level,
    )
    _register(server, paths_tool=host is None)
    # As the command hook: each event's cwd names the project, and its root is found from there.
    if host == "claude-code":
        from ruleweave.hosts.claude_code.served import hook_server

        server.hooks = hook_server(hook_store)
        _register_hook(server, server.hooks)
    elif host is not None:
        from ruleweave.hosts import host as declared
        from ruleweave.hosts._core.served import HookServer

        server.hooks = HookServer.over(declared(host), hook_store)
        _register_event_hook(server, server.hooks)
    return server


def _register(server: RuleweaveMCPServer, *, paths_tool: bool = True) -> None:
    """Add the rule resources, the prompt and the tools to ``server`` (``rules_for_paths`` if asked)."""

    @server.resource(
        RULE_TEMPLATE, name="rule", mime_type="text/markdown",
        description="A rule of the repository by name (rule://<name>); the listing names every rule.",
    )
    async def rule(name: str, ctx: Context[Any, Any]) -> str:
        return _resolve(server.session_for(ctx), name)

    @server.prompt(
        name="ruleweave-system",
        description="What ruleweave adds to the system prompt: the repository's rules and instructions.",
    )
    async def system(ctx: Context[Any, Any]) -> str:
        return server.session_for(ctx).system_prompt()

    @server.tool(
        name="rules_for_paths",
        description=(
            "Call before reading or editing files: returns the repository rules and instruction files "
            "that apply to these paths and were not given yet in this session."
        ),
        structured_output=False,
    )
    async def rules_for_paths(paths: list[str], ctx: Context[Any, Any]) -> str:
        injection = await server.session_for(ctx).aafter_tool_call("rules_for_paths", {"paths": paths})
        return injection.text if injection is not None else NOTHING_NEW

    if not paths_tool:  # beside a host's hooks, which give these notices already
        server.remove_tool("rules_for_paths")

    @server.tool(
        name="read_rule",
        description="The full text of a repository rule, by name (rule://<name>, e.g. 'backend/testing').",
        structured_output=False,  # the text alone: hosts show structured content to the model as JSON
    )
    async def read_rule(name: str, ctx: Context[Any, Any]) -> str:
        try:
            return server.session_for(ctx).resolve(name).as_read
        except RuleNotFoundError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool(
        name="explain",
        description=(
            "Which rules and instruction files apply to each of these paths, and through which glob "
            "(read-only: nothing is marked as given)."
        ),
    )
    async def explain(paths: list[str], ctx: Context[Any, Any]) -> dict[str, Any]:
        session = server.session_for(ctx)
        return {"paths": [_explained(session, path) for path in paths]}

    del rule, system, rules_for_paths, read_rule, explain


def _explained(session: RuleSession, path: str) -> dict[str, Any]:
    """What fires for one path, and why (nothing claimed)."""
    found = session.ruleset.notices.for_call("explain", {"path": path})
    root = session.ruleset.config.root
    return {
        "path": display(found.paths[0], root) if found.paths else path,
        "rules": [
            {"name": m.name, "provider": m.provider, "glob": m.glob}
            for m in found.matches if m.kind == "rule"
        ],
        "instructions": [{"path": m.name} for m in found.matches if m.kind == "instructions"],
        "listings": [
            {"folder": m.name, "rules": m.body.splitlines()} for m in found.matches if m.kind == "listing"
        ],
    }


def _register_hook(server: RuleweaveMCPServer, hooks: HookServer) -> None:
    """Add the tool ``hook``: the host's ``mcp_tool`` hooks call it with their (interpolated) input."""
    from ruleweave.hosts._core.served import HOOK_TOOL
    from ruleweave.hosts.claude_code.served import payload_from

    @server.tool(
        name=HOOK_TOOL,
        description=(
            "Called by Claude Code's hooks with the hook input; answers as `ruleweave hook claude-code`. "
            "Not for the model: it reads nothing new."
        ),
        structured_output=False,  # Claude Code reads the text content as the hook's output
    )
    async def hook(
        hook_event_name: str = "", session_id: str = "", cwd: str = "", source: str = "", prompt: str = "",
        prompt_id: str = "", tool_name: str = "", tool_input: str = "", tool_use_id: str = "",
        last_assistant_message: str = "", stop_hook_active: str = "", agent_id: str = "",
        agent_type: str = "", transcript_path: str = "", permission_mode: str = "",
    ) -> str:
        # The arguments are the hook input's keys (``served.HOOK_INPUT``), each interpolated to text.
        return hooks.answer(payload_from(locals()))

    del hook


def _register_event_hook(server: RuleweaveMCPServer, hooks: HookServer) -> None:
    """Add the tool ``hook`` taking one whole event (``event``), as the host's plugin sends it."""
    from ruleweave.hosts._core.served import HOOK_TOOL

    agent = hooks.agent

    @server.tool(
        name=HOOK_TOOL,
        description=(
            f"Called by {agent.title}'s ruleweave plugin with one hook event (the argument `event`); answers "
            f"as `ruleweave hook {agent.name}`. Not for the model: it reads nothing new."
        ),
        structured_output=False,  # the text is the command hook's stdout, which the plugin parses
    )
    async def hook(event: dict[str, Any]) -> str:
        return hooks.answer(event)

    del hook


def _kind(spec: Mapping[str, Any]) -> str:
    """A JSON-schema property's type in a few words (``a list of strings``)."""
    kind = spec.get("type")
    if kind == "array":
        items = spec.get("items", {})
        return f"a list of {items.get('type', 'value')}s"
    return f"a {kind}" if isinstance(kind, str) else "a value"


def _resolve(session: RuleSession, name: str) -> str:
    """The text of the rule ``name`` names; an unknown name is a resource error listing the rules."""
    try:
        return session.resolve(name).content
    except RuleNotFoundError as exc:
        raise ResourceError(str(exc)) from exc
