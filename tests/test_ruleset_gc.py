"""Loading and using a rule set leaves the garbage collector as the application set it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from ruleweave import RuleSet
from ruleweave.config import RuleweaveConfig
from ruleweave.errors import StoreError

COLLECTOR_SWITCHES = ("disable", "enable", "freeze", "unfreeze", "set_threshold", "collect")
"""The ``gc`` calls that change (or force) what the collector does for the whole process."""


@pytest.fixture
def gc_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every collector switch called while the test runs (the real switch runs too)."""
    was = gc.isenabled()
    calls: list[str] = []
    for name in COLLECTOR_SWITCHES:
        real = getattr(gc, name)

        def spy(*args: object, _name: str = name, _real: object = real) -> object:
            calls.append(_name)
            return _real(*args)  # type: ignore[operator]

        monkeypatch.setattr(gc, name, spy)
    yield calls
    monkeypatch.undo()
    if was:
        gc.enable()
    else:
        gc.disable()


def _project(tmp_path: Path) -> RuleweaveConfig:
    (tmp_path / "repo/.git").mkdir(parents=True)
    rules = tmp_path / "repo/.cursor/rules"
    rules.mkdir(parents=True)
    (rules / "style.mdc").write_text("---\nalwaysApply: true\n---\nBe brief.\n", encoding="utf-8")
    (rules / "python.mdc").write_text("---\nglobs: '**/*.py'\n---\nUse type hints.\n", encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    return RuleweaveConfig(cwd=tmp_path / "repo", home=home, builtin_rules=False)


@pytest.mark.parametrize("enabled", [True, False])
def test_load_and_a_session_never_switch_the_collector(
    tmp_path: Path, gc_calls: list[str], enabled: bool
) -> None:
    """Loading, prompting and a tool call's notice call no gc switch, and the collector stays as set."""
    gc.enable() if enabled else gc.disable()
    gc_calls.clear()
    ruleset = RuleSet.load(_project(tmp_path))
    session = ruleset.session("s")
    assert "Be brief." in session.system_prompt()
    notice = session.after_tool_call("read_file", {"path": "src/app.py"}, call_id="c1")
    assert notice is not None and "Use type hints." in notice.text
    assert gc_calls == []
    assert gc.isenabled() is enabled


def test_the_spy_sees_a_switch(gc_calls: list[str]) -> None:
    """The spy records a switch made through the gc module (so an empty record means something)."""
    gc.disable()  # the fixture switches it back as it found it
    assert gc_calls == ["disable"]


def test_a_failed_load_leaves_the_collector_alone(tmp_path: Path, gc_calls: list[str]) -> None:
    """A load that raises (a store URL with an unknown scheme) calls no gc switch either."""
    gc.enable()
    gc_calls.clear()
    config = _project(tmp_path).replace(store="nosuch://x")
    with pytest.raises(StoreError):
        RuleSet.load(config)
    assert gc_calls == []
    assert gc.isenabled()
