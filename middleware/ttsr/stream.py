"""Per-stream text handling: decoding a tool call's streamed JSON arguments.

A tool call's arguments stream as JSON text (``{"content": "def f():\\n..."}``),
so the code inside arrives with its newlines and quotes escaped, and a
pattern such as ``(?m)^\\s*except\\s*:`` would never see a line start. A
tool stream whose first non-blank character is ``{`` or ``[`` is therefore
decoded as it streams: escapes inside JSON strings become the characters
they stand for (an escape split across deltas is held back until complete),
and everything else passes through unchanged. A tool stream that does not
start like JSON is taken as plain text.
"""

from __future__ import annotations

import re
from json import decoder
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

# The C string scanner json.loads uses (json.decoder picks it; typeshed does not list it there).
_scanstring: Callable[[str, int, bool], tuple[str, int]] = decoder.scanstring  # type: ignore[attr-defined]

_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/", "\\": "\\", '"': '"'}
_REPLACEMENT = "\ufffd"
# A JSON string's body from where it is matched: it stops at the closing quote, at a backslash
# that ends the text (its escape is still streaming), or at the end. One C scan per delta
# instead of a Python step per character.
_BODY = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*', re.DOTALL)


def _unescaped(body: str) -> str | None:
    """A string body's escapes decoded in C, or ``None`` when it needs the careful decoder.

    ``\\u`` escapes (which may be cut, or half of a surrogate pair) and escapes JSON does
    not know are left to ``JsonTextDecoder._careful``.
    """
    if "\\u" in body:
        return None
    try:
        return _scanstring(body + '"', 0, False)[0]
    except ValueError:
        return None


def _hex(text: str) -> int | None:
    try:
        return int(text, 16) if len(text) == 4 else None
    except ValueError:
        return None


class JsonTextDecoder:
    """Decodes the string escapes of a JSON document streamed in pieces.

    Each ``feed`` costs time linear in its delta (plus at most 11 held-back
    characters), never in what came before.
    """

    __slots__ = ("_in_string", "_mode", "_pending")

    def __init__(self) -> None:
        self._mode: str | None = None
        self._in_string = False
        self._pending = ""

    def feed(self, delta: str) -> str:
        """Decode the next piece of the stream.

        Args:
            delta: The next characters as the model produced them.

        Returns:
            The decoded characters that are complete so far.
        """
        if self._mode is None:
            stripped = delta.lstrip()
            if not stripped:
                return delta
            self._mode = "json" if stripped[0] in "{[" else "raw"
        if self._mode == "raw":
            return delta
        if not self._pending:
            if "\\" not in delta and '"' not in delta:
                return delta
            if self._in_string and _BODY.fullmatch(delta) is not None:  # most deltas of a long value
                decoded = _unescaped(delta)
                if decoded is not None:
                    return decoded
        return self._decode(self._pending + delta)

    def _decode(self, text: str) -> str:
        self._pending = ""
        out: list[str] = []
        index, size = 0, len(text)
        while index < size:
            if not self._in_string:
                quote = text.find('"', index)
                if quote < 0:
                    out.append(text[index:])
                    break
                out.append(text[index : quote + 1])
                self._in_string = True
                index = quote + 1
                continue
            match = _BODY.match(text, index)
            end = match.end() if match is not None else index
            body = text[index:end]
            if "\\" in body:
                decoded = _unescaped(body)
                if decoded is None:
                    out.append(self._careful(text, index))
                    break
                body = decoded
            out.append(body)
            if end == size:
                break
            if text[end] == '"':
                out.append('"')
                self._in_string = False
                index = end + 1
            else:  # a backslash ending the text: its escape completes in the next delta
                self._pending = text[end:]
                break
        return "".join(out)

    def _careful(self, text: str, index: int) -> str:
        """Decode ``text`` from ``index`` (inside a string) one escape at a time, holding back a cut one."""
        out: list[str] = []
        size = len(text)
        while index < size:
            char = text[index]
            if not self._in_string:
                quote = text.find('"', index)
                if quote < 0:
                    out.append(text[index:])
                    break
                out.append(text[index : quote + 1])
                self._in_string = True
                index = quote + 1
                continue
            if char == '"':
                self._in_string = False
                out.append(char)
                index += 1
                continue
            if char != "\\":
                stop = min((p for p in (text.find("\\", index), text.find('"', index)) if p >= 0),
                           default=size)
                out.append(text[index:stop])
                index = stop
                continue
            decoded, used = self._escape(text, index)
            if used == 0:
                self._pending = text[index:]
                break
            out.append(decoded)
            index += used
        return "".join(out)

    @staticmethod
    def _escape(text: str, index: int) -> tuple[str, int]:
        """Decode the escape at ``index``: ``(text, characters used)``; 0 used = incomplete."""
        size = len(text)
        if index + 1 >= size:
            return "", 0
        kind = text[index + 1]
        if kind != "u":
            return _SIMPLE.get(kind, kind), 2
        if index + 6 > size:
            return "", 0
        code = _hex(text[index + 2 : index + 6])
        if code is None:
            return text[index : index + 6], 6
        if 0xD800 <= code < 0xDC00:
            if index + 12 > size:
                tail = text[index + 6 :]
                if "\\u".startswith(tail[:2]) or tail.startswith("\\u"):
                    return "", 0
                return _REPLACEMENT, 6
            second = text[index + 6 : index + 12]
            low = _hex(second[2:]) if second.startswith("\\u") else None
            if low is not None and 0xDC00 <= low < 0xE000:
                return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)), 12
            return _REPLACEMENT, 6
        if 0xDC00 <= code < 0xE000:
            return _REPLACEMENT, 6
        return chr(code), 6


class JsonPrefix:
    """``complete_prefix`` fed piece by piece: each ``feed`` costs time linear in its delta.

    The scanner keeps where the document starts, whether it is inside a string
    or an escape, the open containers and the last cut. Remembering the stack
    at a cut is O(1) whatever the nesting: a pop only lowers ``depth`` and keeps
    the entry, and since every push is itself a cut, the entries below the
    depth of the last cut are still those it saw. ``completed(text)`` then
    spells out the parseable document from the whole text fed so far.
    """

    __slots__ = ("_closed", "_closers", "_cut", "_cut_depth", "_depth", "_escaped", "_in_string",
                 "_offset", "_start")

    def __init__(self) -> None:
        self._offset = 0
        self._start = -1  # index of the opening bracket; -2: the text does not start like JSON
        self._closers: list[str] = []
        self._depth = 0
        self._cut = 0
        self._cut_depth = 0
        self._closed = -1
        self._in_string = self._escaped = False

    def feed(self, delta: str) -> None:
        """Scan the next piece of the text."""
        base, self._offset = self._offset, self._offset + len(delta)
        if self._in_string and not self._escaped and _BODY.fullmatch(delta) is not None:
            return  # the whole delta is inside a string value (most deltas of a long one)
        if self._start == -2 or self._closed >= 0:
            return
        first = 0
        if self._start == -1:
            while first < len(delta) and delta[first].isspace():
                first += 1
            if first == len(delta):
                return
            if delta[first] not in "{[":
                self._start = -2
                return
            self._start = self._cut = base + first
        closers, depth, cut, cut_depth = self._closers, self._depth, self._cut, self._cut_depth
        in_string, escaped = self._in_string, self._escaped
        index, size = first, len(delta)
        while index < size:
            if in_string:
                if escaped:
                    escaped = False
                    index += 1
                    continue
                match = _BODY.match(delta, index)  # to the closing quote in one step
                end = match.end() if match is not None else index
                if end == size:
                    break
                in_string = delta[end] != '"'
                escaped = in_string  # else a backslash ends the delta: it escapes the next one's first
                index = end + 1
                continue
            char = delta[index]
            index += 1
            if char == '"':
                in_string = True
            elif char in "{[":
                closer = "}" if char == "{" else "]"
                if depth < len(closers):
                    closers[depth] = closer
                else:
                    closers.append(closer)
                depth += 1
                cut, cut_depth = base + index, depth
            elif char in "}]":
                depth = max(depth - 1, 0)
                if depth == 0:
                    self._closed = base + index - 1
                    break
            elif char == ",":
                cut, cut_depth = base + index - 1, depth
        self._depth, self._cut, self._cut_depth = depth, cut, cut_depth
        self._in_string, self._escaped = in_string, escaped

    @property
    def mark(self) -> tuple[int, int] | None:
        """Changes exactly when ``completed`` would spell a different document (``None``: not JSON yet).

        The completed document is the text up to the last cut (or the closing
        bracket) plus the closers open there, so it changes only when a member
        ends, a container opens or the document closes: a reader that parsed it
        at one mark need not parse it again until the mark moves.
        """
        if self._start < 0:
            return None
        return self._cut, self._closed

    def completed(self, text: str) -> str | None:
        """The parseable document of ``text`` (everything fed so far), or ``None`` if not JSON-like."""
        if self._start < 0:
            return None
        if self._closed >= 0:
            return text[self._start : self._closed + 1]
        return text[self._start : self._cut] + "".join(reversed(self._closers[: self._cut_depth]))


def complete_prefix(text: str) -> str | None:
    """A parseable JSON document from a streamed prefix: its complete members only.

    ``{"file_path": "a.py", "content": "def f(`` → ``{"file_path": "a.py"}``.
    The prefix is cut after the last member that ended (at a ``,`` outside
    strings) or right after the last ``{``/``[`` opened, and the containers
    still open there are closed. A member still streaming is dropped rather
    than guessed at, so a half-written path is never taken for a path.
    Linear in the text, whatever its nesting (``JsonPrefix`` does the work).

    Args:
        text: The argument text streamed so far.

    Returns:
        The completed document, or ``None`` when the text does not start an
        object or array.
    """
    scanner = JsonPrefix()
    scanner.feed(text)
    return scanner.completed(text)
