"""Compiling untrusted TTSR conditions with a linear-time engine (google-re2).

A repository's rule files are untrusted input: a backtracking engine would
let ``(a+)+$`` hang the agent. re2 matches in linear time and rejects what
it cannot do (backreferences, look-around); a rejected pattern is reported,
never run.

Two YAML accidents are repaired before compiling, each with a note:

* ``condition: "(?i)\\bTODO\\b"`` — in a double-quoted YAML string ``\\b`` is a
  backspace, so the pattern arrives with U+0008 where the author meant the
  word boundary ``\\b``; nobody means a literal backspace in a rule.
* ``condition: "\\d+"`` — an escape YAML does not know makes the whole
  frontmatter fail, and the line-by-line fallback keeps the raw value with
  its double quotes; the quotes are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import re2

_BACKSPACE = "\x08"
# The escapes a double-quoted YAML scalar accepts; any other one fails the document.
_YAML_ESCAPES = frozenset('0abtnvfre "/\\N_LPxuU\t')


def _has_yaml_bad_escape(text: str) -> bool:
    index = text.find("\\")
    while index != -1 and index + 1 < len(text):
        if text[index + 1] not in _YAML_ESCAPES:
            return True
        index = text.find("\\", index + 2)
    return False


@dataclass(frozen=True, slots=True)
class Condition:
    """One compiled condition.

    Attributes:
        source: The pattern as written in the rule.
        regex: The compiled re2 pattern (``search``/``finditer``).
        pattern: The text that was compiled (``source`` after the YAML repairs).
        notes: One sentence per repair made to ``source``.
    """

    source: str
    regex: Any
    pattern: str = ""
    notes: tuple[str, ...] = ()


def options() -> Any:
    """re2 options for untrusted patterns: errors returned, never logged to stderr."""
    opts = re2.Options()
    opts.log_errors = False
    return opts


def repair_pattern(pattern: str) -> tuple[str, tuple[str, ...]]:
    """Undo what YAML does to a regex written in double quotes.

    Args:
        pattern: The condition as discovery produced it.

    Returns:
        The pattern to compile and a note for each repair made.
    """
    notes: list[str] = []
    text = pattern
    if len(text) >= 2 and text[0] == text[-1] == '"' and _has_yaml_bad_escape(text[1:-1]):
        text = text[1:-1]
        notes.append(
            "the pattern kept its double quotes because YAML rejected an escape in it; "
            "they were dropped (write regexes in single quotes)"
        )
    if _BACKSPACE in text:
        text = text.replace(_BACKSPACE, "\\b")
        notes.append(
            'YAML read "\\b" as a backspace; it was taken as the word boundary \\b '
            "(write regexes in single quotes)"
        )
    return text, tuple(notes)


@lru_cache(maxsize=64)
def compile_condition(pattern: str) -> tuple[Condition | None, str | None]:
    """Compile ``pattern`` with re2, honouring a leading ``(?i)``-style flag group.

    re2 reads leading inline flag groups such as ``(?i)``, ``(?s)``, ``(?m)``
    itself. The YAML repairs of ``repair_pattern`` are applied first and
    recorded in ``Condition.notes``.

    Args:
        pattern: The regex text from a rule.

    Returns:
        ``(condition, None)`` or ``(None, reason)`` when re2 rejects it (both immutable: a
        bounded per-process cache keeps the latest, since many rules share a condition).
    """
    if not pattern:
        return None, "the pattern is empty"
    text, notes = repair_pattern(pattern)
    try:
        regex = re2.compile(text, options=options())
    except Exception as exc:
        reason = exc.args[0] if exc.args else exc
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        return None, f"re2 cannot compile {pattern!r}: {reason}"
    return Condition(pattern, regex, text, notes), None
