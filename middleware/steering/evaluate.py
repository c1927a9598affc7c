"""Turn a user's text into a :class:`Decision` (the SkillSpec v0 rule algebra).

Rules are evaluated once each, in file order. A rule matches when it has at
least one predicate and every predicate present matches (AND; inside
``user_says_any`` any phrase will do). For each matching rule:

- ``prefer`` sets the route (a later match overrides an earlier one);
- ``route_order`` replaces the route order;
- ``forbid``, ``elicit`` and ``after_success`` are appended, and de-duplicated
  at the end keeping the first occurrence;
- ``allow`` is merged into the allow map (a later key wins);
- ``reason`` is recorded; the rule joins ``matched_rules``.

The order starts as the routes sorted by ``rank`` (a missing rank last, ties
in file order). When no matching rule has ``prefer``, the route is the first
of the final order: the lowest-rank route, or the head of an order a rule
set (as the reference implementation does). The decision's ``reason`` is the
last matched rule's reason, and each event is recorded with the reference's
payload (see :class:`~ruleweave.steering.decision.TraceEvent`). An ``x-`` predicate is decided
by the caller's function for that name, else by a boolean ``x-`` fact the
caller passed; with neither it is false, never silently true.
"""

from __future__ import annotations

import _thread  # threading.Lock without importing threading (~1 ms of a hook's cold start)
import weakref
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from ruleweave.errors import ConfigError
from ruleweave.steering.algebra import apply, compile_spec, outcomes
from ruleweave.steering.decision import (
    ChoiceView,
    Decision,
    ElicitRequest,
    RouteSelection,
    RuleReason,
    TraceEvent,
)
from ruleweave.steering.facts import FactBook, Heuristic, ResolvedFact
from ruleweave.steering.model import SkillSpec
from ruleweave.steering.readonly import ReadOnlyDict, read_only

_Model = TypeVar("_Model", Decision, RouteSelection, RuleReason, TraceEvent)

_MISSING_RANK = 2**63 - 1  # the reference sorts a missing rank as i64::MAX

DECISIONS_PER_SPEC = 1_024
"""Decisions a spec remembers, by its rules' outcomes (the first made forgotten first)."""

TRACE_EVENTS_PER_SPEC = 4_096
"""A second bound: the trace events those decisions hold together (about 1 KB each, measured
with tracemalloc), so a spec of many rules keeps fewer of them."""

# Each spec is compiled once (specs are frozen); an entry leaves with its spec, so a
# recycled id() never finds another spec's rules.
_COMPILED: dict[int, _Compiled] = {}

ExtensionPredicate = Callable[[str, Any], bool]
"""Decides an ``x-`` predicate: called with the user's text and the value the
rule declares for it; the predicate matches when it returns True."""


def default_route_order(spec: SkillSpec) -> tuple[str, ...]:
    """Route ids sorted by rank; a missing rank sorts last, ties keep file order.

    Args:
        spec: The document.

    Returns:
        The route ids.
    """
    ranked = sorted(spec.routes, key=lambda r: _MISSING_RANK if r.rank is None else r.rank)
    return tuple(route.id for route in ranked)


def compiled(spec: SkillSpec) -> dict[str, Any]:
    """The spec as :mod:`ruleweave.steering.algebra` reads it, compiled once per spec.

    Args:
        spec: A validated document.

    Returns:
        What ``compile_spec(spec, plans=False)`` returns (do not modify it).
    """
    return _compiled(spec).rules


class _Compiled:
    """A spec as the algebra reads it, and the decisions it made, by outcome (bounded)."""

    __slots__ = ("decisions", "events", "factless", "lock", "rules")

    def __init__(self, rules: dict[str, Any]) -> None:
        self.rules = rules
        # No rule reads a task fact or an ``x-`` predicate: a turn without facts needs no FactBook.
        self.factless = not any(rule["facts"] or rule["x"] for rule in rules["rules"])
        # By outcome: the decision, and its trace after the input event (what a copy shares).
        self.decisions: dict[tuple[Any, ...], tuple[Decision, tuple[TraceEvent, ...]]] = {}
        self.events = 0  # the trace events the decisions hold
        self.lock = _thread.allocate_lock()  # taken only to remember a new decision

    def remember(self, key: tuple[Any, ...], decision: Decision) -> tuple[Decision, tuple[TraceEvent, ...]]:
        """Keep ``decision`` (unless another thread kept one first), the oldest going first."""
        weight = len(decision.trace)
        kept = (decision, decision.trace[1:])
        if weight > TRACE_EVENTS_PER_SPEC:
            return kept  # never kept: it alone would push out every other
        with self.lock:
            decisions = self.decisions
            known = decisions.get(key)
            if known is not None:
                return known
            while decisions and (
                len(decisions) >= DECISIONS_PER_SPEC or self.events + weight > TRACE_EVENTS_PER_SPEC
            ):
                self.events -= len(decisions.pop(next(iter(decisions)))[0].trace)
            decisions[key] = kept
            self.events += weight
        return kept


def _compiled(spec: SkillSpec) -> _Compiled:
    key = id(spec)
    found = _COMPILED.get(key)
    if found is None:
        found = _COMPILED[key] = _Compiled(compile_spec(spec, plans=False))
        weakref.finalize(spec, _COMPILED.pop, key, None)
    return found


def decide(
    spec: SkillSpec,
    user_text: str,
    facts: Mapping[str, bool] | None = None,
    *,
    predicates: Mapping[str, ExtensionPredicate] | None = None,
    heuristics: Mapping[str, Heuristic] | None = None,
) -> Decision:
    """Evaluate the spec's rules against one user turn.

    Args:
        spec: A validated document.
        user_text: What the user said.
        facts: Task facts the caller knows (they win over heuristics), and
            optionally boolean ``x-`` facts for ``x-`` predicates.
        predicates: Functions deciding ``x-`` predicates, by name.
        heuristics: Replacements for the keyword heuristics, by task fact.

    Returns:
        The decision, with its trace.

    Raises:
        ConfigError: An unknown fact, heuristic or predicate name, or a
            non-boolean fact.
    """
    if predicates:
        for name in predicates:
            if not name.startswith("x-"):
                raise ConfigError(f"Predicate functions are for x- predicates only, not {name!r}.")
    entry = _COMPILED.get(id(spec)) or _compiled(spec)
    if entry.factless and not facts and not heuristics:  # no fact to resolve, none given
        found = outcomes(entry.rules, user_text, _no_fact, _NONE)
        key: tuple[Any, ...] = tuple(found)
        book = None
    else:
        book = FactBook(user_text, facts, heuristics)
        found = outcomes(entry.rules, user_text, book.pair, predicates or _NONE)
        key = (*book.key(), *found)
    # A decision follows from the facts and the rules' outcomes; only the input differs.
    remembered = entry.decisions.get(key)
    if remembered is None:
        resolved = book.resolved() if book is not None else {}
        remembered = entry.remember(key, _template(spec, apply(entry.rules, user_text, found), resolved))
    template, shared = remembered
    # The copy for this input: a new input event, the template's fields around it.
    # The event's data is the one dict a copy does not share: a plain one.
    received = {"event": "input_received", "rule": None, "data": {"input": user_text}, "detail": _NONE}
    event = _trusted(TraceEvent, received, _EVENT_FIELDS)
    values = template.__dict__.copy()
    values["input"] = user_text
    values["trace"] = (event,) + shared  # noqa: RUF005 (concatenation: a third of unpacking's cost)
    return _trusted(Decision, values, _DECISION_FIELDS)


_NONE = ReadOnlyDict()


def _no_fact(name: str) -> None:
    """The facts of a turn that has none, for a spec no rule of which reads one."""
    return None


def _template(spec: SkillSpec, result: dict[str, Any], resolved: Mapping[str, ResolvedFact]) -> Decision:
    """The decision ``evaluate`` made, its dicts and lists read-only (other inputs share them)."""
    selection = result["selection"]
    route = spec.route(result["route"])
    # Built without re-validation: every value comes from a validated spec or the algebra.
    return _trusted(Decision, {
        "skill": spec.id,
        "input": "",
        "route": result["route"],
        "route_selection": _trusted(RouteSelection, {
            "route": selection["route"], "basis": selection["basis"],
            "rule_id": selection["rule_id"], "reason": selection["reason"],
        }) if selection else None,
        "route_order": tuple(result["order"]),
        "forbid": tuple(result["forbid"]),
        "allow": read_only(result["allow"]),
        "elicit": tuple(_question(spec, item) for item in result["elicit"]),
        "after_success": tuple(result["after_success"]),
        "matched_rules": tuple(result["matched"]),
        "reasons": tuple(_trusted(RuleReason, {"rule": r, "reason": why}) for r, why in result["reasons"]),
        "plan": route.execution_plan if route is not None else None,
        "facts": ReadOnlyDict({name: item.value for name, item in resolved.items()}),
        "forbidden_by": read_only(result["forbidden_by"]),
        "trace": tuple(
            _event(kind, rule, read_only(data), read_only(more)) for kind, rule, data, more in result["trace"]
        ),
    })


def _trusted(cls: type[_Model], values: dict[str, Any], fields: set[str] | None = None) -> _Model:
    """``cls.model_construct(**values)`` for ``values`` naming every field, in declaration order.

    The same object (these models have no aliases, extras or post-init), without pydantic's
    per-field loop, its slots set through their descriptors: decisions are made per user turn.
    ``fields``: the class's field names, when the caller has them (copied, not rebuilt).
    """
    made = _new(cls)
    _set_dict(made, values)
    _set_fields(made, set(values) if fields is None else fields.copy())
    _set_extra(made, None)
    _set_private(made, None)
    return made


_new = object.__new__
_EVENT_FIELDS = set(TraceEvent.model_fields)
_DECISION_FIELDS = set(Decision.model_fields)
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def _event(kind: str, rule: str | None, data: Mapping[str, Any], detail: Mapping[str, Any]) -> TraceEvent:
    return _trusted(TraceEvent, {"event": kind, "rule": rule, "data": data, "detail": detail})


def _question(spec: SkillSpec, elicitation_id: str) -> ElicitRequest:
    found = spec.elicitations.get(elicitation_id)
    if found is None:  # a spec built without validation
        return ElicitRequest(id=elicitation_id, question="")
    return ElicitRequest(
        id=elicitation_id,
        question=found.question,
        choices=tuple(
            ChoiceView(id=c.id, label=c.label, description=c.description) for c in found.choices
        ),
        default=found.default,
    )
