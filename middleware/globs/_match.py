"""A group of glob alternatives that share a key, and what settles the rest: ``GlobIndex``'s inner part.

Inside a group every alternative has passed the cheap test the index keyed
it by (a literal name, suffix or prefix; a literal directory). What is left:

* nothing (``**/*.ts`` once the suffix ``.ts`` is found) — *certain*;
* string tests: the other literal of ``test_*.py``, or the directory of
  ``**/a/b/*.ts`` — *literal*;
* a basename regex (``*.[jt]s``) — all of a group's, one combined RE2 set
  matched once against the file name;
* a generic alternative (wildcards in its directory part) — wcmatch's regex
  for each, behind one combined RE2 prefilter once a group holds more than a
  few.

RE2 runs in linear time, so a hostile glob cannot stall a lookup, and a
combined set costs about the same for ten globs as for ten thousand. Sets
are built the first time a lookup needs them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from ruleweave.globs._shapes import Shape, basename_re2, re2_form, translate


class PathSpellings(Protocol):
    """The three spellings of a path (``ruleweave.globs.PathSpellings``), as groups read them."""

    @property
    def relative(self) -> str | None:
        """Relative to the project root, or ``None`` outside it."""

    @property
    def absolute(self) -> str:
        """The absolute path."""

    @property
    def name(self) -> str:
        """The bare file name."""

_CHUNK = 256  # patterns per RE2 set: keeps each set's program (and its DFA states) small
_SET_MEMORY = 2 << 20  # RE2 memory budget per set (its default is 8 MiB)
_FEW_GENERIC = 4  # up to this many generic alternatives are tested one by one
_FEW_LITERAL = 16  # more two-literal names (``test_*.py``) than this join the group's RE2 set
_EAGER = 32  # a group needing this many translations builds its sets with the index, not in a call


def _never(_: str) -> bool:
    return False


class GroupEntry:
    """One brace alternative as a group sees it: its shape, order, and lazily compiled regexes.

    Args:
        order: Its position in the index (results come in this order).
        shape: Its shape.
    """

    __slots__ = ("_exact", "_name_test", "contains", "needle", "order", "shape")

    def __init__(self, order: int, shape: Shape) -> None:
        self.order = order
        self.shape = shape
        self._exact: re.Pattern[str] | bool | None = False
        self._name_test: re.Pattern[str] | bool | None = False
        # ``**/a/b/`` modes: the directory that must end (``seg_child``) or appear in
        # (``seg_under``) the path's directory; ``None`` when the group's key settles it.
        self.needle: str | None = None
        self.contains = False
        mode = shape.dir_mode
        if mode.startswith("seg_") and shape.directory.count("/") > 1:
            self.needle = "/" + shape.directory
            self.contains = mode != "seg_child"

    def dir_ok(self, abs_parent: str) -> bool:
        """Whether the path's directory (absolute, ending in ``/``) holds the needle."""
        needle = self.needle
        if needle is None:
            return True
        return needle in abs_parent if self.contains else abs_parent.endswith(needle)

    def exact(self) -> re.Pattern[str] | None:
        """wcmatch's regex for the whole alternative (compiled on first use)."""
        if self._exact is False:
            regex = translate(self.shape.alternative)
            self._exact = None if regex is None else re.compile(regex)
        return self._exact if isinstance(self._exact, re.Pattern) else None

    def name_matches(self, name: str) -> bool:
        """The basename pattern tested on a file name with wcmatch's regex (the RE2-free path)."""
        if self._name_test is False:
            regex = translate(self.shape.basename)
            self._name_test = None if regex is None else re.compile(regex)
        test = self._name_test
        return isinstance(test, re.Pattern) and test.fullmatch(name) is not None

    def generic_matches(self, path: PathSpellings) -> bool:
        """The whole alternative tested on each spelling it can match, as wcmatch would."""
        regex = self.exact()
        if regex is None:
            return False
        test = regex.fullmatch
        prefix = self.shape.directory
        rel = path.relative
        if prefix and not prefix.startswith("/"):
            # A literal relative directory prefix can only match the relative spelling.
            return rel is not None and rel.startswith(prefix) and test(rel) is not None
        if rel is not None and test(rel) is not None:
            return True
        if test(path.absolute) is not None:
            return True
        alternative = self.shape.alternative
        name_ok = "\\" in alternative or "/" not in alternative.lstrip("*/")
        return name_ok and test(path.name) is not None


E = TypeVar("E", bound=GroupEntry)


class Re2Sets:
    """Several RE2 patterns matched at once; reports the index of every pattern that matches.

    Patterns go into sets of at most ``_CHUNK``, each with a memory budget of
    ``_SET_MEMORY`` (RE2 resets a full DFA cache and goes on, so the budget
    bounds memory, never correctness; a set whose program needs more is built
    again with RE2's default). Patterns RE2 cannot take (``None`` or a parse
    error) are listed in ``unsupported`` for the caller to test another way.

    Args:
        patterns: Full-match patterns, or ``None`` for one to leave out.
    """

    def __init__(self, patterns: Sequence[str | None]) -> None:
        self.unsupported: list[int] = [i for i, p in enumerate(patterns) if p is None]
        self._sets: list[tuple[Any, list[int]]] = []
        usable = [(i, p) for i, p in enumerate(patterns) if p is not None]
        for start in range(0, len(usable), _CHUNK):
            self._build(usable[start : start + _CHUNK])

    def _build(self, chunk: list[tuple[int, str]]) -> None:
        import re2

        for budget in (_SET_MEMORY, None):
            options = re2.Options()
            if budget is not None:
                options.max_mem = budget
            compiled = re2.Set.FullMatchSet(options)
            where: list[int] = []
            rejected: list[int] = []
            for index, pattern in chunk:
                try:
                    slot = compiled.Add(pattern)
                except re2.error:
                    rejected.append(index)
                    continue
                where.extend([-1] * (slot + 1 - len(where)))
                where[slot] = index
            if not where:
                self.unsupported.extend(rejected)
                return
            try:
                compiled.Compile()
            except re2.error:
                continue  # the program is over the budget: once more with RE2's default
            self.unsupported.extend(rejected)
            self._sets.append((compiled, where))
            return
        self.unsupported.extend(index for index, _ in chunk)

    def match(self, data: bytes) -> list[int]:
        """Indices of the patterns that match all of ``data`` (UTF-8), in no particular order."""
        out: list[int] = []
        for compiled, where in self._sets:
            hits = compiled.Match(data)
            if hits:
                out.extend(where[hit] for hit in hits)
        return out


class Probe:
    """What a lookup derives from a path once, for every group it visits."""

    __slots__ = ("_name_bytes", "abs_parent", "ancestors", "dir_names", "path")

    def __init__(self, path: PathSpellings) -> None:
        self.path = path
        rel = path.relative
        self.ancestors: list[str] = []
        if rel:
            index = rel.find("/")
            while index >= 0:
                self.ancestors.append(rel[: index + 1])
                index = rel.find("/", index + 1)
        absolute = path.absolute
        self.abs_parent = absolute[: absolute.rfind("/") + 1]
        self.dir_names: list[str] | None = None
        self._name_bytes: bytes | bool | None = False

    def directory_names(self) -> list[str]:
        """The distinct names of the absolute path's directories, root first."""
        if self.dir_names is None:
            self.dir_names = list(dict.fromkeys(part for part in self.abs_parent.split("/") if part))
        return self.dir_names

    @property
    def parent_name(self) -> str:
        """The name of the directory holding the path ('' at the root)."""
        return self.abs_parent[:-1].rsplit("/", 1)[-1]

    @property
    def name_bytes(self) -> bytes | None:
        """The file name in UTF-8, or ``None`` when it holds a lone surrogate (then no RE2)."""
        if self._name_bytes is False:
            try:
                self._name_bytes = self.path.name.encode("utf-8")
            except UnicodeEncodeError:
                self._name_bytes = None
        return self._name_bytes if isinstance(self._name_bytes, bytes) else None


class Group(Generic[E]):
    """Alternatives that share a key and a directory slot (see the module docstring)."""

    __slots__ = ("_generic_sets", "_regex_sets", "certain", "generic", "literal", "regex")

    def __init__(self) -> None:
        self.certain: list[E] = []
        self.literal: list[E] = []
        self.regex: list[E] = []
        self.generic: list[E] = []
        self._regex_sets: Re2Sets | None = None
        self._generic_sets: Re2Sets | None = None

    def add(self, entry: E) -> None:
        """File an entry by what is left to test once the group is reached."""
        shape = entry.shape
        if shape.dir_mode == "generic":
            self.generic.append(entry)
        elif shape.base == "regex":
            self.regex.append(entry)
        elif shape.base == "prefix_suffix" or entry.needle is not None:
            self.literal.append(entry)
        else:
            self.certain.append(entry)

    def seal(self) -> None:
        """Finish the group once every entry is in: big groups get their combined sets now.

        Building a set translates each of its globs (tens of µs each); a group of
        thousands would stall the first tool call that reaches it, so the index
        pays for it while loading instead.
        """
        if len(self.literal) > _FEW_LITERAL:
            moved = [e for e in self.literal if e.shape.base == "prefix_suffix"]
            self.literal = [e for e in self.literal if e.shape.base != "prefix_suffix"]
            self.regex = sorted([*self.regex, *moved], key=_order)
        if len(self.regex) >= _EAGER:
            self._regex_matcher()
        if len(self.generic) >= _EAGER:
            self._generic_matcher()

    def _regex_matcher(self) -> Re2Sets:
        sets = self._regex_sets
        if sets is None:
            sets = self._regex_sets = Re2Sets([basename_re2(e.shape.basename) for e in self.regex])
        return sets

    def _generic_matcher(self) -> Re2Sets:
        sets = self._generic_sets
        if sets is None:
            forms: list[str | None] = []
            for entry in self.generic:
                regex = translate(entry.shape.alternative)
                forms.append(None if regex is None else re2_form(regex)[0])
            sets = self._generic_sets = Re2Sets(forms)
        return sets

    def collect(self, probe: Probe, out: list[E]) -> None:
        """Append every entry of the group that matches the probed path."""
        if self.certain:
            out.extend(self.certain)
        if self.literal:
            name = probe.path.name
            size = len(name)
            for entry in self.literal:
                shape = entry.shape
                if shape.base == "prefix_suffix" and not (
                    size >= len(shape.prefix) + len(shape.suffix)
                    and name.startswith(shape.prefix)
                    and name.endswith(shape.suffix)
                ):
                    continue
                if entry.dir_ok(probe.abs_parent):
                    out.append(entry)
        if self.regex:
            self._collect_regex(probe, out)
        if self.generic:
            self._collect_generic(probe, out)

    def _collect_regex(self, probe: Probe, out: list[E]) -> None:
        sets = self._regex_matcher()
        data = probe.name_bytes
        entries = self.regex
        abs_parent = probe.abs_parent
        if data is None:
            name = probe.path.name
            out.extend(e for e in entries if e.name_matches(name) and e.dir_ok(abs_parent))
            return
        for index in sets.match(data):
            entry = entries[index]
            if entry.dir_ok(abs_parent):
                out.append(entry)
        for index in sets.unsupported:
            entry = entries[index]
            if entry.name_matches(probe.path.name) and entry.dir_ok(abs_parent):
                out.append(entry)

    def _collect_generic(self, probe: Probe, out: list[E]) -> None:
        entries = self.generic
        path = probe.path
        if len(entries) <= _FEW_GENERIC:
            out.extend(e for e in entries if e.generic_matches(path))
            return
        sets = self._generic_matcher()
        # RE2 without lookarounds is a superset: its hits are confirmed with wcmatch's regex.
        candidates: set[int] = set(sets.unsupported)
        for spelling in (path.relative, path.absolute, path.name):
            if spelling is None:
                continue
            try:
                data = spelling.encode("utf-8")
            except UnicodeEncodeError:
                candidates.update(range(len(entries)))
                break
            candidates.update(sets.match(data))
        out.extend(entries[i] for i in sorted(candidates) if entries[i].generic_matches(path))


def _order(entry: GroupEntry) -> int:
    return entry.order
