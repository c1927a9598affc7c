"""Claude Code's MCP server registration: ``ruleweave mcp --host claude-code`` added to the scope's file.

Where Claude Code keeps an MCP server of each scope (what ``claude mcp add
--scope …`` of the bundled CLI 2.1.332 writes):

==========  ==========================================================================
scope       file and key
==========  ==========================================================================
project     ``<root>/.mcp.json``, ``mcpServers`` (committed, shared by the team)
local       ``~/.claude.json`` (``$CLAUDE_CONFIG_DIR/.claude.json``), ``projects`` →
            the project root → ``mcpServers`` (this checkout only, never committed)
user        that same file, top-level ``mcpServers`` (every project)
==========  ==========================================================================

``install_server`` and ``uninstall_server`` are pure functions over the parsed
JSON: only the ``ruleweave`` entry changes, an entry of that name that does not
run ``ruleweave mcp`` is refused rather than overwritten, and containers left
empty by ``uninstall_server`` go too.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruleweave.errors import RuleweaveError
from ruleweave.hosts.claude_code import HOST
from ruleweave.hosts.claude_code.served import MCP_SERVER

if TYPE_CHECKING:
    from ruleweave.config import RuleweaveConfig

SERVER_ARGS = ("mcp", "--host", HOST.name)
"""The arguments after the ``ruleweave`` program."""


class ServerConfigError(RuleweaveError, ValueError):
    """The MCP configuration is not the JSON object Claude Code reads (one sentence)."""


def user_config(config: RuleweaveConfig) -> Path:
    """Claude Code's own user file: ``~/.claude.json``, or ``$CLAUDE_CONFIG_DIR/.claude.json`` when that
    directory is not the default ``~/.claude``."""
    if config.claude_dir == config.user_home / ".claude":
        return config.user_home / ".claude.json"
    return config.claude_dir / ".claude.json"


def mcp_file(scope: str, config: RuleweaveConfig) -> Path:
    """The file that keeps the MCP servers of ``scope`` (see the module docstring).

    Args:
        scope: ``project``, ``local`` or ``user``.
        config: The project's configuration (its root, the user's home and Claude's directory).

    Returns:
        The path (it may not exist yet).
    """
    return config.root / ".mcp.json" if scope == "project" else user_config(config)


def server_entry(program: str) -> dict[str, Any]:
    """The stdio server entry that runs ``<program> mcp --host claude-code``."""
    return {"type": "stdio", "command": program, "args": list(SERVER_ARGS), "env": {}}


def _servers(data: Any, scope: str, config: RuleweaveConfig, create: bool) -> dict[str, Any] | None:
    """The ``mcpServers`` object of ``scope`` in ``data`` (made when ``create``; ``None`` when absent).

    Raises:
        ServerConfigError: The file or a container on the way is not an object.
    """
    if not isinstance(data, dict):
        raise ServerConfigError("it holds JSON but not an object")
    holder: dict[str, Any] = data
    if scope == "local":
        projects = data.setdefault("projects", {}) if create else data.get("projects")
        if projects is None:
            return None
        if not isinstance(projects, dict):
            raise ServerConfigError('its "projects" is not an object')
        key = str(config.root)
        project = projects.setdefault(key, {}) if create else projects.get(key)
        if project is None:
            return None
        if not isinstance(project, dict):
            raise ServerConfigError(f'its "projects.{key}" is not an object')
        holder = project
    servers = holder.setdefault("mcpServers", {}) if create else holder.get("mcpServers")
    if servers is not None and not isinstance(servers, dict):
        raise ServerConfigError('its "mcpServers" is not an object')
    return servers


def is_ours(entry: Any) -> bool:
    """Whether a server entry runs ``ruleweave mcp`` (bare or by path)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    args = entry.get("args", [])
    name = os.path.basename(entry["command"].strip("\"'")).lower()
    return name in ("ruleweave", "ruleweave.exe") and isinstance(args, list) and args[:1] == ["mcp"]


def install_server(
    data: Any, scope: str, config: RuleweaveConfig, program: str = "ruleweave"
) -> tuple[dict[str, Any], list[str]]:
    """``data`` with the ``ruleweave`` MCP server registered in ``scope``.

    Args:
        data: The parsed file (``{}`` for a missing one).
        scope: ``project``, ``local`` or ``user``.
        config: The project's configuration.
        program: The ``ruleweave`` command (bare, or this installation's path).

    Returns:
        The new data (a copy) and one line per change (empty: nothing to do).

    Raises:
        ServerConfigError: The data has the wrong shape, or a server named ``ruleweave`` runs
            something else.
    """
    result: dict[str, Any] = copy.deepcopy(data) if isinstance(data, dict) else data
    servers = _servers(result, scope, config, create=True)
    assert servers is not None
    wanted = server_entry(program)
    found = servers.get(MCP_SERVER)
    if found is not None and not is_ours(found):
        raise ServerConfigError(
            f'its MCP server "{MCP_SERVER}" runs something else; rename or remove it first'
        )
    if found is not None and found.get("command") == program and found.get("args") == wanted["args"]:
        return result, []
    servers[MCP_SERVER] = {**found, **wanted, "env": found.get("env", {})} if found else wanted
    verb = "re-spelled" if found else "added"
    return result, [f"mcpServers: {verb} {MCP_SERVER!r} ({program} {' '.join(SERVER_ARGS)})"]


def uninstall_server(data: Any, scope: str, config: RuleweaveConfig) -> tuple[dict[str, Any], list[str]]:
    """``data`` without the ``ruleweave`` MCP server of ``scope`` (an ``mcpServers``, or a local
    project entry, left empty by that goes too).

    Returns:
        The new data (a copy) and one line per change.

    Raises:
        ServerConfigError: The data has the wrong shape.
    """
    result: dict[str, Any] = copy.deepcopy(data) if isinstance(data, dict) else data
    servers = _servers(result, scope, config, create=False)
    if servers is None or not is_ours(servers.get(MCP_SERVER)):
        return result, []
    del servers[MCP_SERVER]
    if not servers:
        holder = result["projects"][str(config.root)] if scope == "local" else result
        del holder["mcpServers"]
        if scope == "local" and not holder:
            del result["projects"][str(config.root)]
    return result, [f"mcpServers: removed {MCP_SERVER!r}"]
