"""Per-directory views of a ``GlobIndex``: what a directory's files can match, left to the file name.

Agents touch many files of few directories. What an alternative's directory
part decides (its place; a generic alternative's wildcard directories) is the
same for every file of one directory: only the name is new. A view gathers,
once per directory, the alternatives whose directory part holds there, each
with what its name must still pass: the key its bucket is filed by (the name
is, ends with or starts with a literal) and the test its group applies
(``affix``, the basename pattern). A new file of a known directory is then
decided by a few string tests, with no bucket, group or probe.

A *generic* alternative (wildcards in its directory part, ``packages/*/src/**``)
is kept in the view of every directory below its literal prefix and tested on
the whole path, with its own matcher, once the name passes its key: the
same test the index makes, no more often. Where dozens share one literal
prefix (the index then compiles their combined set while it loads), each is
split at its last ``/`` instead. A normalised path has no ``/`` in its name,
and no piece of such a pattern matches a ``/`` in the last segment, so the
part before the last ``/`` must match the directory and the last segment the
name, each on its own. The directory parts are decided once per directory, in
one combined RE2 set, on the directory followed by a stand-in name: each
alternative with its last segment replaced by ``*``, or, when that segment is
``**`` (anything below), the alternative itself, which then holds for every
name.

No view is made, and the index's own lookup answers, in an index of fewer than
``MIN_ALTERNATIVES`` alternatives, for a path outside the project, for a
directory whose candidates are more than ``MAX_CANDIDATES``, for an index that
allows more than that many alternatives anywhere (then every directory has
them), for a glob that may match the bare name, and where a batch of dozens
cannot be split (escapes, a class in a last segment, no RE2 form).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Generic, TypeVar

from ruleweave._kernel.globtable import full_match, in_place, spelled, utf8
from ruleweave.globs._match import _EAGER, GroupEntry, Re2Sets, ancestors_of
from ruleweave.globs._re2 import re2_pattern

MAX_CANDIDATES = 48
"""The most alternatives one directory's view tests one by one; past it the index's lookup answers."""

MIN_ALTERNATIVES = 16
"""An index with fewer alternatives has no views: its own lookup visits a few buckets at most, and the
many small indexes (a rule's exclusions, a streamed rule's scope) hold no memo of directories."""

_VIEWS = 4_096  # directories whose view an index remembers (then it starts over)

_STAND_IN = "x"  # a file name: the directory part of a split alternative is tried on ``directory/x``

E = TypeVar("E", bound=GroupEntry)

NameTest = Callable[[str], bool]

Candidate = tuple[int, str, NameTest | None, E]
"""An alternative in a view: its key test (``_ALWAYS`` … ``_STARTS``), the key, the test its group
still applies to the name (``None``: none), and the alternative."""

_ALWAYS, _EQUAL, _ENDS, _STARTS = range(4)
_KEY_TESTS = {"rest": _ALWAYS, "name": _EQUAL, "suffix": _ENDS, "prefix": _STARTS}


class View(Generic[E]):
    """One directory's candidates: ``(key test, key, name test or None, entry)`` each.

    Args:
        directory: The directory relative to the project root, ending in ``/`` ('' for the root).
        candidates: The candidates, or ``None`` when the index's lookup must answer there.
    """

    __slots__ = ("candidates", "directory")

    def __init__(self, directory: str, candidates: tuple[Candidate[E], ...] | None) -> None:
        self.directory = directory
        self.candidates = candidates

    def entries(self, name: str) -> list[E]:
        """The candidates a file called ``name`` in the directory matches (``candidates`` must be set)."""
        out: list[E] = []
        for code, key, test, entry in self.candidates or ():
            if code:
                if code == _EQUAL:
                    if name != key:
                        continue
                elif code == _ENDS:
                    if not name.endswith(key):
                        continue
                elif not name.startswith(key):
                    continue
            if test is None or test(name):
                out.append(entry)
        return out


class _Split(Generic[E]):
    """Generic alternatives under one literal prefix. Dozens or more (``_EAGER``) are split, and their
    directory parts compiled into one RE2 set, while the index loads (``prepare``), as its own big
    groups are; fewer are tested on each whole path (``_WholePath``)."""

    __slots__ = ("_sets", "candidates", "entries")

    def __init__(self) -> None:
        self.entries: list[E] = []
        self.candidates: list[Candidate[E]] = []
        self._sets = Re2Sets([])  # until ``prepare``

    def prepare(self, compiled: Mapping[tuple[str | None, ...], Re2Sets] | None) -> bool:
        """Split the batch and compile its directory patterns (a set already built for the same
        patterns, in ``compiled``, serves); False when one cannot be split or has no RE2 form."""
        candidates: list[Candidate[E]] = []
        patterns: list[str | None] = []
        for entry in self.entries:
            split = split_alternative(entry.shape.alternative)
            if split is None:
                return False
            pattern, test = split
            shape = entry.shape
            candidates.append((_KEY_TESTS[shape.key_kind], shape.key, test, entry))
            patterns.append(pattern)
        sets = (compiled or {}).get(tuple(patterns)) or Re2Sets(patterns)
        if sets.unsupported:
            return False
        self.candidates, self._sets = candidates, sets
        return True

    def decide(self, spellings: Iterable[str]) -> list[int]:
        """The candidates whose directory part matches one of ``spellings`` (``directory/x``); the
        batch was prepared while the index loaded."""
        hits: set[int] = set()
        for spelling in spellings:
            hits.update(self._sets.match(utf8(spelling)))
        return sorted(hits)


class _WholePath(Generic[E]):
    """A generic alternative in one directory's view: its own test on the whole path of a name.

    Exactly the index's test of it (``GroupEntry.generic_matches``), made only for a name that
    passed the alternative's key, as the index makes it only in the bucket the key selects.
    """

    __slots__ = ("directory", "entry", "parent")

    def __init__(self, entry: E, directory: str, parent: str) -> None:
        self.entry = entry
        self.directory = directory
        self.parent = parent

    def __call__(self, name: str) -> bool:
        entry = self.entry
        return spelled(entry.test, entry.matcher(), self.directory + name, self.parent + name, name)


def split_alternative(alternative: str) -> tuple[str | None, NameTest | None] | None:
    """A generic alternative's directory pattern (RE2, tried on ``directory/x``) and its name test
    (``None``: every name); ``None`` when it cannot be split (see the module docstring)."""
    slash = alternative.rfind("/")
    last = alternative[slash + 1 :]
    if slash < 0 or not last or "\\" in alternative or "[" in last or "]" in last:
        return None
    if last == "**":
        return re2_pattern(alternative), None
    name_pattern = re2_pattern(last)
    test = full_match(name_pattern) if name_pattern is not None else None
    if test is None:
        return None
    return re2_pattern(alternative[: slash + 1] + "*"), test


class Views(Generic[E]):
    """The per-directory views of one index's alternatives: each made at its directory's first lookup.

    Args:
        entries: Every alternative of the index.
        compiled: RE2 sets the index has built already, by their patterns (a batch of the same
            patterns uses its set rather than compile another).
    """

    def __init__(
        self, entries: Sequence[E], compiled: Mapping[tuple[str | None, ...], Re2Sets] | None = None
    ) -> None:
        self.usable = True
        """False when no directory can have a view (see the module docstring)."""
        self._anywhere: list[Candidate[E]] = []
        self._root: list[Candidate[E]] = []
        self._under: dict[str, list[Candidate[E]]] = {}
        self._child: dict[str, list[Candidate[E]]] = {}
        self._seg: dict[str, list[Candidate[E]]] = {}
        self._split: dict[str, _Split[E]] = {}  # by literal relative prefix ('' for anywhere)
        self._memo: dict[str, View[E]] = {}
        if len(entries) < MIN_ALTERNATIVES:
            self.usable = False
            return
        anywhere = 0
        for entry in entries:
            # Past the bound anywhere (every directory would be over it) or a test of the bare name
            # (not a question of the directory), no view: stop filing at once (a flood is not read).
            if entry.place == "anywhere":
                anywhere += 1
            if anywhere > MAX_CANDIDATES or entry.test == "bare":
                self.usable = False
                return
            self._file(entry)
        for split in self._split.values():
            # As the index's groups: no call pays for dozens of translations.
            if len(split.entries) >= _EAGER and not split.prepare(compiled):
                self.usable = False
                return

    def _file(self, entry: E) -> None:
        test = entry.test
        if test in ("rel", "any"):
            prefix = entry.directory if test == "rel" else ""  # ``any``: no literal relative prefix
            split = self._split.get(prefix)
            if split is None:
                split = self._split[prefix] = _Split()
            split.entries.append(entry)
            return
        shape = entry.shape
        candidate = (_KEY_TESTS[shape.key_kind], shape.key, entry.name_matches if test else None, entry)
        place = entry.place
        if place == "anywhere":
            self._anywhere.append(candidate)
        elif place == "root":
            self._root.append(candidate)
        else:
            if place in ("under", "child"):
                table, slot = (self._under if place == "under" else self._child), entry.directory
            else:
                # seg_child / seg_under: filed under the last name of its directory, which the path's
                # directory must hold somewhere; ``in_place`` decides, once per directory.
                table, slot = self._seg, entry.directory[:-1].rsplit("/", 1)[-1]
            group = table.get(slot)
            if group is None:
                group = table[slot] = []
            group.append(candidate)

    def entries(self, relative: str, absolute: str, name: str) -> list[E] | None:
        """The alternatives a path matches, or ``None`` when its directory has no view.

        Args:
            relative: The path relative to the project root.
            absolute: The absolute, normalised path.
            name: Its file name.
        """
        parent = absolute[: absolute.rfind("/") + 1]
        directory = relative[: relative.rfind("/") + 1]
        view = self._memo.get(parent)
        if view is None or view.directory != directory:
            view = self._view(directory, parent)
        if view.candidates is None:
            return None
        return view.entries(name)


    def _view(self, directory: str, parent: str) -> View[E]:
        """Make and remember the view of a directory (relative, and absolute ending in ``/``)."""
        memo = self._memo
        if len(memo) >= _VIEWS:
            memo.clear()
        view = memo[parent] = View(directory, self._candidates(directory, parent))
        return view

    def _candidates(self, directory: str, parent: str) -> tuple[Candidate[E], ...] | None:
        found = list(self._anywhere)
        ancestors = ancestors_of(directory)
        if not directory:
            found += self._root
        for prefix in ancestors:
            under = self._under.get(prefix)
            if under:
                found += under
        child = self._child.get(directory)
        if child:
            found += child
        if self._seg:
            for dir_name in dict.fromkeys(part for part in parent.split("/") if part):
                for candidate in self._seg.get(dir_name, ()):
                    entry = candidate[3]
                    if in_place(entry.place, entry.directory, None, parent):
                        found.append(candidate)
        for prefix in ("", *ancestors) if self._split else ():
            split = self._split.get(prefix)
            if split is None:
                continue
            if len(split.entries) < _EAGER:
                found += [
                    (_KEY_TESTS[e.shape.key_kind], e.shape.key, _WholePath(e, directory, parent), e)
                    for e in split.entries
                ]
                continue
            # A generic alternative without a literal prefix may match the absolute spelling too.
            here = directory + _STAND_IN
            hits = split.decide((here, parent + _STAND_IN) if not prefix else (here,))
            found += [split.candidates[i] for i in hits]
        if len(found) > MAX_CANDIDATES:
            return None
        return tuple(found)
