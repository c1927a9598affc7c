"""Cross-reference validation: every rule of the grammar's reference list."""

from __future__ import annotations

from ruleweave.steering import SpecIssue, check_spec
from tests.steering.helpers import spec_text


def issues_of(body: str, *, routes: bool = True) -> list[SpecIssue]:
    """The issues of a document built from the shared header and ``body``."""
    spec, issues = check_spec(spec_text(body, routes=routes), file="skill.spec.yml")
    assert (spec is None) == bool(issues)
    return list(issues)


def reasons_of(body: str) -> str:
    """All issue reasons of a document, joined."""
    return "\n".join(i.reason for i in issues_of(body))


def test_unknown_rule_field_is_an_error() -> None:
    """A misspelled effect such as preferr is rejected, not ignored."""
    assert "Unknown field 'preferr' in rules[r]" in reasons_of(
        "rules:\n  - id: r\n    when: {user_says_any: [x]}\n    preferr: browser\n"
    )


def test_unknown_fields_in_other_typed_objects_are_errors() -> None:
    """Routes, elicitation choices, tests and expectations are strict too."""
    reasons = reasons_of(
        """\
        elicitations:
          mode:
            question: Which?
            choices: [{id: a, label: A, colour: red}]
        tests:
          - name: t
            input: x
            expect: {route: browser, routes: [browser]}
        """
    ).replace(spec_text(""), "")
    assert "'colour'" in reasons
    assert "'routes'" in reasons


def test_unknown_predicate_is_an_error() -> None:
    """A predicate outside the standard set without x- is rejected with the valid names."""
    reasons = reasons_of("rules:\n  - id: r\n    when: {sounds_urgent: true}\n")
    assert "Unknown predicate 'sounds_urgent'" in reasons
    assert "user_says_any" in reasons


def test_x_predicates_are_accepted() -> None:
    """An x- prefixed predicate is valid and kept as an extension."""
    spec, issues = check_spec(
        spec_text("rules:\n  - id: r\n    when: {x-ticket_open: true}\n    prefer: browser\n")
    )
    assert issues == ()
    assert spec is not None
    assert dict(spec.rules[0].when.extensions) == {"x-ticket_open": True}


def test_prefer_must_name_a_route() -> None:
    """prefer names a declared route."""
    reasons = reasons_of("rules:\n  - id: r\n    when: {user_says_any: [x]}\n    prefer: api\n")
    assert "unknown route 'api'" in reasons
    assert "rules[r].prefer" in reasons


def test_route_order_must_name_routes() -> None:
    """Each route_order entry names a declared route."""
    reasons = reasons_of(
        "rules:\n  - id: r\n    when: {user_says_any: [x]}\n    route_order: [browser, api]\n"
    )
    assert "unknown route 'api'" in reasons


def test_elicit_must_name_an_elicitation() -> None:
    """elicit names a declared elicitation."""
    reasons = reasons_of("rules:\n  - id: r\n    when: {user_says_any: [x]}\n    elicit: [mode]\n")
    assert "unknown elicitation 'mode'" in reasons


def test_after_success_is_checked_when_commands_or_closures_are_declared() -> None:
    """With commands or closures declared, after_success must name one of them."""
    body = """\
    rules:
      - id: r
        when: {user_says_any: [x]}
        after_success: [cleanup, remember, ghost]
    commands:
      cleanup: {template: make clean}
    closures:
      remember: {description: ask to remember}
    """
    reasons = reasons_of(body)
    assert "unknown command or closure 'ghost'" in reasons
    assert "'cleanup'" not in reasons
    assert "'remember'" not in reasons


def test_after_success_is_checked_when_nothing_is_declared() -> None:
    """Without commands, recipes, code or closures, every after_success id is unknown (as the reference)."""
    reasons = reasons_of("rules:\n  - id: r\n    when: {user_says_any: [x]}\n    after_success: [y]\n")
    assert "unknown command or closure 'y' (declared: none)" in reasons


def test_duplicate_ids_are_errors() -> None:
    """Routes and rules may not repeat an id; the issue points at the repeat."""
    issues = issues_of(
        """\
        rules:
          - id: r
            when: {user_says_any: [x]}
          - id: r
            when: {user_says_any: [y]}
        """
    )
    assert [i.reason for i in issues] == ["Duplicate rule id 'r' (first declared on line 13)."]
    assert issues[0].line == 15
    route_issues = issues_of(
        "routes:\n  - {id: a, label: A}\n  - {id: a, label: again}\n", routes=False
    )
    assert "Duplicate route id 'a'" in route_issues[0].reason


def test_empty_expect_is_an_error() -> None:
    """A scenario test must assert at least one thing."""
    for expect in ("{}", "{route_order: [], forbid: []}", "null"):
        reasons = reasons_of(f"tests:\n  - name: t\n    input: x\n    expect: {expect}\n")
        assert "empty expect" in reasons


def test_exact_empty_list_is_an_assertion() -> None:
    """``forbid_exact: []`` asserts that nothing is forbidden, so expect is not empty."""
    assert issues_of("tests:\n  - name: t\n    input: x\n    expect: {forbid_exact: []}\n") == []


def test_expectation_references_are_checked() -> None:
    """Routes, elicitations and rules named in expect must exist."""
    reasons = reasons_of(
        """\
        tests:
          - name: t
            input: x
            expect:
              route: api
              elicit: [mode]
              matched_rules_exact: [ghost_rule]
        """
    )
    assert "unknown route 'api'" in reasons
    assert "unknown elicitation 'mode'" in reasons
    assert "unknown rule 'ghost_rule'" in reasons


def test_elicitation_default_must_be_a_choice() -> None:
    """An elicitation's default names one of its choices."""
    reasons = reasons_of(
        "elicitations:\n  mode:\n    question: Q?\n"
        "    choices: [{id: a, label: A}]\n    default: b\n"
    )
    assert "default 'b'" in reasons


def test_elicitation_needs_choices() -> None:
    """An elicitation without choices is invalid."""
    assert "declares no choices" in reasons_of(
        "elicitations:\n  mode:\n    question: Q?\n    choices: []\n"
    )


def test_identifiers_must_be_lowercase() -> None:
    """Rule and route ids follow the SkillSpec identifier grammar."""
    reasons = reasons_of("rules:\n  - id: Bad Rule\n    when: {user_says_any: [x]}\n")
    assert "'Bad Rule' is not a SkillSpec identifier" in reasons


def test_plan_jumps_must_target_a_phase_of_the_plan() -> None:
    """A jump to a phase that the plan does not declare is an error."""
    body = """\
    routes:
      - id: r
        label: R
        execution_plan:
          phases:
            - id: one
              owner_skill: s
              jumps: [{when: stuck, to_phase: three}]
            - id: two
              owner_skill: s
    """
    issues = issues_of(body, routes=False)
    assert len(issues) == 1
    assert "unknown phase 'three'" in issues[0].reason
