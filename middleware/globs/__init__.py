"""One glob dialect for the whole product, and an index that matches many globs fast.

The dialect is wcmatch's ``glob`` with globstar (``a/**/b`` also matches
``a/b``), braces (``*.{ts,tsx}``) and dotfiles matched by wildcards. A glob
with an unclosed ``[`` is malformed and matches nothing, and so does one
whose braces expand to more than wcmatch's limit of alternatives.

A glob is tried against three spellings of a path: relative to the project
root, absolute, and the bare file name (seed 001) — the last only while
``bare_anywhere`` holds (the default). An index built with
``bare_anywhere=False`` reads a glob without ``/`` (``*.md``) as wcmatch reads
it against the relative path: files in the project root only. Discovery
writes every rule glob in that form (``placement.dialect_glob`` turns an
agent's "anywhere" ``*.tsx`` into ``**/*.tsx``), so each agent's glob dialect
is kept without the matcher knowing about agents.

``GlobIndex`` files each brace alternative by what its last segment demands
(``glob_shapes``): a literal name, a literal suffix (an extension,
``_test.go``, ``Controller.java``), a literal prefix (``test_``, ``Dockerfile``),
or nothing; then by where its directory part lets a path be (anywhere, under
or directly in a literal directory, below a directory of a given name). A
lookup visits only the groups that the path's name, ancestors and directory
names select; in a group, what the key leaves open is decided by the glob
table (``ruleweave._kernel.globtable``, which the Claude Code hook's warm path
reads too: ``GlobIndex.table``): string tests, one combined RE2 set over the
basename patterns, and, for the few globs with wildcards in their directory
part, their RE2 patterns (one combined set once a group holds many). Every
pattern is RE2 (``_re2``), linear in the path. A group compiles on first use,
so loading a usual rule set compiles nothing; only a group of dozens of such
globs builds its combined set with the index, so that no tool call pays for
thousands of translations.

Files of one directory share what every directory part says about them: the
index keeps, per directory looked up, a *view* (``_views``) of the
alternatives whose directory part holds there, each left with a test of the
file name, so a new file in a known directory costs a few string tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from ruleweave._kernel.globtable import first_glob_per_key, full_match, spell
from ruleweave.globs._match import Group, GroupEntry, Probe
from ruleweave.globs._re2 import re2_pattern
from ruleweave.globs._shapes import Shape, alternatives, is_malformed, shape_of, translate
from ruleweave.globs._views import Views

__all__ = ["FLAGS", "GlobIndex", "PathSpellings", "compile_glob", "is_malformed", "matches"]

if TYPE_CHECKING:
    from ruleweave.globs._shapes import FLAGS


def __getattr__(name: str) -> Any:
    # ``FLAGS`` is looked up in ``glob_shapes`` on first use (it imports wcmatch).
    if name == "FLAGS":
        from ruleweave.globs import _shapes as glob_shapes

        return glob_shapes.FLAGS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

K = TypeVar("K")


def _never(_: str) -> bool:
    return False


def compile_glob(pattern: str) -> Callable[[str], bool]:
    """A predicate testing one normalised path spelling against ``pattern`` (a whole-string match,
    like wcmatch), in time linear in the path (RE2).

    Args:
        pattern: One glob of the product's dialect.

    Returns:
        The predicate; a malformed glob's matches nothing.
    """
    if not pattern or is_malformed(pattern):
        return _never
    expanded = alternatives(pattern)
    if expanded is None:
        return _never
    forms = [re2_pattern(alt) for alt in expanded]
    if all(form is not None for form in forms):
        test = full_match("|".join(f"(?:{form})" for form in forms)) if forms else None
        if test is not None:
            return test
    # A glob RE2 has no form of (none the dialect's property tests reach): wcmatch's regex.
    import re

    parts = [regex for regex in (translate(alt) for alt in expanded) if regex is not None]
    if not parts:
        return _never
    regex = re.compile(parts[0] if len(parts) == 1 else "|".join(f"(?:{part})" for part in parts))
    return lambda path: regex.fullmatch(path) is not None


class PathSpellings(NamedTuple):
    """The three spellings a glob is tried against.

    NamedTuple, not dataclass: the class is ~5× cheaper to create in a hook process (one per tool call).

    Attributes:
        relative: Posix path relative to the project root, or ``None`` outside it.
        absolute: Posix absolute path.
        name: The bare file name.
    """

    relative: str | None
    absolute: str
    name: str

    @classmethod
    def of(cls, path: str, root_prefix: str) -> PathSpellings:
        """The spellings of an absolute path (``ruleweave._kernel.globtable.spell``).

        A path that is not normalised (``//``, ``.`` or ``..`` segments, a
        trailing ``/``) is normalised first, as the index expects.

        Args:
            path: The path.
            root_prefix: The project root followed by one ``/``.

        Returns:
            The spellings; ``relative`` is ``None`` outside the project.
        """
        return cls(*spell(path, root_prefix))


def matches(pattern: str, path: PathSpellings, *, bare_anywhere: bool = True) -> bool:
    """Whether ``pattern`` matches any spelling of ``path`` (uncached; for one-offs).

    With ``bare_anywhere=False`` the bare file name is not a spelling (see ``GlobIndex``).
    """
    test = compile_glob(pattern)
    name = path.name if bare_anywhere else None
    return any(test(s) for s in (path.relative, path.absolute, name) if s is not None)


class _Entry(GroupEntry, Generic[K]):
    """One brace alternative of one glob, with every key that carries the glob."""

    __slots__ = ("keys", "pattern")

    def __init__(self, order: int, pattern: str, shape: Shape, bare_anywhere: bool) -> None:
        super().__init__(order, shape, bare_anywhere)
        self.pattern = pattern
        self.keys: list[K] = []

    def row(self) -> list[Any]:
        """The entry as a row of the glob table (``ruleweave._kernel.globtable``)."""
        shape, test = self.shape, self.test
        if test == "affix":
            operand: Any = [shape.prefix, shape.suffix]
        else:
            operand = self.operand() if test else None
        kind = shape.key_kind
        return [self.pattern, list(self.keys), kind, shape.key, self.place, self.directory, test, operand]


class _Bucket(Generic[K]):
    """The groups of one key: by directory mode, and by the directory they name."""

    __slots__ = ("child", "floating", "root", "seg_child", "seg_under", "under")

    def __init__(self) -> None:
        self.floating: Group[_Entry[K]] | None = None
        self.root: Group[_Entry[K]] | None = None
        self.under: dict[str, Group[_Entry[K]]] = {}
        self.child: dict[str, Group[_Entry[K]]] = {}
        self.seg_child: dict[str, Group[_Entry[K]]] = {}
        self.seg_under: dict[str, Group[_Entry[K]]] = {}

    def add(self, entry: _Entry[K]) -> None:
        place = entry.place
        if place in ("root", "anywhere"):
            group = self.root if place == "root" else self.floating
            if group is None:
                group = Group()
                if place == "root":
                    self.root = group
                else:
                    self.floating = group
            group.add(entry)
            return
        directory = entry.directory
        if place == "under":
            table, slot = self.under, directory
        elif place == "child":
            table, slot = self.child, directory
        elif place == "seg_child":
            table, slot = self.seg_child, directory[:-1].rsplit("/", 1)[-1]
        else:
            # seg_under: filed under the longest directory name (the likeliest rare).
            table, slot = self.seg_under, max(reversed(directory[:-1].split("/")), key=len)
        group = table.get(slot)
        if group is None:
            group = table[slot] = Group()
        group.add(entry)

    def seal(self) -> None:
        for group in self.groups():
            group.seal()

    def groups(self) -> list[Group[_Entry[K]]]:
        """Every group of the bucket."""
        found = [group for group in (self.floating, self.root) if group is not None]
        for table in (self.under, self.child, self.seg_child, self.seg_under):
            found.extend(table.values())
        return found

    def collect(self, probe: Probe, out: list[_Entry[K]]) -> None:
        if self.floating is not None:
            self.floating.collect(probe, out)
        if self.root is not None:
            rel = probe.path.relative
            if rel is not None and "/" not in rel:
                self.root.collect(probe, out)
        ancestors = probe.ancestors
        if self.under and ancestors:
            for prefix in ancestors:
                group = self.under.get(prefix)
                if group is not None:
                    group.collect(probe, out)
        if self.child and ancestors:
            group = self.child.get(ancestors[-1])
            if group is not None:
                group.collect(probe, out)
        if self.seg_child:
            group = self.seg_child.get(probe.parent_name)
            if group is not None:
                group.collect(probe, out)
        if self.seg_under:
            for dir_name in probe.directory_names():
                group = self.seg_under.get(dir_name)
                if group is not None:
                    group.collect(probe, out)


class GlobIndex(Generic[K]):
    """Many globs, each carrying keys (e.g. rule names), matched against a path.

    Each brace alternative is filed by the literal its last segment demands —
    a file name, a suffix or a prefix, looked up by hash from the path's name
    — and then by where its directory part lets a path be, so a lookup's cost
    follows the globs that could match, not the number of globs; what a key
    leaves open is settled in one combined matcher per group.

    Args:
        items: ``(key, glob)`` pairs; a glob may carry several keys.
        bare_anywhere: Also try the bare file name, so ``*.md`` matches at any depth (the
            default, and the dialect of TTSR scopes); ``False``: a glob without ``/``
            matches files in the project root only, as the relative path reads it.
    """

    def __init__(self, items: Iterable[tuple[K, str]], *, bare_anywhere: bool = True) -> None:
        self._names: dict[str, _Bucket[K]] = {}
        self._suffixes: dict[str, _Bucket[K]] = {}
        self._prefixes: dict[str, _Bucket[K]] = {}
        self._rest: _Bucket[K] = _Bucket()
        entries: dict[tuple[str, str], _Entry[K]] = {}
        self._entries: list[_Entry[K]] = []  # in order, for ``table``
        expansions: dict[str, list[str] | None] = {}
        for key, pattern in items:
            if not pattern or is_malformed(pattern):
                continue
            if pattern in expansions:
                expanded = expansions[pattern]
            else:
                expanded = expansions[pattern] = alternatives(pattern)
            if expanded is None:
                continue
            for alternative in expanded:
                entry = entries.get((pattern, alternative))
                if entry is None:
                    entry = _Entry(len(entries), pattern, shape_of(alternative), bare_anywhere)
                    entries[(pattern, alternative)] = entry
                    self._entries.append(entry)
                    self._place(entry)
                if key not in entry.keys:
                    entry.keys.append(key)
        self.size = len(entries)
        buckets = (self._rest, *self._names.values(), *self._suffixes.values(), *self._prefixes.values())
        for bucket in buckets:
            bucket.seal()
        self._suffix_lengths = sorted({len(key) for key in self._suffixes}, reverse=True)
        self._ancestries: dict[str, tuple[str, ...]] = {}
        self._prefix_lengths = sorted({len(key) for key in self._prefixes}, reverse=True)
        # The views' batches reuse a set the groups compiled for the same patterns (``**`` tails).
        compiled = dict(filter(None, (group.generic_compiled() for b in buckets for group in b.groups())))
        views = Views(self._entries, compiled)  # load time: about a twentieth of the index's own build
        self._views: Views[_Entry[K]] | None = views if views.usable else None

    def _place(self, entry: _Entry[K]) -> None:
        shape = entry.shape
        kind = shape.key_kind
        if kind == "name":
            table = self._names
        elif kind == "suffix":
            table = self._suffixes
        elif kind == "prefix":
            table = self._prefixes
        else:
            self._rest.add(entry)
            return
        bucket = table.get(shape.key)
        if bucket is None:
            bucket = table[shape.key] = _Bucket()
        bucket.add(entry)

    def lookup(self, path: PathSpellings) -> list[tuple[K, str]]:
        """Every ``(key, glob)`` whose glob matches a spelling of ``path``, in index order.

        Args:
            path: The path's three spellings (normalised, as ``PathSpellings.of`` makes them).

        Returns:
            Matching pairs, each key at most once (with the first glob that matched).
        """
        views, relative = self._views, path.relative
        if views is not None and relative is not None:
            viewed = views.entries(relative, path.absolute, path.name)
            if viewed is not None:  # a directory seen before: its view, tested on the name alone
                return _pairs(viewed)
        probe = Probe(path, self._ancestries)
        found: list[_Entry[K]] = []
        name = path.name
        self._rest.collect(probe, found)
        bucket = self._names.get(name)
        if bucket is not None:
            bucket.collect(probe, found)
        size = len(name)
        suffixes = self._suffixes
        for length in self._suffix_lengths:
            if length <= size:
                bucket = suffixes.get(name[-length:])
                if bucket is not None:
                    bucket.collect(probe, found)
        prefixes = self._prefixes
        for length in self._prefix_lengths:
            if length <= size:
                bucket = prefixes.get(name[:length])
                if bucket is not None:
                    bucket.collect(probe, found)
        return _pairs(found)

    def table(self) -> list[list[Any]]:
        """Every brace alternative as a row of the glob table, in index order.

        What the Claude Code hook's snapshot stores, for its warm path to match with
        ``ruleweave._kernel.globtable.lookup`` (the same decision as ``lookup``).
        Each alternative with a pattern test is translated here (wcmatch is imported).

        Returns:
            ``[glob, keys, kind, key, place, directory, test, operand]`` per alternative.
        """
        return [entry.row() for entry in self._entries]


def _order(entry: GroupEntry) -> int:
    """The sort key that puts matches in index order."""
    return entry.order


def _pairs(found: list[_Entry[K]]) -> list[tuple[K, str]]:
    """``(key, glob)`` of the matched alternatives, in index order, each key once with its first glob."""
    if len(found) <= 1:  # the usual case: one alternative, whose keys are distinct
        return [(key, entry.pattern) for entry in found for key in entry.keys]
    found.sort(key=_order)
    return first_glob_per_key([(entry.keys, entry.pattern) for entry in found])


def glob_problem(pattern: str) -> str | None:
    """Why ``pattern`` can never match a path (one phrase), or ``None`` when it can.

    Args:
        pattern: One glob of the product's dialect.

    Returns:
        ``is empty``, ``has a '[' that is never closed``, or ``expands to more than
        N alternatives``; such a glob matches nothing, so a rule scoped by it never fires.
    """
    if not pattern:
        return "is empty"
    if is_malformed(pattern):
        return "has a '[' that is never closed"
    if "{" in pattern and alternatives(pattern) is None:
        from ruleweave.globs._shapes import EXPANSION_LIMIT

        return f"expands to more than {EXPANSION_LIMIT} alternatives"
    return None

