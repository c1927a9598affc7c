"""Clean, recoverable cuts: where a text over budget is cut, and the marker line that ends it.

A cut falls on a line boundary; inside a line longer than ``LONG_LINE``
bytes it falls on a word boundary instead (so one long paragraph does not
lose all of itself); it never falls inside a UTF-8 sequence. The kept text
ends with one marker line saying how many bytes were left out and where the
whole text is: ``rule://<name>`` for a rule, the file's path for an
instruction file. Nothing here does I/O.
"""

from __future__ import annotations

from ruleweave._files.reading import cut_utf8

LONG_LINE = 240
"""A line longer than this (in bytes) is cut at a word boundary rather than dropped whole."""

MARKER_PREFIX = "[ruleweave: "
"""How every marker line starts (rule bodies cannot forge it: ``prompt.escape_headers``)."""


def marker(where: str, dropped: int) -> bytes:
    """The line appended to a cut text (with its leading newline), UTF-8 encoded.

    Args:
        where: Where the whole text is (``rule://name`` or a path).
        dropped: Bytes left out.

    Returns:
        ``\\n[ruleweave: N bytes left out; whole text at WHERE]``.
    """
    return f"\n{MARKER_PREFIX}{dropped} bytes left out; whole text at {where}]".encode()


def clean_cut(data: bytes, room: int) -> bytes:
    """The longest clean prefix of ``data`` no longer than ``room`` bytes, trailing blanks removed.

    Args:
        data: UTF-8 text.
        room: Bytes available.

    Returns:
        ``data`` whole when it fits; else a prefix ending at a line boundary, or at a
        word boundary when the line cut through is longer than ``LONG_LINE`` (or at a
        character boundary when that line has no blank).
    """
    if len(data) <= room:
        return data
    kept = cut_utf8(data, room)
    if data[len(kept) : len(kept) + 1] == b"\n":
        return kept.rstrip()
    line_start = kept.rfind(b"\n") + 1
    if line_start and len(kept) - line_start <= LONG_LINE:
        return kept[:line_start].rstrip()
    space = max(kept.rfind(b" ", line_start), kept.rfind(b"\t", line_start))
    if space > line_start:
        return kept[:space].rstrip()
    return kept


def cut_to_share(body: bytes, share: int, where: str) -> tuple[bytes, int] | None:
    """``body`` cut cleanly so that it and its marker fit ``share``.

    Args:
        body: The UTF-8 text to cut.
        share: Bytes it may take, marker included.
        where: Where the whole text is, for the marker.

    Returns:
        ``(kept text + marker, bytes dropped)``, or None when not even the marker fits.
    """
    room = share - len(marker(where, len(body)))  # the widest marker this body can need
    if room < 0:
        return None
    kept = clean_cut(body, room)
    dropped = len(body) - len(kept)
    return kept + marker(where, dropped), dropped
