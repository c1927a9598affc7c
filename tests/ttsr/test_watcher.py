"""The TTSR watcher end to end: rule files in a tmp repo → index → watcher → hits."""

from __future__ import annotations

import time

import pytest

from ruleweave.rules import Bucket
from ruleweave.ttsr.watcher import MAX_STREAMS
from tests.conftest import WriteTree
from tests.ttsr.helpers import chunks, feed, feed_call, load, names, rule

TODO_RULE = 'condition: "(?i)\\bTODO\\b"\nscope: "text","thinking"\n'


def test_user_report_rule_fires_on_thinking_and_text(write_tree: WriteTree) -> None:
    """The reported rule — ``"(?i)\\bTODO\\b"`` with ``scope: "text","thinking"`` — fires on both."""
    root = write_tree({".ruleweave/rules/no-todo.md": f"---\n{TODO_RULE}---\nNo TODO notes.\n"})
    loaded = load(root)
    assert loaded.buckets.by_rule["no-todo"] is Bucket.TTSR
    [entry] = loaded.index.compiled
    assert [str(e) for e in entry.scope] == ["text", "thinking"]
    thinking = feed(loaded.watcher("a"), "thinking", "I could leave a todo here for later.")
    text = feed(loaded.watcher("b"), "text", "Done. TODO: write the tests.")
    assert names(thinking) == names(text) == ["no-todo"]
    assert thinking[0].matches[0].matched == "todo"
    assert feed(loaded.watcher("c"), "text", "The mastodon photos are here.") == []
    assert feed(loaded.watcher("d"), "tool", "TODO", tool="bash") == []


def test_match_split_across_two_deltas(write_tree: WriteTree) -> None:
    """A match that starts in one delta and ends in the next fires on the second."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'forbidden-word'")})
    watcher = load(root).watcher()
    assert watcher.watch("text", "this is a forbid") is None
    hit = watcher.watch("text", "den-word, split")
    assert hit is not None
    assert hit.matches[0].matched == "forbidden-word"
    assert hit.offset == len("this is a forbidden-word, split")


def test_turn_start_clears_a_half_match(write_tree: WriteTree) -> None:
    """``turn_start()`` drops the buffers, so a half match never completes across turns."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'forbidden-word'")})
    watcher = load(root).watcher()
    assert watcher.watch("text", "a forbid") is None
    watcher.turn_start()
    assert watcher.watch("text", "den-word") is None
    assert watcher.watch("text", " forbidden-word") is not None


def test_ts_scoped_tool_rule_ignores_py_edits_and_prose(write_tree: WriteTree) -> None:
    """A ``tool:edit(**/*.ts)`` rule fires on an edit of a .ts file only."""
    root = write_tree(
        {".ruleweave/rules/no-any.md": rule(condition=r"':\s*any\b'", scope="tool:edit(**/*.ts)")}
    )
    loaded = load(root)
    watcher = loaded.watcher()
    code = "let x: any = 1;\n"
    assert feed(watcher, "text", f"Write `{code}` in the file.") == []
    assert feed_call(watcher, "edit", {"file_path": "src/a.py", "new_string": code}) == []
    assert feed_call(watcher, "write", {"file_path": "src/a.ts", "content": code}, "c2") == []
    hits = feed_call(watcher, "Edit", {"file_path": "src/a.ts", "new_string": code}, "c3")
    assert names(hits) == ["no-any"]
    assert hits[0].matches[0].path == "src/a.ts"
    assert hits[0].call_id == "c3"


def test_separate_tool_calls_keep_separate_buffers(write_tree: WriteTree) -> None:
    """Halves of a match in two different tool calls never join."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'forbidden-word'")})
    watcher = load(root).watcher()
    assert watcher.watch("tool", "forbid", tool="bash", call_id="1") is None
    assert watcher.watch("tool", "den-word", tool="bash", call_id="2") is None
    assert watcher.watch("text", "forbid") is None
    assert watcher.watch("thinking", "den-word") is None


@pytest.mark.parametrize(
    ("mode", "text_interrupts", "tool_interrupts"),
    [
        ("never", False, False),
        ("prose-only", True, False),
        ("tool-only", False, True),
        ("always", True, True),
    ],
)
def test_interrupt_modes(
    write_tree: WriteTree, mode: str, text_interrupts: bool, tool_interrupts: bool
) -> None:
    """Each interrupt mode interrupts exactly the sources it names and reminds otherwise."""
    root = write_tree(
        {".ruleweave/rules/r.md": rule(condition="'rm -rf'", interruptMode=mode, scope="text, tool")}
    )
    loaded = load(root)
    [prose] = feed(loaded.watcher("a"), "text", "then rm -rf it")
    [tool] = feed(loaded.watcher("b"), "tool", '{"command": "rm -rf x"}', tool="bash")
    assert (prose.interrupt, tool.interrupt) == (text_interrupts, tool_interrupts)
    for hit in (prose, tool):
        wording = "was stopped" if hit.interrupt else "What you just wrote"
        assert wording in hit.text


def test_config_interrupt_mode_is_the_default(write_tree: WriteTree) -> None:
    """A rule without ``interruptMode`` takes ``RuleweaveConfig.interrupt_mode``."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'rm -rf'")})
    [hit] = feed(load(root, interrupt_mode="never").watcher(), "text", "rm -rf it")
    assert hit.interrupt is False
    [hit] = feed(load(root).watcher(), "text", "rm -rf it")
    assert hit.interrupt is True


def test_repeat_once_holds_for_the_session_in_its_store(write_tree: WriteTree) -> None:
    """A ``once`` rule fires once per session, also through a new watcher on the same store."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'bad'", interruptMode="never")})
    loaded = load(root)
    watcher = loaded.watcher("s1")
    assert names(feed(watcher, "text", "bad and bad again")) == ["r"]
    watcher.turn_start()
    assert feed(watcher, "text", "bad") == []
    again = loaded.watcher("s1", store=watcher.store)
    assert feed(again, "text", "bad") == []
    other = loaded.watcher("s2", store=watcher.store)
    assert names(feed(other, "text", "bad")) == ["r"]


def test_repeat_after_gap_two_turns(write_tree: WriteTree) -> None:
    """``after-gap 2`` fires at most once a turn and again two turns after it last fired."""
    root = write_tree(
        {".ruleweave/rules/r.md": rule(condition="'bad'", repeat="after-gap 2", interruptMode="never")}
    )
    loaded = load(root)
    watcher = loaded.watcher()
    fired = []
    for _turn in range(6):
        fired.append(len(feed(watcher, "text", "bad, bad, bad", size=3)))
        watcher.turn_start()
    assert fired == [1, 0, 1, 0, 1, 0]
    resumed = loaded.watcher(store=watcher.store)
    assert len(feed(resumed, "text", "bad")) == 1


async def test_async_twins_share_the_repeat_state(write_tree: WriteTree) -> None:
    """``awatch``/``aturn_start`` gate through the store's async methods with the same result."""
    root = write_tree(
        {".ruleweave/rules/r.md": rule(condition="'bad'", repeat="after-gap 1", interruptMode="never")}
    )
    watcher = load(root).watcher()
    first = await watcher.awatch("text", "bad")
    assert first is not None and first.rules[0].name == "r"
    assert await watcher.awatch("text", " bad") is None
    await watcher.aturn_start()
    assert await watcher.awatch("text", "bad") is not None
    assert watcher.store.get("s1", "ttsr:turn") == "1"


def test_catastrophic_pattern_runs_in_linear_time(write_tree: WriteTree) -> None:
    """``(a+)+$`` over a 100 KB stream of ``a…ab`` deltas finishes at once and behaves as a regex."""
    root = write_tree(
        {
            ".ruleweave/rules/redos.md": rule(condition="'(a+)+$'", scope="text"),
            ".ruleweave/rules/gated.md": rule(condition="'(a+)+$'", scope="tool:edit(*.never)"),
        }
    )
    loaded = load(root)
    stream = "a" * 100_000 + "b"
    started = time.monotonic()
    hits = feed(loaded.watcher("t"), "text", stream, size=64)
    # The gated copy matches on every delta but its path gate never opens.
    gated = feed(loaded.watcher("g"), "tool", stream, size=64, tool="edit", args={"path": "a.py"})
    assert time.monotonic() - started < 30  # a hang detector (backtracking never ends), not a benchmark
    assert names(hits) == ["redos"]
    assert hits[0].offset == 64
    assert gated == []


def test_unknown_source_is_a_value_error(write_tree: WriteTree) -> None:
    """A source other than text, thinking or tool is refused."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'x'")})
    with pytest.raises(ValueError, match="source must be one of"):
        load(root).watcher().watch("speech", "x")  # type: ignore[arg-type]


def test_rules_fired_together_are_deduplicated(write_tree: WriteTree) -> None:
    """Two conditions of one rule give one entry; two rules in one delta share one hit."""
    root = write_tree(
        {
            ".ruleweave/rules/a.md": rule(condition="['alpha', 'alp']", interruptMode="never"),
            ".ruleweave/rules/b.md": rule(condition="'beta'", interruptMode="always"),
        }
    )
    [hit] = feed(load(root).watcher(), "text", "alpha beta", size=20)
    assert [r.name for r in hit.rules] == ["a", "b"]
    assert [m.rule for m in hit.matches] == ["a", "b"]
    assert hit.interrupt is True
    assert "rules `a` and `b`" in hit.text


def test_an_interrupt_clears_every_buffer(write_tree: WriteTree) -> None:
    """After an interrupting hit the response is retried, so other half matches are dropped."""
    root = write_tree(
        {
            ".ruleweave/rules/stop.md": rule(condition="'stop-now'"),
            ".ruleweave/rules/half.md": rule(condition="'forbidden-word'"),
        }
    )
    watcher = load(root).watcher()
    assert watcher.watch("thinking", "forbid") is None
    hit = watcher.watch("text", "stop-now")
    assert hit is not None and hit.interrupt
    assert watcher.watch("thinking", "den-word") is None


def test_tool_stream_without_call_id_is_keyed_by_tool_name(write_tree: WriteTree) -> None:
    """Without a call id, deltas of one tool name share a buffer."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'forbidden-word'")})
    watcher = load(root).watcher()
    assert [watcher.watch("tool", d, tool="bash") for d in chunks("forbidden-word", 5)][-1]


def test_a_call_seen_only_whole_is_matched_on_its_arguments(write_tree: WriteTree) -> None:
    """An adapter without argument streaming passes the complete args with an empty delta."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'push --force'", scope="tool")})
    watcher = load(root).watcher()
    hit = watcher.watch("tool", "", tool="bash", call_id="c9", args={"command": "git push --force"})
    assert hit is not None and hit.matches[0].matched == "push --force"
    assert watcher.watch("tool", "", tool="bash", call_id="c9", args={"command": "x"}) is None


def test_old_streams_are_dropped_past_the_cap(write_tree: WriteTree) -> None:
    """Without ``turn_start`` the watcher keeps at most ``MAX_STREAMS`` buffers."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'forbidden-word'")})
    watcher = load(root).watcher()
    assert watcher.watch("tool", "forbid", tool="bash", call_id="first") is None
    for n in range(MAX_STREAMS):
        watcher.watch("tool", "x", tool="bash", call_id=str(n))
    assert watcher.watch("tool", "den-word", tool="bash", call_id="first") is None


def test_odd_text_is_matched_not_raised_on(write_tree: WriteTree) -> None:
    """Lone surrogates and non-ASCII text in deltas are matched like any other text."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'café \\S+ bad'")})
    hit = load(root).watcher().watch("text", "café \ud800 bad")
    assert hit is not None and hit.matches[0].matched == "café \ufffd bad"
