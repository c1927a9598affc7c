"""After-tool notices: which scoped rules and nested instruction files a tool call calls for.

``Injection`` is what a session returns for a tool result.

``Notices.for_call(tool, args)`` is the one question a session asks after a
tool call: it decodes the arguments once, reads the touched paths, matches
them against the scoped-rule glob index and the nested instruction files,
applies content gates (Continue's ``regex``), and returns every candidate
notice. The session then claims them in its store (at most once per
session), renders the winners with ``render`` and logs the call. Nothing
here does store I/O, and matching works on ``str`` paths only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from ruleweave import prompt
from ruleweave.conditions import Condition, compile_condition
from ruleweave.config import RuleweaveConfig
from ruleweave.globs import GlobIndex, PathSpellings
from ruleweave.instructions import NestedInstructions
from ruleweave.reading import read_text
from ruleweave.rules import Rule
from ruleweave.touch import TouchExtractors, parse_args, written_text
from ruleweave.ttsr.watcher import TtsrHit

NoticeKind = Literal["rule", "instructions"]
"""A notice carries a scoped ``rule`` or a nested ``instructions`` file."""


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

    kind: NoticeKind
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
        return f"inject:{rule_id(self.path, self.name)}"

    @property
    def record(self) -> str:
        """What the notice ledger keeps for this notice (everything but the body)."""
        return json.dumps([self.kind, self.name, self.path, self.trigger, self.glob], ensure_ascii=False)


def rule_id(path: str, name: str) -> str:
    """A rule notice's identity: its source path and its name (see ``Match.key``)."""
    return f"{path}#{name}"


@dataclass(frozen=True, slots=True)
class CallNotices:
    """What one tool call calls for, before any claim.

    Attributes:
        args: The call's arguments, decoded once.
        paths: The absolute paths it touched.
        matches: Every candidate notice, each source at most once, in path order.
    """

    args: Mapping[str, Any]
    paths: tuple[str, ...]
    matches: tuple[Match, ...]


@dataclass(frozen=True, slots=True)
class InjectionItem:
    """One rule, instruction file or streamed-rule reminder in a notice.

    Attributes:
        kind: ``rule``, ``instructions`` or ``ttsr`` (a streamed rule's reminder).
        name: The rule's name, or the instruction file's path relative to the project.
        path: The file the notice came from.
        trigger: The touched path (relative to the project when inside it); for
            ``ttsr``, the stream it matched in.
        glob: The glob that matched (rules only).
    """

    kind: Literal["rule", "instructions", "ttsr"]
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


class Notices:
    """The scoped rules and nested instruction files of a rule set, matched per tool call.

    Immutable after construction and shared by every session of the rule set.

    Args:
        config: The configuration (root, cwd, templates, read limits).
        scoped: The scoped rules, in precedence order.
        nested: The nested instruction files lookup.
        extractors: Reads the paths a tool call names.
    """

    def __init__(
        self,
        config: RuleweaveConfig,
        scoped: Sequence[Rule],
        nested: NestedInstructions,
        extractors: TouchExtractors,
    ) -> None:
        self.config = config
        self.nested = nested
        self.extractors = extractors
        self._scoped = scoped
        self._index: GlobIndex[str] = GlobIndex((rule.name, glob) for rule in scoped for glob in rule.globs)
        self._by_name = {rule.name: rule for rule in scoped}
        self._cwd = str(config.cwd)
        self._root_prefix = str(config.root).rstrip("/") + "/"

    @cached_property
    def _gates(self) -> dict[str, tuple[Condition, ...]]:
        gates: dict[str, tuple[Condition, ...]] = {}
        for rule in self._scoped:
            if rule.content_regex:
                compiled = [compile_condition(p)[0] for p in rule.content_regex]
                gates[rule.name] = tuple(c for c in compiled if c is not None)
        return gates

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

    def for_call(self, tool: str, args: Any) -> CallNotices:
        """Every notice a tool call calls for (decoding its arguments once).

        Args:
            tool: The tool's name.
            args: Its arguments (a mapping, or a JSON object string).

        Returns:
            The decoded arguments, the touched paths and the candidate notices.
        """
        mapping = parse_args(args)
        paths = tuple(self.extractors.path_strings(tool, mapping, self._cwd))
        if not paths:
            return CallNotices(mapping, paths, ())
        return CallNotices(mapping, paths, tuple(self.for_paths(paths, written_text(mapping))))

    def _passes_gate(self, rule: Rule, path: str, written: Sequence[str]) -> bool:
        """Continue's ``regex``: the file on disk, or the text the call wrote, must match."""
        gate = self._gates.get(rule.name)
        if gate is None:
            return True
        if any(c.regex.search(text) for c in gate for text in written):
            return True
        text = read_text(Path(path), self.config.max_file_bytes).text
        return text is not None and any(c.regex.search(text) for c in gate)

    def for_paths(self, paths: Iterable[str | Path], written: Sequence[str] = ()) -> list[Match]:
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
            for name, glob in self._index.lookup(spelled):
                rule = self._by_name[name]
                key = rule_id(rule.path, rule.name)
                if key in seen or not self._passes_gate(rule, path, written):
                    continue
                seen.add(key)
                out.append(
                    Match("rule", rule.name, rule.path, trigger, glob, rule.content, rule.source.provider)
                )
            for nested in self.nested.for_path(path):
                key = str(nested.path)
                if key in seen:
                    continue
                seen.add(key)
                out.append(Match("instructions", nested.display, key, trigger, None, nested.body))
        return out

    def from_record(self, record: str) -> Match | None:
        """The notice a ledger record names, with its body as this rule set has it now.

        Returns ``None`` for a record this rule set no longer knows (the rule was
        removed, or the record is not ruleweave's).
        """
        try:
            kind, name, path, trigger, glob = json.loads(record)
        except (ValueError, TypeError):
            return None
        if kind == "rule":
            rule = self._by_name.get(name)
            if rule is None or rule.path != path:
                return None
            return Match("rule", name, path, trigger, glob, rule.content, rule.source.provider)
        if kind == "instructions":
            found = next((f for f in self.nested.for_path(path) if f.path == path), None)
            if found is None:
                return None
            return Match("instructions", found.display, path, trigger, None, found.body)
        return None

    def injection(self, won: Sequence[Match], reminders: Sequence[TtsrHit] = ()) -> Injection | None:
        """What to append to a tool result: the notices won, then streamed-rule reminders."""
        if not won and not reminders:
            return None
        texts = [self.render(won)] if won else []
        texts.extend(hit.reminder for hit in reminders)
        items = [InjectionItem(m.kind, m.name, m.path, m.trigger, m.glob) for m in won]
        items.extend(
            InjectionItem("ttsr", rule.name, rule.path, hit.source, None)
            for hit in reminders
            for rule in hit.rules
        )
        return Injection(text="\n\n".join(texts), items=tuple(items))

    def render(self, matches: Sequence[Match]) -> str:
        """The notice text for ``matches``, joined with blank lines."""
        templates = self.config.templates
        return "\n\n".join(
            prompt.render_notice(m.name, m.body, templates)
            if m.kind == "rule"
            else prompt.render_instructions_notice(m.name, m.body, templates)
            for m in matches
        )
