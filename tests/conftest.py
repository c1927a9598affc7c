"""Shared fixtures: every test runs with a private, empty user tier."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.redis_server import RedisServer, RedisServerError, start_redis_server

# Timing is never asserted: a loaded CI machine must not fail a property test on speed.
settings.register_profile("ruleweave", deadline=None)
settings.load_profile("ruleweave")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point HOME into a fresh temp dir; unset the variables that move the user tier or git's config."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("RULEWEAVE_HOME", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("QWEN_HOME", raising=False)
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    monkeypatch.delenv("CLINE_DIR", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)  # git's global excludes: ~/.config/git/ignore
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


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real redis-server on a free loopback port for the whole run; fails (never skips) if missing."""
    try:
        server = start_redis_server(tmp_path_factory.mktemp("redis"))
    except RedisServerError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server: RedisServer) -> str:
    """The URL of the session's redis-server (each test uses its own key prefix)."""
    return redis_server.url
