"""Compiling untrusted TTSR conditions with a linear-time engine (google-re2).

A repository's rule files are untrusted input: a backtracking engine would
let ``(a+)+$`` hang the agent. re2 matches in linear time and rejects what
it cannot do (backreferences, look-around); a rejected pattern is reported,
never run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import re2



@dataclass(frozen=True, slots=True)
class Condition:
    """One compiled condition.

    Attributes:
        source: The pattern as written in the rule.
        regex: The compiled re2 pattern (``search``/``finditer``).
    """

    source: str
    regex: Any


def compile_condition(pattern: str) -> tuple[Condition | None, str | None]:
    """Compile ``pattern`` with re2, honouring a leading ``(?i)``-style flag group.

    Args:
        pattern: The regex text from a rule.

    Returns:
        ``(condition, None)`` or ``(None, reason)`` when re2 rejects it.
    """
    options = re2.Options()
    options.log_errors = False
    # re2 reads leading inline flag groups such as (?i), (?s), (?m) itself.
    if not pattern:
        return None, "the pattern is empty"
    try:
        return Condition(pattern, re2.compile(pattern, options=options)), None
    except Exception as exc:  # noqa: BLE001 - re2 rejects: report, never run
        reason = exc.args[0] if exc.args else exc
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        return None, f"re2 cannot compile {pattern!r}: {reason}"
