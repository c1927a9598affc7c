"""The SkillSpec v0 document as frozen pydantic models (DESIGN §9).

Typed objects (routes, execution plans, rules, predicates, elicitations,
scenario tests) are strict: an unknown field is a validation error, so a
misspelled ``preferr:`` never silently disappears. Top-level sections that
ruleweave does not interpret (``commands``, ``closures``, ``states``,
``metadata``, ...) are kept as plain data in :attr:`SkillSpec.sections`.

These models check shape only. Cross-references (a rule preferring a route
that does not exist, duplicate ids, ...) are checked by
:mod:`ruleweave.steering.validation`, which the loader runs; build specs with
:func:`ruleweave.steering.load_spec` / :func:`~ruleweave.steering.parse_spec`
rather than by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

SCHEMA = "skillspec/v0"
"""The only schema this module reads."""

STANDARD_PREDICATES: tuple[str, ...] = (
    "user_says_any",
    "task_recurrence_likely",
    "domain_object_task",
    "interactive_prompt_likely",
    "command_likely_long_running",
)
"""The five predicates SkillSpec v0 standardises."""

TASK_FACTS: tuple[str, ...] = STANDARD_PREDICATES[1:]
"""The boolean task-fact predicates (everything but ``user_says_any``)."""

EXTENSION_PREFIX = "x-"
"""Predicates starting with this are extensions, evaluated by the caller."""

ACTION_SECTIONS: tuple[str, ...] = ("commands", "recipes", "code", "closures")
"""Top-level sections whose keys ``after_success`` may reference."""

Ids = tuple[StrictStr, ...]
"""A sequence of identifiers (a YAML list)."""


class _Strict(BaseModel):
    """Frozen, and unknown fields are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolBoundary(_Strict):
    """A phase-scoped tool permission contract (kept, not enforced).

    Attributes:
        default: ``deny`` or ``allow`` for unlisted tools.
        allow: Tools the phase may use.
        forbid: Tools the phase may not use.
        permission_required_for: Actions that need the user's permission.
    """

    default: Literal["deny", "allow"] | None = None
    allow: Ids = ()
    forbid: Ids = ()
    permission_required_for: Ids = ()


class Handoff(_Strict):
    """A transfer of work to another skill.

    Attributes:
        to_skill: The skill that takes over.
        boundary: ``stop_current_skill`` or ``resume_after_handoff``.
        pass_context: Context items handed over.
        forbid: What the receiving skill may not substitute.
        reason: Why the handoff exists.
    """

    to_skill: StrictStr
    boundary: Literal["stop_current_skill", "resume_after_handoff"]
    pass_context: Ids = ()
    forbid: Ids = ()
    reason: StrictStr | None = None


class Jump(_Strict):
    """A conditional jump from one plan phase to another.

    Attributes:
        when: The named condition (e.g. ``auth_required``).
        to_phase: The phase id jumped to, in the same plan.
        reason: Why.
    """

    when: StrictStr
    to_phase: StrictStr
    reason: StrictStr | None = None


class Phase(_Strict):
    """One phase of a route's execution plan.

    Attributes:
        id: The phase id.
        owner_skill: The skill that runs the phase.
        route: The route the phase runs under, if any.
        description: What happens in the phase.
        requires: Obligations before the phase is done.
        checks: Checks to run.
        forbid: What the phase may not substitute.
        handoff: A handoff to another skill.
        jumps: Conditional jumps out of the phase.
        tool_boundary: The phase's tool contract.
    """

    id: StrictStr
    owner_skill: StrictStr
    route: StrictStr | None = None
    description: StrictStr | None = None
    requires: Ids = ()
    checks: Ids = ()
    forbid: Ids = ()
    handoff: Handoff | None = None
    jumps: tuple[Jump, ...] = ()
    tool_boundary: ToolBoundary | None = None

    def jump_labels(self) -> tuple[str, ...]:
        """Each jump as ``phase:when->to_phase`` (the scenario-test spelling).

        Returns:
            One label per jump, in file order.
        """
        return tuple(f"{self.id}:{jump.when}->{jump.to_phase}" for jump in self.jumps)


class ExecutionPlan(_Strict):
    """A route's ordered phases.

    Attributes:
        mode: Always ``ordered`` in v0.
        phases: The phases, in order.
        reason: Why the plan has this shape.
    """

    mode: Literal["ordered"] = "ordered"
    phases: tuple[Phase, ...]
    reason: StrictStr | None = None


class Route(_Strict):
    """A candidate way to satisfy the work.

    Attributes:
        id: The route id.
        label: A human label.
        rank: Default preference; lower is earlier, a missing rank sorts last.
        description: When the route applies.
        checks: Checks the route runs.
        handoff: A handoff to another skill.
        execution_plan: The ordered phases of the route.
        tool_boundary: The route's tool contract.
    """

    id: StrictStr
    label: StrictStr
    rank: StrictInt | None = None
    description: StrictStr | None = None
    checks: Ids = ()
    handoff: Handoff | None = None
    execution_plan: ExecutionPlan | None = None
    tool_boundary: ToolBoundary | None = None


class Predicate(_Strict):
    """A rule's ``when``: every field present must match (AND).

    An empty list counts as absent. A predicate with nothing present never
    matches. ``x-`` keys are extensions: the caller evaluates them.

    Attributes:
        user_says_any: Phrases; any one appearing in the input matches (OR).
        user_says_all_groups: Groups of phrases; every group must match.
            Not one of the five standard predicates, but the reference
            implementation accepts it, so real documents may use it.
        task_recurrence_likely: Expected value of that task fact.
        domain_object_task: Expected value of that task fact.
        interactive_prompt_likely: Expected value of that task fact.
        command_likely_long_running: Expected value of that task fact.
        extensions: ``x-`` predicates and their declared values.
    """

    user_says_any: Ids = ()
    user_says_all_groups: tuple[Ids, ...] = ()
    task_recurrence_likely: StrictBool | None = None
    domain_object_task: StrictBool | None = None
    interactive_prompt_likely: StrictBool | None = None
    command_likely_long_running: StrictBool | None = None
    extensions: Mapping[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _split_extensions(cls, data: Any) -> Any:
        if not isinstance(data, Mapping) or "extensions" in data:
            return data
        plain = {k: v for k, v in data.items() if not _is_extension(k)}
        plain["extensions"] = {k: v for k, v in data.items() if _is_extension(k)}
        return plain

    def is_empty(self) -> bool:
        """Whether no condition is present (such a rule never matches).

        Returns:
            True when every field is absent or an empty list.
        """
        facts = (getattr(self, name) for name in TASK_FACTS)
        return (
            not self.user_says_any
            and not self.user_says_all_groups
            and all(value is None for value in facts)
            and not self.extensions
        )


class SpecRule(_Strict):
    """A steering clause: a predicate and its effects.

    Attributes:
        id: The rule id.
        when: The predicate.
        prefer: Route selected when the rule matches.
        route_order: Replaces the route order when the rule matches.
        forbid: Substitutes the agent may not use.
        allow: Narrow exceptions (free-form values).
        elicit: Elicitation ids to ask.
        after_success: Command or closure ids owed after success.
        reason: Why; recorded in the decision.
    """

    id: StrictStr
    when: Predicate = Field(default_factory=Predicate)
    prefer: StrictStr | None = None
    route_order: Ids = ()
    forbid: Ids = ()
    allow: Mapping[str, Any] = Field(default_factory=dict)
    elicit: Ids = ()
    after_success: Ids = ()
    reason: StrictStr | None = None


class ElicitationCondition(_Strict):
    """When an elicitation is required (kept, not evaluated).

    Attributes:
        route: The route that requires it.
        missing: The missing fact that requires it.
        predicate: A predicate that requires it.
    """

    route: StrictStr | None = None
    missing: StrictStr | None = None
    predicate: Predicate | None = None


class Choice(_Strict):
    """One declared answer to a bounded question.

    Attributes:
        id: The choice id.
        label: What the user sees.
        description: More detail.
        sets: Facts the choice sets.
        route: A route the choice steers to.
        next: A state the choice advances to.
        safety: The safety class of the choice.
    """

    id: StrictStr
    label: StrictStr
    description: StrictStr | None = None
    sets: Mapping[str, Any] = Field(default_factory=dict)
    route: StrictStr | None = None
    next: StrictStr | None = None
    safety: StrictStr | None = None


class Elicitation(_Strict):
    """A bounded question with declared choices.

    Attributes:
        question: The question to ask.
        required_when: Conditions under which it is required.
        choices: The declared choices.
        default: The default choice id.
        max_choices: How many choices may be picked.
    """

    question: StrictStr
    required_when: tuple[ElicitationCondition, ...] = ()
    choices: tuple[Choice, ...]
    default: StrictStr | None = None
    max_choices: StrictInt | None = None


class Expectation(_Strict):
    """What a scenario test asserts about the decision.

    Plain lists assert inclusion, ``*_exact`` the exact set (``None`` means
    not asserted, ``[]`` means empty), ``not_*`` absence. ``route_order`` and
    ``plan_phases`` are compared in order; ``plan_jumps`` items
    (``phase:when->to_phase``) must each be present.
    """

    route: StrictStr | None = None
    route_order: Ids = ()
    plan_phases: Ids = ()
    plan_jumps: Ids = ()
    forbid: Ids = ()
    forbid_exact: Ids | None = None
    not_forbid: Ids = ()
    elicit: Ids = ()
    elicit_exact: Ids | None = None
    not_elicit: Ids = ()
    after_success: Ids = ()
    after_success_exact: Ids | None = None
    not_after_success: Ids = ()
    matched_rules: Ids = ()
    matched_rules_exact: Ids | None = None
    not_matched_rules: Ids = ()

    def has_assertions(self) -> bool:
        """Whether at least one assertion is present.

        Returns:
            False for an empty ``expect``.
        """
        for name in type(self).model_fields:
            value = getattr(self, name)
            if name.endswith("_exact"):
                if value is not None:
                    return True
            elif value:
                return True
        return False


class ScenarioTest(_Strict):
    """A scenario: an input and what the decision must look like.

    Attributes:
        name: The test name.
        input: The user text.
        expect: The assertions.
    """

    name: StrictStr
    input: StrictStr
    expect: Expectation


class SkillSpec(BaseModel):
    """A ``skill.spec.yml`` document.

    Attributes:
        schema_: ``skillspec/v0`` (YAML key ``schema``).
        id: The skill id.
        title: A human title.
        description: What the skill does.
        routes: Candidate routes, in file order.
        rules: Steering rules, in file order.
        elicitations: Bounded questions by id.
        tests: Scenario tests.
        sections: Every other top-level section, kept as data.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    schema_: Literal["skillspec/v0"] = Field(alias="schema")
    id: StrictStr
    title: StrictStr
    description: StrictStr
    routes: tuple[Route, ...] = ()
    rules: tuple[SpecRule, ...] = ()
    elicitations: Mapping[str, Elicitation] = Field(default_factory=dict)
    tests: tuple[ScenarioTest, ...] = ()
    sections: Mapping[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _split_sections(cls, data: Any) -> Any:
        if not isinstance(data, Mapping) or "sections" in data:
            return data
        typed = {"schema", "schema_", *cls.model_fields}
        kept = {k: v for k, v in data.items() if k in typed}
        kept["sections"] = {str(k): v for k, v in data.items() if k not in typed}
        return kept

    def route(self, route_id: str | None) -> Route | None:
        """The route with this id.

        Args:
            route_id: A route id, or None.

        Returns:
            The route, or None when there is no such route.
        """
        return next((r for r in self.routes if r.id == route_id), None)

    def action_ids(self) -> frozenset[str] | None:
        """Ids ``after_success`` may name: commands, recipes, code and closures.

        Returns:
            The ids, or None when the document declares none of those sections.
        """
        declared = [self.sections[k] for k in ACTION_SECTIONS if k in self.sections]
        if not declared:
            return None
        return frozenset(
            str(key) for table in declared if isinstance(table, Mapping) for key in table
        )


def _is_extension(key: object) -> bool:
    return isinstance(key, str) and key.startswith(EXTENSION_PREFIX)
