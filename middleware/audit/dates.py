"""Timestamps as transcripts write them, to wall-clock seconds (never raising)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any


def seconds(value: Any) -> float | None:
    """``value`` (ISO 8601 text, or epoch seconds or milliseconds) as epoch seconds, or ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        number = float(value)
        return number / 1000 if number > 1e11 else number
    if not isinstance(value, str) or not 8 <= len(value) <= 64:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp()
