"""TTSR routing in the core: retry while the turn has retries, then append; refuse whole calls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleSet, RuleweaveConfig, TtsrAction
from ruleweave.store import MemoryStore
from tests.conftest import WriteTree

RULES = {
    ".ruleweave/rules/no-var.md": "---\ncondition: '\\bvar\\b'\nrepeat: after-gap 0\n---\nUse const.",
    ".ruleweave/rules/no-eval.md": "---\ncondition: 'eval\\('\nrepeat: after-gap 0\n---\nNo eval.",
    ".ruleweave/rules/no-exec.md": "---\ncondition: 'exec\\('\nrepeat: after-gap 0\n---\nNo exec.",
    ".ruleweave/rules/quiet.md": (
        "---\ncondition: 'TODO'\ninterruptMode: never\nrepeat: after-gap 0\n---\nNo TODOs."
    ),
}


@pytest.fixture
def root(write_tree: WriteTree) -> Path:
    return write_tree(RULES)


def load(root: Path, **options: Any) -> RuleSet:
    return RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False, **options))


def test_retries_are_counted_per_turn_then_hits_append(root: Path) -> None:
    """With two retries a turn, the third interrupting hit of the turn becomes a reminder."""
    session = load(root).session("s")
    session.turn_start()
    actions = []
    for text in ("so var x", "then eval(y)", "and exec(z)"):
        hit = session.watch("text", text)
        assert hit is not None
        actions.append(session.route(hit))
        session.watch("text", "\n")
    assert [r.action for r in actions] == [TtsrAction.RETRY, TtsrAction.RETRY, TtsrAction.APPEND]
    assert [r.attempt for r in actions] == [1, 2, 0]
    assert "Use const." in actions[0].text
    session.turn_start()
    hit = session.watch("text", "var again")
    assert hit is not None and session.route(hit).action is TtsrAction.RETRY


def test_retry_count_lives_in_the_store(root: Path) -> None:
    """A new session object on the same store continues the turn's count (a restarted worker)."""
    ruleset = load(root, ttsr_retries=1)
    store = MemoryStore()
    first = ruleset.session("s", store=store)
    first.turn_start()
    hit = first.watch("text", "var a")
    assert hit is not None and first.route(hit).action is TtsrAction.RETRY
    second = ruleset.session("s", store=store)
    hit = second.watch("text", "eval(b)")
    assert hit is not None and second.route(hit).action is TtsrAction.APPEND


def test_an_appended_reminder_lands_on_the_next_tool_result(root: Path) -> None:
    """A non-interrupting prose hit is appended by after_tool_call, once."""
    session = load(root).session("s")
    hit = session.watch("text", "leave a TODO here")
    assert hit is not None
    routed = session.route(hit)
    assert routed.action is TtsrAction.APPEND and routed.call_id is None
    injection = session.after_tool_call("read", {"path": "README.md"}, call_id="c1")
    assert injection is not None
    assert "No TODOs." in injection.text
    assert [(i.kind, i.name) for i in injection.items] == [("ttsr", "quiet")]
    assert session.after_tool_call("read", {"path": "README.md"}, call_id="c2") is None


def test_a_tool_stream_reminder_waits_for_its_own_call(root: Path) -> None:
    """A reminder from call c1's stream is appended to c1's result, not another call's."""
    session = load(root).session("s")
    hit = session.watch("tool", '{"content": "TODO"}', tool="write", call_id="c1")
    assert hit is not None and session.route(hit).call_id == "c1"
    assert session.after_tool_call("read", {"path": "a.md"}, call_id="c2") is None
    mine = session.after_tool_call("write", {"path": "a.md"}, call_id="c1")
    assert mine is not None and "No TODOs." in mine.text


def test_before_tool_call_refuses_a_whole_call_that_interrupts(root: Path) -> None:
    """A complete call matching an interrupting rule is refused with the rule's text."""
    session = load(root).session("s")
    refusal = session.before_tool_call("write", {"path": "a.js", "content": "var a = 1"}, call_id="c1")
    assert refusal is not None
    assert "Use const." in refusal.message
    assert refusal.rule == "no-var"


def test_retries_zero_never_retries(root: Path) -> None:
    """With ttsr_retries=0 an interrupting hit is appended straight away."""
    session = load(root, ttsr_retries=0).session("s")
    hit = session.watch("text", "var z")
    assert hit is not None and session.route(hit).action is TtsrAction.APPEND


def test_async_route_counts_the_same(root: Path) -> None:
    """aroute spends the same per-turn budget as route."""
    import asyncio

    session = load(root, ttsr_retries=1).session("s")

    async def main() -> list[TtsrAction]:
        await session.aturn_start()
        out = []
        for text in ("var q ", "eval(r)"):
            hit = await session.awatch("text", text)
            assert hit is not None
            out.append((await session.aroute(hit)).action)
            await session.awatch("text", "\n")
        return out

    assert asyncio.run(main()) == [TtsrAction.RETRY, TtsrAction.APPEND]
