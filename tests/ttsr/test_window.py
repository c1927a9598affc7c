"""The bounded look-back: per-delta work stays flat, and no match up to ``W`` chars is missed."""

from __future__ import annotations

from pathlib import Path

import re2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleweave.config import RuleweaveConfig
from ruleweave.rules import Rule, SourceMeta
from ruleweave.store import MemoryStore
from ruleweave.ttsr import TtsrIndex, TtsrWatcher
from tests.conftest import WriteTree
from tests.ttsr.helpers import feed, load, names, rule

PATTERNS = ("ab{1,4}c", "(?i)xy", r"\bcd\b", "^ab", "c$", r"(?m)^b", "a\nb")
"""Short patterns (at most 7 characters) covering anchors, boundaries and flags."""


def _first_hit_by_whole_buffer(pattern: str, deltas: list[str]) -> int | None:
    """The delta at which a regex run over the whole buffer first matches (the reference)."""
    regex = re2.compile(pattern)
    buffer = ""
    for index, delta in enumerate(deltas):
        buffer += delta
        if regex.search(buffer) is not None:
            return index
    return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(alphabet="abcdxyAXY \n", min_size=0, max_size=120),
    cuts=st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=40),
    pattern=st.sampled_from(PATTERNS),
)
def test_fires_exactly_where_a_whole_buffer_search_first_matches(
    text: str, cuts: list[int], pattern: str
) -> None:
    """With ``W`` = 16, the watcher fires at the same delta as re2 over the whole buffer."""
    deltas: list[str] = []
    rest, turn = text, 0
    while rest:
        size = cuts[turn % len(cuts)]
        deltas.append(rest[:size])
        rest, turn = rest[size:], turn + 1
    expected = _first_hit_by_whole_buffer(pattern, deltas)
    config = RuleweaveConfig(cwd=Path("/"), project_root=Path("/"), ttsr_window=16)
    meta = SourceMeta(provider="native", priority=100, level="project", path="/r.md")
    watched = Rule(name="r", path="/r.md", content="x", condition=(pattern,), source=meta)
    watcher = TtsrWatcher(TtsrIndex.build([watched], config), MemoryStore(), "s")
    got = next(
        (i for i, d in enumerate(deltas) if watcher.watch("text", d) is not None), None
    )
    assert got == expected


def test_anchors_and_boundaries_see_the_character_before_the_window(
    write_tree: WriteTree,
) -> None:
    """``^`` never matches at a cut and ``\\b`` sees the character before the look-back window."""
    root = write_tree(
        {
            ".ruleweave/rules/start.md": rule(condition="'^foo'"),
            ".ruleweave/rules/word.md": rule(condition=r"'\bfoo\b'"),
        }
    )
    watcher = load(root, ttsr_window=16).watcher()
    # After this delta the 17-character tail is "xfoo" + 13 y's: 'x' is context only.
    assert watcher.watch("text", "y" * 50 + "xfoo" + "y" * 13) is None
    assert watcher.watch("text", " bar") is None
    assert names(feed(watcher, "text", " foo ")) == ["word"]


def test_a_match_late_in_a_long_stream_is_found(write_tree: WriteTree) -> None:
    """After 300 KB of output a match split across deltas still fires."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'forbidden-word'")})
    watcher = load(root).watcher()
    assert feed(watcher, "text", "lorem ipsum " * 25_000, size=500) == []
    assert names(feed(watcher, "text", "a forbidden-word", size=3)) == ["r"]


def test_window_bounds_the_length_of_a_guaranteed_match(write_tree: WriteTree) -> None:
    """A match longer than ``W`` that arrives in small deltas is outside the guarantee."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'BEGIN[a-z]*END'")})
    stream = "BEGIN" + "x" * 40 + "END"
    assert feed(load(root, ttsr_window=16).watcher(), "text", stream, size=4) == []
    assert names(feed(load(root, ttsr_window=64).watcher(), "text", stream, size=4)) == ["r"]
    assert names(feed(load(root, ttsr_window=16).watcher(), "text", stream, size=100)) == ["r"]
