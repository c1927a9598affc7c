"""Which reader a file needs, told by its first lines; folders are walked (bounded)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ruleweave.audit import claude_code, codex, event_log
from ruleweave.audit.jsonl import MAX_FILES, LineReader, first_objects
from ruleweave.audit.timeline import Session

Reader = Callable[[str, Iterable[tuple[int, dict[str, Any]]]], list[Session]]
Detector = Callable[[Iterable[Mapping[str, Any]]], bool]

READERS: tuple[tuple[str, Detector, Reader], ...] = (
    (event_log.FORMAT, event_log.detect, event_log.read),
    (codex.FORMAT, codex.detect, codex.read),
    (claude_code.FORMAT, claude_code.detect, claude_code.read),
)
"""Formats in the order they are tried (the most specific first)."""

_SUFFIXES = (".jsonl", ".json", ".log")


def files_of(arguments: Iterable[str], warnings: list[str]) -> list[str]:
    """The files named, with each folder's ``*.jsonl``/``*.json``/``*.log`` files (sorted, bounded)."""
    out: list[str] = []
    for argument in arguments:
        if not os.path.isdir(argument):
            out.append(argument)
            continue
        found: list[str] = []
        for top, dirs, names in os.walk(argument):
            dirs.sort()
            found.extend(os.path.join(top, n) for n in sorted(names) if n.endswith(_SUFFIXES))
            if len(found) > MAX_FILES:
                warnings.append(f"{argument}: more than {MAX_FILES:,} files; the rest are not read.")
                break
        out.extend(found[:MAX_FILES])
    return out


def read_file(path: str, warnings: list[str]) -> list[Session]:
    """The sessions of one file, or none (with a warning naming it) when no reader knows it."""
    head, problems = first_objects(path)
    for name, detector, reader in READERS:
        if head and detector(head):
            lines = LineReader(path)
            try:
                sessions = reader(path, lines.objects())
            except (ValueError, TypeError, RecursionError) as exc:  # a shape the reader did not expect
                warnings.append(f"{path}: cannot be read as {name} ({type(exc).__name__}); skipped.")
                return []
            warnings.extend(lines.warnings)
            return sessions
    warnings.extend(problems)
    if head or not problems:
        warnings.append(f"{path}: not a Claude Code transcript, Codex session log or event log; skipped.")
    return []
