"""``RuleSet``: discovery, buckets, matchers and the instruction blob, loaded once.

A ``RuleSet`` loads, holds and makes sessions. It is immutable and shared
by any number of sessions (threads, tasks or agent workers); everything per
session lives in the session's store. What a session asks of it lives in
modules of their own: the prompt contribution in ``prompt_parts``
(``PromptAssembly``), after-tool notices in ``notices`` (``Notices``),
streamed rules in ``ttsr``, steering in ``steering``; those three are built
(and their modules imported) on first use, so a Claude Code hook answering a
tool call imports neither the SkillSpec machinery nor the TTSR index unless
the repository has a SkillSpec or streamed rules. Loading does no glob
compilation: the scoped-rule index compiles a glob the first time a lookup
needs it, and a streamed rule's path gate is indexed on the first tool call
naming a path, so a hook started per tool call pays only for what it matches.
The instruction blob is read in discovery's context (``sharing_paths``): the
directories and rule files discovery resolved are not resolved again.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ruleweave._files.tree import ProjectTree
from ruleweave.buckets import Buckets, assign
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import Discovery, DiscoveryContext, discover
from ruleweave.discovery.nested import NestedRules
from ruleweave.instructions import InstructionBlob, NestedInstructions, build_instructions
from ruleweave.instructions.shared import drop_shared
from ruleweave.log import EventLog
from ruleweave.rules import Bucket, DiscoveryWarning, Rule
from ruleweave.session._session import RuleSession
from ruleweave.session.notices import Notices
from ruleweave.session.tool_names import ToolNames
from ruleweave.session.touch import Extractor, TouchExtractors
from ruleweave.store import MemoryStore, SessionStore, open_store

if TYPE_CHECKING:
    from ruleweave.prompt.parts import PromptAssembly, PromptParts
    from ruleweave.steering.loader import Steering
    from ruleweave.ttsr.index import TtsrIndex


class RuleSet:
    """Discovered rules, bucketed and indexed; immutable and shared by sessions.

    Build it with ``RuleSet.load(config)``. A plain class, not a dataclass (a hook
    process must not import ``dataclasses``); one rule set equals only itself.

    Args:
        config: The configuration it was loaded with.
        discovery: What discovery found.
        buckets: The winning rules, bucketed.
        blob: The instruction blob.
        nested: The nested instruction files lookup.
        events: The event log.
        extractors: Reads the paths a tool call names.
        notices: The after-tool notices matcher.
        store: The default session store.
        load_warnings: Problems met by the load itself (discovery, buckets, blob, shared
            texts); ``warnings`` adds the TTSR templates', the SkillSpec's and the event log's.
    """

    config: RuleweaveConfig
    discovery: Discovery
    buckets: Buckets
    blob: InstructionBlob
    nested: NestedInstructions
    events: EventLog
    extractors: TouchExtractors
    notices: Notices
    store: SessionStore
    load_warnings: tuple[DiscoveryWarning, ...]

    def __init__(
        self,
        *,
        config: RuleweaveConfig,
        discovery: Discovery,
        buckets: Buckets,
        blob: InstructionBlob,
        nested: NestedInstructions,
        events: EventLog,
        extractors: TouchExtractors,
        notices: Notices,
        store: SessionStore,
        load_warnings: tuple[DiscoveryWarning, ...] = (),
    ) -> None:
        # Past ``__setattr__``, as ``cached_property`` writes its values (into ``__dict__``).
        self.__dict__.update(
            config=config, discovery=discovery, buckets=buckets, blob=blob, nested=nested, events=events,
            extractors=extractors, notices=notices, store=store, load_warnings=load_warnings,
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("RuleSet is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("RuleSet is immutable")

    def __repr__(self) -> str:
        return f"RuleSet(root={str(self.config.root)!r}, rules={len(self.discovery.rules)})"

    @cached_property
    def ttsr(self) -> TtsrIndex:
        """The streamed-rule index (built on first use)."""
        from ruleweave.ttsr.index import TtsrIndex

        return TtsrIndex.from_compiled(self.buckets.ttsr_compiled, self.config, extractors=self.extractors)

    @cached_property
    def steering(self) -> Steering:
        """The session SkillSpec (read on first use; ``spec`` is ``None`` without one)."""
        from ruleweave._files.paths import walk_down
        from ruleweave.steering.loader import load_steering

        return load_steering(self.config, walk_down(self.config.root, self.config.cwd))

    @cached_property
    def prompts(self) -> PromptAssembly:
        """The prompt contribution's assembly and every warning (built on first use)."""
        from ruleweave.prompt.parts import PromptAssembly

        late = (*self.ttsr.template_warnings, *self.steering.warnings, *_event_log_warnings(self.events))
        warnings = (*self.load_warnings, *late)
        return PromptAssembly(self.config, self.buckets, self.blob, warnings)

    @classmethod
    def load(
        cls,
        config: RuleweaveConfig | None = None,
        *,
        extractors: Mapping[str, Extractor] | None = None,
    ) -> RuleSet:
        """Discover, bucket and index the rules ``config`` reaches.

        Interpreter-wide state is left alone (the garbage collector runs as the application set
        it; the Claude Code hook pauses it in its own ``main``, which owns its process).

        Args:
            config: The configuration (default: ``RuleweaveConfig()`` for the process cwd).
            extractors: Per-tool touched-path extractors to add to the defaults.

        Returns:
            The loaded rule set; bad files are warnings in ``discovery.warnings``.

        Raises:
            ConfigError: A template override names an unknown template or field.
            StoreError: ``config.store`` is a URL with an unknown scheme, or its
                server cannot be reached.
        """
        config = config or RuleweaveConfig()
        if config.templates:
            from ruleweave.prompt._templates import check_templates

            check_templates(config.templates)
        store = MemoryStore() if config.store is None else open_store(config.store)
        ctx = DiscoveryContext(config)
        found = discover(config, ctx=ctx)
        buckets = assign(found.rules)
        blob = build_instructions(config, buckets.instructions, ctx=ctx.sharing_paths())
        buckets, shared = drop_shared(buckets, blob)  # one text in several agents' files: once
        touch = TouchExtractors(extractors, names=ToolNames(config.tool_aliases))
        tree = ProjectTree(config)
        nested = NestedInstructions(config, blob, tree)
        events = EventLog(config.event_log)
        return cls(
            config=config,
            discovery=found,
            buckets=buckets,
            blob=blob,
            nested=nested,
            events=events,
            extractors=touch,
            notices=Notices(config, buckets.scoped, nested, touch, NestedRules(config, tree)),
            store=store,
            load_warnings=(*found.warnings, *buckets.warnings, *blob.warnings, *shared),
        )

    @property
    def rules(self) -> tuple[Rule, ...]:
        """Every winning rule in precedence order."""
        return self.discovery.rules

    @property
    def warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Every problem met: discovery, conditions, the instruction blob and the SkillSpec."""
        return self.prompts.warnings

    @property
    def touch_warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Problems met reading nested instruction files and rule folders after tool calls so far."""
        nested_rules = self.notices.nested_rules
        return (
            *self.nested.tree.warnings,
            *self.nested.warnings,
            *(nested_rules.warnings if nested_rules is not None else ()),
        )

    def bucket_of(self, name: str) -> Bucket | None:
        """The bucket of the rule called ``name``."""
        return self.buckets.by_rule.get(name)

    @cached_property
    def resolvable(self) -> Mapping[str, Rule]:
        """Rules reachable through ``rule://``: rulebook, generic, ttsr, scoped, manual, and the
        unscoped Claude rules of the blob (labelled ``[rule: <name>]`` there)."""
        reachable = {
            Bucket.RULEBOOK, Bucket.GENERIC, Bucket.TTSR, Bucket.SCOPED, Bucket.MANUAL, Bucket.INSTRUCTIONS,
        }
        return {
            rule.name: rule
            for rule in sorted(self.discovery.rules, key=lambda r: r.name)
            if self.buckets.by_rule.get(rule.name) in reachable
        }

    def find_rule(self, name: str) -> tuple[Rule, Bucket] | None:
        """The rule ``rule://name`` reaches and its bucket: the rule set's own, or a nested folder's.

        A nested rule (``apps/web:deploy``) is found even before a tool call
        touched its directory: its folder is read on demand.
        """
        rule = self.resolvable.get(name)
        if rule is not None:
            return rule, self.buckets.by_rule.get(name, Bucket.MANUAL)
        nested = self.notices.nested_rules
        return nested.find(name) if nested is not None else None

    def rule_names(self) -> tuple[str, ...]:
        """Every name ``rule://`` resolves now: the rule set's, then nested rules read so far."""
        nested = self.notices.nested_rules
        return (*self.resolvable, *(nested.loaded_names() if nested is not None else ()))

    def prompt_parts(self, custom_system_prompt: str | None = None, steering: str = "") -> PromptParts:
        """The prompt contribution (see ``PromptAssembly.parts``)."""
        return self.prompts.parts(custom_system_prompt, steering)

    def session(
        self, session_id: str, store: SessionStore | None = None, **context: Any
    ) -> RuleSession:
        """A session over this rule set.

        Args:
            session_id: The conversation's id (a thread id, a Claude Code session id).
            store: Where per-session state lives (default: the rule set's store,
                ``config.store``, so sessions with the same id share their state).
            **context: Extra fields recorded on the ``session_start`` event.

        Returns:
            The ``RuleSession``.
        """
        return RuleSession(self, session_id, store if store is not None else self.store, context)


def _event_log_warnings(events: EventLog) -> tuple[DiscoveryWarning, ...]:
    """A bad ``event_log`` (a directory, a FIFO, an unwritable path) is a warning, never a failed load."""
    if events.problem is None:
        return ()
    return (DiscoveryWarning(path=str(events.path), message=f"option event_log: {events.problem}"),)
