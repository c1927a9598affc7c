"""The event schema is what sessions log: every event documented, every field as documented."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig, StoreError
from ruleweave.events import EVENTS, check_event
from ruleweave.testing import capture_events
from tests.conftest import WriteTree

SPECS = Path(__file__).resolve().parent.parent / "examples" / "specs"


class BrokenStore(MemoryStore):
    """A store whose claims fail, as a restarted Redis or a full disk would, until it is mended."""

    broken = True

    def claim_many(
        self, session_id: str, keys: Sequence[str], *, call_id: str | None = None,
        records: Sequence[str] = (),
    ) -> list[bool]:
        if self.broken:
            raise StoreError("The store at redis://127.0.0.1:1/0 cannot be reached.")
        return super().claim_many(session_id, keys, call_id=call_id, records=records)


@pytest.fixture
def root(write_tree: WriteTree) -> Path:
    root = write_tree({
        ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\n---\nStrict.",
        ".ruleweave/rules/no-var.md": "---\ncondition: '\\bvar\\b'\n---\nUse const.",
        "src/app.ts": "x",
    })
    shutil.copy(SPECS / "web-research.skill.spec.yml", root / ".ruleweave" / "skill.spec.yml")
    return root


def test_every_event_a_session_logs_matches_the_schema(root: Path) -> None:
    """A session driven through every public call logs each documented event, as documented."""
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False))
    with capture_events() as events:
        session = ruleset.session("s", adapter="test")
        session.system_prompt()
        session.steer("browse the changelog page")
        session.check_tool("bash", {"command": "ls"})
        session.turn_start()
        hit = session.watch("text", "var x")
        assert hit is not None
        session.route(hit)
        session.after_tool_call("read", {"path": "src/app.ts"}, call_id="c1")
        session.forget_calls(["c1"])
        session.compacted()
        session.resolve("rule://ts")
        ruleset.session("t", store=BrokenStore()).after_tool_call("read", {"path": "src/app.ts"})
    assert {e["event"] for e in events} == set(EVENTS)
    assert all(e["session"] in ("s", "t") for e in events)
    [start] = [e for e in events if e["event"] == "session_start" and e["session"] == "s"]
    assert start["adapter"] == "test"


def test_a_failing_store_fails_open(root: Path) -> None:
    """A store error mid-session gives no notice and a store_error event, and the next call retries."""
    store = BrokenStore()
    session = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False)).session("s", store=store)
    with capture_events() as events:
        assert session.after_tool_call("read", {"path": "src/app.ts"}) is None
    [error] = [e for e in events if e["event"] == "store_error"]
    assert error["operation"] == "claim" and "cannot be reached" in error["error"]
    store.broken = False  # the store comes back
    assert session.after_tool_call("read", {"path": "src/app.ts"}) is not None


def test_capture_fails_on_an_undocumented_event(root: Path) -> None:
    """capture_events() raises when an event strays from the schema."""
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False))
    with pytest.raises(AssertionError, match="undocumented field 'surprise'"), capture_events():
        ruleset.events.emit("prompt", session="s", prompt_sha256="", prompt_bytes=0, surprise=1)


def test_check_event_names_each_problem() -> None:
    """check_event lists unknown events, missing and extra fields."""
    assert check_event("nope", {"session": "s"}) == ["Unknown event 'nope'."]
    missing = check_event("resolve", {"session": "s", "name": "x"})
    assert missing == ["Event 'resolve' lacks the field 'found'."]
    assert check_event("compacted", {"session": "s"}) == []


def test_docs_link_the_schema() -> None:
    """The events page (docs/replay.md) points to the event schema module."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "replay.md").read_text(encoding="utf-8")
    assert "middleware/events.py" in page
