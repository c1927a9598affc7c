"""The event log: one structured event per public call, through structlog.

Events go to two sinks, both cheap when off:

* the stdlib logger ``ruleweave.events`` at INFO, rendered by structlog —
  silent unless the application enables that logger (a library must not
  print into its users' output);
* with ``RuleweaveConfig(event_log=PATH)``, a JSON-lines file: one object
  per line, keys sorted, flushed after every event, written under a lock so
  parallel tool calls never interleave lines. ``ruleweave replay`` reads it.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import IO, Any

import structlog

EVENTS_LOGGER = "ruleweave.events"
"""The stdlib logger name events are sent to."""

_stdlib = logging.getLogger(EVENTS_LOGGER)
_stdlib_events = structlog.wrap_logger(
    _stdlib,
    processors=[structlog.processors.KeyValueRenderer(key_order=["event", "session"])],
)


class _LockedLineFile:
    """A text file opened for appending; one ``msg`` call writes one flushed line."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] = path.open("a", encoding="utf-8")
        self._lock = threading.Lock()

    def msg(self, message: str) -> None:
        with self._lock:
            self._file.write(message + "\n")
            self._file.flush()

    info = msg  # structlog's bound loggers call the method named for the level

    def close(self) -> None:
        with self._lock:
            self._file.close()


class EventLog:
    """Where a ruleset's sessions report their events.

    Args:
        path: Also append events as JSON lines to this file.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._file = _LockedLineFile(path) if path is not None else None
        self._json = (
            structlog.wrap_logger(
                self._file,
                processors=[structlog.processors.JSONRenderer(sort_keys=True, ensure_ascii=False)],
            )
            if self._file is not None
            else None
        )

    @property
    def enabled(self) -> bool:
        """Whether any sink would record an event (lets callers skip building fields)."""
        return self._json is not None or _stdlib.isEnabledFor(logging.INFO)

    def emit(self, event: str, **fields: Any) -> None:
        """Record one event (a no-op costing a level check when both sinks are off)."""
        if self._json is not None:
            self._json.msg(event, ts=round(time.time(), 6), **fields)
        if _stdlib.isEnabledFor(logging.INFO):
            _stdlib_events.info(event, **fields)

    def close(self) -> None:
        """Close the JSON-lines file, if any."""
        if self._file is not None:
            self._file.close()
