"""``ruleweave lint``: exit codes, ``--fail-on``, ``--json`` codes, 100 columns, escaping, bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from ruleweave.cli import main
from ruleweave.lint import CODES
from tests.lint.helpers import git_repo

DEAD = {".cursor/rules/api.mdc": "---\nglobs: src/api/**/*.ts\n---\nUse the client.\n", "a.py": ""}
CLEAN = {".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nPython.\n", "a.py": ""}


def lint(capsys: pytest.CaptureFixture[str], root: Path, *args: str) -> tuple[int, str, str]:
    """Run ``ruleweave lint --cwd ROOT ARGS``; return the exit code, stdout and stderr."""
    code = main(["lint", "--cwd", str(root), *args])
    out, err = capsys.readouterr()
    return code, out, err


def lint_json(capsys: pytest.CaptureFixture[str], root: Path, *args: str) -> dict[str, Any]:
    """``ruleweave lint --json`` parsed."""
    code, out, _ = lint(capsys, root, "--json", *args)
    assert code in (0, 1)
    data: dict[str, Any] = json.loads(out)
    return data


def test_clean_project_exits_0_even_with_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No finding: exit 0 and a summary line."""
    code, out, _ = lint(capsys, git_repo(tmp_path / "r", CLEAN), "--strict")
    assert code == 0 and out.startswith("0 findings")


def test_findings_exit_0_unless_strict_or_fail_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A dead glob is printed but fails only with --strict or a matching --fail-on code."""
    root = git_repo(tmp_path / "r", DEAD)
    code, out, _ = lint(capsys, root)
    assert code == 0 and ".cursor/rules/api.mdc:2  warning dead-glob" in out
    assert lint(capsys, root, "--strict")[0] == 1
    assert lint(capsys, root, "--fail-on", "dead-glob", "over-limit")[0] == 1
    assert lint(capsys, root, "--fail-on", "drift")[0] == 0


def test_strict_ignores_info_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A duplicate is info: --strict passes, --fail-on duplicate fails."""
    text = "One paragraph.\n\nAnother paragraph.\n"
    root = git_repo(tmp_path / "r", {"AGENTS.md": text, "GEMINI.md": text})
    assert lint(capsys, root, "--strict")[0] == 0
    assert lint(capsys, root, "--fail-on", "duplicate")[0] == 1


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown code, an unknown agent, or a missing directory is one sentence on stderr and exit 2."""
    root = git_repo(tmp_path / "r", CLEAN)
    code, _, err = lint(capsys, root, "--fail-on", "dead-globs")
    assert code == 2 and "--fail-on dead-globs is not a finding code" in err
    code, _, err = lint(capsys, root, "--agent", "vim")
    assert code == 2 and "--agent vim is not an agent" in err
    assert lint(capsys, tmp_path / "missing")[0] == 2


def test_json_has_stable_codes_and_every_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every finding carries code, severity, path, line, message, agent and details; codes are known."""
    data = lint_json(capsys, git_repo(tmp_path / "r", DEAD))
    assert [f["code"] for f in data["findings"]] == ["dead-glob", "dead-rule"]
    assert set(data["findings"][0]) == {"code", "severity", "path", "line", "message", "agent", "details"}
    assert data["summary"]["by_code"] == {"dead-glob": 1, "dead-rule": 1}
    assert all(f["code"] in CODES for f in data["findings"])


def test_agent_view_in_json_and_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--agent copilot lists what Copilot loads at start and what attaches by path, in its dialect."""
    root = git_repo(tmp_path / "r", {
        ".github/copilot-instructions.md": "Be brief.\n",
        ".github/instructions/py.instructions.md": "---\napplyTo: '**/*.py'\n---\nPython.\n",
        "AGENTS.md": "Agents.\n",
        "src/a.py": "", "src/b.py": "", "c.ts": "",
    })
    data = lint_json(capsys, root, "--agent", "copilot")
    [view] = data["agents"]
    assert [(i["path"], i["bytes"]) for i in view["session_start"]] == [
        (".github/copilot-instructions.md", 10), ("AGENTS.md", 8),
    ]
    assert [(r["name"], r["files"]) for r in view["by_path"]] == [("py", 2)]
    code, out, _ = lint(capsys, root, "--agent", "copilot")
    assert code == 0 and "session start: 2 files and rules, 18 bytes" in out


def test_json_reports_every_agent_that_loads_something(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --agent, ``--json`` gives the view of each agent that loads something here (it was an empty
    list on every repository), and none for agents that load nothing (#28 item 13)."""
    root = git_repo(tmp_path / "r", {
        ".github/copilot-instructions.md": "Be brief.\n",
        ".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nPython.\n",
        "AGENTS.md": "Agents.\n",
        "a.py": "",
    })
    agents = {view["agent"]: view for view in lint_json(capsys, root)["agents"]}
    assert {"claude", "codex", "copilot", "cursor", "ruleweave"} <= set(agents)
    assert "windsurf" not in agents and "kiro" not in agents
    assert [r["name"] for r in agents["cursor"]["by_path"]] == ["py"]
    assert [i["path"] for i in agents["codex"]["session_start"]] == ["AGENTS.md"]
    code, out, _ = lint(capsys, root)
    assert code == 0 and "(--agent cursor)" not in out  # the text report stays short


def test_text_fits_100_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Long paths, globs and paragraphs are cut to fit 100 columns."""
    deep = "/".join(["very-long-directory-name"] * 6)
    long_glob = "src/" + "/".join(["segment"] * 20) + "/*.ts"
    text = "Intro paragraph.\n\nSecond paragraph.\n\n" + "word " * 80 + "\n"
    root = git_repo(tmp_path / "r", {
        f"{deep}/.cursor/rules/x.mdc": f"---\nglobs: {long_glob}\n---\nX.\n",
        "AGENTS.md": text, "CLAUDE.md": text.replace("word", "term"),
    })
    _, out, _ = lint(capsys, root, "--agent", "cursor", "codex")
    assert "drift" in out and "dead-glob" in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_repository_text_is_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file name and a paragraph carrying terminal escapes are printed with the escapes spelled out."""
    evil = "\x1b[2J"
    root = git_repo(tmp_path / "r", {
        f".cursor/rules/a{evil}.mdc": "---\nglobs: nothing/**\n---\nA.\n",
        "AGENTS.md": f"One.\n\nTwo {evil}.\n\nThree.\n", "CLAUDE.md": "One.\n\nTwo.\n\nThree.\n",
    })
    _, out, _ = lint(capsys, root)
    assert "\x1b" not in out and "\\u001b" in out


def test_hostile_files_become_findings_not_crashes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A binary rule, a FIFO named AGENTS.md and a link out of the project are never read or fatal."""
    outside = tmp_path / "secret.md"
    outside.write_text("Secret paragraph one.\n\nSecret paragraph two.\n")
    root = git_repo(tmp_path / "r", {"CLAUDE.md": "Secret paragraph one.\n\nSecret paragraph two.\n"})
    (root / ".cursor/rules").mkdir(parents=True)
    (root / ".cursor/rules/bin.mdc").write_bytes(b"\x00\x01\x02binary")
    os.mkfifo(root / "AGENTS.md")
    (root / "GEMINI.md").symlink_to(outside)
    code, out, _ = lint(capsys, root, "--agent", "codex", "gemini")
    assert code == 0
    assert "duplicate" not in out  # the linked file outside the project was not read
    assert "bin.mdc" in out  # discovery's warning about the binary file is a finding


def test_output_is_byte_identical_run_to_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Same files, same report: text and JSON are deterministic."""
    root = git_repo(tmp_path / "r", {
        **DEAD, "AGENTS.md": "One.\n\nTwo.\n\nThree.\n", "CLAUDE.md": "One.\n\nTwo.\n\nFour.\n",
        "GEMINI.md": "One.\n\nTwo.\n\nThree.\n",
    })
    first = lint(capsys, root, "--agent", "claude", "codex")[1]
    assert lint(capsys, root, "--agent", "claude", "codex")[1] == first
    assert lint(capsys, root, "--json")[1] == lint(capsys, root, "--json")[1]
