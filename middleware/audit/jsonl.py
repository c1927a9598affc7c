"""Bounded, never-raising reading of JSON-lines files (transcripts are untrusted).

A file is read line by line, at most ``MAX_FILE_BYTES`` of it; a line over
``MAX_LINE_BYTES`` is skipped unparsed, a line that is not UTF-8 or not JSON
(or nested past what ``json`` can parse) is skipped, and a last line without
its newline that does not parse marks the file as cut short. Each problem is
counted and reported once per file as a warning naming the file.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

MAX_FILE_BYTES = 256 * 1024 * 1024
"""The most bytes read of one file; the rest is left unread, with a warning."""

MAX_LINE_BYTES = 8 * 1024 * 1024
"""The longest line parsed; a longer one is skipped, with a warning."""

MAX_FILES = 10_000
"""The most files read from the folders named on the command line."""


@dataclass(slots=True)
class LineReader:
    """Iterate a JSON-lines file's objects; ``warnings`` says what was skipped.

    Attributes:
        path: The file.
        warnings: One sentence per kind of problem, each naming the file.
    """

    path: str
    warnings: list[str] = field(default_factory=list)
    _counts: dict[str, int] = field(default_factory=dict)

    def objects(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """``(line number, object)`` for each line holding a JSON object, in order."""
        try:
            # O_NONBLOCK: opening a FIFO for reading would wait for a writer; fstat then refuses it.
            handle = os.fdopen(os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb")
        except OSError as exc:
            self.warnings.append(f"{self.path}: cannot be read ({exc.strerror or exc}).")
            return
        try:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                self.warnings.append(f"{self.path}: not a regular file; skipped.")
                return
            read = 0
            number = 0
            while True:
                line = handle.readline(MAX_LINE_BYTES + 1)
                if not line:
                    break
                number += 1
                read += len(line)
                if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                    self._count("line over the size limit")
                    while line and not line.endswith(b"\n"):  # skip the rest of the long line
                        line = handle.readline(MAX_LINE_BYTES + 1)
                        read += len(line)
                    continue
                found = self._parse(line, last=not line.endswith(b"\n"))
                if found is not None:
                    yield number, found
                if read > MAX_FILE_BYTES:
                    self.warnings.append(f"{self.path}: over {MAX_FILE_BYTES:,} bytes; the rest is unread.")
                    break
        except OSError as exc:
            self.warnings.append(f"{self.path}: reading failed ({exc.strerror or exc}).")
        finally:
            handle.close()
            self._report()

    def _parse(self, line: bytes, *, last: bool) -> dict[str, Any] | None:
        if not line.strip():
            return None
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            self._count("line that is not UTF-8")
            return None
        try:
            value = json.loads(text)
        except RecursionError:
            self._count("line nested too deep")
            return None
        except ValueError:
            self._count("cut-short last line" if last else "line that is not JSON")
            return None
        if not isinstance(value, dict):
            self._count("line that is not a JSON object")
            return None
        return value

    def _count(self, problem: str) -> None:
        self._counts[problem] = self._counts.get(problem, 0) + 1

    def _report(self) -> None:
        for problem, count in self._counts.items():
            plural = "s" if count > 1 and not problem.startswith("cut") else ""
            self.warnings.append(f"{self.path}: skipped {count} {problem}{plural}.")
        self._counts.clear()


def first_objects(path: str, count: int = 20) -> tuple[list[dict[str, Any]], list[str]]:
    """The first ``count`` JSON objects of a file (for format detection), and its warnings."""
    reader = LineReader(path)
    found: list[dict[str, Any]] = []
    for _, value in reader.objects():
        found.append(value)
        if len(found) >= count:
            break
    return found, reader.warnings


def text_of(value: Any, limit: int = 1_000_000) -> str:
    """The strings inside a JSON value (content blocks, tool results), joined, at most ``limit`` chars."""
    out: list[str] = []
    size = 0
    stack: list[Any] = [value]
    while stack and size < limit:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            size += len(item)
        elif isinstance(item, dict):
            stack.extend(reversed([item[k] for k in ("text", "content", "output") if k in item]))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return "\n".join(out)[:limit]
