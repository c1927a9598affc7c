"""Codex's installer: ruleweave's hooks merged into a ``hooks.json``, and taken out again.

Codex reads hooks from a ``hooks.json`` next to each config layer (``<root>/.codex``
for the project, ``$CODEX_HOME`` for the user) or from ``[hooks]`` tables in that
layer's ``config.toml``; it loads both, with a warning. ruleweave writes the JSON
file, so it never rewrites anyone's TOML. The file's root may hold only
``description`` and ``hooks`` (Codex refuses anything else); ``hooks`` maps each
event to matcher groups ``{"matcher": <regex>, "hooks": [{"type": "command",
"command": ..., "timeout": <seconds>}]}``. ruleweave's groups carry no matcher,
which is every tool. Every other key, group and hook is kept, in its order; a
file with nothing to change keeps its bytes.

Codex runs a project's hooks only once the project is trusted (``codex --trust``
or the trust prompt), and any hook that is not managed only after the user has
reviewed and trusted it (``/hooks`` in the TUI; ``--dangerously-bypass-hook-trust``
for automation): docs/hosts/codex.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleweave.hosts._hooks_json import HooksJson, SettingsError, Wording
from ruleweave.hosts.codex import HOST

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.config import RuleweaveConfig

__all__ = ["COMMAND", "HOOK_EVENTS", "TIMEOUT", "change", "files", "is_ours"]

HOOK_EVENTS: tuple[str, ...] = tuple(HOST.events)
"""The events ruleweave answers, in the order they are added."""

COMMAND = f"ruleweave hook {HOST.name}"
"""The hook command as installed by default: found on ``PATH``, so a committed file works on every
machine."""

TIMEOUT = 30
"""Seconds Codex gives one hook before it gives up on it (its default is 600): the hook answers in
milliseconds, and a stuck one should not hold a turn for ten minutes."""

HOOKS = HooksJson(
    agent=HOST.name,
    events=HOOK_EVENTS,
    fields={"timeout": TIMEOUT},
    root_keys=frozenset({"description", "hooks"}),  # Codex refuses any other key at the root
    error=SettingsError,
    wording=Wording(root="Codex refuses a hooks.json whose root holds {keys}"),
)
"""Codex's variant of the Claude-style hook settings: groups without a matcher (every tool), a timeout."""


def files(scope: str, config: RuleweaveConfig) -> list[Path]:
    """The file an install in ``scope`` writes: ``project`` ``<root>/.codex/hooks.json``, ``user``
    ``$CODEX_HOME/hooks.json`` (``~/.codex``).

    Args:
        scope: One of ``HOST.scopes``.
        config: The project's configuration (its root and Codex's home).

    Returns:
        The paths (they may not exist yet).
    """
    if scope == "user":
        return [config.codex_dir / "hooks.json"]
    return [config.root / ".codex" / "hooks.json"]


is_ours = HOOKS.is_ours
"""Whether a hook entry runs ``ruleweave hook codex`` (bare, by path, or quoted as a shell would)."""

change = HOOKS.change
"""``path``'s new text with ruleweave's hooks added (or removed), and one line per change
(``HooksJson.change``; ``SettingsError`` for a file that is not JSON, or not the shape Codex reads)."""
