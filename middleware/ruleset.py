"""``RuleSet``: discovery, buckets, matchers and the instruction blob, loaded once.

A ``RuleSet`` is immutable and shared by any number of sessions (threads,
tasks or agent workers); everything per session lives in the session's
store. Loading does no glob compilation: the scoped-rule index compiles a
glob the first time a lookup needs it, so a hook started per tool call pays
only for what it matches.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ruleweave import prompt
from ruleweave.buckets import Buckets, assign
from ruleweave.conditions import Condition, compile_condition
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import Discovery, discover
from ruleweave.globs import GlobIndex, PathSpellings
from ruleweave.instructions import InstructionBlob, NestedInstructions, build_instructions
from ruleweave.log import EventLog
from ruleweave.paths import walk_down
from ruleweave.reading import read_text
from ruleweave.rules import Bucket, DiscoveryWarning, Rule
from ruleweave.steering.session import Steering, load_steering
from ruleweave.store import MemoryStore, SessionStore
from ruleweave.touch import Extractor, TouchExtractors
from ruleweave.ttsr import TtsrIndex

if TYPE_CHECKING:
    from ruleweave.session import RuleSession


@dataclass(frozen=True, slots=True)
class BudgetReport:
    """How the instruction blob fit its byte budget.

    Attributes:
        limit: ``instructions_max_bytes``.
        used: Bytes of the blob as rendered.
        cut: ``(path, bytes_dropped)`` for every file that was cut.
    """

    limit: int
    used: int
    cut: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class PromptParts:
    """Everything a session contributes to the system prompt.

    Attributes:
        text: The whole contribution (instructions, generic, domain, steering).
        generic: The ``<generic-rules>`` block ('' when empty).
        domain: The ``<domain-rules>`` block and rule:// paragraph ('' when empty).
        instructions: The instruction blob ('' when empty).
        steering: The current turn's ``<steering>`` block ('' when none).
        budget: The instruction blob's budget report.
        warnings: Problems met building the prompt (unreadable files, cut imports).
        generic_rules: Names in ``<generic-rules>``, in order.
        domain_rules: Names in ``<domain-rules>``, in order.
        deduplicated: Generic rules dropped because the prompt already holds them.
    """

    text: str
    generic: str
    domain: str
    instructions: str
    budget: BudgetReport
    steering: str = ""
    warnings: tuple[DiscoveryWarning, ...] = ()
    generic_rules: tuple[str, ...] = ()
    domain_rules: tuple[str, ...] = ()
    deduplicated: tuple[str, ...] = ()

    @property
    def sha256(self) -> str:
        """Hex digest of ``text``."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Match:
    """One notice a touched path calls for.

    Attributes:
        kind: ``rule`` or ``instructions``.
        name: The rule name, or the instruction file's display path.
        path: The file the notice comes from (its identity for at-most-once).
        trigger: The touched path that matched.
        glob: The glob that matched (rules only).
        body: The text to inject.
        provider: The rule's provider ('' for instruction files).
    """

    kind: Literal["rule", "instructions"]
    name: str
    path: str
    trigger: str
    glob: str | None
    body: str
    provider: str = ""

    @property
    def key(self) -> str:
        """The store key that makes this notice at-most-once per session.

        An instruction file is keyed by its path; a rule by its path and name, as
        one source (a plugin's policy file) may hold several rules.
        """
        if self.kind == "instructions":
            return f"inject:{self.path}"
        return f"inject:{_rule_id(self.path, self.name)}"


def _rule_id(path: str, name: str) -> str:
    """A rule notice's identity: its source path and its name (see ``Match.key``)."""
    return f"{path}#{name}"


@dataclass(frozen=True)
class RuleSet:
    """Discovered rules, bucketed and indexed; immutable and shared by sessions.

    Build it with ``RuleSet.load(config)``.
    """

    config: RuleweaveConfig
    discovery: Discovery
    buckets: Buckets
    blob: InstructionBlob
    nested: NestedInstructions
    events: EventLog
    extractors: TouchExtractors
    steering: Steering
    ttsr: TtsrIndex
    _scoped: GlobIndex[str] = field(repr=False)
    _by_name: Mapping[str, Rule] = field(repr=False)

    @classmethod
    def load(
        cls,
        config: RuleweaveConfig | None = None,
        *,
        extractors: Mapping[str, Extractor] | None = None,
    ) -> RuleSet:
        """Discover, bucket and index the rules ``config`` reaches.

        Args:
            config: The configuration (default: ``RuleweaveConfig()`` for the process cwd).
            extractors: Per-tool touched-path extractors to add to the defaults.

        Returns:
            The loaded rule set; bad files are warnings in ``discovery.warnings``.
        """
        config = config or RuleweaveConfig()
        found = discover(config)
        buckets = assign(found.rules)
        blob = build_instructions(config, buckets.instructions)
        scoped = GlobIndex((rule.name, glob) for rule in buckets.scoped for glob in rule.globs)
        touch = TouchExtractors(extractors)
        return cls(
            config=config,
            discovery=found,
            buckets=buckets,
            blob=blob,
            nested=NestedInstructions(config, blob),
            events=EventLog(config.event_log),
            extractors=touch,
            ttsr=TtsrIndex.build(buckets.ttsr, config, extractors=touch),
            steering=load_steering(config, walk_down(config.root, config.cwd)),
            _scoped=scoped,
            _by_name={rule.name: rule for rule in found.rules},
        )

    @property
    def rules(self) -> tuple[Rule, ...]:
        """Every winning rule in precedence order."""
        return self.discovery.rules

    @property
    def warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Every problem met: discovery, conditions and the instruction blob."""
        return (
            *self.discovery.warnings,
            *self.buckets.warnings,
            *self.blob.warnings,
            *self.ttsr.template_warnings,
            *self.steering.warnings,
        )

    @property
    def touch_warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Problems met reading nested instruction files after tool calls so far."""
        return self.nested.warnings

    def bucket_of(self, name: str) -> Bucket | None:
        """The bucket of the rule called ``name``."""
        return self.buckets.by_rule.get(name)

    @cached_property
    def resolvable(self) -> Mapping[str, Rule]:
        """Rules reachable through ``rule://``: rulebook, generic, ttsr, scoped, manual."""
        reachable = {Bucket.RULEBOOK, Bucket.GENERIC, Bucket.TTSR, Bucket.SCOPED, Bucket.MANUAL}
        return {
            name: rule
            for name, rule in sorted(self._by_name.items())
            if self.buckets.by_rule.get(name) in reachable
        }

    def prompt_parts(self, custom_system_prompt: str | None = None, steering: str = "") -> PromptParts:
        """The prompt contribution (without steering it is the same for every session).

        Args:
            custom_system_prompt: The caller's own prompt, to drop generic rules it repeats
                (default: ``config.custom_system_prompt``).
            steering: A ``<steering>`` block to append.

        Returns:
            The parts; byte-identical for identical inputs.
        """
        if custom_system_prompt is None:
            custom_system_prompt = self.config.custom_system_prompt
        base = self._base_parts(custom_system_prompt)
        if not steering:
            return base
        return PromptParts(
            text=prompt.join_blocks((base.text, steering)),
            generic=base.generic,
            domain=base.domain,
            instructions=base.instructions,
            budget=base.budget,
            steering=steering,
            warnings=base.warnings,
            generic_rules=base.generic_rules,
            domain_rules=base.domain_rules,
            deduplicated=base.deduplicated,
        )

    def _base_parts(self, custom_system_prompt: str | None) -> PromptParts:
        cache = self._parts_cache
        cached = cache.get(custom_system_prompt)
        if cached is not None:
            return cached
        templates = self.config.templates
        kept, dropped = prompt.dedupe_generic(
            self.buckets.generic, (custom_system_prompt or "", self.blob.text)
        )
        generic = prompt.render_generic(kept, templates)
        domain_rules = self.buckets.domain
        domain = prompt.render_domain(domain_rules, templates, custom=self.config.custom_template)
        parts = PromptParts(
            text=prompt.join_blocks((self.blob.text, generic, domain)),
            generic=generic,
            domain=domain,
            instructions=self.blob.text,
            budget=BudgetReport(
                limit=self.blob.budget.limit,
                used=self.blob.budget.used,
                cut=tuple((path, dropped_bytes) for path, dropped_bytes in self.blob.budget.cut),
            ),
            warnings=self.warnings,
            generic_rules=tuple(r.name for r in kept),
            domain_rules=tuple(r.name for r in domain_rules),
            deduplicated=tuple(r.name for r in dropped),
        )
        cache[custom_system_prompt] = parts
        return parts

    @cached_property
    def _parts_cache(self) -> dict[str | None, PromptParts]:
        return {}

    @cached_property
    def _content_gates(self) -> dict[str, tuple[Condition, ...]]:
        gates: dict[str, tuple[Condition, ...]] = {}
        for rule in self.buckets.scoped:
            compiled = [compile_condition(p)[0] for p in rule.content_regex]
            if rule.content_regex:
                gates[rule.name] = tuple(c for c in compiled if c is not None)
        return gates

    @cached_property
    def _root_prefix(self) -> str:
        return str(self.config.root).rstrip("/") + "/"

    @cached_property
    def _real_root_prefix(self) -> str:
        return os.path.realpath(self.config.root).rstrip("/") + "/"

    def in_project(self, path: str) -> str:
        """``path``, re-spelled under the project root when only a symlink hides that it is there.

        A tool may name a file through a link to the project (``/tmp`` vs
        ``/private/tmp``, a linked checkout) or by its real path while the
        session was started through the link; both reach the same file, so
        both must be matched relative to the project root.
        """
        if path.startswith(self._root_prefix):
            return path
        try:
            real = os.path.realpath(path)
        except (OSError, ValueError):
            return path
        real_prefix = self._real_root_prefix
        if real.startswith(real_prefix) and len(real) > len(real_prefix):
            return self._root_prefix + real[len(real_prefix) :]
        return path

    def spellings(self, path: str | Path) -> PathSpellings:
        """The three spellings of an absolute, normalised path that globs are tried against."""
        return PathSpellings.of(str(path), self._root_prefix)

    def _passes_gate(self, rule: Rule, path: str, written: Sequence[str]) -> bool:
        """Continue's ``regex``: the file on disk, or the text the call wrote, must match."""
        gate = self._content_gates.get(rule.name)
        if gate is None:
            return True
        if any(c.regex.search(text) for c in gate for text in written):
            return True
        text = read_text(Path(path), self.config.max_file_bytes).text
        return text is not None and any(c.regex.search(text) for c in gate)

    def matches_for(self, paths: Iterable[str | Path], written: Sequence[str] = ()) -> list[Match]:
        """Every scoped rule and nested instruction file the paths call for, in path order.

        Args:
            paths: Absolute, normalised touched paths.
            written: Text the call wrote (for rules gated on file content).

        Returns:
            Matches, each notice source at most once.
        """
        out: list[Match] = []
        seen: set[str] = set()
        for raw in paths:
            path = self.in_project(str(raw))
            spelled = self.spellings(path)
            trigger = spelled.relative or path
            for name, glob in self._scoped.lookup(spelled):
                rule = self._by_name[name]
                key = _rule_id(rule.path, rule.name)
                if key in seen or not self._passes_gate(rule, path, written):
                    continue
                seen.add(key)
                out.append(
                    Match("rule", rule.name, rule.path, trigger, glob, rule.content,
                          rule.source.provider)
                )
            for nested in self.nested.for_path(path):
                key = str(nested.path)
                if key in seen:
                    continue
                seen.add(key)
                out.append(Match("instructions", nested.display, key, trigger, None, nested.body))
        return out

    def render_matches(self, matches: Sequence[Match]) -> str:
        """The notice text for ``matches``, joined with blank lines."""
        templates = self.config.templates
        return "\n\n".join(
            prompt.render_notice(m.name, m.body, templates)
            if m.kind == "rule"
            else prompt.render_instructions_notice(m.name, m.body, templates)
            for m in matches
        )

    def session(
        self, session_id: str, store: SessionStore | None = None, **context: Any
    ) -> RuleSession:
        """A session over this rule set.

        Args:
            session_id: The conversation's id (a thread id, a Claude Code session id).
            store: Where per-session state lives (default: a new ``MemoryStore``).
            **context: Extra fields recorded on the ``session_start`` event.

        Returns:
            The ``RuleSession``.
        """
        from ruleweave.session import RuleSession

        return RuleSession(self, session_id, store if store is not None else MemoryStore(), context)
