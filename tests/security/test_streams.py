"""Point 3: deeply nested streamed tool arguments cost time linear in what was streamed."""

from __future__ import annotations

from ruleweave.ttsr import TtsrHit
from tests.conftest import WriteTree
from tests.security.helpers import HANG, load, returns_within

EDIT_RULE = "---\ncondition: 'eval\\('\nscope: tool:edit(**/*.py)\n---\nNever eval."


def test_one_delta_nested_100000_deep_returns(write_tree: WriteTree) -> None:
    """``watch("tool", "[" * 100_000)`` returns (it took 103 s when every bracket rebuilt the closers)."""
    root = write_tree({".ruleweave/rules/no-eval.md": EDIT_RULE})
    session = load(root, builtin_rules=True).session("s")
    hit = returns_within(HANG, lambda: session.watch("tool", "[" * 100_000, tool="edit", call_id="c"))
    assert hit is None


def test_nesting_streamed_one_bracket_at_a_time_returns_and_still_matches(write_tree: WriteTree) -> None:
    """Twenty thousand one-character deltas of nesting return, and a later match in the call still fires."""
    root = write_tree({".ruleweave/rules/no-eval.md": EDIT_RULE})
    session = load(root).session("s")

    def stream() -> TtsrHit | None:
        session.watch("tool", '{"file_path": "a.py", "content": ', tool="edit", call_id="c")
        for _ in range(20_000):
            session.watch("tool", "[", tool="edit", call_id="c")
        return session.watch("tool", '"eval(x)"', tool="edit", call_id="c")

    hit = returns_within(HANG, stream)
    assert hit is not None and [rule.name for rule in hit.rules] == ["no-eval"]
