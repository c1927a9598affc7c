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

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruleweave import prompt
from ruleweave._files.paths import real_inside
from ruleweave._files.reading import read_text
from ruleweave._kernel import ledger
from ruleweave._kernel.globtable import spell
from ruleweave._kernel.paths import in_project
from ruleweave._lru import LruCache
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.nested import NestedFolder, NestedRules
from ruleweave.globs import GlobIndex, PathSpellings
from ruleweave.instructions import NestedInstructions
from ruleweave.instructions.budget import Part, fit
from ruleweave.instructions.model import NestedFile, ScopedFile
from ruleweave.rules import Rule
from ruleweave.session.notice_types import (
    CallNotices,
    Claim,
    Injection,
    InjectionItem,
    InjectionPart,
    Match,
    NoticeKind,
)
from ruleweave.session.touch import TouchExtractors, parse_args, written_text

if TYPE_CHECKING:
    from ruleweave.ttsr.conditions import Condition
    from ruleweave.ttsr.watcher import TtsrHit

__all__ = [
    "MATCHED_NOTICES",
    "MATCHED_PATHS",
    "SHAPED_NOTICES",
    "CallNotices",
    "Claim",
    "Injection",
    "InjectionItem",
    "InjectionPart",
    "Match",
    "NoticeKind",
    "Notices",
]

SHAPED_NOTICES = 4_096
"""Notices whose shaping (escaped header and body, template) a rule set remembers."""

MATCHED_PATHS = 8_192
"""Touched paths whose notices (before any claim) a rule set remembers."""

MATCHED_NOTICES = 32_768
"""The most notices those paths may hold together (a few hundred bytes each): the least recently
touched paths go first, and a path that alone calls for more is worked out at each call."""


class Notices:
    """The scoped rules and nested instruction files of a rule set, matched per tool call.

    Immutable after construction and shared by every session of the rule set.

    Args:
        config: The configuration (root, cwd, templates, read limits).
        scoped: The scoped rules, in precedence order.
        nested: The nested instruction files lookup.
        extractors: Reads the paths a tool call names.
        nested_rules: The nested rule folders lookup (default: none).
    """

    def __init__(
        self,
        config: RuleweaveConfig,
        scoped: Sequence[Rule],
        nested: NestedInstructions,
        extractors: TouchExtractors,
        nested_rules: NestedRules | None = None,
    ) -> None:
        self.config = config
        self.nested = nested
        self.nested_rules = nested_rules
        self.extractors = extractors
        self._scoped = scoped
        self._index: GlobIndex[str] = GlobIndex(
            ((rule.name, glob) for rule in scoped for glob in rule.globs), bare_anywhere=False
        )
        self._by_name = {rule.name: rule for rule in scoped}
        # A matched rule's notice fields, identity and store key are made once here; only a rule
        # with an exclusion or a content gate goes through ``_passes_gate``.
        self._facts = {rule.name: _facts(rule) for rule in scoped}
        self._gated = frozenset(rule.name for rule in scoped if rule.exclude_globs or rule.content_regex)
        self._content_gated = frozenset(rule.name for rule in scoped if rule.content_regex)
        # What a path calls for follows from the path alone (content gates aside), and agents
        # touch the same files again and again: remembered per path, for every session.
        self._matched: LruCache[str, _PathFound] = LruCache(MATCHED_PATHS, _notices_of, MATCHED_NOTICES)
        self._gate_cache: dict[tuple[str, ...], tuple[Condition, ...]] = {}
        # A notice's shaping (escaped name and body, template, frame) is the same in every session:
        # made once per notice, not at each first touch of every session.
        self._shapes: LruCache[tuple[str, str, str, str], tuple[Part, str, str]] = LruCache(SHAPED_NOTICES)
        self._cwd = str(config.cwd)
        self._root_prefix = str(config.root).rstrip("/") + "/"
        # The nested lookups' answer per directory of touched files: one lookup for a new file of a
        # directory touched before (each lookup alone costs about as much as the glob index).
        self._directories: dict[str, _Directory] = {}
        # Each notice source's ledger record head (``ledger.record_head``), made at its first record.
        self._heads: _Heads = {}

    def _gate(self, rule: Rule) -> tuple[Condition, ...] | None:
        """The compiled ``regex`` gate of a rule (top-level or from a nested folder), ``None`` without one.

        Keyed by the patterns, not the rule's name: a nested folder's rule must not borrow the gate
        of a top-level rule that happens to share its name.
        """
        if not rule.content_regex:
            return None
        gate = self._gate_cache.get(rule.content_regex)
        if gate is None:
            from ruleweave.ttsr.conditions import compile_condition  # re2: only for content-gated rules

            compiled = [compile_condition(p)[0] for p in rule.content_regex]
            gate = self._gate_cache[rule.content_regex] = tuple(c for c in compiled if c is not None)
        return gate

    @cached_property
    def _real_root_prefix(self) -> str:
        return os.path.realpath(self.config.root).rstrip("/") + "/"

    def in_project(self, path: str) -> str:
        """``path``, re-spelled under the project root when only a symlink hides that it is there
        (``ruleweave._kernel.paths.in_project``)."""
        return in_project(path, self._root_prefix, self._real_root_prefix)

    def glob_table(self) -> list[list[Any]]:
        """The scoped rules' globs as rows (``ruleweave._kernel.globtable``), keyed by rule name."""
        return self._index.table()

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
        if len(paths) == 1:  # most calls: the path's own answer, as remembered
            found, matches = self._one(paths[0], mapping)
            return CallNotices(mapping, paths, matches, found)
        several = self._found(paths, mapping)
        return CallNotices(mapping, paths, tuple([f.match for f in several]), tuple(several))

    def _passes_gate(self, rule: Rule, path: str, written: Sequence[str]) -> bool:
        """Continue's ``!``-negated globs must not match; its ``regex``: the file on disk, or
        the text the call wrote, must match."""
        if rule.exclude_globs and _exclusions(rule.exclude_globs).lookup(self.spellings(path)):
            return False
        gate = self._gate(rule)
        if gate is None:
            return True
        if any(c.regex.search(text) for c in gate for text in written):
            return True
        # Only a regular file inside the project, links resolved, is read (and never blocks).
        real = real_inside(path, self._real_root_prefix)
        if real is None:
            return False
        text = read_text(real, self.config.max_file_bytes).text
        return text is not None and any(c.regex.search(text) for c in gate)

    def for_paths(self, paths: Iterable[str | Path], written: Sequence[str] = ()) -> list[Match]:
        """Every scoped rule and nested instruction file the paths call for, in path order.

        Args:
            paths: Absolute, normalised touched paths.
            written: Text the call wrote (for rules gated on file content).

        Returns:
            Matches, each notice source at most once.
        """
        return [found.match for found in self._found(paths, written)]

    def _found(self, paths: Iterable[str | Path], written: _WrittenOr) -> list[_Found]:
        """``for_paths``, each match with its identity, store key and ledger record."""
        if isinstance(written, Mapping):
            written = _Written(written)  # read once for every path, if at all
        out: list[_Found] = []
        seen: set[str] = set()
        for raw in paths:
            for entry in self._one(raw, written)[0]:
                if entry.identity not in seen:
                    seen.add(entry.identity)
                    out.append(entry)
        return out

    def _one(self, raw: str | Path, written: _WrittenOr) -> _PathFound:
        """One touched path's notices (each source once), remembered when the path alone decides them.

        ``written`` is the text the call wrote, or the call's arguments to read it from should a
        content gate ask (most calls are answered from memory and never read it).
        """
        prefix = self._root_prefix
        path = raw if isinstance(raw, str) and raw.startswith(prefix) else self.in_project(str(raw))
        cached = self._matched.get(path)
        if cached is not None:
            return cached
        if type(written) is dict or isinstance(written, Mapping):
            written = _Written(written)
        found, fixed = self._path_matches(path, written)
        entry = (found, tuple([f.match for f in found]))
        return self._matched.setdefault(path, entry) if fixed else entry

    def _path_matches(self, path: str, written: Sequence[str]) -> tuple[tuple[_Found, ...], bool]:
        """One path's notices, and whether they follow from the path alone.

        They do unless a content-gated rule was weighed (its answer depends on the text
        written and the file on disk): only then is the answer not remembered.
        """
        found: dict[str, _Found] = {}  # by identity: each source once
        fixed = True
        facts, gated, content_gated = self._facts, self._gated, self._content_gated
        heads = self._heads
        spelled = PathSpellings(*spell(path, self._root_prefix))
        trigger = spelled.relative or path
        parent = path[: path.rfind("/")] or "/"
        here = self._directories.get(parent)
        if here is None:
            here = self._directory(parent)
        files, scoped, folders = here
        for name, glob in self._index.lookup(spelled):
            rule_name, rule_path, body, provider, identity, key = facts[name]
            if identity in found:
                continue
            if name in gated:
                fixed = fixed and name not in content_gated
                if not self._passes_gate(self._by_name[name], path, written):
                    continue
            match = Match("rule", rule_name, rule_path, trigger, glob, body, provider)
            found[identity] = _Found(identity, match, key, heads)
        for nested in self.nested.for_path(path) if scoped else files:  # ``globs:`` files: by the path
            identity = nested.path
            if identity not in found:
                match = Match("instructions", nested.display, identity, trigger, None, nested.body)
                found[identity] = _Found(identity, match, heads=heads)
        for folder in folders:
            fixed = fixed and not folder.content_gated
            for match in self._folder_matches(folder, path, spelled, trigger, written):
                if match.key not in found:
                    found[match.key] = _Found(match.key, match, heads=heads)
        return tuple(found.values()), fixed

    def _directory(self, parent: str) -> _Directory:
        """What the nested lookups say for every file of ``parent``, remembered (``_DIRECTORIES``)."""
        files, scoped = self.nested.for_directory(parent)
        folders = self.nested_rules.for_directory(parent) if self.nested_rules is not None else ()
        directories = self._directories
        if len(directories) >= _DIRECTORIES:
            directories.clear()
        here = directories[parent] = (files, scoped, folders)
        return here

    def _folder_matches(
        self, folder: NestedFolder, path: str, spelled: PathSpellings, trigger: str, written: Sequence[str]
    ) -> list[Match]:
        """A nested folder's notices for one touched path: always rules, the listing, scoped rules."""
        out = [_rule_match(rule, trigger, None) for rule in folder.notices]
        if folder.listed:
            listing = _listing(folder, self.config.templates)
            out.append(Match("listing", folder.prefix, folder.directory, trigger, None, listing))
        for name, glob in folder.glob_index.lookup(spelled):
            rule = folder.rules[name]
            if self._passes_gate(rule, path, written):
                out.append(_rule_match(rule, trigger, glob))
        return out

    def from_record(self, record: str) -> Match | None:
        """The notice a ledger record names, with its body as this rule set has it now.

        Returns ``None`` for a record this rule set no longer knows (the rule was
        removed, or the record is not ruleweave's).
        """
        fields = ledger.read_record(record)
        if fields is None:
            return None
        kind, name, path, trigger, glob = fields
        if kind == "rule":
            rule = self._by_name.get(name)
            if rule is None and self.nested_rules is not None:
                nested_rule = self.nested_rules.find(name)
                rule = nested_rule[0] if nested_rule is not None else None
            if rule is None or rule.path != path:
                return None
            return Match("rule", name, path, trigger, glob, rule.content, rule.source.provider)
        if kind == "listing" and self.nested_rules is not None:
            folder = self.nested_rules.folder(path)
            if not folder.listed or folder.prefix != name:
                return None
            return Match("listing", name, path, trigger, None, _listing(folder, self.config.templates))
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
        alone = self._rendered(won, alone=True)
        # One notice has the whole budget either way: its part is the text (most calls win one).
        shared = alone[0][1] if len(won) == len(alone) == 1 else self.render(won)
        texts = [shared] if won else []
        texts.extend(hit.reminder for hit in reminders)
        items = [InjectionItem(m.kind, m.name, m.path, m.trigger, m.glob, m.key) for m in won]
        parts = [
            InjectionPart(text, (InjectionItem(m.kind, m.name, m.path, m.trigger, m.glob, m.key),), cut)
            for m, text, cut in alone
        ]
        for hit in reminders:
            carried = tuple(
                InjectionItem("ttsr", rule.name, rule.path, hit.source, None) for rule in hit.rules
            )
            items.extend(carried)
            parts.append(InjectionPart(hit.reminder, carried))
        return Injection(text="\n\n".join(texts), items=tuple(items), parts=tuple(parts))

    def render(self, matches: Sequence[Match]) -> str:
        """The notice text for ``matches``, joined with blank lines, within ``notice_max_bytes``."""
        return "\n\n".join(text for _, text in self.render_each(matches))

    def render_alone(self, match: Match) -> tuple[str, int]:
        """One notice as ``Injection.parts`` renders it: within ``notice_max_bytes`` on its own.

        Returns:
            The text ('' when not even its header and marker fit) and the bytes its body lost.
        """
        rendered = self._rendered([match], alone=True)
        return (rendered[0][1], rendered[0][2]) if rendered else ("", 0)

    def render_each(self, matches: Sequence[Match]) -> list[tuple[Match, str]]:
        """Each match's part of the notice, the parts sharing ``notice_max_bytes`` max-min fairly.

        A part under its fair share stays whole; the others keep their first part, cut
        on a line boundary, and end with a marker naming where the whole text is
        (``rule://<name>`` for a rule, the path for an instruction file). Should headers
        and markers alone not fit, matches are left out, first ones first.

        Args:
            matches: The notices won, in order.

        Returns:
            ``(match, text)`` for each match the notice holds, in order.
        """
        return [(m, text) for m, text, _ in self._rendered(matches)]

    def _rendered(self, matches: Sequence[Match], *, alone: bool = False) -> list[tuple[Match, str, int]]:
        """``render_each``, with the bytes each part's body lost; ``alone``: each part gets the whole
        budget to itself (left out only when its header and marker alone do not fit)."""
        shaped: dict[int, tuple[Match, str, str]] = {}
        parts: list[Part] = []
        for m in matches:
            part, tpl, field = self._shape(m)
            if id(part) in shaped:  # the same notice twice: a distinct object to map it back
                part = Part(*part)
            parts.append(part)
            shaped[id(part)] = (m, tpl, field)
        out: list[tuple[Match, str, int]] = []
        for group in [[part] for part in parts] if alone else [parts]:
            for part, placed, dropped in fit(group, self.config.notice_max_bytes):
                m, tpl, field = shaped[id(part)]
                out.append((m, tpl.format(**{field: part.header}, body=placed.decode("utf-8")), dropped))
        return out

    def _shape(self, m: Match) -> tuple[Part, str, str]:
        """A notice before the budget: its part (escaped header and body), template and field."""
        key = (m.kind, m.name, m.path, m.body)
        cached = self._shapes.get(key)
        if cached is not None:
            return cached
        templates = self.config.templates
        if m.kind == "rule":
            tpl, field, body = prompt.template(templates, "notice"), "name", prompt.neutralise(m.body)
            shown = prompt.one_line_escaped(m.name)
            where = prompt.address(templates, shown)
        elif m.kind == "listing":
            tpl, field = prompt.template(templates, "listing_notice"), "path"
            body = prompt.neutralise(m.body)
            shown = where = prompt.one_line_escaped(m.name)
        else:
            # The body was escaped line by line when read (it holds ruleweave's own import headers).
            tpl, field = prompt.template(templates, "instructions_notice"), "path"
            body, shown = prompt.neutralise_tags(m.body), prompt.one_line_escaped(m.name)
            where = shown
        frame = len(tpl.format(**{field: shown}, body="").encode("utf-8"))
        part = Part(shown, body.encode("utf-8"), m.path, m.path, "rule", where=where, frame=frame)
        return self._shapes.setdefault(key, (part, tpl, field))


@lru_cache(maxsize=1024)
def _exclusions(globs: tuple[str, ...]) -> GlobIndex[int]:
    """The matcher of a rule's exclusion globs (built once per distinct tuple)."""
    return GlobIndex(((0, glob) for glob in globs), bare_anywhere=False)


class _Found:
    """A match with its identity (what dedupes it within a call), store key and ledger record.

    Remembered per path and shared by every session: the key and record are made once
    (the record only when a call id asks for the ledger).
    """

    __slots__ = ("_heads", "_record", "identity", "key", "match")

    def __init__(
        self, identity: str, match: Match, key: str | None = None, heads: _Heads | None = None
    ) -> None:
        self.identity = identity
        self.match = match
        self.key = match.key if key is None else key
        self._heads = heads  # record heads by source, shared by the rule set's paths
        self._record: str | None = None

    @property
    def record(self) -> str:
        """``Match.record``."""
        if self._record is None:
            match, heads = self.match, self._heads
            if heads is None:
                self._record = match.record
            else:
                source = (match.kind, match.name, match.path)
                head = heads.get(source)
                if head is None:
                    if len(heads) >= _HEADS:  # bounded where it grows, not on every path
                        heads.clear()
                    head = heads[source] = ledger.record_head(*source)
                self._record = ledger.record_with(head, match.trigger, match.glob)
        return self._record

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Found) and (self.identity, self.match) == (other.identity, other.match)

    def __hash__(self) -> int:
        return hash((self.identity, self.match))

    def __repr__(self) -> str:
        return f"Claim(key={self.key!r}, record={self.record!r})"


class _Written(Sequence[str]):
    """The text a call writes (``written_text``), read only if a content gate asks for it."""

    __slots__ = ("_args", "_text")

    def __init__(self, args: Mapping[str, Any]) -> None:
        self._args = args
        self._text: list[str] | None = None

    def _read(self) -> list[str]:
        if self._text is None:
            self._text = written_text(self._args)
        return self._text

    def __len__(self) -> int:
        return len(self._read())

    def __getitem__(self, index: Any) -> Any:
        return self._read()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())


_WrittenOr = Sequence[str] | Mapping[str, Any]
"""The text a call wrote, or its arguments (read through ``_Written`` only when a gate asks)."""

_DIRECTORIES = 4_096  # directories whose nested answers a rule set remembers (then it starts over)

_HEADS = 32_768  # notice sources whose record head a rule set remembers (then it starts over)

_Heads = dict[tuple[str, str, str], str]
"""Ledger record heads (``ledger.record_head``) by notice source: kind, name and path."""

_Directory = tuple[tuple[NestedFile, ...], tuple[ScopedFile, ...], tuple[NestedFolder, ...]]
"""A directory's nested answers: instruction files for every file in it, ``globs:`` files to match
each file against, and nested rule folders."""

_PathFound = tuple[tuple[_Found, ...], tuple[Match, ...]]
"""One path's notices: with their identities, keys and records, and as plain matches."""


def _notices_of(entry: _PathFound) -> int:
    """What a remembered path weighs: its notices (a path that calls for none still costs one)."""
    return max(1, len(entry[0]))


def _facts(rule: Rule) -> tuple[str, str, str, str, str, str]:
    """A rule's notice fields (name, path, body, provider), identity and store key."""
    identity = ledger.rule_id(rule.path, rule.name)
    return rule.name, rule.path, rule.content, rule.source.provider, identity, ledger.NOTICE_PREFIX + identity


def _rule_match(rule: Rule, trigger: str, glob: str | None) -> Match:
    return Match("rule", rule.name, rule.path, trigger, glob, rule.content, rule.source.provider)


def _listing(folder: NestedFolder, templates: Mapping[str, str]) -> str:
    """The addresses (``rule://`` by default) of a nested folder's description-only rules, one a line."""
    return "\n".join(
        f"- {prompt.address(templates, prompt.one_line_escaped(rule.name))}: "
        f"{prompt.one_line_escaped(rule.description)}"
        for rule in folder.listed
    )
