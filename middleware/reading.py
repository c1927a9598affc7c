"""Safe, bounded reads of files nobody vetted.

A read never raises and never pulls more than the cap into memory: an
unreadable, binary, non-UTF-8 or oversized file comes back as a warning
(and, for an oversized file, its first ``limit`` bytes).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class ReadResult:
    """What a bounded read produced.

    Attributes:
        text: The decoded text, or ``None`` when nothing usable was read.
        problem: One sentence describing why the file was skipped or cut.
        oversized: The file was longer than the cap and only its head was read.
    """

    text: str | None
    problem: str | None = None
    oversized: bool = False


def cut_utf8(data: bytes, limit: int) -> bytes:
    """``data`` cut to at most ``limit`` bytes at a UTF-8 character boundary."""
    if len(data) <= limit:
        return data
    end = limit
    # Step back over continuation bytes (10xxxxxx) so no character is split.
    while end > 0 and (data[end] & 0xC0) == 0x80:
        end -= 1
    return data[:end]


def truncate_text(text: str, limit: int) -> tuple[str, int]:
    """``text`` cut to at most ``limit`` UTF-8 bytes; returns it and the bytes dropped."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text, 0
    kept = cut_utf8(data, limit)
    return kept.decode("utf-8"), len(data) - len(kept)


def read_text(path: Path, limit: int) -> ReadResult:
    """Read ``path`` as UTF-8 text, at most ``limit`` bytes of it.

    Args:
        path: The file to read.
        limit: The most bytes to read.

    Returns:
        A ``ReadResult``; ``text`` is ``None`` when the file is unreadable,
        binary or not UTF-8.
    """
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except IsADirectoryError:
        return ReadResult(None, "is a directory, not a file")
    except OSError as exc:
        return ReadResult(None, f"cannot be read ({exc.strerror or exc.__class__.__name__})")
    oversized = len(data) > limit
    if oversized:
        data = cut_utf8(data, limit)
    if b"\x00" in data:
        return ReadResult(None, "looks binary (it contains NUL bytes) and was skipped")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return ReadResult(None, "is not valid UTF-8 and was skipped")
    problem = f"is larger than {limit} bytes; only the first {limit} were read" if oversized else None
    return ReadResult(text, problem, oversized)
