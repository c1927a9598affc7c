"""``RuleSet.load`` pauses the garbage collector while it builds, and leaves it as it found it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from ruleweave import RuleSet
from ruleweave.config import RuleweaveConfig
from ruleweave.errors import StoreError


@pytest.fixture
def gc_restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def _project(tmp_path: Path) -> RuleweaveConfig:
    (tmp_path / "repo/.git").mkdir(parents=True)
    rules = tmp_path / "repo/.cursor/rules"
    rules.mkdir(parents=True)
    (rules / "style.mdc").write_text("---\nalwaysApply: true\n---\nBe brief.\n", encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    return RuleweaveConfig(cwd=tmp_path / "repo", home=home, builtin_rules=False)


@pytest.mark.parametrize("enabled", [True, False])
def test_load_leaves_the_collector_as_it_found_it(tmp_path: Path, gc_restored: None, enabled: bool) -> None:
    """An application that turned the collector off keeps it off; one that had it on gets it back."""
    gc.enable() if enabled else gc.disable()
    ruleset = RuleSet.load(_project(tmp_path))
    assert [rule.name for rule in ruleset.rules] == ["style"]
    assert gc.isenabled() is enabled


def test_a_failed_load_switches_the_collector_back_on(tmp_path: Path, gc_restored: None) -> None:
    """A load that raises (a store URL with an unknown scheme) still turns the collector back on."""
    gc.enable()
    config = _project(tmp_path).replace(store="nosuch://x")
    with pytest.raises(StoreError):
        RuleSet.load(config)
    assert gc.isenabled()
