"""The SkillSpec v0 rule algebra: decide()."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleweave.errors import ConfigError
from ruleweave.steering import decide, default_route_order, load_spec
from tests.steering.helpers import load

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "specs"


def test_seed_composition_example(tmp_path: Path) -> None:
    """Repo sync plus social profiles: both rules match, the later one picks the route."""
    spec = load(
        tmp_path,
        """\
        rules:
          - id: local_repo_state_uses_cli
            when:
              user_says_any: [branch, in sync]
            prefer: local_cli
          - id: browse_profiles_uses_browser
            when:
              user_says_any: [social profile]
            prefer: browser
            forbid: [native_search_as_answer]
        """,
    )
    decision = decide(
        spec, "check whether the repo is in sync and browse each committer social profile"
    )
    assert decision.route == "browser"
    assert decision.route_basis == "rule_prefer"
    assert decision.matched_rules == ("local_repo_state_uses_cli", "browse_profiles_uses_browser")
    assert decision.forbid == ("native_search_as_answer",)
    matched_events = [e.rule for e in decision.trace if e.event == "rule_matched"]
    assert matched_events == ["local_repo_state_uses_cli", "browse_profiles_uses_browser"]


def test_shipped_composition_example_decides_the_same() -> None:
    """The composition example under examples/specs reproduces the seed's outcome."""
    spec = load_spec(EXAMPLES / "composition.skill.spec.yml")
    decision = decide(spec, "is it in sync? then browse each committer social profile")
    assert decision.route == "browser"
    assert len(decision.matched_rules) == 2


LONG_AND_QUIET = """\
rules:
  - id: background
    when:
      command_likely_long_running: true
      interactive_prompt_likely: false
    prefer: browser
"""


def test_all_predicates_must_match(tmp_path: Path) -> None:
    """Two task facts AND together: both must hold, either alone is not enough."""
    spec = load(tmp_path, LONG_AND_QUIET)
    both = {"command_likely_long_running": True, "interactive_prompt_likely": False}
    assert decide(spec, "anything", both).matched_rules == ("background",)
    only_long = {"command_likely_long_running": True, "interactive_prompt_likely": True}
    assert decide(spec, "anything", only_long).matched_rules == ()
    only_quiet = {"command_likely_long_running": False, "interactive_prompt_likely": False}
    assert decide(spec, "anything", only_quiet).matched_rules == ()


def test_task_facts_fall_back_to_heuristics(tmp_path: Path) -> None:
    """Without caller facts the keyword heuristics decide, and the trace says so."""
    spec = load(tmp_path, LONG_AND_QUIET)
    assert decide(spec, "run the full test suite").matched_rules == ("background",)
    assert decide(spec, "run the tests, it asks for a password").matched_rules == ()
    decision = decide(spec, "run the full test suite")
    checks = next(e for e in decision.trace if e.event == "rule_evaluated").detail["checks"]
    assert checks["command_likely_long_running"]["source"] == "heuristic"
    assert decision.facts == {
        "command_likely_long_running": True,
        "interactive_prompt_likely": False,
    }


def test_user_says_any_and_facts_combine(tmp_path: Path) -> None:
    """A phrase predicate and a task fact in one rule must both hold."""
    spec = load(
        tmp_path,
        """\
        rules:
          - id: recurring_browse
            when:
              user_says_any: [browse]
              task_recurrence_likely: true
            prefer: browser
        """,
    )
    assert decide(spec, "browse the dashboards every week").matched_rules == ("recurring_browse",)
    assert decide(spec, "browse the dashboards").matched_rules == ()
    assert decide(spec, "every week check it").matched_rules == ()


def test_plural_phrases_match(tmp_path: Path) -> None:
    """A user_says_any phrase matches its plural with a trailing s."""
    spec = load(
        tmp_path,
        "rules:\n  - id: r\n    when: {user_says_any: [pull request]}\n    prefer: browser\n",
    )
    assert decide(spec, "review my Pull Requests").route == "browser"
    assert decide(spec, "review my pull requesting").route == "local_cli"


def test_rule_without_predicate_never_matches(tmp_path: Path) -> None:
    """A rule with no when, or an empty one, does not match any input."""
    spec = load(
        tmp_path,
        """\
        rules:
          - id: no_when
            prefer: browser
          - id: empty_when
            when: {user_says_any: []}
            forbid: [curl]
        """,
    )
    decision = decide(spec, "anything at all")
    assert decision.matched_rules == ()
    assert decision.route == "local_cli"
    assert decision.forbid == ()


def test_lowest_rank_wins_without_prefer(tmp_path: Path) -> None:
    """With no prefer the route is the lowest rank; an unranked route sorts last."""
    spec = load(
        tmp_path,
        """\
        routes:
          - {id: unranked, label: U}
          - {id: second, label: S, rank: 20}
          - {id: first, label: F, rank: 10}
        """,
        routes=False,
    )
    assert default_route_order(spec) == ("first", "second", "unranked")
    decision = decide(spec, "hello")
    assert decision.route == "first"
    assert decision.route_basis == "default_route_order"


def test_later_prefer_overrides_and_route_order_replaces(tmp_path: Path) -> None:
    """prefer is last-wins; route_order replaces the order; the head of a set order is the route."""
    spec = load(
        tmp_path,
        """\
        rules:
          - id: order
            when: {user_says_any: [order]}
            route_order: [browser, local_cli]
          - id: pick
            when: {user_says_any: [pick]}
            prefer: local_cli
        """,
    )
    ordered = decide(spec, "order please")
    assert ordered.route_order == ("browser", "local_cli")
    assert ordered.route == "browser"
    assert ordered.route_basis == "route_order_default"
    both = decide(spec, "order and pick")
    assert both.route == "local_cli"
    assert both.route_order == ("browser", "local_cli")


def test_effects_append_deduplicate_and_merge(tmp_path: Path) -> None:
    """forbid/elicit/after_success keep first occurrences; allow merges with later keys winning."""
    spec = load(
        tmp_path,
        """\
        rules:
          - id: one
            when: {user_says_any: [go]}
            forbid: [curl, raw_playwright]
            allow: {native_search: url_discovery_only, shell: read_only}
            elicit: [mode]
            after_success: [remember]
            reason: First reason.
          - id: two
            when: {user_says_any: [go]}
            forbid: [native_search_as_answer, curl]
            allow: {shell: none}
            elicit: [mode]
            after_success: [share, remember]
        elicitations:
          mode:
            question: Which mode?
            choices: [{id: a, label: A}, {id: b, label: B}]
            default: a
        closures: {remember: {}, share: {}}
        """,
    )
    decision = decide(spec, "go")
    assert decision.forbid == ("curl", "raw_playwright", "native_search_as_answer")
    assert decision.forbidden_by["curl"] == "one"
    assert dict(decision.allow) == {"native_search": "url_discovery_only", "shell": "none"}
    assert decision.elicit_ids == ("mode",)
    assert decision.elicit[0].question == "Which mode?"
    assert [c.id for c in decision.elicit[0].choices] == ["a", "b"]
    assert decision.elicit[0].default == "a"
    assert decision.after_success == ("remember", "share")
    assert [(r.rule, r.reason) for r in decision.reasons] == [("one", "First reason.")]


X_RULE = """\
rules:
  - id: open_ticket
    when:
      user_says_any: [ticket]
      x-ticket_open: true
    prefer: browser
"""


def test_x_predicate_is_false_without_a_function(tmp_path: Path) -> None:
    """An x- predicate nobody evaluates never makes its rule match."""
    spec = load(tmp_path, X_RULE)
    decision = decide(spec, "close the ticket")
    assert decision.matched_rules == ()
    assert decision.route == "local_cli"


def test_x_predicate_uses_the_supplied_function(tmp_path: Path) -> None:
    """The caller's function receives the text and the declared value and decides."""
    spec = load(tmp_path, X_RULE)
    seen: list[tuple[str, Any]] = []

    def ticket_open(text: str, declared: Any) -> bool:
        seen.append((text, declared))
        return declared is True

    decision = decide(spec, "close the ticket", predicates={"x-ticket_open": ticket_open})
    assert decision.matched_rules == ("open_ticket",)
    assert seen == [("close the ticket", True)]
    refused = decide(spec, "close the ticket", predicates={"x-ticket_open": lambda t, v: False})
    assert refused.matched_rules == ()


def test_x_predicate_can_come_from_a_fact(tmp_path: Path) -> None:
    """A boolean x- fact from the caller decides an x- predicate when no function is given."""
    spec = load(tmp_path, X_RULE)
    assert decide(spec, "ticket", {"x-ticket_open": True}).matched_rules == ("open_ticket",)
    assert decide(spec, "ticket", {"x-ticket_open": False}).matched_rules == ()


def test_predicate_functions_must_be_for_x_names(tmp_path: Path) -> None:
    """Passing a function for a standard predicate is a ConfigError."""
    spec = load(tmp_path, X_RULE)
    with pytest.raises(ConfigError):
        decide(spec, "x", predicates={"user_says_any": lambda t, v: True})


def test_trace_records_every_rule_and_the_outcome(tmp_path: Path) -> None:
    """The trace starts with the input, evaluates each rule in order and ends with the outcome."""
    spec = load(tmp_path, X_RULE + "  - id: other\n    when: {user_says_any: [zzz]}\n")
    decision = decide(spec, "ticket")
    events = [e.event for e in decision.trace]
    assert events[:2] == ["input_received", "spec_loaded"]
    assert [e.rule for e in decision.trace if e.event == "rule_evaluated"] == [
        "open_ticket",
        "other",
    ]
    assert events[-2:] == ["route_selected", "outcome_recorded"]


def test_spec_without_routes_has_no_route(tmp_path: Path) -> None:
    """A document without routes still decides forbids, with route None."""
    spec = load(
        tmp_path,
        "rules:\n  - id: r\n    when: {user_says_any: [x]}\n    forbid: [curl]\n",
        routes=False,
    )
    decision = decide(spec, "x")
    assert decision.route is None
    assert decision.forbid == ("curl",)


def test_plan_is_the_selected_routes_execution_plan(tmp_path: Path) -> None:
    """The decision carries the chosen route's phases and jumps."""
    spec = load(
        tmp_path,
        """\
        routes:
          - id: r
            label: R
            execution_plan:
              phases:
                - id: one
                  owner_skill: s
                  jumps: [{when: blocked, to_phase: two}]
                - id: two
                  owner_skill: s
        """,
        routes=False,
    )
    decision = decide(spec, "x")
    assert decision.plan_phases == ("one", "two")
    assert decision.plan_jumps == ("one:blocked->two",)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.skill.spec.yml")), ids=lambda p: p.name)
def test_decisions_are_the_models_pydantic_would_construct(path: Path) -> None:
    """A decision and every part of it equal what ``model_construct`` builds from the same fields:
    every field set, in declaration order, the same repr, JSON and fields-set."""
    spec = load_spec(path)
    text = "research each committer's social profile weekly; browse the dashboard after login"
    decision = decide(spec, text)
    parts: list[Any] = [decision, *decision.reasons, *decision.trace]
    if decision.route_selection is not None:
        parts.append(decision.route_selection)
    assert decision.trace
    for part in parts:
        model = type(part)
        assert list(vars(part)) == list(model.model_fields)
        rebuilt = model.model_construct(**dict(vars(part)))
        assert part == rebuilt and repr(part) == repr(rebuilt)
        assert part.model_fields_set == rebuilt.model_fields_set
        assert part.model_dump_json() == rebuilt.model_dump_json()
