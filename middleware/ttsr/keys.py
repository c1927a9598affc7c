"""Store keys of a session's streamed-rule state that a session reads without the watcher."""

from __future__ import annotations

TURN_KEY = "ttsr:turn"
"""Store key of the session's turn counter (used by ``after-gap`` rules)."""
