"""Fixtures for the map's tests: the example repository, a small generated monorepo, a headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ruleweave import RuleweaveConfig
from tests.rulemap.chromium import Browser, ChromiumError
from tests.rulemap.monorepo import build_monorepo

EVERY_FORMAT = Path(__file__).resolve().parents[2] / "examples" / "every-format-repo"
"""The example repository that carries every format ruleweave reads."""


def every_format_config() -> RuleweaveConfig:
    """The example repository as its own project (it lives inside ruleweave's checkout)."""
    return RuleweaveConfig(cwd=EVERY_FORMAT, project_root=EVERY_FORMAT)


@pytest.fixture(scope="session")
def monorepo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small generated monorepo (12 packages × 10 files, 40 rules), built once for the session."""
    root = tmp_path_factory.mktemp("mono") / "repo"
    return build_monorepo(root, packages=12, files_per_package=10, rules=40)


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """One headless Chromium for the session; fails (never skips) when chromium is missing."""
    try:
        started = Browser(tmp_path_factory.mktemp("chromium-profile"))
    except ChromiumError as exc:
        pytest.fail(str(exc), pytrace=False)
    with started:
        yield started
