"""``CurrentDecision``: one session's steering decision, shared through its store.

The decision of the latest user turn is kept in the session's store as JSON
(``DECISION_KEY``), so ``check_tool`` in any process sharing the session
refuses what ``steer`` forbade in another. This object decides, parses what
the store holds (only when it changed) and renders the ``<steering>``
block; the session does the store I/O. The SkillSpec machinery is imported
only when a spec exists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruleweave.steering.decision import Decision
    from ruleweave.steering.enforce import Refusal
    from ruleweave.steering.evaluate import ExtensionPredicate
    from ruleweave.steering.facts import Heuristic
    from ruleweave.steering.loader import Steering

DECISION_KEY = "steering:decision"
"""Store key of a session's current steering decision (JSON)."""


class CurrentDecision:
    """The decision one session steers by.

    Args:
        steering: The rule set's SkillSpec (``spec`` ``None``: no steering at all).
        canonical: Tool name → its kind, so one alias in a forbid matches all (``tool_names``).
    """

    def __init__(self, steering: Steering, canonical: Callable[[str], str] | None = None) -> None:
        self.steering = steering
        self.canonical = canonical
        self.decision: Decision | None = None
        self.json: str | None = None

    @property
    def active(self) -> bool:
        """Whether there is a spec to steer with (else nothing here touches the store)."""
        return self.steering.spec is not None

    def decide(
        self,
        user_text: str,
        facts: Mapping[str, bool] | None = None,
        predicates: Mapping[str, ExtensionPredicate] | None = None,
        heuristics: Mapping[str, Heuristic] | None = None,
    ) -> Decision | None:
        """Decide a user turn and make it current (``None`` without a spec)."""
        spec = self.steering.spec
        if spec is None:
            return None
        from ruleweave.steering.evaluate import decide

        self.decision = decide(spec, user_text, facts, predicates=predicates, heuristics=heuristics)
        self.json = self.decision.model_dump_json()
        return self.decision

    def load(self, raw: str | None) -> bool:
        """Adopt the decision the store holds (parsed only when it changed); False if unreadable."""
        if raw is None or raw == self.json:
            return True
        from ruleweave.steering.decision import Decision

        try:
            self.decision = Decision.model_validate_json(raw)
        except ValueError:
            return False
        self.json = raw
        return True

    def block(self) -> str:
        """The ``<steering>`` block of the current decision ('' without one)."""
        if self.decision is None:
            return ""
        from ruleweave.steering.render import render_steering

        return render_steering(self.decision)

    def check(self, name: str, args: Mapping[str, Any]) -> Refusal | None:
        """The refusal of a tool call the current decision forbids, or ``None``."""
        if self.decision is None:
            return None
        from ruleweave.steering.enforce import check_tool

        return check_tool(
            self.decision, name, args, tool_map=self.steering.tool_map, canonical=self.canonical
        )
