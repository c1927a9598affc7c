"""What every host's tests do the same way: run ``ruleweave hook <agent>`` as the agent would, apply
an installer's ``change`` to a real file as ``ruleweave install`` would, and lay out the settings
layers an agent merges."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from ruleweave.config import RuleweaveConfig

RULEWEAVE = str(Path(sys.executable).parent / "ruleweave")
"""The console script the package installs (what the agents run)."""

Change = Callable[..., tuple[str | None, list[str]]]
"""A ``FileInstaller.change``: ``(path, text, *, command, uninstall)`` → the new text and the change lines."""


def hook(
    agent: str, payload: Mapping[str, Any] | str | bytes, state: Path, *, cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run ``ruleweave hook <agent>`` with ``payload`` on stdin (a mapping as JSON), as a new process.

    Args:
        agent: The host's name (``qwen``).
        payload: The hook input.
        state: The state directory (``RULEWEAVE_STATE_DIR``: the SQLite store, snapshots, the hook log).
        cwd: The directory the hook runs in (default: this process's).

    Returns:
        The finished process (its exit code, stdout and stderr as bytes).
    """
    if isinstance(payload, Mapping):
        data = json.dumps(payload).encode()
    else:
        data = payload.encode() if isinstance(payload, str) else payload
    return subprocess.run(
        [RULEWEAVE, "hook", agent], input=data, capture_output=True, cwd=cwd, timeout=120, check=False,
        env={**os.environ, "RULEWEAVE_STATE_DIR": str(state)},
    )


def apply(
    change: Change, path: Path, *, command: str, uninstall: bool = False, mode: int | None = None
) -> list[str]:
    """Run an installer's ``change`` on the real file at ``path``, writing (or deleting) what it returns.

    Args:
        change: The installer's ``change``.
        path: The file (it may not exist).
        command: The hook command line.
        uninstall: Take ruleweave's hooks out instead.
        mode: The permissions of a file written (``0o755`` for a script), if any.

    Returns:
        The change lines.
    """
    text = path.read_text(encoding="utf-8") if path.exists() else None
    after, changes = change(path, text, command=command, uninstall=uninstall)
    if after is None:
        path.unlink(missing_ok=True)
    elif after != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(after, encoding="utf-8")
        if mode is not None:
            path.chmod(mode)
    return changes


class Layers(NamedTuple):
    """A project's config and the settings files an agent merges over its system defaults."""

    config: RuleweaveConfig
    user: Path
    project: Path
    system: Path


def settings_layers(
    root: Path, user: Path, folder: str, system_variable: str, monkeypatch: pytest.MonkeyPatch
) -> Layers:
    """A project at ``root`` (a ``.git`` marker) whose agent reads ``user``, ``<root>/<folder>/settings.json``
    and the system settings file ``system_variable`` names (set to one under ``root/etc``): their folders
    are made, the files are not."""
    (root / ".git").mkdir()
    system = root / "etc" / "settings.json"
    monkeypatch.setenv(system_variable, str(system))
    project = root / folder / "settings.json"
    for path in (user, project, system):
        path.parent.mkdir(parents=True, exist_ok=True)
    return Layers(RuleweaveConfig(cwd=root), user, project, system)
