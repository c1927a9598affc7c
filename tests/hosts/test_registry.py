"""The host registry: every host it names is declared completely, in its own module."""

from __future__ import annotations

import importlib
import inspect
import json
import os
from pathlib import Path
from typing import Any

import pytest

from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import PROVIDERS
from ruleweave.errors import ConfigError
from ruleweave.hosts import AFTER_TOOL, CONTEXT, HOSTS, KINDS, SESSION_START, HookEvent, Host, host
from ruleweave.session.tool_names import DEFAULT_TOOL_ALIASES, ToolNames


def test_the_registry_is_an_explicit_tuple_of_names() -> None:
    """HOSTS lists unique command-line names; each names the module that declares it."""
    assert HOSTS and len(set(HOSTS)) == len(HOSTS)
    for name in HOSTS:
        module = importlib.import_module(f"ruleweave.hosts.{name.replace('-', '_')}")
        assert module.HOST is host(name)
        assert host(name).name == name


def test_an_unknown_agent_is_a_config_error() -> None:
    """A name outside the registry is refused, naming the agents there are."""
    with pytest.raises(ConfigError, match="unknown agent 'nope'; ruleweave serves claude-code"):
        host("nope")
    with pytest.raises(ConfigError):
        host("claude_code")  # the module's spelling is not the agent's name


@pytest.mark.parametrize("name", HOSTS)
def test_a_host_declares_events_tools_limit_and_native_reads(name: str, tmp_path: Path) -> None:
    """Each host names its events (each with a known kind), its tools (each a known kind with path
    arguments), a context limit, and what it reads itself in terms discovery understands."""
    agent = host(name)
    assert isinstance(agent, Host) and agent.title
    assert agent.events and set(agent.events.values()) <= KINDS
    # Cline 3.0.65 runs TaskStart detached and ignores its output: it has no start event to answer.
    assert SESSION_START in agent.events.values()
    canonical = ToolNames().canonical
    for tool, path_args in agent.tools.items():
        assert canonical(tool) in DEFAULT_TOOL_ALIASES, tool  # an alias of a kind of tool
        assert path_args and all(isinstance(arg, str) and arg for arg in path_args), tool
    assert isinstance(agent.context_limit, int) and agent.context_limit > 0
    assert agent.native_provider is None or agent.native_provider in {p.id for p in PROVIDERS}
    defaults = set(RuleweaveConfig(cwd=tmp_path).instruction_files)
    assert agent.native_files and agent.native_files <= defaults


_CLINE_HOOK_NAMES = {"TaskStart": "agent_start", "PreToolUse": "tool_call", "PostToolUse": "tool_result"}


def _payload(name: str, event_name: str) -> dict[str, Any]:
    """A minimal hook input for ``event_name``: Claude Code's shape, or Cline's (``hookName``,
    ``sessionContext.rootSessionId``, the call under ``tool_call``/``tool_result``)."""
    if name == "cline":
        hook = _CLINE_HOOK_NAMES[event_name]
        return {"hookName": hook, "sessionContext": {"rootSessionId": "s1"},
                hook: {"id": "c1", "name": "read_files", "input": {"files": [{"path": "a.ts"}]}}}
    if name == "opencode":  # the ruleweave plugin's own event shape (ruleweave.hosts.opencode)
        return {"event": event_name, "session_id": "s1", "cwd": "/p", "prompt": "Fix it."}
    # A prompt too: Qwen Code sends UserPromptSubmit with an empty one before each follow-up request;
    # and a trigger: Gemini CLI's PreCompress is compaction only when manual (auto fires every request).
    return {"hook_event_name": event_name, "session_id": "s1", "cwd": "/p", "prompt": "Fix it.",
            "trigger": "manual"}


@pytest.mark.parametrize("name", HOSTS)
def test_a_host_reads_and_encodes_each_of_its_events(name: str) -> None:
    """Each declared event reads as a HookEvent of its kind, and context for it encodes as JSON."""
    agent = host(name)
    for event_name, kind in agent.events.items():
        event = agent.read_event(_payload(name, event_name))
        assert isinstance(event, HookEvent)
        # Cline sends no cwd: it starts the hook in the session's cwd.
        cwd = os.getcwd() if name == "cline" else "/p"
        assert (event.name, event.session_id, event.cwd) == (event_name, "s1", cwd)
        assert event.kind == kind or (kind == SESSION_START and str(event.kind).startswith("session."))
        encoded = agent.encode(event, CONTEXT, "Use type hints.")
        # Some events take no context at some agents (Qwen Code's PreToolUse, Codex's Stop): None there.
        assert encoded is None or "Use type hints." in json.dumps(encoded)
        if kind == AFTER_TOOL:
            assert encoded is not None, event_name  # the one event every host must carry notices on
    unknown = agent.read_event({"hook_event_name": "NoSuchEvent", "session_id": "s1"})
    assert unknown.kind is None
    assert agent.read_event({}).name is None


@pytest.mark.parametrize("name", HOSTS)
def test_a_host_answers_and_installs(name: str) -> None:
    """Each host answers (its own warm and cold answers, or the shared engine's), has scopes with a
    default, and an installer module with the functions ``ruleweave install`` calls: a JSON settings
    installer (``Installer``) or one of any file format (``FileInstaller``)."""
    agent = host(name)
    assert agent.answer_cold is None or callable(agent.answer_cold)
    assert agent.answer_warm is None or callable(agent.answer_warm)
    assert callable(agent.read_event) and callable(agent.encode)
    assert next(iter(agent.scopes)) == "project" and "user" in agent.scopes
    installer = importlib.import_module(agent.installer)
    if hasattr(installer, "change"):
        assert list(inspect.signature(installer.files).parameters) == ["scope", "config"]
        parameters = list(inspect.signature(installer.change).parameters)
        served = ["server"] if getattr(installer, "TAKES_SERVER", False) else []  # install --server URL
        assert parameters == ["path", "text", "command", "uninstall", *served]
        return
    for function in ("settings_file", "install", "uninstall"):
        assert callable(getattr(installer, function)), function
    assert list(inspect.signature(installer.settings_file).parameters) == ["scope", "config"]
