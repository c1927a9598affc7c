"""Cline's installer: ruleweave's hook files written into a hooks folder, and taken out again.

Cline 3.0.65 runs every file named after an event in ``<git root>/.cline/hooks``,
``<git root>/.clinerules/hooks``, ``~/.cline/hooks`` and ``~/Documents/Cline/Hooks``
(``resolveHooksConfigSearchPaths`` in ``@cline/shared``), picking the interpreter from the
shebang (docs/hosts/cline.md).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ruleweave.config import RuleweaveConfig
from ruleweave.hosts.claude_code.settings import SettingsError
from ruleweave.hosts.cline import install
from tests.conftest import WriteTree
from tests.hosts import running


@pytest.fixture
def repo(write_tree: WriteTree) -> Path:
    return write_tree({".git/HEAD": "ref: refs/heads/main\n", "src/a.ts": "export const a = 1;\n"})


def apply(path: Path, *, uninstall: bool = False, command: str = install.COMMAND) -> list[str]:
    """Run the installer's ``change`` on the real file, as ``ruleweave install`` would."""
    return running.apply(install.change, path, command=command, uninstall=uninstall,
                         mode=0o755 if install.executable(path) else None)


def test_scopes_name_the_project_and_user_hook_folders(repo: Path, tmp_path: Path) -> None:
    """project → <root>/.cline/hooks/<Event>; user → $CLINE_DIR/hooks/<Event>, ~/.cline by default (no
    extension on Unix)."""
    config = RuleweaveConfig(cwd=repo / "src", home=tmp_path / "home")
    events = ("TaskStart", "PreToolUse", "PostToolUse")
    assert install.files("project", config) == [repo / ".cline/hooks" / name for name in events]
    assert install.files("user", config) == [tmp_path / "home/.cline/hooks" / name for name in events]
    # Cline reads the user's hooks in $CLINE_DIR/hooks when that is set (``@cline/shared``'s
    # ``resolveHooksConfigSearchPaths``), so a --user install writes there.
    moved = RuleweaveConfig(cwd=repo / "src", home=tmp_path / "home", cline_dir=tmp_path / "cline")
    assert install.files("user", moved) == [tmp_path / "cline/hooks" / name for name in events]


def test_install_writes_scripts_that_exec_the_hook_command_and_is_idempotent(repo: Path) -> None:
    config = RuleweaveConfig(cwd=repo)
    paths = install.files("project", config)
    assert [apply(p) for p in paths] == [
        ["TaskStart: wrote TaskStart running 'ruleweave hook cline'"],
        ["PreToolUse: wrote PreToolUse running 'ruleweave hook cline'"],
        ["PostToolUse: wrote PostToolUse running 'ruleweave hook cline'"],
    ]
    text = paths[2].read_text()
    assert text.startswith("#!/bin/sh\n") and text.endswith("\nexec ruleweave hook cline\n")
    assert install.is_ours(text) and os.access(paths[2], os.X_OK)
    assert [apply(p) for p in paths] == [[], [], []]
    assert apply(paths[1], command="/opt/rw/bin/ruleweave hook cline") == [
        "PreToolUse: rewrote PreToolUse running '/opt/rw/bin/ruleweave hook cline'"]


def test_the_script_hands_stdin_to_the_command_and_prints_its_answer(tmp_path: Path) -> None:
    """Run as Cline runs it (``sh <file>``, payload on stdin): the command gets the payload."""
    hook = tmp_path / "PostToolUse"
    hook.write_text(install.script("PostToolUse", "cat"))
    done = subprocess.run(["sh", str(hook)], input=b'{"hookName":"tool_result"}', capture_output=True,
                          check=True, timeout=30)
    assert done.stdout == b'{"hookName":"tool_result"}'


def test_a_hook_of_the_users_own_is_refused_never_overwritten(repo: Path) -> None:
    theirs = repo / ".cline/hooks/PostToolUse"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("#!/bin/bash\necho '{}'\n")
    with pytest.raises(SettingsError, match="hook of your own"):
        apply(theirs)
    assert apply(theirs, uninstall=True) == []
    assert theirs.read_text() == "#!/bin/bash\necho '{}'\n"


def test_uninstall_removes_only_ruleweaves_files(repo: Path) -> None:
    paths = install.files("project", RuleweaveConfig(cwd=repo))
    for path in paths:
        apply(path)
    assert apply(paths[2], uninstall=True) == ["PostToolUse: removed PostToolUse"]
    assert not paths[2].exists() and paths[1].exists()
    assert apply(paths[2], uninstall=True) == []


def test_a_windows_script_is_powershell(repo: Path) -> None:
    """Cline runs ``<Event>.ps1`` with PowerShell (``-File``); an extensionless file needs bash."""
    text = install.script("PostToolUse", windows=True)
    assert text.splitlines()[1:] == ["$input | & ruleweave hook cline", "exit 0"]
    after, changes = install.change(Path("h/PostToolUse.ps1"), None, command=install.COMMAND, uninstall=False)
    assert after == text and changes and not install.executable(Path("h/PostToolUse.ps1"))
