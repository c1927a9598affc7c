"""The plugin installed with ``--server``, run by Node as OpenCode runs it, against a real running
``ruleweave mcp --http 127.0.0.1:PORT --host opencode``: MCP over streamable HTTP (``initialize`` once,
then ``tools/call`` per event, the session header, SSE or JSON responses), and the hook command only
when the server cannot answer. The command here is a stand-in that records every event it gets, so a
test can tell which of the two answered. The hooks' inputs and outputs are the shapes OpenCode 1.18.33
passes (docs/hosts/opencode.md)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ruleweave.hosts.opencode.plugin import render
from tests.conftest import WriteTree
from tests.hosts.opencode.test_hook import FILES
from tests.hosts.opencode.test_plugin import FAKE_HOOK
from tests.hosts.running import RULEWEAVE

JSON_SERVER = """
import sys, uvicorn
from ruleweave import RuleweaveConfig
from ruleweave.adapters.mcp import create_server
from ruleweave.adapters.mcp_http import loopback_security
server = create_server(RuleweaveConfig(cwd=sys.argv[1]), host="opencode")
app = server.streamable_http_app(host="127.0.0.1", json_response=True,
                                 transport_security=loopback_security("127.0.0.1"))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""
"""``ruleweave mcp --http … --host opencode`` answering JSON instead of SSE (the MCP SDK's
``json_response``; the CLI serves SSE), for the plugin's other response branch."""

DRIVER = """
import readline from "node:readline"
const mod = await import(process.argv[2])
const steps = JSON.parse(process.argv[4])
const notes = []
const client = { app: { log: async (x) => notes.push(x.body.message) } }
const hooks = await mod.RuleweavePlugin({ directory: process.argv[3], client })
const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]()
const results = []
for (const [name, input, output] of steps) {
  if (name === "pause") { console.log("paused"); await lines.next(); continue }
  let error = null
  try { await hooks[name](input, output) } catch (e) { error = e.message }
  results.push({ output, error })
}
console.log(JSON.stringify({ results, notes }))
process.exit(0)
"""
"""Runs the plugin's hooks in order (``[hook, input, output]``); at ``pause`` it says so and waits for a
line on stdin. Prints each hook's output object (as the hook left it) or the error it threw, and the notes
written to OpenCode's log."""

Step = list[Any]


@pytest.fixture
def root(write_tree: WriteTree) -> Path:
    """The project of ``test_hook`` (a git root)."""
    found = write_tree(FILES)
    (found / ".git").mkdir(exist_ok=True)
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(argv: list[str], port: int, cwd: Path) -> subprocess.Popen[bytes]:
    """Start a server and wait until it listens on ``port``."""
    process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                said = process.communicate()[1].decode()
                raise AssertionError(f"the server did not start: {said}") from None
            time.sleep(0.05)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
        process.kill()
        process.wait()
    if process.stderr is not None:
        process.stderr.close()


Server = Callable[[int], subprocess.Popen[bytes]]


@pytest.fixture
def servers(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Server]]:
    """Starters of the real server on a port, the CLI's (SSE) and one answering JSON; all stopped at the end.
    The state directory is the one the command would use."""
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(tmp_path / "state"))
    started: list[subprocess.Popen[bytes]] = []

    def cli(port: int) -> subprocess.Popen[bytes]:
        argv = [RULEWEAVE, "mcp", "--http", f"127.0.0.1:{port}", "--host", "opencode"]
        started.append(start(argv, port, root))
        return started[-1]

    def json_answers(port: int) -> subprocess.Popen[bytes]:
        started.append(start([sys.executable, "-c", JSON_SERVER, str(root), str(port)], port, root))
        return started[-1]

    yield {"sse": cli, "json": json_answers}
    for process in started:
        stop(process)


def plugin(tmp_path: Path, server: str | None) -> tuple[Path, Path]:
    """The plugin asking ``server``, its command the recording stand-in; the plugin and the record."""
    record = tmp_path / "command-events.jsonl"
    (tmp_path / "hook.py").write_text(FAKE_HOOK, encoding="utf-8")
    answers = {"tool.execute.after": {"context": "FROM-COMMAND"}}
    path = tmp_path / "ruleweave.mjs"
    path.write_text(render([sys.executable, str(tmp_path / "hook.py"), str(record), json.dumps(answers)],
                           server=server), encoding="utf-8")
    return path, record


def drive(
    node: str, tmp_path: Path, path: Path, root: Path, steps: list[Step], *,
    paused: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Run ``steps`` through the plugin under Node; ``paused`` runs at a ``pause`` step."""
    (tmp_path / "driver.mjs").write_text(DRIVER, encoding="utf-8")
    argv = [node, str(tmp_path / "driver.mjs"), str(path), str(root), json.dumps(steps)]
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdin is not None and process.stdout is not None
    try:
        for line in process.stdout:
            if line.strip() == "paused":
                assert paused is not None
                paused()
                process.stdin.write("go\n")
                process.stdin.flush()
            else:
                return dict(json.loads(line))
        raise AssertionError("the driver printed nothing")
    finally:
        process.kill()
        process.wait()


def after(root: Path, rel: str, session: str = "s1", call: str = "c1") -> Step:
    inp = {"tool": "read", "sessionID": session, "callID": call, "args": {"filePath": str(root / rel)}}
    return ["tool.execute.after", inp, {"title": rel, "output": "file text", "metadata": {}}]


def a_session(root: Path) -> list[Step]:
    write = {"tool": "write", "sessionID": "s1", "callID": "c3"}
    code = {"args": {"filePath": str(root / "src/c.ts"), "content": "const v = eval(raw);\n"}}
    return [
        ["chat.message", {"sessionID": "s1", "messageID": "m1", "agent": "build"},
         {"message": {}, "parts": [{"type": "text", "text": "fix it"}]}],
        ["experimental.chat.system.transform", {"sessionID": "s1"}, {"system": ["base"]}],
        after(root, "src/a.ts", call="c1"),
        after(root, "src/a.ts", call="c2"),
        ["tool.execute.before", write, code],
        ["experimental.session.compacting", {"sessionID": "s1"}, {"context": []}],
        ["experimental.chat.system.transform", {"sessionID": "s1"}, {"system": ["base"]}],
        after(root, "src/a.ts", call="c4"),
    ]


@pytest.mark.parametrize("kind", ["sse", "json"])
def test_the_plugin_asks_the_running_server(
    node: str, root: Path, tmp_path: Path, servers: dict[str, Server], kind: str
) -> None:
    """Every event of a session is answered by the server (the command never runs), and each answer lands
    where the command's would: start context in the system prompt, the notice once after the read, the
    streamed rule's refusal thrown, the compacted start context, the notice re-armed."""
    port = free_port()
    servers[kind](port)
    path, record = plugin(tmp_path, f"http://127.0.0.1:{port}/mcp")
    seen = drive(node, tmp_path, path, root, a_session(root))
    results = seen["results"]
    assert not record.exists() and seen["notes"] == []
    start = results[1]["output"]["system"]
    assert start[0] == "base" and "ALWAYS-RULE" in start[1] and "ROOT-AGENTS" not in start[1]
    assert results[2]["output"]["output"].startswith("file text\n\n[rule: ts]\nTS-RULE")
    assert results[3]["output"]["output"] == "file text"  # once per session
    assert "NO-EVAL" in results[4]["error"]
    assert results[6]["output"]["system"][1].startswith("[ruleweave: the conversation was compacted.")
    assert "TS-RULE" in results[7]["output"]["output"]


def test_a_server_that_cannot_be_reached_leaves_the_events_to_the_command(
    node: str, root: Path, tmp_path: Path
) -> None:
    """Nothing listens at the URL: every event goes to the command, OpenCode's log says so once, and the
    session goes on as without a server."""
    url = f"http://127.0.0.1:{free_port()}/mcp"
    path, record = plugin(tmp_path, url)
    steps = [after(root, "src/a.ts", call="c1"), after(root, "src/a.ts", call="c2"),
             ["experimental.chat.system.transform", {"sessionID": "s1"}, {"system": ["base"]}]]
    began = time.monotonic()
    seen = drive(node, tmp_path, path, root, steps)
    assert time.monotonic() - began < 20  # a refused connection is not waited for
    events = [json.loads(line)["event"] for line in record.read_text(encoding="utf-8").splitlines()]
    assert events == ["tool.execute.after", "tool.execute.after", "session.start"]
    assert [r["output"].get("output") for r in seen["results"][:2]] == ["file text\n\nFROM-COMMAND"] * 2
    assert len(seen["notes"]) == 1
    assert seen["notes"][0].startswith(f"the ruleweave server {url} did not answer (")
    assert seen["notes"][0].endswith(f"events go to `{sys.executable} {tmp_path / 'hook.py'} "
                                     f"{tmp_path / 'command-events.jsonl'} " + '{"tool.execute.after": '
                                     '{"context": "FROM-COMMAND"}}` until it does')


def test_a_server_without_the_opencode_tool_leaves_the_events_to_the_command(
    node: str, root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server started for Claude Code's hooks has a ``hook`` tool of another shape (which would answer
    the plugin's call with nothing): the plugin sees it when it connects, the command answers, and the log
    says why."""
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(tmp_path / "state"))
    port = free_port()
    process = start([RULEWEAVE, "mcp", "--http", f"127.0.0.1:{port}", "--host", "claude-code"], port, root)
    try:
        path, record = plugin(tmp_path, f"http://127.0.0.1:{port}/mcp")
        seen = drive(node, tmp_path, path, root, [after(root, "src/a.ts")])
    finally:
        stop(process)
    assert seen["results"][0]["output"]["output"] == "file text\n\nFROM-COMMAND" and record.exists()
    assert "(it has no tool hook(event): not --host opencode)" in seen["notes"][0]


def test_a_restarted_server_gets_a_new_session(
    node: str, root: Path, tmp_path: Path, servers: dict[str, Server]
) -> None:
    """The server forgets the plugin's MCP session (restarted, or the session idled out): the request gets
    404, the plugin initializes again and the server answers; the command never runs. The ledger is in the
    store, so the restarted server still knows what session s1 was given."""
    port = free_port()
    first = servers["sse"](port)

    def restart() -> None:
        stop(first)
        servers["sse"](port)

    path, record = plugin(tmp_path, f"http://127.0.0.1:{port}/mcp")
    steps = [after(root, "src/a.ts", call="c1"), ["pause", None, None], after(root, "src/a.ts", call="c2"),
             after(root, "src/a.ts", session="s2", call="c1")]
    seen = drive(node, tmp_path, path, root, steps, paused=restart)
    outputs = [r["output"]["output"] for r in seen["results"]]
    assert "TS-RULE" in outputs[0] and outputs[1] == "file text" and "TS-RULE" in outputs[2]
    assert not record.exists() and seen["notes"] == []
