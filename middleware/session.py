"""``RuleSession``: the one object an adapter talks to.

A session reads its ``RuleSet`` (shared, immutable) and keeps everything
per conversation in its ``SessionStore``: which notices were injected
(claimed atomically, so parallel tool calls inject a rule once), TTSR
repeat counters and the turn. Matching and rendering exist once; the
``a``-prefixed methods are thin drivers over the same core that await the
store.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ruleweave.errors import RuleNotFound
from ruleweave.paths import display
from ruleweave.rules import Bucket, Rule
from ruleweave.store import SessionStore
from ruleweave.touch import parse_args, written_text
from ruleweave.ttsr import Source, TtsrHit

if TYPE_CHECKING:
    from ruleweave.ruleset import Match, PromptParts, RuleSet
    from ruleweave.steering import Decision, Refusal
    from ruleweave.steering.evaluate import ExtensionPredicate
    from ruleweave.steering.facts import Heuristic

RULE_SCHEME = "rule://"


@dataclass(frozen=True, slots=True)
class InjectionItem:
    """One rule or instruction file in a notice.

    Attributes:
        kind: ``rule`` or ``instructions``.
        name: The rule's name, or the instruction file's path relative to the project.
        path: The file the notice came from.
        trigger: The touched path (relative to the project when inside it).
        glob: The glob that matched (rules only).
    """

    kind: Literal["rule", "instructions"]
    name: str
    path: str
    trigger: str
    glob: str | None


@dataclass(frozen=True, slots=True)
class Injection:
    """What to append to a tool result.

    Attributes:
        text: The notice text.
        items: Each rule or instruction file it carries, with what triggered it.
    """

    text: str
    items: tuple[InjectionItem, ...]


@dataclass(frozen=True, slots=True)
class RuleDocument:
    """A rule as ``rule://name`` returns it.

    Attributes:
        name: The rule's name.
        uri: ``rule://<name>``.
        content: Its full text.
        description: Its description, if any.
        globs: Its globs.
        bucket: The bucket it is in.
        path: The file it came from.
        provider: Its provider.
    """

    name: str
    uri: str
    content: str
    description: str | None
    globs: tuple[str, ...]
    bucket: Bucket
    path: str
    provider: str


class RuleSession:
    """Rules woven into one agent session. Get one from ``RuleSet.session(...)``.

    Args:
        ruleset: The shared rule set.
        session_id: The conversation's id.
        store: Per-session state.
        context: Extra fields for the ``session_start`` event.
    """

    def __init__(
        self,
        ruleset: RuleSet,
        session_id: str,
        store: SessionStore,
        context: dict[str, Any] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.session_id = session_id
        self.store = store
        self._steering = ""
        self._decision: Decision | None = None
        self._watcher = ruleset.ttsr.watcher(store, session_id)
        # Stream buffers are shared by every stream of the session; parallel tool
        # calls may feed them from several threads.
        self._watch_lock = threading.Lock()
        self._cwd = str(ruleset.config.cwd)
        parts = ruleset.prompt_parts()
        self._emit(
            "session_start",
            cwd=str(ruleset.config.cwd),
            project_root=str(ruleset.config.root),
            prompt_sha256=parts.sha256,
            prompt_bytes=len(parts.text.encode("utf-8")),
            instructions_bytes=len(parts.instructions.encode("utf-8")),
            generic_rules=list(parts.generic_rules),
            domain_rules=list(parts.domain_rules),
            budget_cut=[list(cut) for cut in parts.budget.cut],
            options=ruleset.config.replayable_options(),
            **(context or {}),
        )

    def _emit(self, event: str, **fields: Any) -> None:
        self.ruleset.events.emit(event, session=self.session_id, **fields)

    # -- prompt -----------------------------------------------------------

    def prompt_parts(self, custom_system_prompt: str | None = None) -> PromptParts:
        """The prompt blocks, the instruction blob and its budget report.

        Args:
            custom_system_prompt: The caller's own system prompt (generic rules it
                already contains are left out); default ``config.custom_system_prompt``.

        Returns:
            ``PromptParts``; byte-identical for the same files.
        """
        parts = self.ruleset.prompt_parts(custom_system_prompt, steering=self._steering)
        self._emit("prompt", prompt_sha256=parts.sha256, prompt_bytes=len(parts.text.encode()))
        return parts

    def system_prompt(self, custom_system_prompt: str | None = None) -> str:
        """Everything ruleweave adds to the system prompt, as one string."""
        return self.prompt_parts(custom_system_prompt).text

    # -- after a tool call ------------------------------------------------

    def _prepare(self, tool: str, args: Any) -> tuple[Mapping[str, Any], list[str], list[Match]]:
        # Decode a JSON string once: paths, written text and the event all read the mapping.
        mapping = parse_args(args)
        paths = self.ruleset.extractors.path_strings(tool, mapping, self._cwd)
        if not paths:
            return mapping, paths, []
        return mapping, paths, self.ruleset.matches_for(paths, written_text(mapping))

    def _finish(
        self, tool: str, args: Mapping[str, Any], paths: Sequence[str], won: Sequence[Match]
    ) -> Injection | None:
        events = self.ruleset.events
        if events.enabled:
            root = self.ruleset.config.root
            self._emit(
                "tool_touch",
                tool=tool,
                args=_loggable(args),
                paths=[display(p, root) for p in paths],
                injected=[m.name for m in won],
            )
        if not won:
            return None
        injection = Injection(
            text=self.ruleset.render_matches(won),
            items=tuple(InjectionItem(m.kind, m.name, m.path, m.trigger, m.glob) for m in won),
        )
        self._emit(
            "injection",
            tool=tool,
            items=[
                {"kind": i.kind, "name": i.name, "trigger": i.trigger, "glob": i.glob}
                for i in injection.items
            ],
        )
        return injection

    def after_tool_call(self, name: str, args: Any, result: Any = None) -> Injection | None:
        """The notice to append to a tool's result, if the call touched rule-covered files.

        Each scoped rule and nested instruction file is injected at most once per
        session (until ``compacted()``), atomically across parallel calls.

        Args:
            name: The tool's name.
            args: Its arguments (a mapping, or a JSON object string).
            result: The tool's result (unused by the default extractors; kept for
                adapters and custom extractors).

        Returns:
            The ``Injection``, or ``None`` when nothing new applies.
        """
        mapping, paths, matches = self._prepare(name, args)
        won = [m for m in matches if self.store.claim(self.session_id, m.key)]
        return self._finish(name, mapping, paths, won)

    async def aafter_tool_call(self, name: str, args: Any, result: Any = None) -> Injection | None:
        """Async twin of ``after_tool_call`` (awaits the store)."""
        mapping, paths, matches = self._prepare(name, args)
        won = [m for m in matches if await self.store.aclaim(self.session_id, m.key)]
        return self._finish(name, mapping, paths, won)

    def compacted(self) -> None:
        """Re-arm every notice: call when the conversation history was summarised."""
        self.store.release(self.session_id, "inject:")
        self._emit("compacted")

    async def acompacted(self) -> None:
        """Async twin of ``compacted``."""
        await self.store.arelease(self.session_id, "inject:")
        self._emit("compacted")

    # -- streamed rules (TTSR) ------------------------------------------------

    def watch(
        self,
        source: Source,
        delta: str,
        *,
        tool: str | None = None,
        call_id: str | None = None,
        args: Any = None,
    ) -> TtsrHit | None:
        """Feed one streamed delta to the session's streamed rules.

        Args:
            source: ``text``, ``thinking`` or ``tool``.
            delta: The new characters (for tools, the streamed argument text).
            tool: The tool's name (tool streams).
            call_id: The tool call's id, keying its buffer.
            args: The call's arguments so far (for path gates and AST conditions).

        Returns:
            A ``TtsrHit`` when rules fire (``interrupt`` says whether to abort and
            retry with ``text`` injected, or to append ``text`` to the tool result),
            else ``None``. Only hits are logged, as ``ttsr`` events.
        """
        with self._watch_lock:
            hit = self._watcher.watch(source, delta, tool=tool, call_id=call_id, args=args)
        if hit is not None:
            self._log_hit(hit)
        return hit

    async def awatch(
        self,
        source: Source,
        delta: str,
        *,
        tool: str | None = None,
        call_id: str | None = None,
        args: Any = None,
    ) -> TtsrHit | None:
        """Async twin of ``watch``."""
        hit = await self._watcher.awatch(source, delta, tool=tool, call_id=call_id, args=args)
        if hit is not None:
            self._log_hit(hit)
        return hit

    def _log_hit(self, hit: TtsrHit) -> None:
        self._emit(
            "ttsr",
            source=hit.source,
            tool=hit.tool,
            call_id=hit.call_id,
            interrupt=hit.interrupt,
            rules=[rule.name for rule in hit.rules],
            offset=hit.offset,
        )

    def turn_start(self) -> None:
        """A new model turn: clear stream buffers and advance the TTSR turn counter."""
        with self._watch_lock:
            self._watcher.turn_start()
        self._emit("turn_start")

    async def aturn_start(self) -> None:
        """Async twin of ``turn_start``."""
        await self._watcher.aturn_start()
        self._emit("turn_start")

    # -- steering -----------------------------------------------------------

    @property
    def decision(self) -> Decision | None:
        """The current turn's steering decision (``None`` before ``steer`` or without a spec)."""
        return self._decision

    def steer(
        self,
        user_text: str,
        facts: Mapping[str, bool] | None = None,
        *,
        predicates: Mapping[str, ExtensionPredicate] | None = None,
        heuristics: Mapping[str, Heuristic] | None = None,
    ) -> Decision | None:
        """Decide this user turn with the SkillSpec; its ``<steering>`` block joins the prompt.

        Args:
            user_text: What the user asked.
            facts: Task facts the caller knows (they win over keyword heuristics).
            predicates: Functions deciding ``x-`` predicates, by name.
            heuristics: Replacements for the keyword heuristics, by fact.

        Returns:
            The ``Decision``, or ``None`` when the rule set has no usable SkillSpec.

        Raises:
            ConfigError: A fact, heuristic or predicate name the spec does not know.
        """
        spec = self.ruleset.steering.spec
        if spec is None:
            return None
        from ruleweave.steering import decide, render_steering

        decision = decide(spec, user_text, facts, predicates=predicates, heuristics=heuristics)
        self._decision = decision
        self._steering = render_steering(decision)
        self._emit(
            "steering",
            route=decision.route,
            route_order=list(decision.route_order),
            forbid=list(decision.forbid),
            elicit=[e.id for e in decision.elicit],
            matched_rules=list(decision.matched_rules),
        )
        return decision

    def check_tool(self, name: str, args: Any) -> Refusal | None:
        """Refuse a tool call the current decision forbids, before it runs.

        Args:
            name: The tool's name.
            args: Its arguments (mapping or JSON string).

        Returns:
            The ``Refusal`` (its ``message`` names the rule and reason), or ``None``.
        """
        refusal: Refusal | None = None
        if self._decision is not None:
            from ruleweave.steering import check_tool

            refusal = check_tool(
                self._decision, name, parse_args(args), tool_map=self.ruleset.steering.tool_map
            )
        self._emit(
            "tool_check",
            tool=name,
            refused=refusal is not None,
            rule=refusal.rule if refusal else None,
            forbidden=refusal.forbidden if refusal else None,
        )
        return refusal

    # -- rule:// ----------------------------------------------------------

    def resolve(self, uri: str) -> RuleDocument:
        """The rule a ``rule://<name>`` address names, from this session's own rule set.

        Args:
            uri: ``rule://<name>`` (a bare name is accepted too).

        Returns:
            The ``RuleDocument``.

        Raises:
            RuleNotFound: The name is empty or names no rule; the message lists
                the available names.
        """
        name = uri[len(RULE_SCHEME) :] if uri.startswith(RULE_SCHEME) else uri
        name = name.strip()
        available = tuple(self.ruleset.resolvable)
        listing = ", ".join(available) if available else "(none)"
        rule: Rule | None = self.ruleset.resolvable.get(name) if name else None
        self._emit("resolve", name=name, found=rule is not None)
        if not name:
            raise RuleNotFound(
                f"rule:// needs a rule name; available rules: {listing}.",
                name=name,
                available=available,
            )
        if rule is None:
            raise RuleNotFound(
                f"No rule named {name!r}; available rules: {listing}.",
                name=name,
                available=available,
            )
        bucket = self.ruleset.bucket_of(rule.name) or Bucket.MANUAL
        return RuleDocument(
            name=rule.name,
            uri=RULE_SCHEME + rule.name,
            content=rule.content,
            description=rule.description,
            globs=rule.globs,
            bucket=bucket,
            path=rule.path,
            provider=rule.source.provider,
        )


_MAX_LOGGED_CHARS = 4096


def _loggable(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """Decoded arguments as the event log records them: long strings capped."""
    return {
        str(key): value[:_MAX_LOGGED_CHARS] if isinstance(value, str) else value
        for key, value in mapping.items()
    }
