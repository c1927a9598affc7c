"""Safe, bounded reads of files nobody vetted: the one reader every read of the product uses.

A read never raises, never blocks and never pulls more than the cap into
memory. Only regular files are read: a FIFO, a socket or a device
(``/dev/zero``, a terminal) is refused before it is opened, and the file is
opened non-blocking and checked again once open, so a file swapped for a FIFO
in between cannot hang the caller either. An unreadable, binary, non-UTF-8 or
oversized file comes back as a problem (and, for an oversized file, its first
``limit`` bytes, unless the caller needs the whole file).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import NamedTuple

# Non-blocking (a FIFO swapped in opens at once), no controlling terminal, not inherited.
_OPEN_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
)
_CHUNK = 1 << 20


class ReadResult(NamedTuple):
    """What a bounded read produced.

    NamedTuple, not dataclass: the class is ~5× cheaper to create in a hook process (one per tool call).

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


def _not_regular(mode: int) -> str | None:
    """Why a file of this mode is not read, or ``None`` for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        kind = "a FIFO"
    elif stat.S_ISSOCK(mode):
        kind = "a socket"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        kind = "a device"
    else:
        kind = "not a regular file"
    return f"is {kind}, not a regular file, and was not read"


def _read_fd(fd: int, most: int, size: int = -1) -> bytes:
    """At most ``most`` bytes from ``fd``, in chunks (a short read is not the end).

    ``size`` is what ``fstat`` said the file holds: once that much is read the
    read stops (no second call just to meet the end of a small file).
    """
    chunks: list[bytes] = []
    left = most
    got = 0
    # os.read allocates what it is asked for: ask a small file for its size, not a chunk.
    step = min(size, _CHUNK) if size > 0 else _CHUNK
    while left > 0:
        data = os.read(fd, min(left, step))
        step = _CHUNK
        if not data:
            break
        chunks.append(data)
        left -= len(data)
        got += len(data)
        if got == size:
            break
    return b"".join(chunks)


def read_bytes(
    path: Path | str, limit: int, *, whole: bool = False, regular: bool = False
) -> tuple[bytes | None, str | None, bool]:
    """At most ``limit + 1`` bytes of a regular file, without blocking.

    Args:
        path: The file.
        limit: The most bytes wanted; one more is read to tell an oversized file.
        whole: Refuse a file larger than ``limit`` instead of reading its head.
        regular: The caller has just ``stat``-ed ``path`` and seen a regular file, so the
            check before opening is skipped (the check on the open file still runs).

    Returns:
        ``(data, problem, oversized)``: ``data`` is ``None`` when nothing usable was read.
    """
    try:
        if not regular:
            problem = _not_regular(os.stat(path).st_mode)
            if problem is not None:
                return None, problem, False
        fd = os.open(path, _OPEN_FLAGS)
    except (OSError, ValueError) as exc:
        return None, f"cannot be read ({getattr(exc, 'strerror', None) or exc.__class__.__name__})", False
    try:
        info = os.fstat(fd)
        problem = _not_regular(info.st_mode)
        if problem is not None:
            return None, problem, False
        if whole and info.st_size > limit:
            return None, f"is larger than {limit} bytes", True
        # A regular file ignores O_NONBLOCK: no fcntl calls to clear it.
        data = _read_fd(fd, limit + 1, info.st_size)
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc.__class__.__name__})", False
    finally:
        os.close(fd)
    if whole and len(data) > limit:
        return None, f"is larger than {limit} bytes", True
    return data, None, len(data) > limit


def read_text(path: Path | str, limit: int, *, whole: bool = False, regular: bool = False) -> ReadResult:
    """Read ``path`` as UTF-8 text, at most ``limit`` bytes of it (see the module docstring).

    Args:
        path: The file to read.
        limit: The most bytes to read.
        whole: Refuse a file larger than ``limit`` (``text`` is ``None``) instead of
            returning its head: for inputs that must not be judged on a part.
        regular: As for ``read_bytes``: the caller has just seen a regular file there.

    Returns:
        A ``ReadResult``; ``text`` is ``None`` when the file is unreadable, not a
        regular file, binary, not UTF-8, or (with ``whole``) oversized.
    """
    raw, problem, oversized = read_bytes(path, limit, whole=whole, regular=regular)
    if raw is None:
        return ReadResult(None, problem, oversized)
    data = raw
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


LINK_TEXT_MAX = 4096
"""The longest text taken for a symbolic link's target written out as a file (``PATH_MAX``)."""


def link_stand_in(path: Path | str, text: str) -> str | None:
    """The target when ``text`` is a symbolic link checked out as a plain file, else ``None``.

    git on a system (or with ``core.symlinks=false``) without symbolic links writes
    a link as a regular file holding the target's path, with no newline: a
    ``CLAUDE.md`` that reads ``AGENTS.md``. Such a file is taken as a stand-in
    when its whole text is one line of at most ``LINK_TEXT_MAX`` characters and
    names a file or directory that exists, relative to the file's own directory.

    Args:
        path: The file read.
        text: Its whole text.

    Returns:
        The target as written, or ``None``.
    """
    if not text or len(text) > LINK_TEXT_MAX or "\n" in text or text != text.strip():
        return None
    base = os.path.dirname(os.fspath(path))
    try:
        return text if os.path.lexists(os.path.join(base, text)) else None
    except (OSError, ValueError):
        return None
