"""Logging, in one place: the event log and the library's own loggers, through structlog.

Events go to two sinks, both cheap when off (plus, in tests,
``ruleweave.testing.capture_events()``; the schema is in ``events``):

* the stdlib logger ``ruleweave.events`` at INFO, rendered by structlog —
  silent unless the application enables that logger (a library must not
  print into its users' output);
* with ``RuleweaveConfig(event_log=PATH)``, a JSON-lines file: one object
  per line, keys sorted, flushed after every event, written under a lock so
  parallel tool calls never interleave lines. ``ruleweave replay`` reads it.
  Only a regular file is appended to, opened without blocking: a directory,
  a FIFO, a device, an unwritable path or one holding a NUL byte leaves
  ``EventLog.problem`` set (the rule set reports it as a warning) and events
  go to no file, instead of failing or hanging the load.

structlog is imported only when a sink is on, and the stdlib ``logging`` only
once something else imported it (before that no handler can exist), so a
hook process that logs nothing pays for neither. Writing an event never
raises into the agent: a failed write (full disk, closed file) is reported
once on the stdlib logger and the session goes on.
"""

from __future__ import annotations

import _thread  # threading.Lock without importing threading (~1 ms of a hook's cold start)
import os
import stat
import sys
import time
from functools import cached_property
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import logging

EVENTS_LOGGER = "ruleweave.events"
"""The stdlib logger name events are sent to."""

_INFO, _WARNING = 20, 30  # logging.INFO, logging.WARNING, without importing logging


class LibraryLogger:
    """A structlog logger over a stdlib logger, built on first use of an enabled level.

    Args:
        name: The stdlib logger name (given a ``NullHandler``: silent by default).
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._logger: logging.Logger | None = None

    def stdlib(self) -> logging.Logger | None:
        """The stdlib logger, or ``None`` while no module imported ``logging`` (so none has a handler)."""
        if self._logger is None and "logging" in sys.modules:
            import logging

            logger = logging.getLogger(self._name)
            logger.addHandler(logging.NullHandler())
            self._logger = logger
        return self._logger

    def enabled_for(self, level: int) -> bool:
        """Whether a record at ``level`` would reach a handler (see ``has_sink``)."""
        logger = self.stdlib()
        return logger is not None and has_sink(logger, level)

    @cached_property
    def _bound(self) -> Any:
        import structlog

        return structlog.wrap_logger(
            self.stdlib(),
            processors=[structlog.processors.KeyValueRenderer(key_order=["event"])],
        )

    def info(self, event: str, **fields: Any) -> None:
        """Log at INFO when a handler would receive it (structlog is imported only then)."""
        if self.enabled_for(_INFO):
            self._bound.info(event, **fields)

    def warning(self, event: str, **fields: Any) -> None:
        """Log at WARNING when a handler would receive it (structlog is imported only then)."""
        if self.enabled_for(_WARNING):
            self._bound.warning(event, **fields)


def has_sink(logger: logging.Logger, level: int) -> bool:
    """Whether a record at ``level`` would reach a handler other than a ``NullHandler``.

    ``isEnabledFor`` alone is true for warnings in a process that configured no
    logging at all (the root logger's level); rendering a record nobody handles
    would import structlog for nothing.
    """
    import logging  # a logger exists, so logging is imported: free

    if not logger.isEnabledFor(level):
        return False
    current: logging.Logger | None = logger
    while current is not None:
        for handler in current.handlers:
            if level >= handler.level and not isinstance(handler, logging.NullHandler):
                return True
        if not current.propagate:
            return False
        current = current.parent
    return False


_events_log = LibraryLogger(EVENTS_LOGGER)

# The lists of the ``capture_events()`` blocks now open. Like structlog's
# ``capture_logs``, capturing is process-wide so that events from worker
# threads are caught too; it is the only module-level state, and only tests use it.
_captures: list[list[dict[str, Any]]] = []
_captures_lock = _thread.allocate_lock()


def start_capture() -> list[dict[str, Any]]:
    """Begin collecting every event of every session in this process; returns the list they go to."""
    captured: list[dict[str, Any]] = []
    with _captures_lock:
        _captures.append(captured)
    return captured


def stop_capture(captured: list[dict[str, Any]]) -> None:
    """Stop collecting into ``captured``."""
    with _captures_lock:
        if any(c is captured for c in _captures):
            _captures[:] = [c for c in _captures if c is not captured]


# The hook process's watches for a few named events (``store_error``): unlike a capture, a watch
# does not make ``EventLog.enabled`` true, so sessions build no other event for it.
_watches: list[tuple[frozenset[str], list[dict[str, Any]]]] = []


def start_watch(names: frozenset[str]) -> list[dict[str, Any]]:
    """Begin collecting the events named ``names`` of every session in this process; returns their list."""
    found: list[dict[str, Any]] = []
    with _captures_lock:
        _watches.append((names, found))
    return found


def stop_watch(found: list[dict[str, Any]]) -> None:
    """Stop collecting into ``found``."""
    with _captures_lock:
        _watches[:] = [w for w in _watches if w[1] is not found]


def _deliver(event: str, fields: dict[str, Any]) -> None:
    record = {"event": event, **fields}
    with _captures_lock:
        for captured in _captures:
            captured.append(dict(record))


class _LockedLineFile:
    """A text file opened for appending; one ``msg`` call writes one flushed line."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
        fd = os.open(path, flags, 0o644)  # a FIFO without a reader fails here (ENXIO), never blocks
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(f"{path} is not a regular file")
            os.set_blocking(fd, True)
            # A lone surrogate (a non-UTF-8 file name) is escaped, never an error.
            self._file: IO[str] = os.fdopen(fd, "a", encoding="utf-8", errors="backslashreplace")
        except BaseException:
            os.close(fd)
            raise
        self._lock = _thread.allocate_lock()

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
        self._file: _LockedLineFile | None = None
        self._json: Any = None
        self._failed = False
        self.problem: str | None = None
        """Why ``path`` is not written to (one sentence), or ``None``."""
        if path is not None:
            try:
                self._file = _LockedLineFile(path)
            except (OSError, ValueError) as exc:
                reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
                self.problem = f"cannot be opened for appending ({reason}); events are written to no file"
                return
            import structlog

            self._json = structlog.wrap_logger(
                self._file,
                processors=[structlog.processors.JSONRenderer(sort_keys=True, ensure_ascii=False)],
            )

    @property
    def enabled(self) -> bool:
        """Whether any sink would record an event (lets callers skip building fields)."""
        if self._json is not None or _captures:
            return True
        # ``_events_log.enabled_for(_INFO)`` spelled out: asked after every tool call, and the
        # usual answer is the logger's own cached level check.
        logger = _events_log._logger or _events_log.stdlib()
        return logger is not None and logger.isEnabledFor(_INFO) and has_sink(logger, _INFO)

    def emit(self, event: str, **fields: Any) -> None:
        """Record one event; never raises (a no-op costing a level check when off)."""
        if _captures:
            _deliver(event, fields)
        if _watches:
            with _captures_lock:
                for names, found in _watches:
                    if event in names:
                        found.append({"event": event, **fields})
        if self._json is not None:
            try:
                self._json.msg(event, ts=round(time.time(), 6), **fields)
            except Exception as exc:  # a full disk must not break the agent
                if not self._failed:
                    self._failed = True
                    _events_log.warning("event_log_write_failed", path=str(self.path), error=str(exc))
        _events_log.info(event, **fields)

    def close(self) -> None:
        """Close the JSON-lines file, if any."""
        if self._file is not None:
            self._file.close()
