"""``RuleSession``: the one object an adapter talks to.

A session reads its rule set (shared, immutable) and keeps everything per
conversation in its ``SessionStore``, so another process with the same
session id and store continues where this one stopped: which notices were
injected and with which tool call (claimed atomically, so parallel tool
calls inject a rule once), TTSR repeat counters, retries and the turn, and
the current steering decision. Matching and rendering exist once; the
``a``-prefixed methods are thin drivers over the same core that await the
store.

A store that fails mid-session (Redis restarted, disk full) never raises
into the agent: the call goes on as if nothing applied, a ``store_error``
event records the cause, and the next call tries the store again.

The session is put together from its parts, one concern each: ``_core``
(state, events and the fail-open store calls), ``_streams`` (streamed rules),
``_steering`` (the SkillSpec decision and refusals); this module adds the
moments that span them: the prompt, a tool call's notices and their ledger,
a user turn, the checks before a tool call, and ``rule://``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, overload

from ruleweave._files.paths import display
from ruleweave._kernel import ledger
from ruleweave._kernel.ledger import NOTICE_PREFIX
from ruleweave._text.echo import loggable
from ruleweave.errors import RuleNotFoundError
from ruleweave.session._core import check_call
from ruleweave.session._steering import SessionSteering
from ruleweave.session._streams import SessionStreams
from ruleweave.session.notices import CallNotices, Claim, Injection, Match
from ruleweave.store import LedgerEntries

if TYPE_CHECKING:
    from ruleweave.prompt.parts import PromptParts
    from ruleweave.session.rule_uri import RuleDocument
    from ruleweave.steering import Refusal
    from ruleweave.ttsr.route import TtsrRoute
    from ruleweave.ttsr.watcher import TtsrHit


class RuleSession(SessionSteering, SessionStreams):
    """Rules woven into one agent session. Get one from ``RuleSet.session(...)`` or a ``SessionPool``.

    Args:
        ruleset: The shared rule set.
        session_id: The conversation's id.
        store: Per-session state.
        context: Extra fields for the ``session_start`` event.
        ttsr_retries: Retries per turn after streamed-rule interrupts
            (default ``config.ttsr_retries``).

    Raises:
        ArgumentTypeError: ``session_id`` is not a non-empty string.
    """

    # -- prompt ------------------------------------------------------------

    def prompt_parts(self, custom_system_prompt: str | None = None) -> PromptParts:
        """The prompt blocks, the instruction blob and its budget report.

        Args:
            custom_system_prompt: The caller's own system prompt (generic rules it
                already contains are left out); default ``config.custom_system_prompt``.

        Returns:
            ``PromptParts``; byte-identical for the same files.
        """
        self._current_decision()
        parts = self.ruleset.prompt_parts(custom_system_prompt, steering=self._steering.block())
        self._emit("prompt", prompt_sha256=parts.sha256, prompt_bytes=len(parts.text.encode()))
        return parts

    def system_prompt(self, custom_system_prompt: str | None = None) -> str:
        """Everything ruleweave adds to the system prompt, as one string."""
        return self.prompt_parts(custom_system_prompt).text

    # -- after a tool call -------------------------------------------------

    def after_tool_call(
        self,
        name: str,
        args: Any,
        result: Any = None,
        *,
        call_id: str | None = None,
        given: Collection[str] = (),
        claim_scope: str | None = None,
    ) -> Injection | None:
        """The notice to append to a tool's result, if the call touched rule-covered files.

        Each scoped rule and nested instruction file is injected at most once per
        session (until ``compacted()`` or ``forget_calls``), atomically across
        parallel calls and processes sharing the store. Streamed-rule reminders
        waiting for this call's result (or for any next result) come last.

        Args:
            name: The tool's name.
            args: Its arguments (a mapping, or a JSON object string).
            result: The tool's result (unused by the default extractors; kept for
                adapters and custom extractors).
            call_id: The tool call's id: the ledger records which notices went with it
                (``notices_for``, ``forget_calls``).
            given: Notice keys (``InjectionItem.key``) the conversation already holds,
                for an adapter that keeps them in its own thread state: they are left
                out before any claim.
            claim_scope: With ``given``, make the store's claim only dedupe calls of one
                step (e.g. the id of the model message that issued them), so the thread
                state, not the store, decides what was given (forks and restarts).

        Returns:
            The ``Injection``, or ``None`` when nothing new applies.

        Raises:
            ArgumentTypeError: ``name`` is not a string, or ``call_id`` not a string or ``None``.
        """
        found, candidates, keys, records = self._to_claim(name, args, call_id, given, claim_scope)
        won: list[Match] = []
        if candidates:
            try:  # ``_safely`` spelled out: this runs after every tool call that touched a rule
                flags = self.store.claim_many(self.session_id, keys, call_id=call_id, records=records)
            except Exception as exc:  # fail-open, as ``_safely``
                self._store_failed("claim", exc)
                flags = [False] * len(keys)
            won = [m for m, flag in zip(candidates, flags, strict=True) if flag]
        reminders = self._take_reminders(call_id) if self._reminders else ()
        if not won and not reminders and not self.ruleset.events.enabled:
            return None  # nothing new and nobody listening: most calls end here
        return self._finish(name, found.args, found.paths, won, reminders)

    async def aafter_tool_call(
        self,
        name: str,
        args: Any,
        result: Any = None,
        *,
        call_id: str | None = None,
        given: Collection[str] = (),
        claim_scope: str | None = None,
    ) -> Injection | None:
        """Async twin of ``after_tool_call`` (awaits the store)."""
        found, candidates, keys, records = self._to_claim(name, args, call_id, given, claim_scope)
        won: list[Match] = []
        if candidates:
            flags = await self._asafely(
                "claim",
                lambda: self.store.aclaim_many(self.session_id, keys, call_id=call_id, records=records),
                [False] * len(keys),
            )
            won = [m for m, flag in zip(candidates, flags, strict=True) if flag]
        reminders = self._take_reminders(call_id) if self._reminders else ()
        if not won and not reminders and not self.ruleset.events.enabled:
            return None
        return self._finish(name, found.args, found.paths, won, reminders)

    def _to_claim(
        self, name: str, args: Any, call_id: str | None, given: Collection[str], scope: str | None
    ) -> tuple[CallNotices, list[Match], list[str], Sequence[str]]:
        """A call's notices, those not already given, and their store keys and ledger records."""
        if type(name) is not str or (call_id is not None and type(call_id) is not str):
            check_call(name, call_id)  # subclasses pass; anything else raises, naming the argument
        found = self.ruleset.notices.for_call(name, args)
        if not found.matches:
            return found, [], [], []
        if not given and scope is None:  # the usual call: every candidate, keys as they are
            claims = found.claims
            records: Sequence[str] = _Records(claims) if call_id is not None else ()
            return found, list(found.matches), [claim.key for claim in claims], records
        pairs = zip(found.matches, found.claims, strict=True)
        chosen = [(m, claim) for m, claim in pairs if claim.key not in given] if given else list(pairs)
        keys = [claim.key if scope is None else ledger.scoped_key(claim.key, scope) for _, claim in chosen]
        records = _Records([claim for _, claim in chosen]) if call_id is not None else ()
        return found, [m for m, _ in chosen], keys, records

    def _finish(
        self,
        tool: str,
        args: Mapping[str, Any],
        paths: Sequence[str],
        won: Sequence[Match],
        reminders: Sequence[TtsrHit] = (),
    ) -> Injection | None:
        """The call's event and its injection (callers skip it when nothing was won and nobody listens)."""
        events = self.ruleset.events
        if events.enabled:
            root = self.ruleset.config.root
            self._emit(
                "tool_touch",
                tool=loggable(tool),
                args=loggable(args),
                paths=[display(p, root) for p in paths],
                injected=[m.name for m in won],
            )
        injection = self.ruleset.notices.injection(won, reminders)
        if injection is None:
            return None
        self._emit(
            "injection",
            tool=tool,
            items=[
                {"kind": i.kind, "name": i.name, "trigger": i.trigger, "glob": i.glob}
                for i in injection.items
            ],
        )
        return injection

    def notices_for(self, call_id: str) -> Injection | None:
        """The notices the ledger says went with ``call_id`` (to re-apply them to a rebuilt request).

        Args:
            call_id: The tool call's id, as given to ``after_tool_call``.

        Returns:
            The ``Injection`` as this rule set renders those notices now, or ``None``.
        """
        empty: LedgerEntries = {}
        entries = self._safely("ledger", lambda: self.store.ledger(self.session_id, [call_id]), empty)
        return self.ruleset.notices.injection(self._from_records(entries.get(call_id, [])))

    async def anotices_for(self, call_id: str) -> Injection | None:
        """Async twin of ``notices_for``."""
        empty: LedgerEntries = {}
        entries = await self._asafely("ledger", lambda: self.store.aledger(self.session_id, [call_id]), empty)
        return self.ruleset.notices.injection(self._from_records(entries.get(call_id, [])))

    def _from_records(self, pairs: Sequence[tuple[str, str]]) -> list[Match]:
        matches = (self.ruleset.notices.from_record(record) for _, record in pairs)
        return [m for m in matches if m is not None]

    def forget_calls(self, call_ids: Sequence[str]) -> tuple[str, ...]:
        """Re-arm exactly the notices these tool calls carried (their results left the history).

        Call it when history is summarised, trimmed or forked: each rule those
        calls carried comes back the next time a tool call needs it, and no other.

        Args:
            call_ids: The ids of the tool calls whose results were dropped.

        Returns:
            The store keys re-armed.
        """
        empty: LedgerEntries = {}
        dropped = self._safely(
            "forget_calls", lambda: self.store.forget_calls(self.session_id, list(call_ids)), empty
        )
        return self._forgot(call_ids, dropped)

    async def aforget_calls(self, call_ids: Sequence[str]) -> tuple[str, ...]:
        """Async twin of ``forget_calls``."""
        empty: LedgerEntries = {}
        dropped = await self._asafely(
            "forget_calls", lambda: self.store.aforget_calls(self.session_id, list(call_ids)), empty
        )
        return self._forgot(call_ids, dropped)

    def _forgot(self, call_ids: Sequence[str], dropped: LedgerEntries) -> tuple[str, ...]:
        keys = tuple(key for pairs in dropped.values() for key, _ in pairs)
        self._emit("forget_calls", call_ids=list(call_ids), rearmed=list(keys))
        return keys

    def compacted(self) -> None:
        """Re-arm every notice: call when the whole conversation history was summarised."""
        self._safely("release", lambda: self.store.release(self.session_id, NOTICE_PREFIX), None)
        self._emit("compacted")

    async def acompacted(self) -> None:
        """Async twin of ``compacted``."""
        await self._asafely("release", lambda: self.store.arelease(self.session_id, NOTICE_PREFIX), None)
        self._emit("compacted")

    # -- a user turn -------------------------------------------------------

    def new_user_turn(self, text: str, turn_id: str, facts: Mapping[str, bool] | None = None) -> bool:
        """Start a user turn once, however many processes or model calls see it.

        Claims ``turn:<turn_id>`` in the store; the one caller that wins steers with
        ``text`` and starts a TTSR turn.

        Args:
            text: What the user said.
            turn_id: A stable id of the user message (its message id).
            facts: Task facts for steering.

        Returns:
            Whether this call started the turn.
        """
        won = self._safely("claim", lambda: self.store.claim(self.session_id, f"turn:{turn_id}"), False)
        if won:
            self.steer(text, facts)
            self.turn_start()
        return won

    async def anew_user_turn(
        self, text: str, turn_id: str, facts: Mapping[str, bool] | None = None
    ) -> bool:
        """Async twin of ``new_user_turn``."""
        won = await self._asafely(
            "claim", lambda: self.store.aclaim(self.session_id, f"turn:{turn_id}"), False
        )
        if won:
            await self.asteer(text, facts)
            await self.aturn_start()
        return won

    # -- before a tool call ------------------------------------------------

    def before_tool_call(self, name: str, args: Any, *, call_id: str | None = None) -> Refusal | None:
        """Everything to check before a complete tool call runs: steering, then streamed rules.

        An interrupting streamed rule that matches the whole call refuses it (the
        model writes it again); a non-interrupting one becomes a reminder on the
        call's result.

        Args:
            name: The tool's name.
            args: Its complete arguments.
            call_id: The tool call's id.

        Returns:
            The ``Refusal`` to answer the call with, or ``None`` to run it.
        """
        refusal = self.check_tool(name, args)
        if refusal is not None:
            return refusal
        hit = self.watch("tool", "", tool=name, call_id=call_id, args=args)
        return None if hit is None else _ttsr_refusal(name, self.route(hit, complete_call=True))

    async def abefore_tool_call(
        self, name: str, args: Any, *, call_id: str | None = None
    ) -> Refusal | None:
        """Async twin of ``before_tool_call``."""
        refusal = self.check_tool(name, args)
        if refusal is not None:
            return refusal
        hit = await self.awatch("tool", "", tool=name, call_id=call_id, args=args)
        return None if hit is None else _ttsr_refusal(name, await self.aroute(hit, complete_call=True))

    # -- rule:// -----------------------------------------------------------

    def read_rule(self, name: str) -> str:
        """The text a ``read_rule`` tool answers with: the rule, or why there is none (never raises).

        Args:
            name: A rule name or ``rule://`` address, as the model wrote it.

        Returns:
            ``[rule: name]`` and the rule's full text, or one sentence listing what exists.
        """
        try:
            document = self.resolve(name if isinstance(name, str) else str(name))
        except RuleNotFoundError as exc:
            return str(exc)
        return document.as_read

    def resolve(self, uri: str) -> RuleDocument:
        """The rule a ``rule://<name>`` address names, from this session's own rule set.

        Args:
            uri: ``rule://<name>`` (a bare name is accepted too).

        Returns:
            The ``RuleDocument``.

        Raises:
            RuleNotFoundError: The name is empty or names no rule; the message lists
                the available names.
            ArgumentTypeError: ``uri`` is not a string.
        """
        from ruleweave.session.rule_uri import document, rule_name

        name = rule_name(uri)
        try:
            found = document(name, self.ruleset.find_rule, self.ruleset.rule_names)
        except RuleNotFoundError:
            self._emit("resolve", name=name[:200], found=False)
            raise
        self._emit("resolve", name=name, found=True)
        return found


def _ttsr_refusal(tool: str, decided: TtsrRoute) -> Refusal | None:
    from ruleweave.ttsr.route import TtsrAction

    if decided.action is not TtsrAction.REFUSE:
        return None
    from ruleweave.steering.enforce import Refusal

    names = ", ".join(rule.name for rule in decided.hit.rules)
    return Refusal(
        rule=names, reason="streamed rule", forbidden="ttsr", tool=tool, matched=f"tool {tool}",
        message=decided.text,
    )


class _Records(Sequence[str]):
    """The ledger records of a call's claims, each made when a store reads it.

    A store reads only the records of the keys a call wins (``MemoryStore``), or all
    of them for one round trip (SQLite, Redis); most candidates of a new path are
    claimed already, and a record is JSON text built from five fields.
    """

    __slots__ = ("_claims",)

    def __init__(self, claims: Sequence[Claim]) -> None:
        self._claims = claims

    def __len__(self) -> int:
        return len(self._claims)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [claim.record for claim in self._claims[index]]
        return self._claims[index].record
