"""End to end: the real OpenCode CLI (``opencode-ai``), offline against a mock Chat Completions API.

``ruleweave install opencode`` writes the project's ``.opencode/plugins/ruleweave.js``;
one ``opencode run`` then reads a ``.ts`` file twice, a file under a nested
``AGENTS.md``, is compacted (a reply reporting more prompt tokens than the model's
context makes OpenCode compact before its next request), reads the ``.ts`` file
again and writes code a streamed rule refuses. The assertions read what the model
saw: the request bodies the mock received. Facts: docs/hosts/opencode.md.

The same session runs twice: the plugin running the hook command per event, and the plugin
installed with ``--server`` asking a running ``ruleweave mcp --http … --host opencode``,
OpenCode then started with no ``ruleweave`` on its ``PATH``, so only the server can answer.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.mock_chat import MockChat, Reply, reply, text, tool
from tests.e2e.npm_agents import agent_cli

pytestmark = pytest.mark.e2e

RULEWEAVE = Path(sys.executable).parent / "ruleweave"
CLI_TIMEOUT = 80
CONTEXT = 20_000
"""The mock model's context window (``limit.context`` in the project's opencode.json)."""
FULL = 50_000
"""Prompt tokens past ``CONTEXT``: OpenCode compacts after the step that reports them."""

FILES = {
    ".cursor/rules/ts.mdc": '---\nglobs: "**/*.ts"\n---\nTS-RULE: no `any` in TypeScript.\n',
    ".ruleweave/rules/no-eval.md": "---\ncondition: 'eval\\('\nscope: 'tool:write'\n---\n"
    "NO-EVAL: never call eval() on input; parse it instead.\n",
    "AGENTS.md": "ROOT-AGENTS: OpenCode loads this itself.\n",
    "CLAUDE.md": "ROOT-CLAUDE: OpenCode skips this one (an AGENTS.md is on its walk).\n",
    "pkg/AGENTS.md": "NESTED-AGENTS: OpenCode loads this itself, with the read below it.\n",
    "pkg/sub/b.py": "x = 1\n",
    "src/a.ts": "export const a = 1;\n",
}


def _config(url: str) -> dict[str, Any]:
    """The project's opencode.json: the mock as an OpenAI-compatible provider, everything allowed."""
    model = {"name": "Mock", "tool_call": True, "limit": {"context": CONTEXT, "output": 1_000}}
    return {
        "$schema": "https://opencode.ai/config.json",
        "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "Mock",
                              "options": {"baseURL": url, "apiKey": "test"}, "models": {"m1": model}}},
        "model": "mock/m1",
        "small_model": "mock/m1",
        "autoupdate": False,
        "share": "disabled",
        "permission": {"edit": "allow", "bash": "allow", "external_directory": "allow"},
    }


def _settled(config_dir: Path) -> None:
    """Mark ``@opencode-ai/plugin`` as installed in one of OpenCode's config directories.

    OpenCode installs that package from npm into every config directory and, when a plugin is
    configured, waits for it before loading plugins (``Npm.install``; 20 s and more). It skips the
    install when ``node_modules`` exists and the lock file names the package. The ruleweave plugin
    imports nothing from it.
    """
    (config_dir / "node_modules").mkdir(parents=True, exist_ok=True)
    lock = {"packages": {"": {"dependencies": {"@opencode-ai/plugin": "1.18.33"}}}}
    (config_dir / "package-lock.json").write_text(json.dumps(lock), encoding="utf-8")


def _project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    for rel, body in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body, encoding="utf-8")
    return root


def _env(home: Path, state: Path, *, ruleweave: bool = True) -> dict[str, str]:
    path = os.environ.get("PATH", "/usr/bin:/bin")
    if not ruleweave:  # the command cannot run: only a server can answer the plugin
        path = os.pathsep.join(p for p in path.split(os.pathsep) if not (Path(p) / "ruleweave").exists())
    return {
        "PATH": os.pathsep.join([str(RULEWEAVE.parent), path]) if ruleweave else path,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local/state"),
        "RULEWEAVE_STATE_DIR": str(state),
        "OPENCODE_DISABLE_MODELS_FETCH": "1",  # models.dev is not reachable; a custom provider needs none
        "OPENCODE_DISABLE_AUTOUPDATE": "1",
    }


def _script(root: Path) -> list[Reply]:
    ts, nested = str(root / "src/a.ts"), str(root / "pkg/sub/b.py")
    return [
        reply(tool("read", filePath=ts)),
        reply(tool("read", filePath=ts)),
        reply(tool("read", filePath=nested), prompt_tokens=FULL),  # OpenCode compacts after this step
        reply(tool("read", filePath=ts)),
        reply(tool("write", filePath=str(root / "src/c.ts"), content="const v = eval(raw);\n")),
        reply(text("Done.")),
    ]


def _results(body: dict[str, Any]) -> dict[str, str]:
    """Each tool message of a request: call id → its text."""
    return {str(m.get("tool_call_id")): str(m.get("content")) for m in body.get("messages", [])
            if m.get("role") == "tool"}


def _system(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content")) for m in body.get("messages", []) if m.get("role") == "system")


@contextmanager
def _server(root: Path, env: dict[str, str]) -> Iterator[str]:
    """``ruleweave mcp --http 127.0.0.1:PORT --host opencode`` running in ``root``; its URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    process = subprocess.Popen([str(RULEWEAVE), "mcp", "--http", f"127.0.0.1:{port}", "--host", "opencode"],
                               cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("via", ["command", "server"])
def test_opencode_session_gets_each_notice_once_and_the_refusal(tmp_path: Path, via: str) -> None:
    """Notices ride on tool results once (again after a compaction), what OpenCode reads itself is not
    repeated, the start context is in the system prompt, and a streamed rule refuses the write; through
    the hook command, or through a running server alone."""
    opencode = agent_cli("opencode")
    root = _project(tmp_path / "project")
    home, state = tmp_path / "home", tmp_path / "state"
    home.mkdir()
    with _server(root, _env(home, state)) if via == "server" else _no_server() as url:
        _session(opencode, root, home, state, url)


@contextmanager
def _no_server() -> Iterator[None]:
    yield None


def _session(opencode: Path, root: Path, home: Path, state: Path, url: str | None) -> None:
    """Install the plugin (asking ``url`` when given), run the scripted session, check what the model saw."""
    server = ["--server", url] if url else []
    done = subprocess.run([str(RULEWEAVE), "install", "opencode", *server], cwd=root, env=_env(home, state),
                          capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr
    assert (root / ".opencode/plugins/ruleweave.js").read_text(encoding="utf-8").startswith("// ruleweave")
    _settled(root / ".opencode")
    _settled(home / ".config/opencode")

    script = _script(root)
    ids = [[b["id"] for b in step.blocks if b["type"] == "tool_call"] for step in script]
    with MockChat(script) as mock:
        (root / "opencode.json").write_text(json.dumps(_config(mock.url)), encoding="utf-8")
        run = subprocess.run([str(opencode), "run", "--format", "json", "Review the code."], cwd=root,
                             env=_env(home, state, ruleweave=url is None), capture_output=True, text=True,
                             timeout=CLI_TIMEOUT, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    assert len(mock.loop_requests) == len(script), [r["path"] for r in mock.requests]
    assert any("<conversation>" in json.dumps(body) for body in mock.side_requests), "no compaction"

    before = _results(mock.loop_requests[2])
    first, second = before[ids[0][0]], before[ids[1][0]]
    assert first.count("TS-RULE") == 1 and "TS-RULE" not in second
    # The nested read's result reaches only the summariser (OpenCode compacts right after it): OpenCode's
    # own copy of pkg/AGENTS.md, just in time, and none from ruleweave.
    summarised = next(json.dumps(b) for b in mock.side_requests if "<conversation>" in json.dumps(b))
    assert summarised.count("NESTED-AGENTS") == 1
    after = _results(mock.loop_requests[4])  # re-armed by the compaction: the rule comes again, once
    assert after[ids[3][0]].count("TS-RULE") == 1
    last = mock.loop_requests[-1]
    refused = _results(last)[ids[4][0]]
    assert "NO-EVAL" in refused and not (root / "src/c.ts").exists()
    system = _system(last)
    # OpenCode's copy of AGENTS.md once; CLAUDE.md (which OpenCode skips here) from ruleweave, once.
    assert system.count("ROOT-AGENTS") == 1 and system.count("ROOT-CLAUDE") == 1
    assert "the conversation was compacted" in system
    assert json.dumps(last).count("ROOT-AGENTS") == 1
