"""OpenCode's plugin: one ``tool.execute.after`` round trip through a running server vs the hook command.

The plugin ``ruleweave install opencode`` writes, run by Node as OpenCode runs it,
in two installs loaded side by side: ``--server URL`` (MCP over streamable HTTP to
a running ``ruleweave mcp --http 127.0.0.1:PORT --host opencode``: one
``tools/call`` per event, the session initialized once, before timing) and the
command alone (``ruleweave hook opencode``, a process per event, warm snapshot).
In paired rounds (each round times both, so load on the machine hits both alike)
this measures the wall time of the plugin's ``tool.execute.after`` hook, as
OpenCode awaits it, for a read of ``src/app.py`` in a new session (so the notice is
claimed and appended), and ``python -c pass`` for reference. Both answers must be
byte-identical. Goal: the server path ≤ 10 ms median. The project is
``bench_hook``'s. Run: ``python benchmarks/bench_opencode_server.py [rounds]``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_hook import RULEWEAVE, make_project, timed

from ruleweave.hosts.opencode.plugin import render

DRIVER = """
const [server, command] = [await import(process.argv[2]), await import(process.argv[3])]
const client = { app: { log: async () => {} } }
const plugins = {
  server: await server.RuleweavePlugin({ directory: process.argv[4], client }),
  command: await command.RuleweavePlugin({ directory: process.argv[4], client }),
}
const file = process.argv[5]
const rounds = Number(process.argv[6])
async function after(plugin, session) {
  const output = { title: "app.py", output: "print('hi')", metadata: {} }
  const input = { tool: "read", sessionID: session, callID: "call_1", args: { filePath: file } }
  const start = performance.now()
  await plugins[plugin]["tool.execute.after"](input, output)
  return [performance.now() - start, output.output]
}
const out = { server: [], command: [] }
for (const plugin of ["server", "command"]) await after(plugin, `${plugin}-warm-up`) // connect, snapshot
for (let i = 0; i < rounds; i++) {
  for (const plugin of ["server", "command"]) out[plugin].push(await after(plugin, `${plugin}-${i}`))
}
console.log(JSON.stringify(out))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(root: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    """``ruleweave mcp --http 127.0.0.1:PORT --host opencode`` running in ``root``; its URL."""
    port = free_port()
    process = subprocess.Popen([RULEWEAVE, "mcp", "--http", f"127.0.0.1:{port}", "--host", "opencode"],
                               cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start") from None
            time.sleep(0.05)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    node = shutil.which("node")
    if node is None:
        print("node is not installed: the OpenCode plugin cannot be run, nothing measured")
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp))
        env = {**os.environ, "RULEWEAVE_STATE_DIR": str(Path(tmp) / "state")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode compiled once (bench_hook)
        server, url = serve(root, env)
        try:
            command = [RULEWEAVE, "hook", "opencode"]
            plugins = {name: Path(tmp) / f"{name}.mjs" for name in ("server", "command")}
            plugins["server"].write_text(render(command, server=url), encoding="utf-8")
            plugins["command"].write_text(render(command), encoding="utf-8")
            driver = Path(tmp) / "driver.mjs"
            driver.write_text(DRIVER, encoding="utf-8")
            floor = [timed([sys.executable, "-c", "pass"], b"", env)[0] for _ in range(rounds)]
            done = subprocess.run(
                [node, str(driver), str(plugins["server"]), str(plugins["command"]), str(root),
                 str(root / "src/app.py"), str(rounds)],
                env=env, capture_output=True, text=True, check=True,
            )
        finally:
            server.terminate()
            server.wait(timeout=10)
        seen = json.loads(done.stdout)
        answers = {text for case in ("server", "command") for _, text in seen[case]}
        assert len(answers) == 1 and "[rule: python]" in answers.pop(), "the two paths answered differently"
        base = statistics.median(floor)
        print(f"OpenCode plugin, tool.execute.after round trip, median of {rounds} paired rounds (wall ms)")
        labels = {"server": "running server (--server URL)", "command": "hook command (warm snapshot)"}
        for case, label in labels.items():
            wall = statistics.median(ms for ms, _ in seen[case])
            spread = max(ms for ms, _ in seen[case])
            print(f"  {label:32} {wall:7.1f} ms {wall / base:5.2f}x   (max {spread:6.1f} ms)")
        print(f"  {'python -c pass (reference)':32} {base:7.1f} ms")
        print("  goal: the server path <= 10 ms; answers byte-identical")


if __name__ == "__main__":
    main()
