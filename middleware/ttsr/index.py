"""``TtsrIndex``: a rule set's streamed rules, compiled once and shared by every session.

Matching one delta costs the same at the start of a stream as after
megabytes of it. Each stream keeps only its last ``W + 1`` characters
(``W`` = ``RuleweaveConfig.ttsr_window``, default 1,024); a delta is
searched as ``tail + delta``, from the tail's second character, which stays
as context so that ``\\b``, ``\\B`` and ``(?m)^`` see the character before
and ``^`` does not match at a cut. Hence:

* every match of at most ``W`` characters is found in the delta where it
  ends, however it is split across deltas;
* matches longer than ``W`` are found only when they lie in ``tail + delta``
  (a longer window costs more per delta, never more per stream);
* ``$`` means "at the end of the output so far", as it does for a regex run
  over the whole buffer at each delta.

The regexes a stream can trigger are compiled into one ``re2.Set`` per
stream kind (``text``, ``thinking``, each tool name), so a delta is one
linear scan of the window however many conditions there are; only the
conditions the set reports are searched again to confirm the match with
context and get the matched text. The set carries a sentinel matching at
the end of the window (``\\z``): a scan without it means re2 gave up
(memory) before the end, and every condition of the stream kind is searched
one by one instead. (An empty sentinel would do the same but match at every
position, and recording that match costs as much as the scan itself.)
"""

from __future__ import annotations

import _thread  # threading.Lock without importing threading (~1 ms of a hook's cold start)
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruleweave.rules import DiscoveryWarning, Rule
from ruleweave.session.tool_names import ToolNames
from ruleweave.session.touch import TouchExtractors
from ruleweave.ttsr.render import check_templates

if TYPE_CHECKING:
    from ruleweave.config import RuleweaveConfig
    from ruleweave.globs import PathSpellings
    from ruleweave.ttsr.compile import CompiledRule, WatchCondition
    from ruleweave.ttsr.scope import PathGate, ScopeEntry, Source

# re2, the compiler and the scope parser are imported where a streamed rule needs them: an
# index without rules (most rule sets, every Claude Code hook without them) costs nothing more.

_SET_MAX_MEM = 64 << 20
_SENTINEL = r"\z"  # matches once, where a scan that did not give up ends


@dataclass(frozen=True, slots=True)
class Watched:
    """One condition as a stream kind watches it.

    Attributes:
        rule: Index of the rule in ``TtsrIndex.compiled``.
        condition: The condition.
        scope_gate: Globs a path named by the call must match (``None``: no gate).
    """

    rule: int
    condition: WatchCondition
    scope_gate: PathGate | None


@dataclass(frozen=True, slots=True)
class WatchedAst:
    """A rule's AST patterns as a tool stream kind watches them."""

    rule: int
    patterns: tuple[str, ...]
    scope_gate: PathGate | None


@dataclass(frozen=True, slots=True)
class Channel:
    """Everything one stream kind watches.

    Attributes:
        regexes: Regex conditions, in the order of ``regex_set`` (index + 1).
        anything: Glob-token conditions (they match any output once their gate passes).
        ast: AST patterns by rule (tool streams only).
        regex_set: An ``re2.Set`` of ``regexes`` after a sentinel (``None``: search each).
    """

    regexes: tuple[Watched, ...]
    anything: tuple[Watched, ...]
    ast: tuple[WatchedAst, ...]
    regex_set: Any

    @property
    def empty(self) -> bool:
        """Nothing to watch on this stream kind."""
        return not (self.regexes or self.anything or self.ast)

    def search(self, window: str, pos: int, skip: set[int]) -> list[tuple[Watched, str]]:
        """Regex conditions matching ``window`` from ``pos`` (earlier text is context).

        Args:
            window: The stream's tail plus the new delta.
            pos: Where matches may start.
            skip: Rule indexes not worth checking (spent for now).

        Returns:
            ``(condition, matched text)`` pairs in condition order.
        """
        if not self.regexes:
            return []
        candidates: Iterable[Watched] = self.regexes
        if self.regex_set is not None:
            found = self.regex_set.Match(window)
            if found is not None and len(found) == 1 and found[0] == 0:  # the sentinel alone (most deltas)
                return []
            found = sorted(found or ())
            if found and found[0] == 0:
                candidates = [self.regexes[i - 1] for i in found[1:]]
        out: list[tuple[Watched, str]] = []
        for watched in candidates:
            if watched.rule in skip:
                continue
            match = watched.condition.regex.search(window, pos)
            if match is not None:
                out.append((watched, match.group(0)))
        return out


def _gate_for(entries: Iterable[ScopeEntry]) -> tuple[bool, PathGate | None]:
    """Whether any entry admits, and the glob gate (``None`` when one entry has no glob)."""
    entries = list(entries)
    if not entries:
        return False, None
    if any(entry.glob is None for entry in entries):
        return True, None
    from ruleweave.ttsr.scope import glob_gate

    return True, glob_gate(entry.glob for entry in entries if entry.glob)


def _regex_set(regexes: tuple[Watched, ...]) -> Any:
    if not regexes:
        return None
    import re2

    from ruleweave.ttsr.conditions import options

    opts = options()
    opts.max_mem = _SET_MAX_MEM
    try:
        regex_set = re2.Set.SearchSet(opts)
        regex_set.Add(_SENTINEL)
        for watched in regexes:
            regex_set.Add(watched.condition.pattern)
        regex_set.Compile()
    except Exception:
        return None
    return regex_set


class TtsrIndex:
    """The streamed rules of a rule set, compiled; immutable and shared by sessions.

    Build it with ``TtsrIndex.build(rules, config)`` (or ``from_compiled`` with
    rules ``buckets.assign`` already compiled); each session makes its own
    ``TtsrWatcher(index, store, session_id)``.

    Attributes:
        config: The configuration it was built with.
        compiled: The registered rules, compiled, in precedence order.
        warnings: Every problem met: rules that did not register or lost a part,
            and bad template overrides.
        template_warnings: Only the template problems (the per-rule ones repeat
            what ``buckets.assign`` reports when the rules come from its ``ttsr`` bucket).
        window: The look-back ``W`` in characters.
        templates: The TTSR templates in use.
        extractors: Reads the paths a tool call names (shared with ``after_tool_call``).
    """

    def __init__(
        self,
        config: RuleweaveConfig,
        compiled: tuple[CompiledRule, ...],
        warnings: tuple[DiscoveryWarning, ...],
        template_warnings: tuple[DiscoveryWarning, ...],
        templates: Mapping[str, str],
        extractors: TouchExtractors,
    ) -> None:
        self.config = config
        self.compiled = compiled
        self.warnings = warnings
        self.template_warnings = template_warnings
        self.templates = templates
        self.extractors = extractors
        self.window = config.ttsr_window
        self.tool_names = ToolNames(config.tool_aliases)
        self.has_gap_rules = any(c.repeat.gap is not None for c in compiled)
        self._channels: dict[str, Channel] = {}
        self._lock = _thread.allocate_lock()

    @classmethod
    def build(
        cls,
        rules: Iterable[Rule],
        config: RuleweaveConfig,
        *,
        extractors: TouchExtractors | None = None,
    ) -> TtsrIndex:
        """Compile the rules that can register; report the others.

        Args:
            rules: Rules in precedence order (usually ``assign(...).ttsr``; others are
                compiled too and kept when they register).
            config: Interrupt-mode default, templates, look-back window, project root.
            extractors: The tool-path extractors (default: ``TouchExtractors()``).

        Returns:
            The index.
        """
        from ruleweave.ttsr import ast_grep
        from ruleweave.ttsr.compile import compile_rule

        compiled: list[CompiledRule] = []
        warnings: list[DiscoveryWarning] = []
        available = ast_grep.available()
        for rule in rules:
            if not (rule.condition or rule.ast_condition):
                continue
            result, problems = compile_rule(rule, ast_available=available)
            warnings.extend(
                DiscoveryWarning(
                    path=rule.path, provider=rule.source.provider,
                    message=f"rule {rule.name!r}: {problem}",
                )
                for problem in problems
            )
            if result is not None:
                compiled.append(result)
        return cls.from_compiled(compiled, config, extractors=extractors, rule_warnings=warnings)

    @classmethod
    def from_compiled(
        cls,
        compiled: Iterable[CompiledRule],
        config: RuleweaveConfig,
        *,
        extractors: TouchExtractors | None = None,
        rule_warnings: Iterable[DiscoveryWarning] = (),
    ) -> TtsrIndex:
        """The index over rules compiled already (``Buckets.ttsr_compiled``).

        Args:
            compiled: Compiled rules in precedence order.
            config: Interrupt-mode default, templates, look-back window, project root.
            extractors: The tool-path extractors (default: ``TouchExtractors()``).
            rule_warnings: Problems met compiling them, to report with the index.

        Returns:
            The index.
        """
        templates, template_problems = check_templates(config.templates)
        template_warnings = tuple(DiscoveryWarning(path="", message=p) for p in template_problems)
        return cls(
            config, tuple(compiled), (*rule_warnings, *template_warnings), template_warnings,
            templates, extractors or TouchExtractors(),
        )

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The registered rules, in precedence order."""
        return tuple(c.rule for c in self.compiled)

    def channel(self, source: Source, tool: str = "") -> Channel:
        """What a stream kind watches, built the first time it is asked for.

        Args:
            source: ``text``, ``thinking`` or ``tool``.
            tool: The tool's name, for tool streams (case-insensitive).

        Returns:
            The channel.
        """
        kind = self.tool_names.canonical(tool) if source == "tool" else ""
        key = f"tool:{kind}" if source == "tool" else source
        channel = self._channels.get(key)
        if channel is None:
            with self._lock:
                channel = self._channels.get(key)
                if channel is None:
                    channel = self._build_channel(source, kind)
                    self._channels[key] = channel
        return channel

    def _build_channel(self, source: Source, tool: str) -> Channel:
        canonical = self.tool_names.canonical
        regexes: list[Watched] = []
        anything: list[Watched] = []
        ast: list[WatchedAst] = []
        for index, compiled in enumerate(self.compiled):
            for condition in compiled.conditions:
                admits, gate = _gate_for(e for e in condition.scope if e.admits(source, tool, canonical))
                if not admits:
                    continue
                watched = Watched(index, condition, gate)
                (regexes if condition.kind == "regex" else anything).append(watched)
            if compiled.ast_patterns:
                admits, gate = _gate_for(
                    e for e in compiled.ast_scope if e.admits(source, tool, canonical)
                )
                if admits:
                    ast.append(WatchedAst(index, compiled.ast_patterns, gate))
        regex_tuple = tuple(regexes)
        return Channel(regex_tuple, tuple(anything), tuple(ast), _regex_set(regex_tuple))

    def paths(self, tool: str, args: Any) -> tuple[Path, ...]:
        """The absolute paths a tool call's arguments name."""
        return tuple(self.extractors.paths(tool, args, self.config.cwd))

    def gate_path(
        self, rule: int, scope_gate: PathGate | None, paths: Iterable[PathSpellings]
    ) -> PathSpellings | bool | None:
        """The first path passing both the scope's and the rule's glob gates.

        Args:
            rule: The rule's index.
            scope_gate: The condition's scope globs (``None``: no scope gate).
            paths: Spellings of the paths the call names.

        Returns:
            ``True`` when there is no gate at all, the first passing path, or
            ``None`` when no path passes.
        """
        rule_gate = self.compiled[rule].path_gate
        if scope_gate is None and rule_gate is None:
            return True
        for path in paths:
            if scope_gate is not None and not scope_gate.lookup(path):
                continue
            if rule_gate is not None and not rule_gate.lookup(path):
                continue
            return path
        return None
