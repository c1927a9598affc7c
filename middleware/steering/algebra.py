"""The SkillSpec v0 rule algebra on plain data, standard library only.

:func:`compile_spec` turns a validated :class:`~ruleweave.steering.model.SkillSpec`
(:func:`compile_plain` its plain form) into dicts, lists and strings (JSON-ready
once ``allow`` values are); :func:`evaluate` runs the rules over one input and
returns plain results and the trace. The library's :func:`ruleweave.steering.decide` wraps them in a
:class:`~ruleweave.steering.decision.Decision`; ``ruleweave spec decide``'s warm
path (:mod:`ruleweave.steering.quick`) evaluates a compiled spec it kept on disk,
without building the pydantic models. One copy of the algebra serves both; the
semantics are documented in :mod:`ruleweave.steering.evaluate`.
"""

from __future__ import annotations

from ruleweave.steering.phrases import TASK_FACTS, first_found, needles, said

TYPE_CHECKING = False  # not typing's: the warm path of ``spec decide`` imports this module
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from ruleweave.steering.model import SkillSpec

    # ``(matched, *results)``: see ``outcomes``.
    Outcome = tuple[Any, ...]

FORMAT = 2
"""The compiled layout; bump it when :func:`compile_spec`'s output changes."""

DEFAULT_ROUTE_REASON = "selected first route by rank/default order"
"""The reason recorded when no rule chose the route (the reference's wording)."""

_MISSING_RANK = 2**63 - 1  # the reference sorts a missing rank as i64::MAX


def compile_spec(spec: SkillSpec, plans: bool = True) -> dict[str, Any]:
    """A validated spec as the plain data :func:`evaluate` reads (:func:`compile_plain` of its dump).

    Args:
        spec: A validated document.
        plans: Include each route's execution plan as JSON (the library's
            ``decide`` reads the model's plan instead and skips it).

    Returns:
        What :func:`compile_plain` returns.
    """
    return compile_plain(spec.model_dump(by_alias=True), plans)


def compile_plain(document: Mapping[str, Any], plans: bool = True) -> dict[str, Any]:
    """A validated document's plain form as the data :func:`evaluate` reads.

    Args:
        document: ``SkillSpec.model_dump(by_alias=True)``, or the same from
            :func:`ruleweave.steering.plain.plain_spec` (``spec decide``'s first call).
        plans: Include each route's execution plan as JSON.

    Returns:
        A dict: ``id``, ``schema``, ``order`` (route ids by rank), ``plans``
        (route id → plan JSON or None, first route of an id wins), ``rules``,
        ``elicitations`` and ``trace_required``.
    """
    ranked = sorted(
        document["routes"], key=lambda route: _MISSING_RANK if route["rank"] is None else route["rank"]
    )
    routes: dict[str, Any] = {}
    for route in document["routes"]:
        if route["id"] not in routes:
            plan = route["execution_plan"]
            routes[route["id"]] = json_ready(plan) if plans and plan is not None else None
    trace = document["trace"]
    return {
        "format": FORMAT,
        "id": document["id"],
        "schema": document["schema"],
        "order": [route["id"] for route in ranked],
        "plans": routes,
        "rules": [_rule(rule) for rule in document["rules"]],
        "elicitations": {
            key: {
                "question": item["question"],
                "choices": [
                    {"id": c["id"], "label": c["label"], "description": c["description"]}
                    for c in item["choices"]
                ],
                "default": item["default"],
            }
            for key, item in document["elicitations"].items()
        },
        "trace_required": bool(trace is not None and trace["required"]),
    }


def _rule(rule: Mapping[str, Any]) -> dict[str, Any]:
    when = rule["when"]
    facts = [[name, when[name]] for name in TASK_FACTS if when[name] is not None]
    phrases, groups, extensions = when["user_says_any"], when["user_says_all_groups"], when["extensions"]
    return {
        "id": rule["id"],
        "empty": not (phrases or groups or facts or extensions),  # Predicate.is_empty
        "any": needles(phrases),
        "any_only": bool(phrases) and not (groups or facts or extensions),
        "all": [needles(group) for group in groups],
        "facts": facts,
        "x": dict(extensions),
        "prefer": rule["prefer"],
        "route_order": list(rule["route_order"]),
        "forbid": list(rule["forbid"]),
        "allow": dict(rule["allow"]),
        "elicit": list(rule["elicit"]),
        "after_success": list(rule["after_success"]),
        "reason": rule["reason"],
    }


def json_ready(value: Any) -> Any:
    """A plain form as JSON data: lists for tuples, plain numbers for the spelled ones (``YamlInt``),
    text for anything else.

    What ``pydantic_core.to_jsonable_python(value, fallback=str)`` gives for what the YAML reader
    builds (a plan's ``model_dump(mode="json")``, an ``allow`` value), without importing pydantic.
    """
    if value is None or type(value) in (str, bool, int, float):
        return value
    if isinstance(value, dict):
        return {key if isinstance(key, str) else str(key): json_ready(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(item) for item in value]
    if isinstance(value, int):  # YamlInt; bool cannot be subclassed
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)


def evaluate(
    compiled: Mapping[str, Any],
    text: str,
    fact: Callable[[str], tuple[bool, str] | None],
    predicates: Mapping[str, Callable[[str, Any], bool]],
) -> dict[str, Any]:
    """Apply the compiled rules to one input (:func:`outcomes`, then :func:`apply`).

    Args:
        compiled: What :func:`compile_spec` returned.
        text: The user's text.
        fact: A fact's value and source (``caller`` or ``heuristic``), or None
            for an ``x-`` name the caller did not give.
        predicates: Functions deciding ``x-`` predicates, by name.

    Returns:
        ``route``, ``selection`` (``route``, ``basis``, ``rule_id``, ``reason``, or
        None), ``order``, ``forbid``, ``forbidden_by``, ``allow``, ``elicit`` (ids),
        ``after_success``, ``matched``, ``reasons`` (``(rule, reason)`` pairs) and
        ``trace`` (``(event, rule, data, detail)`` tuples), all deduplicated as
        the algebra says.
    """
    return apply(compiled, text, outcomes(compiled, text, fact, predicates))


def outcomes(
    compiled: Mapping[str, Any],
    text: str,
    fact: Callable[[str], tuple[bool, str] | None],
    predicates: Mapping[str, Callable[[str, Any], bool]],
) -> list[Outcome]:
    """Each rule's outcome on one input, in file order (the arguments of :func:`evaluate`).

    An outcome is ``(matched, *results)``: each check's result in the order checks
    are made, up to the first miss — the phrase ``user_says_any`` found (or None),
    each ``user_says_all_groups`` group's phrase, each task fact as ``(value,
    source)``, each ``x-`` predicate's bool. Everything else in a decision follows
    from these and the input, so two inputs with equal outcomes (and facts) get
    equal decisions but for the input.
    """
    lowered = text.lower()
    found: list[Outcome] = []
    for rule in compiled["rules"]:
        if rule["any_only"]:  # the usual rule, its phrases alone: ``first_found`` inline (per user turn)
            for needle, phrase in rule["any"]:
                if needle in lowered and needle and said(lowered, needle):
                    found.append((True, phrase))
                    break
            else:
                found.append(_NOT_SAID)
        else:
            found.append(_match(rule, text, lowered, fact, predicates))
    return found


def apply(compiled: Mapping[str, Any], text: str, found: list[Outcome]) -> dict[str, Any]:
    """The decision the rules' :func:`outcomes` make for ``text`` (what :func:`evaluate` returns)."""
    state = _State(compiled, text)
    for rule, outcome in zip(compiled["rules"], found, strict=True):
        rid, matched = rule["id"], outcome[0]
        state.trace.append(
            ("rule_evaluated", rid, {"rule_id": rid, "matched": matched}, {"checks": _checks(rule, outcome)})
        )
        if matched:
            state.apply(rule)
    return state.finish()


_EMPTY_RULE = (False,)
_NOT_SAID = (False, None)


def _match(
    rule: Mapping[str, Any],
    text: str,
    lowered: str,
    fact: Callable[[str], tuple[bool, str] | None],
    predicates: Mapping[str, Callable[[str, Any], bool]],
) -> Outcome:
    """A rule's outcome (:func:`outcomes`): every check made, stopping at the first miss."""
    if rule["empty"]:
        return _EMPTY_RULE
    results: list[Any] = []
    if rule["any"]:
        phrase = first_found(lowered, rule["any"])
        if phrase is None:
            return False, None
        results.append(phrase)
    if rule["all"]:
        hits = [first_found(lowered, group) for group in rule["all"]]
        results.extend(hits)
        if None in hits:
            return (False, *results)
    for name, expected in rule["facts"]:
        found = fact(name)
        pair = (found[0], found[1]) if found is not None else (False, None)
        results.append(pair)
        if pair[0] != expected:
            return (False, *results)
    for name, declared in rule["x"].items():
        function = predicates.get(name)
        if function is not None:
            result = function(text, declared) is True
        else:
            found = fact(name)
            result = found is not None and isinstance(declared, bool) and found[0] == declared
        results.append(result)
        if not result:
            return (False, *results)
    return (True, *results)


def _checks(rule: Mapping[str, Any], outcome: Outcome) -> dict[str, Any]:
    """Each check an outcome made, by predicate name (the trace's ``rule_evaluated`` detail)."""
    checks: dict[str, Any] = {}
    results = iter(outcome[1:])
    if rule["empty"]:
        return checks
    if rule["any"]:
        phrase = checks["user_says_any"] = next(results)
        if phrase is None:
            return checks
    if rule["all"]:
        hits = checks["user_says_all_groups"] = [next(results) for _ in rule["all"]]
        if None in hits:
            return checks
    for name, expected in rule["facts"]:
        value, source = next(results)
        checks[name] = {"expected": expected, "value": value, "source": source}
        if value != expected:
            return checks
    for name in rule["x"]:
        result = checks[name] = next(results)
        if not result:
            return checks
    return checks


class _State:
    """The decision being built while rules are applied."""

    def __init__(self, compiled: Mapping[str, Any], text: str) -> None:
        self.compiled = compiled
        self.text = text
        self.selection: dict[str, Any] | None = None
        self.order: list[str] = list(compiled["order"])
        self.order_rule: Mapping[str, Any] | None = None
        self.forbid: list[str] = []
        self.forbidden_by: dict[str, str] = {}
        self.allow: dict[str, Any] = {}
        self.elicit: list[str] = []
        self.after_success: list[str] = []
        self.matched: list[str] = []
        self.reasons: list[tuple[str, str]] = []
        self.trace: list[tuple[str, str | None, dict[str, Any], dict[str, Any]]] = [
            ("input_received", None, {"input": text}, {}),
            ("spec_loaded", None, {"skill_id": compiled["id"], "schema": compiled["schema"]}, {}),
        ]

    def event(self, event: str, rule: str | None, data: dict[str, Any]) -> None:
        self.trace.append((event, rule, data, {}))

    def select(self, route: str, basis: str, rule_id: str | None, reason: str | None) -> None:
        self.selection = {"route": route, "basis": basis, "rule_id": rule_id, "reason": reason}
        self.event("route_selected", rule_id, dict(self.selection))

    def apply(self, rule: Mapping[str, Any]) -> None:
        rid, reason = rule["id"], rule["reason"]
        self.event("rule_matched", rid, {"rule_id": rid, "reason": reason})
        self.matched.append(rid)
        if reason is not None:
            self.reasons.append((rid, reason))
        if rule["prefer"] is not None:
            self.select(rule["prefer"], "rule_prefer", rid, reason)
        if rule["route_order"]:
            self.order, self.order_rule = list(rule["route_order"]), rule
            self.event("route_order_set", rid, {"route_order": list(rule["route_order"])})
        if rule["forbid"]:
            self.forbid.extend(rule["forbid"])
            for item in rule["forbid"]:
                self.forbidden_by.setdefault(item, rid)
            self.event("forbid_added", rid, {"forbid": list(rule["forbid"])})
        if rule["allow"]:
            self.allow.update(rule["allow"])
            self.event("allow_added", rid, {"allow": dict(sorted(rule["allow"].items()))})
        if rule["elicit"]:
            self.elicit.extend(rule["elicit"])
            self.event("elicitation_requested", rid, {"elicit": list(rule["elicit"])})
        if rule["after_success"]:
            self.after_success.extend(rule["after_success"])
            self.event("after_success_scheduled", rid, {"after_success": list(rule["after_success"])})

    def finish(self) -> dict[str, Any]:
        if self.selection is None and self.order:
            if self.order_rule is not None:
                rule = self.order_rule
                self.select(self.order[0], "route_order_default", rule["id"], rule["reason"])
            else:
                self.select(self.order[0], "default_route_order", None, DEFAULT_ROUTE_REASON)
        selection = self.selection
        route = selection["route"] if selection else None
        self.event(
            "outcome_recorded",
            None,
            {
                "route": route,
                "route_selection": dict(selection) if selection else None,
                "matched_rules": list(self.matched),
            },
        )
        return {
            "route": route,
            "selection": selection,
            "order": self.order,
            "forbid": _unique(self.forbid),
            "forbidden_by": self.forbidden_by,
            "allow": self.allow,
            "elicit": _unique(self.elicit),
            "after_success": _unique(self.after_success),
            "matched": self.matched,
            "reasons": self.reasons,
            "trace": self.trace,
        }


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def decision_json(
    result: Mapping[str, Any],
    *,
    skill: str,
    text: str,
    plan: Any,
    allow: Any,
    questions: list[dict[str, Any]],
    facts: Mapping[str, bool],
) -> dict[str, Any]:
    """The decision as ``ruleweave spec decide --json`` prints it (``Decision.to_json``).

    The reference implementation's keys first (``matched_rules`` as ``{id, reason}``,
    ``elicit`` as ids, ``allow`` with sorted keys, the full ``execution_plan``), then
    ruleweave's additions.

    Args:
        result: What :func:`evaluate` returned (or the same fields of a ``Decision``).
        skill: The spec's id.
        text: The user's text.
        plan: The selected route's plan as JSON, or None.
        allow: The merged allow map as JSON, keys sorted.
        questions: Each elicitation as ``{id, question, choices, default}``.
        facts: The task facts consulted.

    Returns:
        A JSON-ready dict with the keys of ``DECISION_JSON_KEYS``, in order.
    """
    reasons = dict(result["reasons"])
    reason = result["reasons"][-1][1] if result["reasons"] else None
    selection = result["selection"]
    return {
        "input": text,
        "route": result["route"],
        "route_selection": dict(selection) if selection else None,
        "route_order": list(result["order"]),
        "execution_plan": plan,
        "forbid": list(result["forbid"]),
        "allow": allow,
        "elicit": [item["id"] for item in questions],
        "after_success": list(result["after_success"]),
        "matched_rules": [{"id": rule, "reason": reasons.get(rule)} for rule in result["matched"]],
        "reason": reason,
        "skill": skill,
        "questions": questions,
        "facts": dict(facts),
        "forbidden_by": dict(result["forbidden_by"]),
    }
