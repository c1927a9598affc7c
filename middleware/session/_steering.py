"""Steering in a session: the SkillSpec's decision for the turn, kept in the store, and refusals.

``SessionSteering`` is the steering part of ``RuleSession``: ``steer`` decides
a user turn and stores the decision, so ``check_tool`` in another process
sharing the session refuses what this one forbade; ``decision_json`` and
``restore_decision`` let an adapter keep the decision in its own thread state.
The SkillSpec machinery is imported on first use (see ``SessionCore._steering``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ruleweave.session._core import SessionCore, check_call, check_text
from ruleweave.session.touch import parse_args
from ruleweave.steering.current import DECISION_KEY

if TYPE_CHECKING:
    from ruleweave.steering import Decision, Refusal
    from ruleweave.steering.evaluate import ExtensionPredicate
    from ruleweave.steering.facts import Heuristic


class SessionSteering(SessionCore):
    """The steering part of a session (see ``RuleSession``)."""

    @property
    def decision(self) -> Decision | None:
        """The current turn's steering decision (``None`` before ``steer`` or without a spec)."""
        return self._current_decision()

    def steer(
        self,
        user_text: str,
        facts: Mapping[str, bool] | None = None,
        *,
        predicates: Mapping[str, ExtensionPredicate] | None = None,
        heuristics: Mapping[str, Heuristic] | None = None,
    ) -> Decision | None:
        """Decide this user turn with the SkillSpec; its ``<steering>`` block joins the prompt.

        The decision is kept in the store, so ``check_tool`` in another process
        sharing the session refuses what this one forbade.

        Args:
            user_text: What the user asked.
            facts: Task facts the caller knows (they win over keyword heuristics).
            predicates: Functions deciding ``x-`` predicates, by name.
            heuristics: Replacements for the keyword heuristics, by fact.

        Returns:
            The ``Decision``, or ``None`` when the rule set has no usable SkillSpec.

        Raises:
            ConfigError: A fact, heuristic or predicate name the spec does not know.
            ArgumentTypeError: ``user_text`` is not a string, or ``facts`` not a mapping.
        """
        decision = self._steer(user_text, facts, predicates, heuristics)
        saved = self._steering.json
        if decision is not None and saved is not None:
            self._safely("put", lambda: self.store.put(self.session_id, DECISION_KEY, saved), None)
        return decision

    async def asteer(
        self,
        user_text: str,
        facts: Mapping[str, bool] | None = None,
        *,
        predicates: Mapping[str, ExtensionPredicate] | None = None,
        heuristics: Mapping[str, Heuristic] | None = None,
    ) -> Decision | None:
        """Async twin of ``steer``."""
        decision = self._steer(user_text, facts, predicates, heuristics)
        saved = self._steering.json
        if decision is not None and saved is not None:
            await self._asafely("put", lambda: self.store.aput(self.session_id, DECISION_KEY, saved), None)
        return decision

    def _steer(
        self,
        user_text: str,
        facts: Mapping[str, bool] | None,
        predicates: Mapping[str, ExtensionPredicate] | None,
        heuristics: Mapping[str, Heuristic] | None,
    ) -> Decision | None:
        check_text("The user's text", user_text, facts)
        decision = self._steering.decide(user_text, facts, predicates, heuristics)
        if decision is not None:
            self._emit(
                "steering",
                route=decision.route,
                route_order=list(decision.route_order),
                forbid=list(decision.forbid),
                elicit=[e.id for e in decision.elicit],
                matched_rules=list(decision.matched_rules),
            )
        return decision

    def _current_decision(self) -> Decision | None:
        """The session's decision as the store has it (another worker may have steered since)."""
        current = self._steering
        if not current.active:
            return None
        raw = self._safely("get", lambda: self.store.get(self.session_id, DECISION_KEY), None)
        if not current.load(raw):
            self._emit("store_error", operation="get", error="unreadable steering decision")
        return current.decision

    @property
    def decision_json(self) -> str | None:
        """The current decision as JSON (for an adapter that keeps it in its thread state too)."""
        self._current_decision()
        return self._steering.json

    def restore_decision(self, raw: str | None) -> None:
        """Adopt a decision an adapter kept (``decision_json``) when the store has none.

        A thread resumed by a fresh process with an empty store (a restart, a
        human-in-the-loop resume) keeps refusing what its last turn forbade.
        Unreadable text is ignored.
        """
        if raw is None or not self._steering.active or raw == self._steering.json:
            return  # nothing kept, or it is the decision this session holds already
        if self._current_decision() is None and self._steering.load(raw):
            self._safely("put", lambda: self.store.put(self.session_id, DECISION_KEY, raw), None)

    def check_tool(self, name: str, args: Any) -> Refusal | None:
        """Refuse a tool call the current decision forbids, before it runs.

        Args:
            name: The tool's name.
            args: Its arguments (mapping or JSON string).

        Returns:
            The ``Refusal`` (its ``message`` names the rule and reason), or ``None``.

        Raises:
            ArgumentTypeError: ``name`` is not a string.
        """
        check_call(name)
        refusal = self._steering.check(name, parse_args(args)) if self._current_decision() else None
        self._emit(
            "tool_check",
            tool=name,
            refused=refusal is not None,
            rule=refusal.rule if refusal else None,
            forbidden=refusal.forbidden if refusal else None,
        )
        return refusal
