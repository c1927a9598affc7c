"""``ruleweave install claude-code``: a hostile path or settings file cannot run code or reach the terminal.

Issue #29 items 5–7. Claude Code runs a command hook through a shell (its
hooks reference: "command: the shell command to execute"), so ``--absolute``
quotes the program path for it; with a space in that path the installer still
recognises its own entries; ``--dry-run``'s diff goes through the escaping
stream like every other output.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from ruleweave.cli import main
from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import event
from tests.security.helpers import RULEWEAVE


def installed_at(directory: Path) -> Path:
    """This installation's console script as ``directory/ruleweave`` (the path ``--absolute`` writes)."""
    directory.mkdir(parents=True)
    (directory / "ruleweave").symlink_to(RULEWEAVE)
    return directory / "ruleweave"


def install(program: Path, repo: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the installer as ``program`` (so that ``--absolute`` writes that path)."""
    return subprocess.run(
        [str(program), "install", "claude-code", "--cwd", str(repo), "--hook-type", "command", *args],
        capture_output=True, text=True, cwd=cwd, timeout=120, check=False,
    )


def commands(repo: Path) -> list[str]:
    """Every hook command in the project's settings file."""
    settings = json.loads((repo / ".claude" / "settings.json").read_text(encoding="utf-8"))
    return [hook["command"] for groups in settings["hooks"].values() for group in groups
            for hook in group["hooks"] if hook.get("type", "command") == "command"]


def test_a_path_with_shell_syntax_runs_nothing_else(write_tree: WriteTree, tmp_path: Path) -> None:
    """A checkout named ``x$(touch PWNED)y``: the written command, run by ``sh -c`` as Claude Code runs it,
    starts ruleweave's hook and creates no file."""
    repo = write_tree({".cursor/rules/a.mdc": "---\nalwaysApply: true\n---\nBe brief.\n"})
    program = installed_at(tmp_path / "x$(touch PWNED)y" / "bin")
    work = tmp_path / "work"
    work.mkdir()
    done = install(program, repo, "--absolute", cwd=work)
    assert done.returncode == 0, done.stderr
    found = commands(repo)
    assert found and all(command.startswith("'") for command in found)
    start = json.dumps(event(repo, "SessionStart", source="startup"))
    env = {**os.environ, "RULEWEAVE_STATE_DIR": str(tmp_path / "state")}
    ran = subprocess.run(["sh", "-c", found[0]], input=start, capture_output=True, text=True, cwd=work,
                         env=env, timeout=120, check=False)
    assert ran.returncode == 0 and "Be brief." in ran.stdout
    assert not list(tmp_path.rglob("PWNED"))


def test_a_path_with_a_space_is_recognised(write_tree: WriteTree, tmp_path: Path) -> None:
    """Installing twice from ``my dir`` keeps one entry per event, and ``--uninstall`` removes them all."""
    repo = write_tree({"src/app.py": "x = 1\n"})
    program = installed_at(tmp_path / "my dir" / "bin")
    assert install(program, repo, "--absolute", cwd=tmp_path).returncode == 0
    once = commands(repo)
    assert install(program, repo, "--absolute", cwd=tmp_path).returncode == 0
    assert commands(repo) == once and len(set(once)) == 1  # one command, once per event
    assert install(program, repo, "--uninstall", cwd=tmp_path).returncode == 0
    settings = repo / ".claude" / "settings.json"  # a file the installer created goes with its entries
    assert not settings.exists() or "hooks" not in json.loads(settings.read_text(encoding="utf-8"))


def test_dry_run_escapes_what_a_settings_file_holds(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bidi overrides, zero-width and 8-bit CSI characters of a committed settings file are spelled
    ``\\uXXXX`` in the dry-run diff."""
    hostile = "safe\u202eevil\u200b\x9b2J\x1b]0;title\x07"
    repo = write_tree({".claude/settings.json": json.dumps({"model": hostile}, ensure_ascii=False) + "\n"})
    assert main(["install", "claude-code", "--cwd", str(repo), "--hook-type", "command", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "+++" in out and '"model"' in out
    assert not any(char in out for char in "\u202e\u200b\x9b\x1b\x07")
    assert "\\u202e" in out and "\\u009b" in out
