"""Phrase matching and the task-fact heuristics."""

from __future__ import annotations

import pytest

from ruleweave.errors import ConfigError
from ruleweave.steering import DEFAULT_HEURISTICS, KeywordHeuristic, says
from ruleweave.steering.facts import FactBook, resolve_facts, says_any


def test_phrases_match_at_word_boundaries_only() -> None:
    """``sync`` matches the word but not part of ``syncing`` or ``resync``."""
    assert says("is it in sync?", "sync")
    assert not says("syncing now", "sync")
    assert not says("resync now", "sync")


def test_word_characters_are_ascii_as_in_the_reference() -> None:
    """Only ASCII letters, digits and ``_`` continue a word, so CJK or accented neighbours are boundaries."""
    assert says("repoを同期して", "repo")
    assert says("the repoé", "repo")
    assert says("sync « repo »", "repo")
    assert not says("my_repo", "repo")
    assert not says("repo2", "repo")


def test_matching_is_case_insensitive() -> None:
    """Upper-case input matches a lower-case phrase and vice versa."""
    assert says("BROWSE the page", "browse")
    assert says("browse the page", "Browse")


def test_trailing_plural_s_is_allowed() -> None:
    """A phrase matches its plural; the whole phrase, including inner words, must match."""
    assert says("browse each committer social profiles", "social profile")
    assert says("open the tickets", "ticket")
    assert not says("open the ticketing tool", "ticket")


def test_phrase_ending_in_s_gets_no_extra_plural() -> None:
    """A phrase already ending in s matches itself only."""
    assert says("check the status", "status")
    assert not says("check the statuss", "status")


def test_inner_spaces_are_literal() -> None:
    """A phrase's spaces match only the same spaces, as in the reference (no other whitespace)."""
    assert says("is the repo in sync", "in sync")
    assert not says("is the repo in\n  sync", "in sync")
    assert not says("is the repo in  sync", "in sync")


def test_empty_phrase_never_matches() -> None:
    """A blank phrase matches nothing."""
    assert not says("anything", "   ")


def test_phrases_may_hold_punctuation() -> None:
    """Punctuation inside a phrase is matched literally."""
    assert says("run git push --force now", "push --force")
    assert says_any("what is c++ for", ["rust", "c++"]) == "c++"


def test_default_heuristics_follow_the_documented_keywords() -> None:
    """Each heuristic is true for one of its keywords and false for unrelated text."""
    cases = {
        "task_recurrence_likely": "do this every week",
        "domain_object_task": "triage the open tickets",
        "interactive_prompt_likely": "it will ask for my password",
        "command_likely_long_running": "run the build",
    }
    for name, text in cases.items():
        assert DEFAULT_HEURISTICS[name](text), name
        assert not DEFAULT_HEURISTICS[name]("say hello"), name


def test_keyword_heuristic_is_a_replacement_builder() -> None:
    """A KeywordHeuristic matches its own keywords like user_says_any."""
    heuristic = KeywordHeuristic(("nightly", "cron job"))
    assert heuristic("set up the nightly cron jobs")
    assert not heuristic("run it once")


def test_caller_facts_win_over_heuristics() -> None:
    """A fact the caller gives is used as is and marked as coming from the caller."""
    facts = resolve_facts("run the build", {"command_likely_long_running": False})
    assert facts["command_likely_long_running"].value is False
    assert facts["command_likely_long_running"].source == "caller"
    assert facts["task_recurrence_likely"].source == "heuristic"


def test_replacement_heuristics_are_used() -> None:
    """A heuristic passed by name replaces the default for that fact only."""
    facts = resolve_facts("hello", heuristics={"domain_object_task": lambda text: True})
    assert facts["domain_object_task"].value is True
    assert facts["task_recurrence_likely"].value is False


def test_heuristics_run_lazily_and_once() -> None:
    """A fact book calls a heuristic only when asked, and only once."""
    calls: list[str] = []

    def counting(text: str) -> bool:
        calls.append(text)
        return True

    book = FactBook("x", heuristics={"domain_object_task": counting})
    assert calls == []
    book.get("domain_object_task")
    book.get("domain_object_task")
    assert calls == ["x"]


def test_unknown_fact_names_and_bad_values_are_rejected() -> None:
    """Typos in fact or heuristic names, and non-boolean facts, raise ConfigError."""
    with pytest.raises(ConfigError):
        FactBook("x", {"task_recurence_likely": True})
    with pytest.raises(ConfigError):
        FactBook("x", heuristics={"x-custom": lambda text: True})
    with pytest.raises(ConfigError):
        FactBook("x", {"domain_object_task": "yes"})  # type: ignore[dict-item]


def test_x_facts_pass_through() -> None:
    """Facts named x-… are accepted and kept for x- predicates."""
    book = FactBook("x", {"x-ticket_open": True})
    fact = book.get("x-ticket_open")
    assert fact is not None and fact.value is True
    assert book.get("x-other") is None
