"""End to end: the real Gemini CLI (``@google/gemini-cli``), offline against a mock Gemini API.

``ruleweave install gemini`` writes the project's ``.gemini/settings.json``. A
first headless ``gemini -p`` run reads a ``.ts`` file twice (once by a relative
path), a file under a nested ``AGENTS.md`` and ``GEMINI.md``, a large file, and
writes code a streamed rule refuses. A second run resumes the session with
``/compress`` (Gemini compresses before the prompt, and a small
``model.compressionThreshold`` makes the history large enough to compress) and
reads the ``.ts`` file again. A third run ends a reply with prose a streamed rule
catches. The assertions read what the model saw: the request bodies the mock
received. Facts: docs/hosts/gemini.md.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.mock_gemini import MockGemini, Reply, reply, text, tool
from tests.e2e.npm_agents import agent_cli

pytestmark = pytest.mark.e2e

RULEWEAVE = Path(sys.executable).parent / "ruleweave"
MODEL = "gemini-2.5-flash"
"""A named model: the default ``auto`` first asks a routing classifier for JSON (retried for minutes)."""
CLI_TIMEOUT = 80
SUMMARY = "<state_snapshot>SUMMARY-OF-EARLIER-WORK</state_snapshot>"

FILES = {
    ".cursor/rules/ts.mdc": '---\nglobs: "**/*.ts"\n---\nTS-RULE: no `any` in TypeScript.\n',
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nALWAYS-RULE: keep changes small.\n",
    ".ruleweave/rules/no-eval.md": "---\ncondition: 'eval\\('\nscope: 'tool:write'\n---\n"
    "NO-EVAL: never call eval() on input; parse it instead.\n",
    ".ruleweave/rules/no-hacks.md": "---\ncondition: '(?i)\\bquick hack\\b'\nscope: text\n---\n"
    "NO-HACKS: do not ship hacks; say what the proper fix is.\n",
    "AGENTS.md": "ROOT-AGENTS: Gemini does not load this.\n",
    "GEMINI.md": "ROOT-GEMINI: Gemini loads this itself.\n",
    "lib/AGENTS.md": "NESTED-AGENTS: lib code is generated.\n",
    "lib/GEMINI.md": "NESTED-GEMINI: Gemini loads this just in time.\n",
    "lib/b.py": "x = 1\n",
    "src/a.ts": "export const a = 1;\n",
    # 1,500 short lines (read_file cuts one long line): the history passes the small threshold below.
    "big.txt": "".join(f"line {i} lorem ipsum dolor sit amet\n" for i in range(1500)),
}


def _project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    for rel, body in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body, encoding="utf-8")
    return root


def _home(home: Path, project: Path) -> Path:
    """Gemini's user settings: API-key auth (with only a base URL set, Gemini picks a ``gateway`` auth the
    headless check refuses), no telemetry or updates, compression at 0.5% of the window; and the project
    trusted (headless runs refuse an untrusted folder)."""
    gemini = home / ".gemini"
    gemini.mkdir(parents=True)
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
        "general": {"disableAutoUpdate": True},
        "model": {"compressionThreshold": 0.005},
    }
    (gemini / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    (gemini / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}), encoding="utf-8")
    return home


def _env(home: Path, state: Path, url: str = "") -> dict[str, str]:
    return {
        "PATH": os.pathsep.join([str(RULEWEAVE.parent), os.environ.get("PATH", "/usr/bin:/bin")]),
        "HOME": str(home),
        "RULEWEAVE_STATE_DIR": str(state),
        "GOOGLE_GEMINI_BASE_URL": url,
        "GEMINI_API_KEY": "test",
        "TERM": "dumb",
    }


def _gemini(cli: Path, project: Path, env: dict[str, str], script: list[Reply], prompt: str,
            *args: str) -> tuple[MockGemini, subprocess.CompletedProcess[str]]:
    with MockGemini(script, side=reply(text(SUMMARY))) as mock:
        done = subprocess.run(
            [str(cli), "-p", prompt, "--yolo", "-m", MODEL, *args], cwd=project, env={**env,
            "GOOGLE_GEMINI_BASE_URL": mock.url}, capture_output=True, text=True, timeout=CLI_TIMEOUT,
            stdin=subprocess.DEVNULL, check=False,
        )
    assert done.returncode == 0, done.stderr[-3000:]
    return mock, done


@pytest.fixture
def session(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """The CLI, the project with ruleweave installed, and the environment."""
    cli = agent_cli("gemini")
    project = _project(tmp_path / "project")
    env = _env(_home(tmp_path / "home", project), tmp_path / "state")
    installed = subprocess.run([str(RULEWEAVE), "install", "gemini"], cwd=project, env=env,
                               capture_output=True, text=True, timeout=60, check=False)
    assert installed.returncode == 0, installed.stderr
    return cli, project, env


def test_notices_refusal_and_compression_reach_gemini(session: tuple[Path, Path, dict[str, str]]) -> None:
    """Each notice once, in the tool result; nothing Gemini loads itself twice; the refusal as the tool's
    error; after ``/compress`` the notice again."""
    cli, project, env = session
    script = [
        reply(text("Reading."), tool("read_file", file_path=str(project / "src/a.ts"))),
        reply(tool("read_file", file_path="src/a.ts")),  # relative, as the model may send it
        reply(tool("read_file", file_path=str(project / "lib/b.py"))),
        reply(tool("read_file", file_path="big.txt")),
        reply(tool("write_file", file_path=str(project / "src/c.ts"), content="const v = eval(raw);\n")),
        reply(text("Reviewed.")),
    ]
    mock, _ = _gemini(cli, project, env, script, "Review src/a.ts and lib/b.py")
    assert len(mock.loop_requests) == len(script)
    first = mock.texts(0)
    start = next(t for t in first if "<hook_context>" in t)  # SessionStart: prepended to the prompt
    assert "ALWAYS-RULE" in start and "ROOT-AGENTS" in start and "ROOT-GEMINI" not in start
    assert sum(t.count("ROOT-GEMINI") for t in first) == 1  # Gemini's own <loaded_context>
    results = mock.tool_results(len(script) - 1)
    assert results[0].count("TS-RULE") == 1 and "<hook_context>" in results[0]
    assert "TS-RULE" not in results[1]
    # lib/b.py: ruleweave's notice of lib/AGENTS.md, Gemini's own lib/GEMINI.md, once each.
    assert results[2].count("NESTED-AGENTS") == 1 and results[2].count("NESTED-GEMINI") == 1
    assert results[4].startswith("Tool execution blocked:") and "NO-EVAL" in results[4]
    assert not (project / "src/c.ts").exists()
    everything = json.dumps(mock.loop_requests[-1])
    assert everything.count("TS-RULE") == 1 and everything.count("NESTED-AGENTS") == 1

    again = [reply(tool("read_file", file_path="src/a.ts")), reply(text("Done."))]
    mock, _ = _gemini(cli, project, env, again, "/compress", "--resume", "latest")
    assert any("Generate a new <state_snapshot>" in json.dumps(body) for body in mock.side_requests)
    assert any(SUMMARY in t for t in mock.texts(0))  # the history was replaced by the summary
    assert mock.tool_results(1)[-1].count("TS-RULE") == 1  # /compress re-armed the notice


def test_a_streamed_rule_on_prose_reaches_the_model(session: tuple[Path, Path, dict[str, str]]) -> None:
    """The chunk with the caught prose stops the reply (it never enters the history) and the rule is the
    model's next prompt (AfterAgent's deny), after which it answers again."""
    cli, project, env = session
    script = [reply(text("Fine. A quick hack will do."), tool("read_file", file_path="src/a.ts")),
              reply(text("The proper fix is to parse the input."))]
    mock, done = _gemini(cli, project, env, script, "Fix the parser")
    assert "Agent execution blocked" in done.stderr and "NO-HACKS" in done.stderr
    assert len(mock.loop_requests) == 2
    texts = mock.texts(1)
    # The denied reply is dropped from the history (seen with 0.61.0: no model turn stands in for it).
    assert not any("quick hack" in t for t in texts[:-1]) and "NO-HACKS" in texts[-1]


def test_context_file_names_reach_gemini_once(session: tuple[Path, Path, dict[str, str]]) -> None:
    """With ``context.fileName: ["AGENTS.md", "CONTEXT.md"]`` Gemini loads those besides ``GEMINI.md``
    (``setGeminiMdFilename`` adds to the current names): each file reaches the model once, from Gemini,
    at start and just in time, and nothing of them from ruleweave."""
    cli, project, env = session
    (project / "CONTEXT.md").write_text("ROOT-CONTEXT: named by context.fileName.\n", encoding="utf-8")
    (project / "lib/CONTEXT.md").write_text("NESTED-CONTEXT: named too.\n", encoding="utf-8")
    settings_file = project / ".gemini" / "settings.json"
    settings = json.loads(settings_file.read_text(encoding="utf-8"))
    settings["context"] = {"fileName": ["AGENTS.md", "CONTEXT.md"]}
    settings_file.write_text(json.dumps(settings), encoding="utf-8")
    script = [reply(tool("read_file", file_path=str(project / "lib/b.py"))), reply(text("Done."))]
    mock, _ = _gemini(cli, project, env, script, "Review lib/b.py")
    first = mock.texts(0)
    start = next(t for t in first if "<hook_context>" in t)
    roots = ("ROOT-AGENTS", "ROOT-CONTEXT", "ROOT-GEMINI")
    assert "ALWAYS-RULE" in start and not any(m in start for m in roots)
    assert all(sum(t.count(m) for t in first) == 1 for m in roots)  # Gemini's own <loaded_context>
    result = mock.tool_results(1)[0]
    assert all(result.count(m) == 1 for m in ("NESTED-AGENTS", "NESTED-CONTEXT", "NESTED-GEMINI"))
    assert "<hook_context>" not in result  # ruleweave had nothing left to add there


def test_a_subagent_shares_the_parents_session(session: tuple[Path, Path, dict[str, str]]) -> None:
    """A subagent's tool calls send the parent's ``session_id`` and no agent id (seen with 0.61.0), so
    ruleweave cannot scope it: no start context for it, no notice the parent already had, and a notice
    it gets first is spent for the parent (docs/hosts/gemini.md, Subagents)."""
    cli, project, env = session
    script = [
        reply(tool("read_file", file_path="src/a.ts")),  # the parent
        reply(tool("invoke_agent", agent_name="generalist", prompt="Read src/a.ts and lib/b.py")),
        reply(tool("read_file", file_path="src/a.ts")),  # the subagent
        reply(tool("read_file", file_path="lib/b.py")),
        reply(tool("complete_task", result={"response": "SUB-DONE"})),
        reply(tool("read_file", file_path="lib/b.py")),  # the parent again
        reply(text("Done.")),
    ]
    mock, _ = _gemini(cli, project, env, script, "Review the code")
    assert len(mock.loop_requests) == len(script)
    assert mock.tool_results(1)[0].count("TS-RULE") == 1  # the parent's read
    sub_start = json.dumps(mock.loop_requests[2])
    assert "ALWAYS-RULE" not in sub_start and "ROOT-GEMINI" in sub_start  # Gemini's own memory only
    assert "TS-RULE" not in mock.tool_results(3)[-1]  # the subagent's read of src/a.ts
    assert "NESTED-AGENTS" in mock.tool_results(4)[-1]  # the subagent's read of lib/b.py
    assert "SUB-DONE" in mock.tool_results(5)[-1]
    assert "NESTED-AGENTS" not in json.dumps(mock.loop_requests[6])  # never reaches the parent
