"""The result of steering one user turn: :class:`Decision` (pure data)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_jsonable_python

from ruleweave.steering.algebra import DEFAULT_ROUTE_REASON as DEFAULT_ROUTE_REASON
from ruleweave.steering.algebra import decision_json
from ruleweave.steering.model import ExecutionPlan

RouteBasis = Literal["rule_prefer", "route_order_default", "default_route_order"]
"""Why the route was selected: a rule's ``prefer``; the first route of an order
a rule set; or the first route by rank when no rule chose."""

REFERENCE_JSON_KEYS: tuple[str, ...] = (
    "input",
    "route",
    "route_selection",
    "route_order",
    "execution_plan",
    "forbid",
    "allow",
    "elicit",
    "after_success",
    "matched_rules",
    "reason",
)
"""The keys the reference implementation's ``skillspec decide`` prints, in order."""

EXTRA_JSON_KEYS: tuple[str, ...] = ("skill", "questions", "facts", "forbidden_by")
"""ruleweave's additions, after the reference's keys: the skill id, each
elicitation with its question and choices, the task facts consulted, and the
rule that first forbade each id."""

DECISION_JSON_KEYS: tuple[str, ...] = REFERENCE_JSON_KEYS + EXTRA_JSON_KEYS
"""The keys of :meth:`Decision.to_json` and ``ruleweave spec decide --json``, in order."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ChoiceView(_Frozen):
    """A choice to present with a question.

    Attributes:
        id: The choice id.
        label: What the user sees.
        description: More detail, if declared.
    """

    id: str
    label: str
    description: str | None = None


class ElicitRequest(_Frozen):
    """A bounded question the agent must ask.

    Attributes:
        id: The elicitation id.
        question: The question.
        choices: The declared choices, in order.
        default: The default choice id, if declared.
    """

    id: str
    question: str
    choices: tuple[ChoiceView, ...] = ()
    default: str | None = None


class RuleReason(_Frozen):
    """A matched rule's stated reason.

    Attributes:
        rule: The rule id.
        reason: Its ``reason``.
    """

    rule: str
    reason: str


class RouteSelection(_Frozen):
    """How the route was chosen (the reference's ``route_selection``).

    Attributes:
        route: The selected route.
        basis: See :data:`RouteBasis`.
        rule_id: The rule that chose it (``prefer``, or the order it set), if any.
        reason: That rule's reason, or :data:`DEFAULT_ROUTE_REASON`.
    """

    route: str
    basis: RouteBasis
    rule_id: str | None = None
    reason: str | None = None


class TraceEvent(_Frozen):
    """One evaluation event (the SkillSpec v0 trace event kinds).

    Attributes:
        event: ``input_received``, ``spec_loaded``, ``rule_evaluated``,
            ``rule_matched``, ``route_selected``, ``route_order_set``,
            ``forbid_added``, ``allow_added``, ``elicitation_requested``,
            ``after_success_scheduled`` or ``outcome_recorded``.
        rule: The rule concerned, if any.
        data: The event's payload, exactly as the reference writes it
            (``rule_id`` and ``matched`` for ``rule_evaluated``, ...).
        detail: ruleweave's additions, never written to trace files (for
            ``rule_evaluated``: each predicate checked, its result, and where
            each task fact came from).
    """

    event: str
    rule: str | None = None
    data: Mapping[str, Any] = Field(default_factory=dict)
    detail: Mapping[str, Any] = Field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        """The event as a trace file's ``data``: ``{"event": ..., **data}``.

        Returns:
            A JSON-ready dict.
        """
        return {"event": self.event, **to_jsonable_python(dict(self.data), fallback=str)}


class Decision(_Frozen):
    """What the SkillSpec says about one user turn.

    Decisions whose rules came out the same share their parts (``decide`` remembers
    one per outcome), so the dicts and lists in a decision (but the first trace
    event's own ``data``) are read-only: changing one raises ``TypeError``. They are
    still ``dict`` and ``list``.

    Attributes:
        skill: The spec's id.
        input: The user's text.
        route: The selected route (None when the spec has no routes).
        route_selection: How it was chosen (None when there is no route).
        route_order: Routes to try, in order.
        forbid: Substitutes the agent may not use (deduplicated, first-seen order).
        allow: Narrow exceptions, merged (a later rule's key wins).
        elicit: Questions to ask, with their choices (deduplicated).
        after_success: Commands or closures owed after success (deduplicated).
        matched_rules: Ids of the rules that matched, in file order.
        reasons: The matched rules' reasons, in file order.
        plan: The selected route's execution plan, if it has one.
        facts: The task facts that were consulted, by name.
        forbidden_by: For each forbidden id, the first rule that forbade it.
        trace: Every evaluation event, in order.
    """

    skill: str
    input: str
    route: str | None = None
    route_selection: RouteSelection | None = None
    route_order: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    allow: Mapping[str, Any] = Field(default_factory=dict)
    elicit: tuple[ElicitRequest, ...] = ()
    after_success: tuple[str, ...] = ()
    matched_rules: tuple[str, ...] = ()
    reasons: tuple[RuleReason, ...] = ()
    plan: ExecutionPlan | None = None
    facts: Mapping[str, bool] = Field(default_factory=dict)
    forbidden_by: Mapping[str, str] = Field(default_factory=dict)
    trace: tuple[TraceEvent, ...] = ()

    @property
    def route_basis(self) -> RouteBasis | None:
        """Why the route was selected (None when there is no route)."""
        return self.route_selection.basis if self.route_selection else None

    @property
    def reason(self) -> str | None:
        """The last matched rule's reason (the reference's ``reason``), if any rule gave one."""
        return self.reasons[-1].reason if self.reasons else None

    @property
    def elicit_ids(self) -> tuple[str, ...]:
        """The ids of the questions to ask, in order."""
        return tuple(item.id for item in self.elicit)

    @property
    def plan_phases(self) -> tuple[str, ...]:
        """The selected route's phase ids, in order (empty without a plan)."""
        return tuple(phase.id for phase in self.plan.phases) if self.plan else ()

    @property
    def plan_jumps(self) -> tuple[str, ...]:
        """The selected route's jumps as ``phase:when->to_phase``."""
        if self.plan is None:
            return ()
        return tuple(label for phase in self.plan.phases for label in phase.jump_labels())

    def reason_of(self, rule: str) -> str | None:
        """The stated reason of a matched rule.

        Args:
            rule: A rule id.

        Returns:
            Its reason, or None when it matched without one (or did not match).
        """
        return next((item.reason for item in self.reasons if item.rule == rule), None)

    def to_json(self) -> dict[str, Any]:
        """The decision as ``ruleweave spec decide --json`` prints it.

        The reference implementation's shape (:data:`REFERENCE_JSON_KEYS`:
        ``matched_rules`` as ``{id, reason}``, ``elicit`` as ids, ``allow``
        with sorted keys, the full ``execution_plan``), then ruleweave's
        additions (:data:`EXTRA_JSON_KEYS`).

        Returns:
            A JSON-ready dict with exactly the keys of :data:`DECISION_JSON_KEYS`.
        """
        plan = None
        if self.plan is not None:
            plan = self.plan.model_dump(mode="json", by_alias=True)
        selection = self.route_selection.model_dump(mode="json") if self.route_selection else None
        result = {
            "route": self.route,
            "selection": selection,
            "order": self.route_order,
            "forbid": self.forbid,
            "forbidden_by": self.forbidden_by,
            "after_success": self.after_success,
            "matched": self.matched_rules,
            "reasons": [(item.rule, item.reason) for item in self.reasons],
        }
        return decision_json(
            result,
            skill=self.skill,
            text=self.input,
            plan=plan,
            allow=to_jsonable_python(dict(sorted(self.allow.items())), fallback=str),
            questions=[
                {
                    "id": item.id,
                    "question": item.question,
                    "choices": [choice.model_dump(mode="json") for choice in item.choices],
                    "default": item.default,
                }
                for item in self.elicit
            ],
            facts=self.facts,
        )
