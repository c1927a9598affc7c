"""Shared fixtures: every test runs with a private, empty user tier."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

# Timing is never asserted: a loaded CI machine must not fail a property test on speed.
settings.register_profile("ruleweave", deadline=None)
settings.load_profile("ruleweave")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point HOME, CLAUDE_CONFIG_DIR and RULEWEAVE_HOME into a fresh temp dir."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("RULEWEAVE_HOME", raising=False)
    return home


WriteTree = Callable[[dict[str, str]], Path]


@pytest.fixture
def write_tree(tmp_path: Path) -> WriteTree:
    """Write ``{relative path: text}`` under a repo dir with a ``.git`` marker; return its root."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True, exist_ok=True)

    def write(files: dict[str, str]) -> Path:
        for rel, text in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return root

    return write
