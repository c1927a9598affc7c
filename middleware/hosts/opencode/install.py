"""OpenCode's installer: the ruleweave plugin written into a plugins folder, and taken out again.

OpenCode has no hook settings to merge into: it loads every ``*.js`` file of
``plugins/`` (or ``plugin/``) in each of its config directories, with no config
entry and no trust prompt. ruleweave's file is ``.opencode/plugins/ruleweave.js``
in the project root (``project``) or ``$XDG_CONFIG_HOME/opencode/plugins/ruleweave.js``
(``user``; ``~/.config/opencode``). The whole file is ruleweave's (``plugin.render``):
installing writes it, or rewrites it when the hook command or the server changed;
uninstalling deletes it. ``--server URL`` stores a running ``ruleweave mcp --http
HOST:PORT --host opencode`` in the plugin, as the command is stored: committed with
the project, reviewed in its diff, and read by the plugin with no configuration
of OpenCode's (a plugin file gets none) nor environment variable to set on every
machine; the command stays, as the fallback when the server cannot answer. A
file of that name that ruleweave did not write (no ``plugin.MARKER`` on its first
line) is refused, never overwritten.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from ruleweave.hosts._hooks_json import SettingsError
from ruleweave.hosts.opencode import HOST
from ruleweave.hosts.opencode.plugin import MARKER, render

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.config import RuleweaveConfig

__all__ = ["COMMAND", "FILE_NAME", "TAKES_SERVER", "change", "files", "is_ours"]

COMMAND = f"ruleweave hook {HOST.name}"
"""The hook command as installed by default: found on ``PATH``, so a committed plugin works on every
machine."""

FILE_NAME = "ruleweave.js"
"""The plugin's file name in the plugins folder."""

TAKES_SERVER = True
"""``change`` takes ``server``: ``ruleweave install opencode --server URL``."""


def files(scope: str, config: RuleweaveConfig) -> list[Path]:
    """The file an install in ``scope`` writes: ``project`` ``<root>/.opencode/plugins/ruleweave.js``,
    ``user`` ``$XDG_CONFIG_HOME/opencode/plugins/ruleweave.js``.

    Args:
        scope: One of ``HOST.scopes``.
        config: The project's configuration (its root and the user's config directory).

    Returns:
        The paths (they may not exist yet).
    """
    if scope == "user":
        base = config.xdg_config_home or config.user_home / ".config"
        return [base / "opencode" / "plugins" / FILE_NAME]
    return [config.root / ".opencode" / "plugins" / FILE_NAME]


def is_ours(text: str) -> bool:
    """Whether a plugin file's text is one ``ruleweave install opencode`` wrote."""
    return text.startswith(MARKER)


def change(
    path: Path, text: str | None, *, command: str, uninstall: bool, server: str | None = None
) -> tuple[str | None, list[str]]:
    """``path``'s new text: the plugin (or nothing, to uninstall), and one line per change.

    Args:
        path: The file (``files``), for messages.
        text: Its text (``None``: it does not exist).
        command: The hook command line (split as a POSIX shell would).
        uninstall: Remove the plugin instead.
        server: The URL of the ``ruleweave mcp --http HOST:PORT --host opencode`` the plugin asks first
            (checked by ``ruleweave install``), or ``None``: the command alone.

    Returns:
        The new text (``text`` itself when nothing changes; ``None``: no file), and the change lines.

    Raises:
        SettingsError: The file exists but is not ruleweave's plugin, or ``command`` is not a command line.
    """
    if text is not None and not is_ours(text):
        raise SettingsError(f"{path} is a plugin ruleweave did not write; move it away first")
    if uninstall:
        return (None, [f"removed the ruleweave plugin {path.name}"]) if text is not None else (None, [])
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise SettingsError(f"the hook command {command!r} is not a command line ({exc})") from exc
    if not words:
        raise SettingsError("the hook command is empty")
    wanted = render(words, server=server)
    if text == wanted:
        return text, []
    verb = "wrote" if text is None else "rewrote"
    how = f"asking {server} first, else running {command!r}" if server else f"running {command!r}"
    return wanted, [f"{verb} the ruleweave plugin {path.name}, {how}"]
