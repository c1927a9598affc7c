"""The SkillSpec v0 document as frozen pydantic models (docs/steering.md).

Every object of the grammar is strict, as in the reference implementation:
an unknown field is a validation error, so a misspelled ``preferr:`` never
silently disappears, and an unknown top-level key is an error too. The
steering core (routes, execution plans, rules, predicates, elicitations,
scenario tests) lives here; the other sections are typed in
:mod:`ruleweave.steering.sections`. Free-form surfaces (``metadata``,
``closures``, ``allow``, choice ``sets``, ``applies_when``) take any value.
The one ruleweave extension: ``x-`` keys in a rule's ``when`` are extension
predicates, evaluated by the caller (the reference has none).

These models check shape only. Cross-references (a rule preferring a route
that does not exist, duplicate ids, ...) are checked by
:mod:`ruleweave.steering.validation`, which the loader runs; build specs with
:func:`ruleweave.steering.load_spec` / :func:`~ruleweave.steering.parse_spec`
rather than by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, model_validator

from ruleweave.steering.fields import Count, Ids, Rank, SafetyClass, StrictModel, Text

# Re-exported: the grammar names them; phrases.py holds them for the warm path without pydantic.
from ruleweave.steering.phrases import EXTENSION_PREFIX as EXTENSION_PREFIX
from ruleweave.steering.phrases import STANDARD_PREDICATES as STANDARD_PREDICATES
from ruleweave.steering.phrases import TASK_FACTS as TASK_FACTS
from ruleweave.steering.sections import (
    Activation,
    Artifact,
    CodeBlock,
    CommandTemplate,
    Dependency,
    Entry,
    Import,
    Proof,
    Recipe,
    Resource,
    Snippet,
    State,
    ToolBoundary,
    TraceConfig,
)

SCHEMA = "skillspec/v0"
"""The only schema this module reads."""



class Handoff(StrictModel):
    """A transfer of work to another skill.

    Attributes:
        to_skill: The skill that takes over.
        boundary: ``stop_current_skill`` or ``resume_after_handoff``.
        pass_context: Context items handed over.
        forbid: What the receiving skill may not substitute.
        reason: Why the handoff exists.
    """

    to_skill: Text
    boundary: Literal["stop_current_skill", "resume_after_handoff"]
    pass_context: Ids = ()
    forbid: Ids = ()
    reason: Text | None = None


class Jump(StrictModel):
    """A conditional jump from one plan phase to another.

    Attributes:
        when: The named condition (e.g. ``auth_required``).
        to_phase: The phase id jumped to, in the same plan.
        reason: Why.
    """

    when: Text
    to_phase: Text
    reason: Text | None = None


class Phase(StrictModel):
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

    id: Text
    owner_skill: Text
    route: Text | None = None
    description: Text | None = None
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


class ExecutionPlan(StrictModel):
    """A route's ordered phases.

    Attributes:
        mode: Always ``ordered`` in v0.
        phases: The phases, in order.
        reason: Why the plan has this shape.
    """

    mode: Literal["ordered"] = "ordered"
    phases: tuple[Phase, ...]
    reason: Text | None = None


class Route(StrictModel):
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

    id: Text
    label: Text
    rank: Rank | None = None
    description: Text | None = None
    checks: Ids = ()
    handoff: Handoff | None = None
    execution_plan: ExecutionPlan | None = None
    tool_boundary: ToolBoundary | None = None


class Predicate(StrictModel):
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


class SpecRule(StrictModel):
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

    id: Text
    when: Predicate = Field(default_factory=Predicate)
    prefer: Text | None = None
    route_order: Ids = ()
    forbid: Ids = ()
    allow: Mapping[str, Any] = Field(default_factory=dict)
    elicit: Ids = ()
    after_success: Ids = ()
    reason: Text | None = None


class ElicitationCondition(StrictModel):
    """When an elicitation is required (kept, not evaluated).

    Attributes:
        route: The route that requires it.
        missing: The missing fact that requires it.
        predicate: A predicate that requires it.
    """

    route: Text | None = None
    missing: Text | None = None
    predicate: Predicate | None = None


class Choice(StrictModel):
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

    id: Text
    label: Text
    description: Text | None = None
    sets: Mapping[str, Any] = Field(default_factory=dict)
    route: Text | None = None
    next: Text | None = None
    safety: SafetyClass | None = None


class Elicitation(StrictModel):
    """A bounded question with declared choices.

    Attributes:
        question: The question to ask.
        required_when: Conditions under which it is required.
        choices: The declared choices.
        default: The default choice id.
        max_choices: How many choices may be picked.
    """

    question: Text
    required_when: tuple[ElicitationCondition, ...] = ()
    choices: tuple[Choice, ...]
    default: Text | None = None
    max_choices: Count | None = None


class Expectation(StrictModel):
    """What a scenario test asserts about the decision.

    Plain lists assert inclusion, ``*_exact`` the exact set (``None`` means
    not asserted, ``[]`` means empty), ``not_*`` absence. ``route_order`` and
    ``plan_phases`` are compared in order; ``plan_jumps`` items
    (``phase:when->to_phase``) must each be present.
    """

    route: Text | None = None
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


class ScenarioTest(StrictModel):
    """A scenario: an input and what the decision must look like.

    Attributes:
        name: The test name.
        input: The user text.
        expect: The assertions.
    """

    name: Text
    input: Text
    expect: Expectation


class SkillSpec(BaseModel):
    """A ``skill.spec.yml`` document: every section of the reference grammar, typed.

    Attributes:
        schema_: ``skillspec/v0`` (YAML key ``schema``).
        id: The skill id.
        title: A human title.
        description: What the skill does.
        activation: When a harness should load the skill (advisory).
        applies_when: Activation hints, free-form.
        entry: The first question or setup posture.
        routes: Candidate routes, in file order.
        rules: Steering rules, in file order.
        states: Named lifecycle positions.
        elicitations: Bounded questions by id.
        trace: Which decision events to persist, and whether a trace is required.
        dependencies: Tools, files and services the skill needs.
        imports: Markdown loaded deliberately during a run (see
            :mod:`ruleweave.steering.imports`).
        resources: Provenance and supporting material.
        code: Code blocks preserved from the skill.
        artifacts: Files and data products.
        recipes: Structured procedures.
        commands: Command templates.
        snippets: Prose kept as prose.
        closures: Post-task behaviour, free-form.
        proof: What the policy is meant to improve.
        tests: Scenario tests.
        review_required: Notes a reviewer must clear.
        metadata: Free-form.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    schema_: Literal["skillspec/v0"] = Field(alias="schema")
    id: Text
    title: Text
    description: Text
    activation: Activation | None = None
    applies_when: tuple[Any, ...] = ()
    entry: Entry | None = None
    routes: tuple[Route, ...] = ()
    rules: tuple[SpecRule, ...] = ()
    states: Mapping[str, State] = Field(default_factory=dict)
    elicitations: Mapping[str, Elicitation] = Field(default_factory=dict)
    trace: TraceConfig | None = None
    dependencies: Mapping[str, Dependency] = Field(default_factory=dict)
    imports: Mapping[str, Import] = Field(default_factory=dict)
    resources: Mapping[str, Resource] = Field(default_factory=dict)
    code: Mapping[str, CodeBlock] = Field(default_factory=dict)
    artifacts: Mapping[str, Artifact] = Field(default_factory=dict)
    recipes: Mapping[str, Recipe] = Field(default_factory=dict)
    commands: Mapping[str, CommandTemplate] = Field(default_factory=dict)
    snippets: Mapping[str, Snippet] = Field(default_factory=dict)
    closures: Mapping[str, Any] = Field(default_factory=dict)
    proof: Proof | None = None
    tests: tuple[ScenarioTest, ...] = ()
    review_required: Ids = ()
    metadata: Mapping[str, Any] = Field(default_factory=dict)

    def route(self, route_id: str | None) -> Route | None:
        """The route with this id.

        Args:
            route_id: A route id, or None.

        Returns:
            The route, or None when there is no such route.
        """
        return next((r for r in self.routes if r.id == route_id), None)

    def action_ids(self) -> frozenset[str]:
        """Ids ``after_success`` may name: commands, recipes, code blocks and closures.

        Returns:
            The ids (empty when the document declares none).
        """
        tables = (self.commands, self.recipes, self.code, self.closures)
        return frozenset(key for table in tables for key in table)

    def extension_predicates(self) -> tuple[tuple[str, str], ...]:
        """Every ``x-`` predicate the rules use, as ``(rule id, predicate)``.

        Returns:
            The pairs, in file order.
        """
        return tuple((rule.id, name) for rule in self.rules for name in rule.when.extensions)


def _is_extension(key: object) -> bool:
    return isinstance(key, str) and key.startswith(EXTENSION_PREFIX)
