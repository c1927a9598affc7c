"""Decisions remembered by their rules' outcomes: equal to fresh ones, read-only, bounded.

``decide`` keeps one decision per spec and outcome (``algebra.outcomes``: the phrase each
rule found, each fact's value and source, each ``x-`` result) and hands out copies carrying
the new input. A key that left something out would hand one input another input's
decision: every decision here is compared with one made by a spec that remembers nothing.
"""

from __future__ import annotations

import copy
import itertools
import json
import pickle
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

import ruleweave.steering.evaluate as evaluate_module
from ruleweave.steering import Decision, SkillSpec, decide, load_spec, write_trace
from tests.steering.helpers import load

BODY = """\
closures:
  draft: {}
rules:
  - id: notes
    when:
      user_says_any: [release notes, changelog]
    prefer: local_cli
    allow:
      tools: [git, gh]
      limits: {pages: 2}
    after_success: [draft]
    reason: Notes start locally.
  - id: publish
    when:
      user_says_all_groups: [[publish, ship], [now, today]]
    forbid: [git_push]
    reason: Publishing is public.
  - id: long
    when:
      command_likely_long_running: true
    route_order: [browser, local_cli]
  - id: prod
    when:
      user_says_any: [deploy]
      x-prod: true
    prefer: browser
    allow:
      tools: [kubectl]
"""

FRAGMENTS = ("release notes", "changelog", "publish", "ship", "now", "today", "build", "deploy", "prod")

FACTS: tuple[Mapping[str, bool] | None, ...] = (
    None,
    {"command_likely_long_running": True},
    {"command_likely_long_running": False},
    {"x-prod": True},
)

PREDICATES: tuple[Mapping[str, Callable[[str, Any], bool]] | None, ...] = (
    None,
    {"x-prod": lambda text, declared: ("prod" in text) is declared},
)


def texts() -> list[str]:
    """Every input of up to three fragments (in both orders for pairs)."""
    out = [""]
    for size in (1, 2, 3):
        out.extend(" and ".join(combo) for combo in itertools.permutations(FRAGMENTS, size) if size < 3
                   or combo[0] < combo[1] < combo[2])
    return out


def same(warm: Decision, fresh: Decision) -> None:
    """Two decisions equal in every field, in JSON and in the trace a file would hold."""
    assert warm == fresh
    assert warm.model_dump() == fresh.model_dump()
    assert warm.to_json() == fresh.to_json()
    assert [event.payload() for event in warm.trace] == [event.payload() for event in fresh.trace]
    assert [event.detail for event in warm.trace] == [event.detail for event in fresh.trace]


@pytest.fixture
def spec(tmp_path: Path) -> SkillSpec:
    return load(tmp_path, BODY)


def test_remembered_decisions_equal_fresh_ones(spec: SkillSpec) -> None:
    """Over every input, fact and predicate mix: the remembered decision is the fresh one."""
    inputs = texts()
    assert len(inputs) > 150
    for facts, predicates in itertools.product(FACTS, PREDICATES):
        for text in inputs:
            warm = decide(spec, text, facts, predicates=predicates)
            fresh = decide(spec.model_copy(), text, facts, predicates=predicates)  # a spec of its own
            assert warm.input == text and warm.trace[0].data == {"input": text}
            same(warm, fresh)


def test_inputs_with_equal_outcomes_share_one_decision(spec: SkillSpec) -> None:
    """Two inputs whose rules come out the same share the events after the input; a different
    phrase found, or a fact from another source, is another decision."""
    first = decide(spec, "write the release notes")
    again = decide(spec, "the release notes, please")
    assert first.input != again.input and first.trace[0] is not again.trace[0]
    assert all(a is b for a, b in zip(first.trace[1:], again.trace[1:], strict=True))
    other_phrase = decide(spec, "the changelog")
    assert other_phrase.trace[2] is not first.trace[2]
    assert other_phrase.trace[2].detail == {"checks": {"user_says_any": "changelog"}}
    by_caller = decide(spec, "build it", {"command_likely_long_running": True})
    by_heuristic = decide(spec, "build it")
    assert by_heuristic.facts == by_caller.facts == {"command_likely_long_running": True}
    sources = [
        event.detail["checks"]["command_likely_long_running"]["source"]
        for decision in (by_caller, by_heuristic)
        for event in decision.trace
        if event.rule == "long" and event.event == "rule_evaluated"
    ]
    assert sources == ["caller", "heuristic"]


def test_decisions_are_read_only_and_copy(spec: SkillSpec, tmp_path: Path) -> None:
    """Changing a shared part raises instead of changing the next decision; copies, pickles,
    JSON and trace files still work."""
    decision = decide(spec, "release notes")
    with pytest.raises(TypeError, match="read-only"):
        decision.allow["tools"].append("rm")
    with pytest.raises(TypeError, match="read-only"):
        decision.allow["more"] = 1  # type: ignore[index]
    with pytest.raises(TypeError, match="read-only"):
        decision.trace[-1].data["route"] = "browser"  # type: ignore[index]
    with pytest.raises(TypeError, match="read-only"):
        decision.forbidden_by.update({"x": "y"})  # type: ignore[attr-defined]
    assert decide(spec, "the release notes").allow == {"tools": ["git", "gh"], "limits": {"pages": 2}}
    twins = (copy.deepcopy(decision), pickle.loads(pickle.dumps(decision)), decision.model_copy(deep=True))
    for twin in twins:
        assert twin == decision
        with pytest.raises(TypeError):
            twin.allow["tools"].append("rm")
    as_json = json.loads(json.dumps(decision.to_json()))
    assert as_json["allow"] == {"limits": {"pages": 2}, "tools": ["git", "gh"]}
    assert Decision.model_validate_json(decision.model_dump_json()) == decision
    assert write_trace(decision, spec, tmp_path / "traces").event_count == len(decision.trace)


def test_remembered_decisions_are_bounded(spec: SkillSpec, monkeypatch: pytest.MonkeyPatch) -> None:
    """At most ``DECISIONS_PER_SPEC`` are kept: the first made is forgotten first, and every
    decision stays right."""
    monkeypatch.setattr(evaluate_module, "DECISIONS_PER_SPEC", 3)
    outcomes = ["", "release notes", "changelog", "publish now", "deploy"]
    first = decide(spec, outcomes[0])
    assert decide(spec, outcomes[0]).trace[-1] is first.trace[-1]
    for text in outcomes[1:]:
        same(decide(spec, text), decide(spec.model_copy(), text))
    assert decide(spec, outcomes[0]).trace[-1] is not first.trace[-1]  # forgotten, made again
    latest = decide(spec, outcomes[-1])
    assert decide(spec, outcomes[-1]).trace[-1] is latest.trace[-1]


def test_remembered_trace_events_are_bounded(spec: SkillSpec, monkeypatch: pytest.MonkeyPatch) -> None:
    """The decisions kept hold at most ``TRACE_EVENTS_PER_SPEC`` events: older ones go first, and
    a decision heavier than the bound alone is made afresh each time."""
    light, middle, heavy = "", "changelog", "release notes, publish now, deploy and build"
    weights = [len(decide(spec.model_copy(), text).trace) for text in (light, middle, heavy)]
    bound = weights[1] + 1  # the middle one fits alone, not beside the light one; the heavy never
    assert weights[0] + weights[1] > bound and weights[2] > bound
    monkeypatch.setattr(evaluate_module, "TRACE_EVENTS_PER_SPEC", bound)
    first = decide(spec, light)
    assert decide(spec, light).trace[-1] is first.trace[-1]
    made = decide(spec, heavy)
    same(made, decide(spec.model_copy(), heavy))
    assert decide(spec, heavy).trace[-1] is not made.trace[-1]  # too heavy to keep
    assert decide(spec, light).trace[-1] is first.trace[-1]  # and it pushed nothing out
    other = decide(spec, middle)  # the light one goes to make room
    assert decide(spec, middle).trace[-1] is other.trace[-1]
    assert decide(spec, light).trace[-1] is not first.trace[-1]


EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "specs"
WORDS = ("browse", "research", "repo", "in sync", "release notes", "publish", "weekly", "login", "deploy",
         "changelog", "social profile", "test")


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.skill.spec.yml")), ids=lambda p: p.name)
def test_example_specs_remember_what_they_decide(path: Path) -> None:
    """The shipped specs (with and without rules that read facts): remembered equals fresh."""
    spec = load_spec(path)
    for a, b in itertools.permutations(WORDS, 2):
        text = f"please {a} and {b}"
        same(decide(spec, text), decide(spec.model_copy(), text))
