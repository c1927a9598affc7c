"""``Channel.search``: the combined re2 set finds exactly what each condition finds alone."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleweave.config import RuleweaveConfig
from ruleweave.rules import Rule, SourceMeta
from ruleweave.ttsr import TtsrIndex

PATTERNS = ("ab{1,4}c", "(?i)xy", r"\bcd\b", "^ab", "c$", r"(?m)^b", "a\nb", r"(?m)d$", "x", r"\Bb")
"""Anchors at both ends, boundaries, flags and a one-character condition, watched together."""


def _index() -> TtsrIndex:
    config = RuleweaveConfig(cwd=Path("/"), project_root=Path("/"), ttsr_window=16)
    meta = SourceMeta(provider="native", priority=100, level="project", path="/r.md")
    rules = [
        Rule(name=f"r{i}", path=f"/r{i}.md", content="x", condition=(p,), source=meta)
        for i, p in enumerate(PATTERNS)
    ]
    return TtsrIndex.build(rules, config)


INDEX = _index()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(window=st.text(alphabet="abcdxyAXY \n", max_size=40), pos=st.integers(min_value=0, max_value=1))
def test_the_set_reports_what_searching_each_condition_finds(window: str, pos: int) -> None:
    """Through the set (its end-of-window sentinel, its fast no-match path) or one by one, same matches."""
    channel = INDEX.channel("text")
    assert channel.regex_set is not None and len(channel.regexes) == len(PATTERNS)
    one_by_one = dataclasses.replace(channel, regex_set=None)
    got = [(w.rule, text) for w, text in channel.search(window, pos, set())]
    assert got == [(w.rule, text) for w, text in one_by_one.search(window, pos, set())]


def test_a_scan_without_the_sentinel_searches_every_condition() -> None:
    """When re2 reports nothing at all (as it does when it gives up), each condition is searched."""

    class GaveUp:
        def Match(self, _text: str) -> None:  # re2.Set's spelling
            return None

    channel = dataclasses.replace(INDEX.channel("text"), regex_set=GaveUp())
    found = channel.search(" xy cd ", 0, set())
    assert [INDEX.compiled[w.rule].rule.name for w, _ in found] == ["r1", "r2", "r8"]
