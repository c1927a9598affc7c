"""The ``<steering>`` block: a decision as text for the model's prompt.

Deterministic (same decision, same bytes) and safe to embed: every value
from the spec or the user is put on one line and has ``&``, ``<`` and ``>``
escaped, so nothing can close the block or open a tag.
"""

from __future__ import annotations

import json

from ruleweave._text.oneline import one_line_escaped

TYPE_CHECKING = False  # not typing's: ``spec decide``'s warm path renders with this module
if TYPE_CHECKING:
    from typing import Any

    from ruleweave.steering.decision import Decision, ElicitRequest


def clean(value: Any) -> str:
    """One line of text that cannot close or open a tag.

    Args:
        value: A string, or any JSON-able value (rendered as sorted JSON).

    Returns:
        The value with whitespace runs collapsed and ``& < >`` escaped.
    """
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return one_line_escaped(text)


def render_steering(decision: Decision) -> str:
    """Render a decision as a ``<steering>…</steering>`` block.

    Lists the route and why, the route order, the plan, what not to
    substitute (and the narrow exceptions), the bounded questions to ask with
    their choices, the after-success obligations and the rules' reasons.

    Args:
        decision: The decision for this turn.

    Returns:
        The block, ending without a newline; an empty string when the
        decision has no route and no rule matched.
    """
    if decision.route is None and not decision.matched_rules:
        return ""
    lines = [f"SkillSpec steering for this turn (skill {clean(decision.skill)})."]
    if decision.route is not None:
        lines.append(f"Route: {clean(decision.route)} ({_basis(decision)}).")
    if len(decision.route_order) > 1:
        order = " → ".join(clean(route) for route in decision.route_order)
        lines.append(f"Route order (try in this order): {order}.")
    if decision.plan is not None and decision.plan.phases:
        phases = " → ".join(clean(phase) for phase in decision.plan_phases)
        lines.append(f"Plan phases: {phases}.")
        jumps = [
            f"{clean(phase.id)} → {clean(jump.to_phase)} when {clean(jump.when)}"
            for phase in decision.plan.phases
            for jump in phase.jumps
        ]
        if jumps:
            lines.append(f"Plan jumps: {'; '.join(jumps)}.")
    if decision.forbid:
        items = ", ".join(clean(item) for item in decision.forbid)
        lines.append(f"Do not substitute: {items}.")
    if decision.allow:
        allowed = "; ".join(f"{clean(k)}: {clean(v)}" for k, v in sorted(decision.allow.items()))
        lines.append(f"Narrow exceptions (only as stated): {allowed}.")
    if decision.elicit:
        lines.append("Ask the user, offering only the declared choices, before proceeding:")
        lines.extend(_question(item) for item in decision.elicit)
    if decision.after_success:
        items = ", ".join(clean(item) for item in decision.after_success)
        lines.append(f"After success, before the final answer: {items}.")
    if decision.reasons:
        lines.append("Why:")
        lines.extend(f"- {clean(r.rule)}: {clean(r.reason)}" for r in decision.reasons)
    elif decision.matched_rules:
        lines.append(f"Matched rules: {', '.join(clean(rule) for rule in decision.matched_rules)}.")
    return "<steering>\n" + "\n".join(lines) + "\n</steering>"


def _basis(decision: Decision) -> str:
    selection = decision.route_selection
    rule = selection.rule_id if selection else None
    if decision.route_basis == "rule_prefer" and rule:
        return f"preferred by rule {clean(rule)}"
    if decision.route_basis == "route_order_default" and rule:
        return f"first in the order set by rule {clean(rule)}"
    return "lowest rank; no rule chose a route"


def _question(item: ElicitRequest) -> str:
    text = f"- {clean(item.id)}: {clean(item.question) or '(no question declared)'}"
    if item.choices:
        choices = "; ".join(
            f"{clean(c.id)} ({clean(c.label)})" if c.label != c.id else clean(c.id)
            for c in item.choices
        )
        text += f" Choices: {choices}."
    if item.default:
        text += f" Default: {clean(item.default)}."
    return text
