"""What a glob demands of a path, read from its text: the shapes ``GlobIndex`` files globs by.

A glob is split into brace alternatives exactly as wcmatch splits it, and
each alternative into a directory part and a last segment (the basename
pattern), the way Rust's ``globset`` sorts globs into strategies:

* the basename pattern is a literal name (``Dockerfile``), ``*`` (any
  name), a literal prefix (``test_*``), a literal suffix (``*.ts``,
  ``*_test.go``, ``*Controller.java``), both (``test_*.py``), or else a
  regex (``*.[jt]s``) still filed by whatever literal prefix or suffix it has;
* the directory part is nothing or ``**/`` (the name anywhere), a literal
  directory (``src/api/``, only its direct children), a literal directory
  and ``**/`` (anything below it), ``**/`` and a literal directory
  (``**/migrations/``, wherever that directory is), or anything else
  (*generic*: matched as a whole with wcmatch's regex).

Every shape but *generic* is decided with string operations on normalised
paths (no ``.``/``..`` segments, no ``//``, no trailing ``/``) — and a regex
basename by RE2 on the file name alone — which is what the property test
pins against ``wcmatch.glob.globmatch``. Regexes come from wcmatch's own
translator (``translate``; ``_re2`` gives their RE2 form).

``placement`` and ``test_of`` name a shape in the terms of the glob table
(``ruleweave._kernel.globtable``), where the decision itself is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from ruleweave._lru import LruCache
from ruleweave._text.lazy_regex import LazyRegex

if TYPE_CHECKING:
    from collections.abc import Callable

    FLAGS: int
    """The product's glob dialect (wcmatch flags)."""

    ALTERNATIVE_FLAGS: int
    """The flags one brace alternative is translated with: its braces are already expanded."""


def __getattr__(name: str) -> Any:
    # ``FLAGS`` and ``ALTERNATIVE_FLAGS`` on first use: wcmatch's import costs a hook process about
    # half of Python's own start-up, and the shapes most globs have never need its regexes.
    if name in ("FLAGS", "ALTERNATIVE_FLAGS"):
        from wcmatch import glob as wcglob

        flags = wcglob.GLOBSTAR | wcglob.BRACE | wcglob.DOTGLOB
        return flags if name == "FLAGS" else flags & ~wcglob.BRACE
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

EXPANSION_LIMIT = 1000
"""wcmatch's own limit on brace alternatives; a glob expanding to more matches nothing."""

DirMode = Literal["float", "everything", "child", "under", "all_under", "seg_child", "seg_under",
                  "seg_all_under", "generic"]
"""Where an alternative's directory part lets a path be (see the module docstring)."""

BaseKind = Literal["any", "name", "prefix", "suffix", "prefix_suffix", "regex", "none"]
"""What an alternative's last segment demands of a file name."""

KeyKind = Literal["name", "suffix", "prefix", "rest"]
"""How the index files an alternative: by a literal name, suffix, prefix, or not at all."""

# Characters that end a literal run: wildcards, classes, escapes and braces
# (braces are literal after expansion; stopping at them only shortens a key).
_SPECIAL = LazyRegex(r"[*?\[\]\\{}]")
_LEADING = LazyRegex(r"[^*?\[\]\\{}]*")
_SLASHES = LazyRegex(r"/{2,}")



def is_malformed(pattern: str) -> bool:
    """A glob with a ``[`` that is never closed."""
    if "[" not in pattern:
        return False
    depth_open = False
    escaped = False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            depth_open = True
        elif char == "]":
            depth_open = False
    return depth_open


_ONE_GROUP = LazyRegex(r"^([^{}\\]*)\{([^{}\\]*,[^{}\\]*)\}([^{}\\]*)$")


def alternatives(pattern: str) -> list[str] | None:
    """The brace alternatives of ``pattern`` as wcmatch expands them, or ``None`` past its limit.

    Args:
        pattern: One glob.

    Returns:
        The alternatives (escapes kept, duplicates dropped), or ``None`` when
        they are more than ``EXPANSION_LIMIT`` (such a glob matches nothing).
    """
    if "{" not in pattern:
        return [pattern]
    simple = _ONE_GROUP.match(pattern)
    if simple is not None and ".." not in simple.group(2):
        # The common `*.{ts,tsx}`: one flat group, no escapes or ranges. bracex
        # gives the same list, at many times the cost on a 1,000-rule load.
        head, tail = simple.group(1), simple.group(3)
        return list(dict.fromkeys(head + alt + tail for alt in simple.group(2).split(",")))
    import bracex  # here: most globs never get this far, and its import costs a hook process ~3 ms

    try:
        # The call wcmatch makes: keep_escapes, so an escaped brace or comma
        # reaches the translator still escaped.
        expanded = bracex.expand(pattern, keep_escapes=True, limit=EXPANSION_LIMIT, return_empty=True)
    except bracex.ExpansionLimitException:
        return None
    except Exception:
        return [pattern]
    return list(dict.fromkeys(expanded)) or [pattern]


def _leading_literal(text: str) -> str:
    match = _LEADING.match(text)
    return match.group() if match else ""


def _trailing_literal(text: str) -> str:
    match = _LEADING.match(text[::-1])
    return match.group()[::-1] if match else ""


def _is_literal(text: str) -> bool:
    return _SPECIAL.search(text) is None


class Shape(NamedTuple):
    """What one brace alternative demands, in the terms ``GlobIndex`` files it by.

    Attributes:
        alternative: The alternative (braces expanded).
        key_kind: ``name``, ``suffix``, ``prefix`` or ``rest``.
        key: The literal the alternative is filed under ('' for ``rest``).
        base: What the last segment demands of the file name.
        prefix: The literal name prefix (``test_`` of ``test_*.py``).
        suffix: The literal name suffix (``.py`` of ``test_*.py``).
        basename: The last segment (a glob of one file name).
        dir_mode: Where the directory part lets a path be.
        directory: The literal directory (``src/api/``; for ``seg_*`` modes the
            directory that must appear somewhere), or the literal relative prefix
            of a *generic* alternative ('' when it has none).
    """

    alternative: str
    key_kind: KeyKind
    key: str
    base: BaseKind
    prefix: str
    suffix: str
    basename: str
    dir_mode: DirMode
    directory: str


def _key(base: BaseKind, basename: str, prefix: str, suffix: str) -> tuple[KeyKind, str]:
    if base == "name":
        return "name", basename
    if not prefix and not suffix:
        return "rest", ""
    # The longer literal is the more selective; on a tie the suffix (an extension).
    if len(suffix) >= len(prefix):
        return "suffix", suffix
    return "prefix", prefix


def _base(basename: str) -> tuple[BaseKind, str, str]:
    if basename in ("", "**"):
        return "none", "", ""
    if _is_literal(basename):
        return "name", "", ""
    if basename == "*":
        return "any", "", ""
    star = basename.find("*")
    if star >= 0 and basename.count("*") == 1:
        prefix, suffix = basename[:star], basename[star + 1 :]
        if _is_literal(prefix) and _is_literal(suffix):
            kind: BaseKind = "prefix_suffix" if prefix and suffix else ("prefix" if prefix else "suffix")
            return kind, prefix, suffix
    return "regex", _leading_literal(basename), _trailing_literal(basename)


def _literal_prefix(alternative: str) -> str:
    """The literal directory an alternative starts with (``src/api/`` of ``src/api/*.ts``)."""
    end = len(alternative)
    for index, char in enumerate(alternative):
        if char in "*?[\\":
            end = index
            break
    head = alternative[:end]
    slash = head.rfind("/")
    # wcmatch reads ``a//b`` as ``a/b``; the prefix must too, or it never matches.
    return _SLASHES.sub("/", head[: slash + 1]) if slash >= 0 else ""


def _dir_mode(directory: str) -> tuple[DirMode, str] | None:
    """The mode of a directory part ending in ``/`` ('' for none), or ``None`` when generic."""
    if directory in ("", "**/"):
        return "float", ""
    head, under = (directory[:-3], True) if directory.endswith("/**/") else (directory, False)
    seg = head.startswith("**/")
    literal = head[3:] if seg else head
    if not literal or literal.startswith("/") or not _is_literal(literal):
        return None
    if seg:
        return ("seg_under" if under else "seg_child"), literal
    return ("under" if under else "child"), literal


def _generic(alternative: str, text: str) -> Shape:
    last = text.rstrip("/").rsplit("/", 1)[-1]
    base, prefix, suffix = _base(last)
    kind: KeyKind
    if base in ("none", "any") or text.endswith("/"):
        kind, key = "rest", ""
    else:
        kind, key = _key(base, last, prefix, suffix)
    return Shape(alternative, kind, key, "none", "", "", last, "generic", _literal_prefix(text))


# The commonest shapes in one match: an optional ``**/`` or literal directory (then
# optionally ``**/``), and a ``*suffix`` or literal name.
_COMMON = LazyRegex(
    r"(?:(\*\*/)|([^*?\[\]\\{}/][^*?\[\]\\{}]*/)(\*\*/)?)?(?:\*([^*?\[\]\\{}/]+)|([^*?\[\]\\{}/]+))"
)


def shape_of(alternative: str) -> Shape:
    """The shape of one brace alternative (see the module docstring).

    Args:
        alternative: A glob without live braces (from ``alternatives``).

    Returns:
        Its shape; anything unusual (escapes, wildcards in a directory) is ``generic``.
    """
    common = _COMMON.fullmatch(alternative) if "//" not in alternative else None
    if common is not None:
        _anywhere, directory, below, suffix, name = common.groups()
        where: DirMode = "float" if directory is None else ("under" if below else "child")
        if suffix is not None:
            return Shape(alternative, "suffix", suffix, "suffix", "", suffix, "*" + suffix, where,
                         directory or "")
        return Shape(alternative, "name", name, "name", "", "", name, where, directory or "")
    if "\\" in alternative:
        return _generic(alternative, alternative)
    text = _SLASHES.sub("/", alternative) if "//" in alternative else alternative
    if text == "**":
        return Shape(alternative, "rest", "", "none", "", "", "**", "everything", "")
    slash = text.rfind("/")
    directory, basename = text[: slash + 1], text[slash + 1 :]
    if basename == "**":
        mode = _dir_mode(directory)
        if mode is not None and mode[0] in ("child", "seg_child"):
            all_under: DirMode = "all_under" if mode[0] == "child" else "seg_all_under"
            return Shape(alternative, "rest", "", "none", "", "", basename, all_under, mode[1])
        return _generic(alternative, text)
    base, prefix, suffix = _base(basename)
    mode = _dir_mode(directory) if base != "none" else None
    if mode is None:
        return _generic(alternative, text)
    kind, key = _key(base, basename, prefix, suffix)
    return Shape(alternative, kind, key, base, prefix, suffix, basename, mode[0], mode[1])


def translate(alternative: str) -> str | None:
    """wcmatch's regex for one brace alternative (``None`` when wcmatch refuses it)."""
    include = translations(alternative)
    if not include:
        return None
    return include[0] if len(include) == 1 else "|".join(f"(?:{part})" for part in include)


def translations(alternative: str) -> list[str]:
    """wcmatch's regexes for one brace alternative, any of which matches (none when wcmatch refuses it).

    In a process that called ``before_wcmatch`` (a hook's), answered from ``TRANSLATED`` when it holds
    the alternative, and what wcmatch answers is kept there.
    """
    if _HOOKED:
        known = TRANSLATED.get(alternative)
        if known is None and _HOOKED[0] is not None:
            load, _HOOKED[0] = _HOOKED[0], None
            load()
            known = TRANSLATED.get(alternative)
        if known is not None:
            return list(known)
    from wcmatch import glob as wcglob

    flags = wcglob.GLOBSTAR | wcglob.DOTGLOB  # ``ALTERNATIVE_FLAGS``: its braces are already expanded
    try:
        include, _exclude = wcglob.translate(alternative, flags=flags)
    except Exception:
        include = []
    if _HOOKED:
        TRANSLATED.setdefault(alternative, tuple(include))
    return list(include)


TRANSLATED: LruCache[str, tuple[str, ...]] = LruCache(8192)
"""wcmatch's regexes per alternative, as ``translations`` gives them, in a hook process (bounded). The
hook fills it from the state directory's copy (``hosts._core.glob_cache``): importing
``wcmatch.glob`` costs a cold start ~10 ms, and most cold starts follow an edit that left the globs as
they were. A long-lived process keeps none: ``_re2``'s cache serves it, and a second copy of a large
rule set's translations would only hold memory."""

_HOOKED: list[Callable[[], None] | None] = []
"""Empty until ``before_wcmatch``; then the loader, until it has run."""


def before_wcmatch(load: Callable[[], None]) -> None:
    """Keep translations in ``TRANSLATED``, and have ``load`` called once, at the first alternative it
    lacks (before wcmatch is imported): a hook reads its saved translations then, and a rule set whose
    globs need none never reads them."""
    _HOOKED[:] = [load]


Place = Literal["anywhere", "root", "child", "under", "seg_child", "seg_under"]
"""Where an alternative lets a path be, as the glob table reads it (``_kernel.globtable``)."""


def placement(shape: Shape, bare_anywhere: bool) -> tuple[Place, str]:
    """The place (and its literal directory) an alternative is filed and decided by.

    Args:
        shape: The alternative's shape.
        bare_anywhere: Whether a glob without ``/`` matches a file name anywhere (else in
            the project root only; see ``GlobIndex``).

    Returns:
        ``(place, directory)``; the directory ends in ``/`` ('' for ``anywhere`` and ``root``).
    """
    mode = shape.dir_mode
    if not bare_anywhere and mode != "everything" and "/" not in shape.alternative:
        return "root", ""  # a glob without '/' read against the relative path: root files only
    relative = bool(shape.directory) and not shape.directory.startswith("/")
    if mode in ("float", "everything") or (mode == "generic" and not relative):
        return "anywhere", ""
    if mode in ("under", "all_under", "generic"):
        # A generic alternative with a literal relative prefix can only match paths under it.
        return "under", shape.directory
    if mode == "child":
        return "child", shape.directory
    return ("seg_child" if mode == "seg_child" else "seg_under"), shape.directory


def test_of(shape: Shape) -> str:
    """What key and place leave open for an alternative: the glob table's ``test`` (see there)."""
    if shape.dir_mode == "generic":
        if shape.directory and not shape.directory.startswith("/"):
            return "rel"  # a literal relative prefix: only the relative spelling can match
        alternative = shape.alternative
        return "bare" if "\\" in alternative or "/" not in alternative.lstrip("*/") else "any"
    if shape.base == "regex":
        return "name"
    return "affix" if shape.base == "prefix_suffix" else ""
