"""wcmatch's regex for one glob alternative, rewritten for RE2: exact on normalised paths.

RE2 matches in time linear in the path; Python's ``re`` backtracks, and on
wcmatch's regex for ``**/a/**/a/**/a/**/a/**/a/**/a/**/c/**/b`` a 121-character
path of ``a/`` segments takes minutes. RE2 has no lookarounds, and wcmatch uses
them to keep a wildcard out of ``.``/``..`` segments and empty segments, and to
require a ``/`` before and after a ``**``. On a *normalised* spelling — no
``//``, no ``.`` or ``..`` segment, no trailing ``/`` (what ``PathSpellings``
and the hook give; a bare file name is one) — each has an exact RE2 form:

==========================================  =======================================================
wcmatch emits                               RE2 form
==========================================  =======================================================
``(?!\\.{1,2}(?:$|[/]))`` and the like      dropped: no segment is ``.`` or ``..``
(not a ``.``/``..`` segment)
``**``'s ``(?:(?!…).)*?``                   ``.*?``, for the same reason
``(?![/])`` before ``.`` or a class         ``[^/]``, or the class without ``/``
``(?=[^/])`` before a segment-opening ``*`` dropped when the segment has a character to match
                                            besides its stars, else the star is ``[^/]+?``
``(?=[/])`` ``**`` ``(?:^|[/]+)``           ``[/](?:.*?[/]+)?`` (a ``/``, then whole directories)
``(?=[/])`` ``**`` ``(?:^|$|[/]+)`` (end)   ``[/].*?``; with ``(?<=[/])`` (``a/**/``) ``[/](?:.*?[/])?``
a leading ``**`` ``(?:^|$|[/]+)(?<=[/])``   ``.*?[/]``
``(?>…)`` (atomic)                          ``(?:…)``: wcmatch makes a group atomic only where
                                            the first match is as good as any
``(?!)``                                    ``\\b\\B`` (never)
==========================================  =======================================================

Anything else wcmatch might emit is not rewritten: ``re2_pattern`` says ``None``
and the caller keeps wcmatch's regex (Python ``re``) for that glob.
``tests/test_glob_match.py`` and ``tests/test_globs.py`` pin the forms against
``wcmatch.glob.globmatch``.
"""

from __future__ import annotations

from functools import lru_cache

from ruleweave._kernel.globtable import stand_in
from ruleweave.globs._shapes import translations

# wcmatch's building blocks for a Unix path pattern with GLOBSTAR | DOTGLOB (``_wcparse``).
_NOT_DOT_SEGMENT = (r"(?!(?:(?<=[/])|(?<=^))(?:\.{1,2})(?:$|[/]))", r"(?!\.{1,2}(?:$|[/]))")
_TOKENS = (
    ("gstar", r"(?:(?!(?:[/]|^)(?:\.{1,2})(?:$|[/])).)*?"),
    ("div", r"(?:^|$|[/]+)"),
    ("div_dir", r"(?:^|[/]+)"),
    ("need_sep", r"(?=[/])"),
    ("need_dir", r"(?<=[/])"),
    ("need_char", r"(?=[^/])"),
    ("no_slash", r"(?![/])"),
    ("never", r"(?!)"),
    ("open", r"(?>"),
    ("sep", r"[/]+"),
    ("trail", r"[/]*?"),
    ("star", r"[^/]*?"),
    ("any_char", r"[\s\S]"),
)
_META = frozenset("()[]{}*+?|^$.")
_BOUNDARY = frozenset({"sep", "trail", "need_sep", "need_dir", "div", "div_dir", "gstar"})
_NEVER = r"\b\B"
_GLOBSTARS = {  # (after a directory, divider, the pattern ends with '/') -> RE2 form
    (True, "div_dir", False): "[/](?:.*?[/]+)?",
    (True, "div", False): "[/].*?",
    (True, "div", True): "[/](?:.*?[/])?",
    (False, "div_dir", False): "(?:.*?(?:^|[/]+))",
    (False, "div", False): "(?:.*?(?:^|$|[/]+))",
    (False, "div", True): ".*?[/]",
}
_SLASH = 0x2F


def re2_pattern(alternative: str) -> str | None:
    """An RE2 pattern matching exactly the normalised spellings wcmatch matches with ``alternative``.

    Cached process-wide (bounded, immutable values): rule sets loaded again in one
    process, and the TTSR path gates, share their translations.

    Args:
        alternative: One brace alternative of a glob.

    Returns:
        The pattern, or ``None`` when wcmatch refuses the glob or emits what this module
        does not rewrite (the caller then matches with wcmatch's own regex).
    """
    return _cached(alternative)


@lru_cache(maxsize=4096)
def _cached(alternative: str) -> str | None:
    forms = [rewrite(regex) for regex in translations(alternative)]
    if not forms or any(form is None for form in forms):
        return None
    return forms[0] if len(forms) == 1 else "|".join(f"(?:{form})" for form in forms)


def rewrite(regex: str) -> str | None:
    """One of wcmatch's regexes (``^(?s:…)$``) in RE2 form, or ``None`` when it cannot be."""
    for head in ("^(?s:", "^(?si:"):
        if regex.startswith(head) and regex.endswith(")$"):
            body = _body(regex[len(head) : -2])
            return None if body is None else f"{head}{body})$"
    return None


def _class_end(regex: str, start: int) -> int:
    """The index just past the class opened at ``start``."""
    index = start + 1
    if index < len(regex) and regex[index] == "^":
        index += 1
    if index < len(regex) and regex[index] == "]":
        index += 1
    while index < len(regex):
        char = regex[index]
        if char == "\\":
            index += 2
            continue
        if char == "]":
            return index + 1
        index += 1
    return len(regex)


def _tokens(body: str) -> list[tuple[str, str]] | None:
    """wcmatch's body as ``(kind, text)`` tokens; ``None`` at anything unknown."""
    out: list[tuple[str, str]] = []
    opened = 0
    index = 0
    length = len(body)
    while index < length:
        skipped = next((t for t in _NOT_DOT_SEGMENT if body.startswith(t, index)), None)
        if skipped is not None:  # a normalised path has no '.' or '..' segment to keep out
            index += len(skipped)
            continue
        found = next(((kind, text) for kind, text in _TOKENS if body.startswith(text, index)), None)
        if found is not None:
            opened += found[0] == "open"
            out.append(found)
            index += len(found[1])
            continue
        char = body[index]
        if char == ")" and opened:
            opened -= 1
            out.append(("close", ")"))
            index += 1
        elif char == "\\" and index + 1 < length and not body[index + 1].isalnum():
            out.append(("char", _literal(body[index + 1])))
            index += 2
        elif char == "[":
            end = _class_end(body, index)
            out.append(("class", body[index:end]))
            index = end
        elif char == ".":
            out.append(("dot", char))
            index += 1
        elif char in _META or char == "\\" or char == "/":
            return None
        else:
            out.append(("char", _literal(char)))
            index += 1
    return out if not opened else None


def _literal(char: str) -> str:
    """One literal character as RE2 reads it whatever it is (``re.escape`` output, a lone surrogate)."""
    if char.isalnum() or char == "_":
        return char
    return f"\\x{{{stand_in(ord(char)):x}}}"


def _body(text: str) -> str | None:
    """The RE2 form of a wcmatch body (see the module docstring)."""
    tokens = _tokens(text)
    if tokens is None:
        return None
    # Pass 1: one character that is never '/' (``(?![/])`` and what it guards, or a literal).
    merged: list[tuple[str, str]] = []
    index = 0
    while index < len(tokens):
        kind, value = tokens[index]
        if kind == "no_slash":
            following = tokens[index + 1] if index + 1 < len(tokens) else ("", "")
            if following[0] == "dot" or following[0] == "any_char":
                merged.append(("char", "[^/]"))
            elif following[0] == "class":
                form = _class_without_slash(following[1])
                if form is None:
                    return None
                merged.append(("char", form) if form != _NEVER else ("never", _NEVER))
            elif following[0] == "never":
                merged.append(following)
            else:
                return None
            index += 2
            continue
        if kind in ("dot", "class", "any_char"):
            return None  # a wildcard character wcmatch did not keep off '/'
        if kind == "char" and value in ("/", "\\x{2f}"):
            return None
        merged.append((kind, value))
        index += 1
    return _assemble(merged)


def _assemble(tokens: list[tuple[str, str]]) -> str | None:
    """Pass 2: the lookarounds in context (see the module docstring)."""
    out: list[str] = []
    index = 0
    count = len(tokens)
    # Whether everything so far may have matched nothing at the start of the path: there,
    # ``(?:^|[/]+)`` may match nothing too (only before a '/', which the lookahead wants).
    at_start = True

    def at(offset: int) -> str:
        return tokens[index + offset][0] if index + offset < count else ""

    while index < count:
        kind, value = tokens[index]
        starting, at_start = at_start, False
        if kind == "need_char":
            if at(1) != "star":
                return None
            out.append("[^/]*?" if _segment_has_char(tokens, index + 2) else "[^/]+?")
            index += 2
        elif kind in ("need_sep", "gstar"):
            # A ``**``: after a directory (``need_sep``) or opening the pattern, its divider, and
            # ``need_dir`` when the pattern ends with ``/``.
            after = kind == "need_sep"
            if (after and at(1) != "gstar") or (not after and index != 0):
                return None
            div, ends_dir = at(1 + after), at(2 + after) == "need_dir"
            if (div, ends_dir or at(2 + after) in ("", "trail")) not in (("div", True), ("div_dir", False)):
                return None  # ``(?:^|$|[/]+)`` only ends a pattern, ``(?:^|[/]+)`` never does
            form = _GLOBSTARS[(after, div, ends_dir)]
            if after and div == "div_dir" and starting and at(3) in ("sep", "need_sep"):
                form = "(?:[/](?:.*?[/]+)?|^)"  # an escaped '/' after ``/**/`` at the very start
            out.append(form)
            at_start = form.endswith("|^)") or (not after and div == "div_dir")
            index += 2 + after + ends_dir
        elif kind in ("div", "div_dir", "need_dir"):
            return None
        elif kind == "open":
            out.append("(?:")
            at_start = starting
            index += 1
        else:
            out.append({"never": _NEVER, "star": "[^/]*?", "sep": "[/]+", "trail": "[/]*?"}.get(kind, value))
            index += 1
    return "".join(out)


def _segment_has_char(tokens: list[tuple[str, str]], start: int) -> bool:
    """Whether the segment going on at ``start`` still matches a character besides its stars."""
    for kind, _ in tokens[start:]:
        if kind in _BOUNDARY:
            return False
        if kind in ("char", "never"):
            return True
    return False


def _class_without_slash(text: str) -> str | None:
    """A wcmatch class (``[…]``, ``[^…]``) as an RE2 class that never matches ``/`` (``None``: unreadable)."""
    if text == r"[\s\S]":
        return "[^/]"
    negated = text.startswith("[^")
    ranges = _class_ranges(text[2 if negated else 1 : -1])
    if ranges is None:
        return None
    # The lone surrogates a range holds, as RE2 reads them in a path (``globtable.stand_in``).
    ranges += [
        (stand_in(max(lo, 0xD800)), stand_in(min(hi, 0xDFFF)))
        for lo, hi in ranges
        if lo <= 0xDFFF and hi >= 0xD800
    ]
    if negated:
        ranges.append((_SLASH, _SLASH))
    else:
        ranges = [part for lo, hi in ranges for part in _without(lo, hi, _SLASH)]
        if not ranges:
            return _NEVER
    items = "".join(f"\\x{{{lo:x}}}" if lo == hi else f"\\x{{{lo:x}}}-\\x{{{hi:x}}}" for lo, hi in ranges)
    return f"[{'^' if negated else ''}{items}]"


def _without(lo: int, hi: int, point: int) -> list[tuple[int, int]]:
    if not lo <= point <= hi:
        return [(lo, hi)]
    return [r for r in ((lo, point - 1), (point + 1, hi)) if r[0] <= r[1]]


def _class_ranges(inside: str) -> list[tuple[int, int]] | None:
    """The code point ranges of a class's inside, read as Python's ``re`` reads what wcmatch writes."""
    items: list[tuple[int, bool]] = []  # (code point, escaped)
    index = 0
    while index < len(inside):
        if inside[index] == "\\":
            if index + 1 >= len(inside) or inside[index + 1].isalnum():
                return None  # ``\d``, ``\x41``…: wcmatch writes none of these
            items.append((ord(inside[index + 1]), True))
            index += 2
        else:
            items.append((ord(inside[index]), False))
            index += 1
    ranges: list[tuple[int, int]] = []
    hyphen = (ord("-"), False)
    index = 0
    while index < len(items):
        lo = items[index][0]
        if index + 2 < len(items) and items[index + 1] == hyphen:
            hi = items[index + 2][0]
            if hi < lo:
                return None
            ranges.append((lo, hi))
            index += 3
        else:
            ranges.append((lo, lo))
            index += 1
    return ranges
