"""Markdown scanning for instruction files: code fences, code spans, HTML comments, ``@path``.

Only what the blob needs, and linear in the text: fences (any indent, so a
fence inside a list item counts), indented code blocks (four columns past the
enclosing list item's content, after a blank line, a heading or more indented
code, never interrupting a paragraph, as CommonMark has them), inline code
spans (a backtick run up to the next run of the same length), HTML comments
(may span lines; a ``<!--`` that is never closed is text), and import tokens
(``@`` at the start of a line or after whitespace, so ``a@b.com`` is not one).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ruleweave._text.controls import strip_controls
from ruleweave._text.lazy_regex import LazyRegex

_FENCE_OPEN = LazyRegex(r"^[ \t]*(`{3,}|~{3,})(.*)$")
_FENCE_CLOSE = LazyRegex(r"^[ \t]*(`{3,}|~{3,})[ \t]*$")
_TICKS = LazyRegex(r"`+")
_IMPORT = LazyRegex(r"(?<!\S)@([\w.~/+\-@%]+)")
_EXTENSION = LazyRegex(r"\.[A-Za-z0-9]{1,8}$")
_LIST_ITEM = LazyRegex(r"^( {0,3})([-+*]|\d{1,9}[.)])([ \t]*)(?=\S|$)")
_HEADING = LazyRegex(r"^ {0,3}#{1,6}(?:[ \t]|$)")


def _columns(line: str) -> int:
    """The width of a line's indentation, a tab reaching the next multiple of four."""
    width = 0
    for char in line:
        if char == " ":
            width += 1
        elif char == "\t":
            width += 4 - width % 4
        else:
            break
    return width


def _content_column(match: re.Match[str]) -> int:
    """Where a list item's content starts (CommonMark: 1 to 4 spaces after the marker)."""
    spaces = len(match.group(3).expandtabs(4))
    return len(match.group(1)) + len(match.group(2)) + (spaces if 1 <= spaces <= 4 else 1)


def _fence_open(line: str) -> str | None:
    match = _FENCE_OPEN.match(line)
    if match is None or (match.group(1)[0] == "`" and "`" in match.group(2)):
        return None
    return match.group(1)


def _fence_closes(line: str, run: str) -> bool:
    match = _FENCE_CLOSE.match(line)
    return match is not None and match.group(1)[0] == run[0] and len(match.group(1)) >= len(run)


def _code_spans(line: str) -> list[tuple[int, int]]:
    """Inline code spans of one line: a backtick run up to the next run of the same length."""
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(line)]
    by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(runs):
        start, end = runs[index]
        same = by_length[end - start]
        later = bisect_right(same, index)
        if later < len(same):
            spans.append((start, runs[same[later]][1]))
            index = same[later] + 1
        else:
            index += 1
    return spans


def _strip_line(line: str, closes_later: bool) -> tuple[str, bool]:
    """``line`` without its HTML comments; True when a comment stays open past it."""
    spans = _code_spans(line)
    pieces: list[str] = []
    pos = span = 0
    while (opener := line.find("<!--", pos)) >= 0:
        while span < len(spans) and spans[span][1] <= opener:
            span += 1
        if span < len(spans) and spans[span][0] <= opener:
            pieces.append(line[pos : spans[span][1]])
            pos = spans[span][1]
            continue
        end = line.find("-->", opener + 4)
        if end < 0:
            if closes_later:
                pieces.append(line[pos:opener])
                return "".join(pieces), True
            break  # never closed anywhere: literal text, like the rest of the line
        pieces.append(line[pos:opener])
        pos = end + 3
    pieces.append(line[pos:])
    return "".join(pieces), False


def strip_comments(text: str) -> list[tuple[int, str, bool]]:
    """Lines of ``text`` without HTML comments: (1-based line number, text, is code).

    Comments may span lines; fenced code is kept verbatim; a ``<!--`` that is
    never closed is ordinary text; runs of blank lines outside code become one.
    """
    last_close = text.rfind("-->")
    out: list[tuple[int, str, bool]] = []
    fence: str | None = None
    in_comment = False
    offset = 0
    block_may_start = True  # the line before was blank, a heading, code, or there was none
    after_blank = True
    list_column = 0  # content column of the list item the text is in (0: none)
    for number, line in enumerate(text.split("\n"), 1):
        offset += len(line) + 1
        closes_later = last_close >= offset
        blank = not line.strip()
        may_start, was_blank = block_may_start, after_blank
        block_may_start, after_blank = blank or _HEADING.match(line) is not None, blank
        if not blank and not in_comment and fence is None:
            item = _LIST_ITEM.match(line)
            if item is not None and _columns(line) < list_column + 4:
                list_column = _content_column(item)
            elif was_blank and _columns(line) < list_column:
                list_column = 0  # a paragraph less indented than the item's content ends the list
        if in_comment:
            end = line.find("-->")
            if end < 0:
                continue
            rest, in_comment = _strip_line(line[end + 3 :], closes_later)
            kept: str | None = rest if rest.strip() else None
        elif fence is not None:
            out.append((number, line, True))
            if _fence_closes(line, fence):
                fence = None
                block_may_start = True
            continue
        elif (run := _fence_open(line)) is not None:
            fence = run
            out.append((number, line, True))
            continue
        elif not blank and may_start and _columns(line) >= list_column + 4:
            out.append((number, line, True))  # an indented code block: verbatim, no imports
            block_may_start = True
            continue
        else:
            stripped, in_comment = _strip_line(line, closes_later)
            kept = stripped if stripped.strip() or not line.strip() else None
        if kept is None:
            continue
        if not kept.strip():
            if not out or (not out[-1][2] and not out[-1][1].strip()):
                continue
            kept = ""
        out.append((number, kept.rstrip(), False))
    return out


def plain_prose(text: str, *, imports: bool) -> bool:
    """Whether ``strip_comments`` would hand back every line of ``text`` unchanged, with nothing
    for ``expand`` to do: no HTML comment, no ``@`` (or imports off), no blank run, leading blank
    line or trailing blanks. Such text (most rule and instruction bodies) needs no scan for code.
    """
    if "<!--" in text or (imports and "@" in text) or text.startswith("\n") or "\n\n\n" in text:
        return False
    # ``rstrip`` as ``strip_comments`` has it (Unicode blanks too); faster than a regex scan.
    return all(line == line.rstrip() for line in text.split("\n"))


def import_spans(line: str) -> list[tuple[int, int, str]]:
    """Each ``@path`` token of a prose line outside its code spans: ``(start, end, path)``.

    ``start`` is the ``@``; ``end`` is past the path, trailing punctuation excluded.
    """
    pieces: list[str] = []
    pos = 0
    for start, end in _code_spans(line):
        pieces += (line[pos:start], " " * (end - start))
        pos = end
    pieces.append(line[pos:])
    spans = []
    for match in _IMPORT.finditer("".join(pieces)):
        token = match.group(1).rstrip(".,;:!?")
        if token:
            spans.append((match.start(), match.start(1) + len(token), token))
    return spans


def import_tokens(line: str) -> list[str]:
    """The ``@path`` tokens of a prose line, outside its code spans."""
    return [token for _, _, token in import_spans(line)]


def path_like(token: str) -> bool:
    """Whether a token plainly names a file: ``./``, ``../``, ``/`` or ``~/`` ahead, or an extension.

    Anything else (``@alice``, ``@dataclass``, the npm scope ``@cline/llms``) is an
    import only when that file exists, and otherwise plain text without a warning.
    """
    return token.startswith(("./", "../", "/", "~/")) or _EXTENSION.search(token) is not None


def normalise_text(text: str) -> str:
    """``text`` without a leading BOM, with ``\\n`` line ends."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def one_line_folded(text: str) -> str:
    """``text`` on one line, whitespace runs folded to one space, control, bidi and zero-width
    characters dropped."""
    return " ".join(strip_controls(text).split())
