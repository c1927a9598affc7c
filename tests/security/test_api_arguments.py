"""Point 14: wrong argument types are clear RuleweaveErrors, echoes are capped, logging is guarded."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from ruleweave.errors import ArgumentTypeError, RuleNotFound, RuleweaveError
from ruleweave.testing import capture_events
from tests.conftest import WriteTree
from tests.security.helpers import load

FILES = {
    ".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nTyped Python.",
    ".ruleweave/rules/t.md": "---\ncondition: danger\n---\nStreamed.",
    ".ruleweave/skill.spec.yml": (
        "schema: skillspec/v0\nid: s\ntitle: S\ndescription: d\n"
        "routes:\n  - id: r\n    rank: 1\n"
    ),
}
MEGABYTE = "n" * 1_000_000


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.resolve(None),
        lambda s: s.resolve(42),
        lambda s: s.resolve(b"\x00" * 1_000_000),
        lambda s: s.watch("text", None),
        lambda s: s.watch("tool", b"{}", tool="edit"),
        lambda s: s.watch("tool", "{}", tool=7),
        lambda s: s.steer(None),
        lambda s: s.steer("hi", facts=["x"]),
        lambda s: s.after_tool_call(None, {"path": "a.py"}),
        lambda s: s.after_tool_call("read", {"path": "a.py"}, call_id=3),
        lambda s: s.check_tool(b"bash", {}),
    ],
    ids=["resolve None", "resolve 42", "resolve bytes", "watch None", "watch bytes", "watch tool 7",
         "steer None", "steer facts list", "after None", "after call_id 3", "check bytes"],
)
def test_wrong_argument_types_raise_a_clear_capped_error(write_tree: WriteTree, call: Any) -> None:
    """Each raises ArgumentTypeError (a RuleweaveError and a TypeError) whose message stays short."""
    session = load(write_tree(FILES)).session("s")
    with pytest.raises(ArgumentTypeError) as caught:
        call(session)
    assert isinstance(caught.value, RuleweaveError) and isinstance(caught.value, TypeError)
    assert len(str(caught.value)) < 400


def test_a_megabyte_rule_name_is_not_echoed_whole(write_tree: WriteTree) -> None:
    """rule://<1 MB name> raises RuleNotFound with a capped message and logs a capped name."""
    session = load(write_tree(FILES)).session("s")
    with capture_events() as events, pytest.raises(RuleNotFound) as caught:
        session.resolve("rule://" + MEGABYTE)
    assert len(str(caught.value)) < 1_000
    [resolved] = [e for e in events if e["event"] == "resolve"]
    assert len(resolved["name"]) <= 1_000 and resolved["found"] is False


class Raising(Mapping[str, Any]):
    """Tool arguments that raise whenever they are read."""

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("boom")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("boom")

    def __len__(self) -> int:
        raise RuntimeError("boom")


def test_a_mapping_that_raises_does_not_escape_through_event_logging(write_tree: WriteTree) -> None:
    """after_tool_call and check_tool with a mapping whose reads raise return, and the events are logged."""
    session = load(write_tree(FILES)).session("s")
    with capture_events() as events:
        assert session.after_tool_call("read", Raising()) is None
        assert session.check_tool("read", Raising()) is None
    assert [e["event"] for e in events] == ["tool_touch", "tool_check"]
