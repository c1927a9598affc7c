"""A group of glob alternatives that share a key, and what settles the rest: ``GlobIndex``'s inner part.

Inside a group every alternative has passed the cheap test the index keyed
it by (a literal name, suffix or prefix; a literal directory). What is left
is the glob table's *test* (``ruleweave._kernel.globtable``), decided there:

* nothing (``**/*.ts`` once the suffix ``.ts`` is found) — *certain*;
* string tests: the other literal of ``test_*.py``, or the directory of
  ``**/a/b/*.ts`` — *literal*;
* a basename pattern (``*.[jt]s``) — all of a group's, one combined RE2 set
  matched once against the file name;
* a generic alternative (wildcards in its directory part) — its RE2 pattern
  on the spellings it can match, all of a group's in one combined RE2 set once
  the group holds more than a few.

RE2 runs in linear time, so a hostile glob cannot stall a lookup, and a
combined set costs about the same for ten globs as for ten thousand. Sets
are built the first time a lookup needs them. Only a glob whose wcmatch regex
has no RE2 form (``_re2``; none of the dialect's globs, as far as the property
tests reach) is matched with wcmatch's regex and Python's ``re``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from ruleweave._kernel.globtable import affixed, full_match, in_place, spelled, utf8
from ruleweave.globs._re2 import re2_pattern
from ruleweave.globs._shapes import Place, Shape, placement, test_of, translate


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


class GroupEntry:
    """One brace alternative as a group sees it: its shape, place, test and lazily compiled matcher.

    Args:
        order: Its position in the index (results come in this order).
        shape: Its shape.
        bare_anywhere: The index's dialect (see ``GlobIndex``).
    """

    __slots__ = ("_matcher", "_operand", "directory", "order", "place", "settled", "shape", "test")

    def __init__(self, order: int, shape: Shape, bare_anywhere: bool = True) -> None:
        self.order = order
        self.shape = shape
        self.place: Place
        self.place, self.directory = placement(shape, bare_anywhere)
        self.test = test_of(shape)
        # Whether the group's slot settles the place: ``**/a/b/`` modes are filed under one
        # directory name, so the path's directory must still end with (or hold) all of it.
        self.settled = not (self.place.startswith("seg_") and self.directory.count("/") > 1)
        self._operand: str | bool | None = False
        self._matcher: Callable[[str], bool] | None = None

    def dir_ok(self, abs_parent: str) -> bool:
        """Whether the path's directory (absolute, ending in ``/``) is the entry's place."""
        return self.settled or in_place(self.place, self.directory, None, abs_parent)

    def operand(self) -> str | None:
        """The RE2 pattern of a pattern test: the basename's for ``name``, the whole alternative's else."""
        if self._operand is False:
            shape = self.shape
            self._operand = re2_pattern(shape.basename if self.test == "name" else shape.alternative)
        return self._operand if isinstance(self._operand, str) else None

    def name_matches(self, name: str) -> bool:
        """The basename test (``name`` or ``affix``) on a file name, one entry at a time."""
        if self.test == "affix":
            return affixed(name, self.shape.prefix, self.shape.suffix)
        return self.matcher()(name)

    def matcher(self) -> Callable[[str], bool]:
        """The full-match test of its pattern: RE2, or wcmatch's regex where RE2 has no form of it."""
        if self._matcher is None:
            pattern = self.operand()
            test = None if pattern is None else full_match(pattern)
            if test is None:
                shape = self.shape
                regex = translate(shape.basename if self.test == "name" else shape.alternative)
                test = _never if regex is None else _python_re(regex)
            self._matcher = test
        return self._matcher

    def generic_matches(self, path: PathSpellings) -> bool:
        """The whole alternative tested on each spelling it can match, as wcmatch would."""
        return spelled(self.test, self.matcher(), path.relative, path.absolute, path.name)


def _never(_: str) -> bool:
    return False


def _python_re(regex: str) -> Callable[[str], bool]:
    """wcmatch's regex with Python's ``re``: only for a glob whose regex RE2 cannot express."""
    compiled = re.compile(regex)
    return lambda text: compiled.fullmatch(text) is not None


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


_ANCESTRIES = 4_096  # directories whose ancestors an index remembers (then it starts over)


def ancestors_of(directory: str) -> tuple[str, ...]:
    """Each ancestor of a relative path whose directory part is ``directory`` (``a/b/``): ``a/``, ``a/b/``."""
    found: list[str] = []
    index = directory.find("/")
    while index >= 0:
        found.append(directory[: index + 1])
        index = directory.find("/", index + 1)
    return tuple(found)


class Probe:
    """What a lookup derives from a path once, for every group it visits.

    Args:
        path: The path's spellings.
        ancestries: The index's memo of ``ancestors_of`` by directory (files of one directory
            share it; bounded by ``_ANCESTRIES``).
    """

    __slots__ = ("_name_bytes", "abs_parent", "ancestors", "dir_names", "path")

    def __init__(self, path: PathSpellings, ancestries: dict[str, tuple[str, ...]] | None = None) -> None:
        self.path = path
        rel = path.relative
        self.ancestors: tuple[str, ...] = ()
        if rel:
            directory = rel[: rel.rfind("/") + 1]
            if ancestries is None:
                self.ancestors = ancestors_of(directory)
            else:
                known = ancestries.get(directory)
                if known is None:
                    if len(ancestries) >= _ANCESTRIES:
                        ancestries.clear()
                    known = ancestries[directory] = ancestors_of(directory)
                self.ancestors = known
        absolute = path.absolute
        self.abs_parent = absolute[: absolute.rfind("/") + 1]
        self.dir_names: list[str] | None = None
        self._name_bytes: bytes | None = None

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
    def name_bytes(self) -> bytes:
        """The file name as RE2 reads it (``globtable.utf8``)."""
        if self._name_bytes is None:
            self._name_bytes = utf8(self.path.name)
        return self._name_bytes


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
        test = entry.test
        if test in ("rel", "any", "bare"):
            self.generic.append(entry)
        elif test == "name":
            self.regex.append(entry)
        elif test == "affix" or not entry.settled:
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
            moved = [e for e in self.literal if e.test == "affix"]
            self.literal = [e for e in self.literal if e.test != "affix"]
            self.regex = sorted([*self.regex, *moved], key=_order)
        if len(self.regex) >= _EAGER:
            self._regex_matcher()
        if len(self.generic) >= _EAGER:
            self._generic_matcher()

    def _regex_matcher(self) -> Re2Sets:
        sets = self._regex_sets
        if sets is None:
            sets = self._regex_sets = Re2Sets([re2_pattern(e.shape.basename) for e in self.regex])
        return sets

    def _generic_matcher(self) -> Re2Sets:
        sets = self._generic_sets
        if sets is None:
            sets = self._generic_sets = Re2Sets([entry.operand() for entry in self.generic])
        return sets

    def generic_compiled(self) -> tuple[tuple[str | None, ...], Re2Sets] | None:
        """The generic alternatives' patterns and their combined set, once the set is built."""
        sets = self._generic_sets
        return None if sets is None else (tuple(entry.operand() for entry in self.generic), sets)

    def collect(self, probe: Probe, out: list[E]) -> None:
        """Append every entry of the group that matches the probed path."""
        if self.certain:
            out.extend(self.certain)
        if self.literal:
            name = probe.path.name
            for entry in self.literal:
                shape = entry.shape
                if entry.test == "affix" and not affixed(name, shape.prefix, shape.suffix):
                    continue
                if entry.dir_ok(probe.abs_parent):
                    out.append(entry)
        if self.regex:
            self._collect_regex(probe, out)
        if self.generic:
            self._collect_generic(probe, out)

    def _collect_regex(self, probe: Probe, out: list[E]) -> None:
        sets = self._regex_matcher()
        entries = self.regex
        abs_parent = probe.abs_parent
        for index in sets.match(probe.name_bytes):
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
        # One set match per spelling; each hit is then read by the entry's own test (which
        # spellings it may match), as the glob table decides it.
        hits: dict[str, set[int]] = {}
        for spelling in (path.relative, path.absolute, path.name):
            if spelling is not None and spelling not in hits:
                hits[spelling] = set(sets.match(utf8(spelling)))
        unsupported = set(sets.unsupported)
        for index in sorted(unsupported.union(*hits.values())):
            entry = entries[index]
            if index in unsupported:
                hit = entry.generic_matches(path)
            else:
                hit = spelled(entry.test, _Hit(hits, index), path.relative, path.absolute, path.name)
            if hit:
                out.append(entry)


class _Hit:
    """An entry's full-match test, answered from the set matches already made for each spelling."""

    __slots__ = ("hits", "index")

    def __init__(self, hits: dict[str, set[int]], index: int) -> None:
        self.hits = hits
        self.index = index

    def __call__(self, spelling: str) -> bool:
        return self.index in self.hits.get(spelling, ())


def _order(entry: GroupEntry) -> int:
    return entry.order
