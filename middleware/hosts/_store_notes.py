"""What the hook tells the user about its session store, once per problem (the full path only).

A store that cannot be opened, that fails mid-call (a full disk, a read-only
state directory, Redis gone) or whose damaged file was moved aside must not
switch notices off silently. The hook answers anyway (without claims, when
the store cannot be opened) and adds one sentence for the user
(``ruleweave.hosts.NOTE``; Claude Code's ``systemMessage``).

"Once" is a marker file per problem in ``<state>/told/``: its name is the
problem's group (``store-<crc of the URL>``, ``moved``) and a checksum of
what was said. A store that works again removes its group's markers, so a
later failure is told again. Where the state directory cannot hold a marker
(it is read-only, or the disk is full and has no inode left), the problem is
told at session starts only: once per session instead of on every tool call.
"""

from __future__ import annotations

import os
import zlib

from ruleweave._kernel.sqlite import DAMAGED_SUFFIX, SIDECARS
from ruleweave._kernel.state import STATE_FILE, parse_store_url
from ruleweave.hosts import SESSION_CLEAR, SESSION_COMPACT, SESSION_RESUME, SESSION_START

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ruleweave.hosts._hook_log import HookLog

TOLD = "told"
"""The state directory's folder of markers: one per problem already told."""

FALLBACK = "memory://"
"""The store the hook answers with when its own cannot be opened: no claims across events."""

_STARTS = frozenset({SESSION_START, SESSION_RESUME, SESSION_CLEAR, SESSION_COMPACT})


def _crc(text: str) -> str:
    return f"{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}"


class StoreNotes:
    """The store problems one full-path answer met, and what of them the user is told.

    Args:
        store: The hook's store URL (``--store``).
        state: The state directory.
        log: The hook log (each problem found is written there too).
    """

    def __init__(self, store: str, state: str, log: HookLog) -> None:
        self.store = store
        self.state = state
        self.log = log
        self.group = f"store-{_crc(store)}"
        self.problems: list[tuple[str, str]] = []  # (marker name, sentence), in the order met
        self._events: list[dict[str, Any]] | None = None

    def __enter__(self) -> StoreNotes:
        from ruleweave.log import start_watch

        self._events = start_watch(frozenset({"store_error"}))  # the hook owns its process
        return self

    def __exit__(self, *exc: object) -> None:
        from ruleweave.log import stop_watch

        if self._events is not None:
            stop_watch(self._events)
            for event in self._events:
                if event.get("event") == "store_error":
                    self.failed(str(event.get("error", "")))

    def unavailable(self, exc: BaseException) -> None:
        """The store could not be opened: the hook answers from ``FALLBACK``."""
        reason = str(exc).strip() or type(exc).__name__
        self._add(
            f"{self.group}-{_crc(reason)}",
            f"ruleweave: {reason} Rule notices go on without it, but may repeat until it is fixed.",
        )

    def failed(self, error: str) -> None:
        """A store call failed mid-answer (``error``: the ``store_error`` event's text)."""
        reason = error.split(": ", 1)[1] if error.startswith("StoreError: ") else error
        self._add(
            f"{self.group}-{_crc(reason)}",
            f"ruleweave: {reason} Rule notices go on, but may repeat until the store works again.",
        )

    def _add(self, name: str, sentence: str, *, now: bool = True) -> None:
        """Note a problem; one happening ``now`` (not a file moved earlier) goes to the hook log too."""
        if all(name != known for known, _ in self.problems):
            self.problems.append((name, sentence))
            if now:
                self.log.write("store_problem", message=sentence)

    def moved_files(self) -> None:
        """Note each damaged state file moved aside beside the store's SQLite file (once per file)."""
        try:
            url = parse_store_url(self.store)
        except ValueError:
            return
        if url.scheme != "sqlite":
            return
        db = url.location or os.path.join(self.state, STATE_FILE)
        directory, prefix = os.path.dirname(db), os.path.basename(db) + DAMAGED_SUFFIX
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            return
        for name in names:
            if name.startswith(prefix) and not name.endswith(SIDECARS):
                moved = os.path.join(directory, name)
                self._add(
                    f"moved-{_crc(moved)}",
                    f"ruleweave: its state file {db} was damaged; it was moved to {moved} and a "
                    "fresh one started, so a rule notice may come once more.",
                    now=False,
                )

    def message(self, kind: str | None) -> str | None:
        """What to tell the user with this answer: the problems not told before, one line each.

        Args:
            kind: The event's normalised kind (a problem that cannot be remembered is told at
                session starts only).

        Returns:
            The text, or ``None`` when there is nothing new to tell.
        """
        if not any(name.startswith(self.group + "-") for name, _ in self.problems):
            self._forget_group()  # the store works: a later failure is news again
        lines = []
        for name, sentence in self.problems:
            told = _first_time(os.path.join(self.state, TOLD), name)
            if told or (told is None and kind in _STARTS):
                lines.append(sentence)
                if told and name.startswith("moved-"):  # found earlier: logged once, when told
                    self.log.write("store_problem", message=sentence)
        return "\n".join(lines) or None

    def _forget_group(self) -> None:
        directory = os.path.join(self.state, TOLD)
        try:
            names = os.listdir(directory)
        except OSError:
            return  # no marker yet: the usual case
        for name in names:
            if name.startswith(self.group + "-"):
                try:  # noqa: SIM105 - one import fewer
                    os.unlink(os.path.join(directory, name))
                except OSError:
                    pass


def _first_time(directory: str, name: str) -> bool | None:
    """Mark ``name`` told: ``True`` the first time, ``False`` after, ``None`` when no marker can be left."""
    path = os.path.join(directory, name)
    if os.path.lexists(path):
        return False
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        os.close(os.open(path, flags, 0o600))  # empty: needs an inode, not a block of a full disk
    except FileExistsError:
        return False  # another hook process told it just now
    except OSError:
        return None
    return True
