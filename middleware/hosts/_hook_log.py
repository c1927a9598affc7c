"""The hook's own log lines: internal errors and cut context, as JSON lines without structlog.

A command hook must never fail the agent, so what goes wrong is written
here instead of raised: one JSON object per line, keys sorted, with ``ts``
and ``event`` (``hook_error``, ``context_cut``). The file is the session
event log when one is configured (``ruleweave replay`` skips events it does
not read); writing never raises and never blocks on a FIFO.
"""

from __future__ import annotations

import os
import stat
import time

from ruleweave._kernel import jsontext

TYPE_CHECKING = False  # not typing's: the hook's fast path writes here too
if TYPE_CHECKING:
    from typing import Any

_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY


class HookLog:
    """Appends hook events to one file; a no-op without one.

    Args:
        path: The JSON-lines file (its directory is created), or ``None``.
    """

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = None if path is None else os.fspath(path)

    def write(self, event: str, **fields: Any) -> None:
        """Append one event line; any failure (no room, not a regular file) is swallowed."""
        if self.path is None:
            return
        line = jsontext.dumps(
            {"event": event, "ts": round(time.time(), 6), **fields}, sort_keys=True, default=str
        )
        try:
            os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
            fd = os.open(self.path, _FLAGS, 0o600)  # a FIFO without a reader fails here, never blocks
            try:
                if stat.S_ISREG(os.fstat(fd).st_mode):
                    os.write(fd, (line + "\n").encode("utf-8", "backslashreplace"))
            finally:
                os.close(fd)
        except (OSError, ValueError):
            pass  # the log is best effort: the agent must go on
