"""Hook start-up: the PostToolUse round trip of ``ruleweave hook <agent>``, Claude Code and every other host.

A command hook is a new process per tool call. In paired rounds (each round
runs every case once, so load on the machine hits all alike) this measures
wall time and the child's CPU time (user + system) of:

  (a) ``python -c pass`` — the floor;
  (b) the hook with a warm snapshot: stdin JSON (a Read of a ``.py`` file in a
      new session, so the notice is claimed and printed) in, JSON out;
  (b2) the same Read in a session that was given its notice before (nothing
      to claim: answered from the session's memo, the state file unopened);
  (b3) a Read of a file no rule covers, warm: what (b2) is measured against;
  (c) the hook with a cold snapshot: the same, the snapshot deleted first
      (it loads the rules, answers, and writes the snapshot again);
  (d) the full path as it was: ``--no-snapshot`` (import, load, answer);
  (e) for reference, ``python -c`` importing pydantic and building one model:
      the part of (c) and (d) that any path building ``Rule`` objects pays;
  (f) the same event answered by a running ``ruleweave mcp --host claude-code``
      (what ``mcp_tool`` hooks call): one ``hook`` tool call over stdio, as
      Claude Code makes it, warm server (wall time of the call; CPU is the
      server's, not a child's, so not counted).

  (g) per other host (Codex, Gemini CLI, Qwen Code, Cline, OpenCode): the warm
      round trip of its own after-tool event, in its own input shape (as each
      CLI sends it, captured from the real CLIs: docs/hosts/), paired with (a).

  (h) the Claude Code hook in a monorepo (60 rules of 0.8-4 KB prose, 280
      directories, globs wcmatch translates; the file read calls for three
      rules): warm; cold with nothing saved;
      cold after a rule edit (the snapshot rebuilt, with the entries of the
      project's first 256 directories).

  (i) a project with a streamed rule on shell commands (``scope: tool:bash``): the
      PreToolUse of a Read, which no streamed rule watches (warm), and of a Bash
      command (the full path's watcher decides).

The project of (a)-(g) is a temporary one with Cursor and Copilot rules, its files dated
a minute back (a snapshot is not written while its files change). Goals:
warm ≤ 2× and cold ≤ 6× ``python -c pass`` (Claude Code), warm ≤ 2.5× for every
other host; the MCP path ≤ 5 ms median. Run:
``python benchmarks/bench_hook.py [rounds]``.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

RULEWEAVE = str(Path(sys.executable).parent / "ruleweave")

FILES = {
    ".cursor/rules/python.mdc": '---\nglobs: "**/*.py"\n---\nUse type hints everywhere.\n',
    ".cursor/rules/general.mdc": "---\nalwaysApply: true\n---\nBe concise.\n",
    ".cursor/rules/tests.mdc": '---\nglobs: "tests/**"\ndescription: Testing\n---\nUse pytest.\n',
    ".github/instructions/ts.instructions.md": '---\napplyTo: "src/**/*.ts"\n---\nNo any.\n',
    ".github/copilot-instructions.md": "Prefer small functions.\n",
    "AGENTS.md": "# Agents\nRun make test.\n",
    "src/app.py": "print('hi')\n",
    "src/ui.ts": "export const x = 1;\n",
    "notes/todo.txt": "Nothing yet.\n",
}


PYDANTIC_FLOOR = "from pydantic import BaseModel\nclass M(BaseModel):\n    x: int = 0\nM()"


def make_project(base: Path, name: str = "project", more: dict[str, str] | None = None) -> Path:
    """``FILES`` (and ``more``) in ``base / name``, a git repository, dated a minute back."""
    root = base / name
    (root / ".git").mkdir(parents=True)
    for rel, text in {**FILES, **(more or {})}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    past = time.time() - 60
    for path in [root, *root.rglob("*")]:
        os.utime(path, (past, past))
    return root


def timed(
    argv: list[str], data: bytes, env: dict[str, str], cwd: Path | None = None
) -> tuple[float, float, bytes]:
    """Wall ms, child CPU ms, stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, input=data, capture_output=True, env=env, check=True, cwd=cwd)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu, done.stdout


def mcp_round_trips(root: Path, env: dict[str, str], sessions: list[str]) -> list[tuple[float, bytes]]:
    """Each session's PostToolUse through the ``hook`` tool of one running server: (wall ms, answer)."""
    from mcp import Client, StdioServerParameters

    from ruleweave.hosts.claude_code.served import HOOK_INPUT

    def arguments(session: str) -> dict[str, str]:
        sent = {"session_id": session, "cwd": str(root), "hook_event_name": "PostToolUse",
                "tool_name": "Read", "tool_input": json.dumps({"file_path": str(root / "src/app.py")}),
                "tool_use_id": "toolu_1"}
        return {key: sent.get(key, "") for key in HOOK_INPUT}

    async def run() -> list[tuple[float, bytes]]:
        server = StdioServerParameters(command=RULEWEAVE, args=["mcp", "--host", "claude-code"], env=env,
                                       cwd=str(root))
        out: list[tuple[float, bytes]] = []
        async with Client(server) as client:
            await client.call_tool("hook", arguments("mcp-warm-up"))  # loads the rules once
            for session in sessions:
                start = time.perf_counter()
                result = await client.call_tool("hook", arguments(session))
                wall = (time.perf_counter() - start) * 1000
                text = "".join(getattr(block, "text", "") for block in result.content)
                out.append((wall, (text + "\n").encode() if text else b""))
        return out

    return asyncio.run(run())


def _codex(root: Path, session: str) -> dict[str, object]:
    return {"session_id": session, "turn_id": "t1", "transcript_path": None, "cwd": str(root),
            "hook_event_name": "PostToolUse", "model": "gpt-5.5", "permission_mode": "bypassPermissions",
            "tool_name": "Bash", "tool_input": {"command": "cat src/app.py"},
            "tool_response": "print('hi')\n", "tool_use_id": "call_1"}


def _gemini(root: Path, session: str) -> dict[str, object]:
    return {"session_id": session, "transcript_path": "/tmp/x.jsonl", "cwd": str(root),
            "hook_event_name": "AfterTool", "timestamp": "2026-12-01T17:32:01.307Z", "tool_name": "read_file",
            "tool_input": {"file_path": str(root / "src/app.py")},
            "tool_response": {"llmContent": "print('hi')\n", "returnDisplay": ""}}


def _qwen(root: Path, session: str) -> dict[str, object]:
    return {"session_id": session, "transcript_path": "/tmp/x.jsonl", "cwd": str(root),
            "hook_event_name": "PostToolUse", "timestamp": "2026-12-01T17:32:01.307Z",
            "permission_mode": "yolo",
            "tool_name": "read_file", "tool_input": {"file_path": str(root / "src/app.py")},
            "tool_use_id": "call_1", "tool_response": {"llmContent": "print('hi')\n", "returnDisplay": ""},
            "duration_ms": 24}


def _cline(root: Path, session: str) -> dict[str, object]:  # no cwd: the hook runs in the session's
    call = {"id": "call_1", "name": "read_files", "input": {"files": [{"path": "src/app.py"}]},
            "output": [{"query": "src/app.py", "result": "1 | x", "success": True}]}
    return {"clineVersion": "", "hookName": "tool_result", "timestamp": "2026-12-01T17:35:06.563Z",
            "taskId": "conv_1", "sessionContext": {"rootSessionId": session}, "workspaceRoots": [str(root)],
            "agent_id": "agent_1", "parent_agent_id": None, "tool_result": call}


def _opencode(root: Path, session: str) -> dict[str, object]:  # what the installed plugin sends
    return {"event": "tool.execute.after", "session_id": session, "cwd": str(root), "tool": "read",
            "call_id": "call_1", "args": {"filePath": str(root / "src/app.py")}, "output": "print('hi')"}


HOSTS = {"codex": _codex, "gemini": _gemini, "qwen": _qwen, "cline": _cline, "opencode": _opencode}
"""Each other host's after-tool event reading ``src/app.py``, in its own input shape."""


def other_hosts(root: Path, env: dict[str, str], rounds: int) -> None:
    """(g): each host's warm round trip against ``python -c pass`` in the same rounds."""
    print(f"(g) other hosts: warm after-tool round trip, median of {rounds} paired rounds")
    for name, payload in HOSTS.items():
        hook = [RULEWEAVE, "hook", name]

        def data(session: str, payload: Any = payload) -> bytes:
            return json.dumps(payload(root, session)).encode()

        warm = subprocess.run(hook, input=data(f"{name}-warm-up"), env=env, cwd=root, check=True,
                              capture_output=True)
        base, walls, cpus = [], [], []
        for i in range(rounds):
            base.append(timed([sys.executable, "-c", "pass"], b"", env)[0])
            wall, cpu, out = timed(hook, data(f"{name}-{i}"), env, cwd=root)
            assert out == warm.stdout, f"{name}: the warm answer differs from the first one"
            walls.append(wall)
            cpus.append(cpu)
        floor = statistics.median(base)
        wall = statistics.median(walls)
        print(f"  {name:10} {wall:7.1f} ms {wall / floor:5.2f}x   (python -c pass {floor:5.1f} ms; "
              f"CPU {statistics.median(cpus):5.1f} ms)")
    print("  goal: warm <= 2.5x python -c pass for every host")


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp))
        state = Path(tmp) / "state"
        env = {**os.environ, "RULEWEAVE_STATE_DIR": str(state)}
        # An installed package has its bytecode compiled (pip does it); without it every hook
        # process would compile ruleweave's modules again, which no real install pays.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        hook = [RULEWEAVE, "hook", "claude-code"]

        def payload(session: str) -> bytes:
            return json.dumps({
                "session_id": session, "cwd": str(root), "hook_event_name": "PostToolUse",
                "tool_name": "Read", "tool_input": {"file_path": str(root / "src/app.py")},
                "tool_use_id": "toolu_1", "tool_response": {"type": "text"},
            }).encode()

        def uncovered(session: str) -> bytes:  # a file no rule covers
            return payload(session).replace(b"src/app.py", b"notes/todo.txt")

        subprocess.run(hook, input=payload("warm-up"), env=env, check=True, capture_output=True)
        for case in ("given", "nothing"):  # the session's notice already went out
            subprocess.run(hook, input=payload(case), env=env, check=True, capture_output=True)
        snapshots = state / "snapshots"
        assert snapshots.is_dir(), "no snapshot was written"
        samples: dict[str, list[tuple[float, float]]] = {
            k: [] for k in ("pass", "warm", "given", "nothing", "cold", "full", "pydantic")
        }
        outputs: dict[str, set[bytes]] = {k: set() for k in ("warm", "cold", "full")}
        for i in range(rounds):
            wall, cpu, _ = timed([sys.executable, "-c", "pass"], b"", env)
            samples["pass"].append((wall, cpu))
            for case, args in (("warm", []), ("cold", []), ("full", ["--no-snapshot"])):
                if case == "cold":
                    shutil.rmtree(snapshots)
                wall, cpu, out = timed(hook + args, payload(f"{case}-{i}"), env)
                samples[case].append((wall, cpu))
                outputs[case].add(out)
            for case, data in (("given", payload("given")), ("nothing", uncovered("nothing"))):
                wall, cpu, out = timed(hook, data, env)
                assert out == b"", f"{case}: the hook answered {out!r}"
                samples[case].append((wall, cpu))
            samples["pydantic"].append(timed([sys.executable, "-c", PYDANTIC_FLOOR], b"", env)[:2])
        served = mcp_round_trips(root, env, [f"mcp-{i}" for i in range(rounds)])
        samples["mcp"] = [(wall, 0.0) for wall, _ in served]
        outputs["mcp"] = {answer for _, answer in served}
        answers = {o for outs in outputs.values() for o in outs}
        assert len(answers) == 1, "the four paths answered differently"
        print(f"PostToolUse hook round trip, median of {rounds} paired rounds (wall ms / CPU ms)")
        base_wall = statistics.median(w for w, _ in samples["pass"])
        base_cpu = statistics.median(c for _, c in samples["pass"])
        labels = {
            "pass": "(a) python -c pass", "warm": "(b) warm snapshot",
            "given": "(b2) warm, notice given before", "nothing": "(b3) warm, no rule for the file",
            "cold": "(c) cold snapshot",
            "full": "(d) full path (--no-snapshot)", "pydantic": "(e) pydantic + one model (ref.)",
            "mcp": "(f) mcp_tool: running server",
        }
        for case, label in labels.items():
            wall = statistics.median(w for w, _ in samples[case])
            cpu = statistics.median(c for _, c in samples[case])
            ratios = f"{wall / base_wall:5.2f}x   {cpu:7.1f} ms {cpu / base_cpu:5.2f}x"
            if case == "mcp":  # no child process: the server's CPU is not a child's
                ratios = f"{wall / base_wall:5.2f}x         - ms      -"
            print(f"  {label:32} {wall:7.1f} ms {ratios}")
        print("  goals: warm <= 2x, cold <= 6x python -c pass; (f) <= 5 ms; output byte-identical across "
              "(b), (c), (d), (f)")
        other_hosts(root, env, rounds)
        monorepo(Path(tmp), env, rounds)
        streamed(Path(tmp), env, rounds)


SENTENCE = "This rule explains at length how code in this part of the repository is written. "
AREA_GLOBS = ("**/*.py", "**/test_*.py", "**/[Mm]akefile", "docs/**/*.md", "packages/*/src/**/*.ts",
              "services/api/**")


def make_monorepo(base: Path) -> Path:
    """60 Cursor rules, 0.8 to 4 KB of prose each: one per package (``packages/p3/**``), six for areas
    (two of their shapes wcmatch translates), the rest for a package's ``src/lib``. 40 packages of six
    directories (an AGENTS.md in every eighth): 280 directories, dated a minute back."""
    root = base / "monorepo"
    (root / ".git").mkdir(parents=True)
    (root / ".cursor/rules").mkdir(parents=True)
    for i in range(60):
        if i < 40:
            glob = f"packages/p{i}/**"
        elif i < 40 + len(AREA_GLOBS):
            glob = AREA_GLOBS[i - 40]
        else:
            glob = f"packages/p{i - 46}/src/lib/**/*.py"
        body = (SENTENCE * 4 + "\n") * (2 + i * 7 % 10)
        (root / f".cursor/rules/r{i:02}.mdc").write_text(
            f'---\ndescription: rule {i}\nglobs: "{glob}"\n---\n# Rule {i}\n{body}', encoding="utf-8")
    (root / "AGENTS.md").write_text(f"# Agents\n{SENTENCE * 20}\n", encoding="utf-8")
    for p in range(40):
        for sub in ("src", "src/lib", "src/lib/util", "tests", "docs", "scripts"):
            (root / f"packages/p{p}/{sub}").mkdir(parents=True)
            for n in range(3):
                (root / f"packages/p{p}/{sub}/f{n}.py").write_text("x = 1\n", encoding="utf-8")
        if p % 8 == 0:
            (root / f"packages/p{p}/AGENTS.md").write_text("Use the package's Makefile.\n", encoding="utf-8")
    past = time.time() - 60
    for path in [root, *root.rglob("*")]:
        os.utime(path, (past, past))
    return root


def monorepo(base: Path, env: dict[str, str], rounds: int) -> None:
    """(h): the Claude Code hook in a monorepo, where a cold start also fills the snapshot's entries for
    the project's first 256 directories: warm; cold with nothing saved (the snapshots folder, and the
    glob translations kept beside them, deleted); and after a rule edit (one rule's text changed, dated
    back: the snapshot is rebuilt, the glob translations are kept)."""
    root = make_monorepo(base)
    state = base / "state-monorepo"
    env = {**env, "RULEWEAVE_STATE_DIR": str(state)}
    hook = [RULEWEAVE, "hook", "claude-code"]
    edited = root / ".cursor/rules/r00.mdc"
    texts = [edited.read_text(encoding="utf-8"), edited.read_text(encoding="utf-8") + "One more line.\n"]

    def payload(session: str) -> bytes:
        return json.dumps({
            "session_id": session, "cwd": str(root), "hook_event_name": "PostToolUse", "tool_name": "Read",
            "tool_input": {"file_path": str(root / "packages/p3/src/lib/f0.py")}, "tool_use_id": "toolu_1",
            "tool_response": {"type": "text"},
        }).encode()

    subprocess.run(hook, input=payload("warm-up"), env=env, check=True, capture_output=True)
    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in ("pass", "warm", "cold", "edit")}
    for i in range(rounds):
        samples["pass"].append(timed([sys.executable, "-c", "pass"], b"", env)[:2])
        samples["warm"].append(timed(hook, payload(f"warm-{i}"), env)[:2])
        shutil.rmtree(state / "snapshots")
        samples["cold"].append(timed(hook, payload(f"cold-{i}"), env)[:2])
        past = time.time() - 60
        edited.write_text(texts[i % 2], encoding="utf-8")
        os.utime(edited, (past, past))
        samples["edit"].append(timed(hook, payload(f"edit-{i}"), env)[:2])
    base_wall = statistics.median(w for w, _ in samples["pass"])
    base_cpu = statistics.median(c for _, c in samples["pass"])
    print(f"(h) monorepo (60 rules, 280 directories, 3 rules for the file): PostToolUse, median of {rounds} "
          "paired rounds")
    labels = {"pass": "python -c pass", "warm": "warm snapshot", "cold": "cold, nothing saved",
              "edit": "cold after a rule edit"}
    for case, label in labels.items():
        wall = statistics.median(w for w, _ in samples[case])
        cpu = statistics.median(c for _, c in samples[case])
        print(f"  {label:32} {wall:7.1f} ms {wall / base_wall:5.2f}x   {cpu:7.1f} ms {cpu / base_cpu:5.2f}x")


STREAMED_RULE = "---\ncondition: 'rm -rf /'\nscope: tool:bash\n---\nNever delete the root.\n"


def streamed(base: Path, env: dict[str, str], rounds: int) -> None:
    """(i): a project with a streamed rule on shell commands: the PreToolUse of a Read (no streamed rule
    watches it: warm) and of a Bash command (the full path's watcher decides), paired with (a)."""
    root = make_project(base, "streamed", {".ruleweave/rules/no-rm.md": STREAMED_RULE})
    env = {**env, "RULEWEAVE_STATE_DIR": str(base / "state-streamed")}
    hook = [RULEWEAVE, "hook", "claude-code"]

    def payload(session: str, tool: str, tool_input: dict[str, str]) -> bytes:
        return json.dumps({"session_id": session, "cwd": str(root), "hook_event_name": "PreToolUse",
                           "tool_name": tool, "tool_input": tool_input, "tool_use_id": "toolu_1"}).encode()

    read = {"file_path": str(root / "src/app.py")}
    subprocess.run(hook, input=payload("warm-up", "Read", read), env=env, check=True, capture_output=True)
    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in ("pass", "read", "bash")}
    for i in range(rounds):
        samples["pass"].append(timed([sys.executable, "-c", "pass"], b"", env)[:2])
        samples["read"].append(timed(hook, payload(f"read-{i}", "Read", read), env)[:2])
        samples["bash"].append(timed(hook, payload(f"bash-{i}", "Bash", {"command": "ls"}), env)[:2])
    base_wall = statistics.median(w for w, _ in samples["pass"])
    base_cpu = statistics.median(c for _, c in samples["pass"])
    print(f"(i) a streamed rule on shell commands: PreToolUse, median of {rounds} paired rounds")
    labels = {"pass": "python -c pass", "read": "Read (not watched: warm)",
              "bash": "Bash (watched: full path)"}
    for case, label in labels.items():
        wall = statistics.median(w for w, _ in samples[case])
        cpu = statistics.median(c for _, c in samples[case])
        print(f"  {label:32} {wall:7.1f} ms {wall / base_wall:5.2f}x   {cpu:7.1f} ms {cpu / base_cpu:5.2f}x")


if __name__ == "__main__":
    main()
