"""The options of ``ruleweave hook claude-code`` (shared by the fast path and the full path)."""

from __future__ import annotations


class HookOptions:
    """The command hook's options (a plain class: ``dataclasses`` costs the fast path start-up time).

    Attributes:
        cwd: The project directory (default: the event's ``cwd``).
        root: The project root (default: the nearest directory above ``cwd`` holding ``.git``).
        store: The session store URL (default ``sqlite://``: the state directory's ``state.db``).
        event_log: Also write every session event, and the hook's own, to this JSON-lines file.
        include_native: Keep what Claude Code loads itself (the ``claude`` provider,
            ``CLAUDE.md``/``AGENTS.md``).
        snapshot: Answer from the snapshot when it is current.
    """

    __slots__ = ("cwd", "event_log", "include_native", "root", "snapshot", "store")

    def __init__(
        self,
        cwd: str | None = None,
        root: str | None = None,
        store: str = "sqlite://",
        event_log: str | None = None,
        include_native: bool = False,
        snapshot: bool = True,
    ) -> None:
        self.cwd = cwd
        self.root = root
        self.store = store
        self.event_log = event_log
        self.include_native = include_native
        self.snapshot = snapshot
