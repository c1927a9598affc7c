"""Cline's installer: one hook file per event, written and taken out again.

Cline 3.x has no hook settings: every file named after an event in a hooks folder
runs (``<root>/.cline/hooks`` and ``<root>/.clinerules/hooks`` for the project, at
its git root; ``~/.cline/hooks`` and ``~/Documents/Cline/Hooks`` for the user), all
of them, one after another. ruleweave writes ``PreToolUse`` and ``PostToolUse`` in
``<root>/.cline/hooks`` (project) or ``~/.cline/hooks`` (user): small ``sh`` scripts
that ``exec`` the hook command (``.ps1`` scripts on Windows, which Cline runs with
PowerShell). A hook file of the user's own in the legacy ``.clinerules/hooks`` keeps
running beside them; one of that name in ``.cline/hooks`` that ruleweave did not
write is refused, never overwritten. Cline needs no executable bit (it picks the
interpreter from the shebang or the extension); the files get one so they can be run by
hand. Cline asks no one before it runs a project's hook files.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ruleweave.hosts._hooks_json import SettingsError
from ruleweave.hosts.cline import HOST

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.config import RuleweaveConfig

__all__ = ["COMMAND", "HOOK_EVENTS", "MARKER", "change", "executable", "files", "is_ours", "script"]

HOOK_EVENTS: tuple[str, ...] = tuple(HOST.events)
"""The events ruleweave answers, one file each."""

COMMAND = f"ruleweave hook {HOST.name}"
"""The hook command as installed by default: found on ``PATH``, so a committed file works on every
machine."""

MARKER = "# Written by `ruleweave install cline`"
"""The line that makes a hook file ruleweave's (``--uninstall`` deletes only such files)."""

WINDOWS = os.name == "nt"
"""Whether the hook files are PowerShell scripts (Cline runs an extensionless file with ``bash``)."""


def files(scope: str, config: RuleweaveConfig) -> list[Path]:
    """The files an install in ``scope`` writes: ``project`` ``<root>/.cline/hooks/<Event>``, ``user``
    ``$CLINE_DIR/hooks/<Event>`` (``~/.cline``, where Cline reads the user's hooks) (``<Event>.ps1``
    on Windows).

    Args:
        scope: One of ``HOST.scopes``.
        config: The project's configuration (its root and Cline's folder).

    Returns:
        The paths (they may not exist yet).
    """
    folder = config.cline_folder / "hooks" if scope == "user" else config.root / ".cline" / "hooks"
    suffix = ".ps1" if WINDOWS else ""
    return [folder / f"{event}{suffix}" for event in HOOK_EVENTS]


def script(event: str, command: str = COMMAND, *, windows: bool = WINDOWS) -> str:
    """The text of ruleweave's hook file for ``event``.

    Args:
        event: One of ``HOOK_EVENTS`` (for the comment: every file runs the same command, the
            payload names its event).
        command: The hook command line.
        windows: A PowerShell script instead of an ``sh`` one.

    Returns:
        The script.
    """
    about = f"{MARKER} (Cline's {event} hook). Remove with: ruleweave install cline --uninstall"
    if windows:
        return f"{about}\n$input | & {command}\nexit 0\n"
    return f"#!/bin/sh\n{about}\nexec {command}\n"


def is_ours(text: str | None) -> bool:
    """Whether a hook file's text is ruleweave's (it holds ``MARKER`` on a line of its own start)."""
    return text is not None and any(line.startswith(MARKER) for line in text.splitlines()[:3])


def change(path: Path, text: str | None, *, command: str, uninstall: bool) -> tuple[str | None, list[str]]:
    """``path``'s new text: ruleweave's hook script (or no file, to uninstall), and one line per change.

    Args:
        path: One of ``files``' paths.
        text: Its text (``None``: it does not exist).
        command: The hook command line.
        uninstall: Remove ruleweave's file instead.

    Returns:
        The new text (``text`` itself when nothing changes; ``None``: no file), and the change lines.

    Raises:
        SettingsError: The file exists and is not ruleweave's (Cline would run both: refused, so
            nothing of the user's is overwritten).
    """
    event = path.name.split(".", 1)[0]
    if uninstall:
        if not is_ours(text):
            return text, []
        return None, [f"{event}: removed {path.name}"]
    if text is not None and not is_ours(text):
        raise SettingsError(
            f"{path} is a hook of your own, not ruleweave's; rename it (Cline runs every {event} file in "
            f"its hooks folders, e.g. {event}.sh beside it) and install again"
        )
    wanted = script(event, command, windows=path.suffix == ".ps1")
    if text == wanted:
        return text, []
    return wanted, [f"{event}: {'wrote' if text is None else 'rewrote'} {path.name} running {command!r}"]


def executable(path: Path) -> bool:
    """Whether ``path`` gets the executable bit: every ``sh`` hook file (Cline does not need it, a
    person running the hook by hand does)."""
    return path.suffix != ".ps1"
