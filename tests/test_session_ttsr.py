"""Streamed rules through RuleSession: watch, turn_start, repeat state in the store, events."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from tests.conftest import WriteTree

RULES = {
    ".ruleweave/rules/no-todo.md": (
        "---\ndescription: No TODO comments\ncondition: '(?i)\\btodo\\b'\nscope: text, thinking\n---\n"
        "Do not leave TODO comments; finish the work or open an issue."
    ),
    ".ruleweave/rules/no-any.md": (
        "---\ncondition: ':\\s*any\\b'\nscope: tool:write(**/*.ts)\ninterruptMode: never\n---\n"
        "Avoid any."
    ),
}


def load(root: Path, **options: Any) -> RuleSet:
    return RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False, **options))


def test_watch_interrupts_across_deltas_once_per_session(write_tree: WriteTree) -> None:
    """A match split over deltas interrupts once; the same session never fires it again."""
    root = write_tree(RULES)
    ruleset = load(root)
    assert "no-todo" not in ruleset.prompt_parts().text
    session = ruleset.session("s")
    assert session.watch("text", "I will add a To") is None
    hit = session.watch("text", "Do here later")
    assert hit is not None and hit.interrupt
    assert [r.name for r in hit.rules] == ["no-todo"]
    assert "Do not leave TODO comments" in hit.text
    session.turn_start()
    assert session.watch("text", "another todo") is None
    assert ruleset.session("other").watch("thinking", "todo") is not None


def test_repeat_state_lives_in_the_store(write_tree: WriteTree) -> None:
    """Two session objects over one store and id share the once-per-session state."""
    root = write_tree(RULES)
    ruleset = load(root)
    store = MemoryStore()
    assert ruleset.session("s", store=store).watch("text", "todo") is not None
    assert ruleset.session("s", store=store).watch("text", "todo") is None


def test_non_interrupting_tool_rule_gives_a_reminder(write_tree: WriteTree) -> None:
    """A never-interrupt tool rule returns reminder text to append to the tool result."""
    root = write_tree(RULES)
    session = load(root).session("s")
    args = {"file_path": "src/a.ts", "content": "let x: any = 1"}
    assert session.watch("tool", '{"file_path": "src/a.py", "content": "x: any"}', tool="write",
                         call_id="c0", args={"file_path": "src/a.py", "content": "x: any"}) is None
    hit = session.watch("tool", json.dumps(args), tool="write", call_id="c1", args=args)
    assert hit is not None and not hit.interrupt
    assert "Avoid any." in hit.text


def test_async_twins_and_event(write_tree: WriteTree, tmp_path: Path) -> None:
    """awatch/aturn_start work and a hit is logged as a ttsr event."""
    root = write_tree(RULES)
    log = tmp_path / "events.jsonl"
    session = load(root, event_log=log).session("s")

    async def main() -> bool:
        await session.aturn_start()
        hit = await session.awatch("text", "a TODO")
        return hit is not None and hit.interrupt

    assert asyncio.run(main())
    events = [json.loads(line) for line in log.read_text().splitlines()]
    ttsr = [e for e in events if e["event"] == "ttsr"]
    assert len(ttsr) == 1 and ttsr[0]["rules"] == ["no-todo"] and ttsr[0]["interrupt"] is True
