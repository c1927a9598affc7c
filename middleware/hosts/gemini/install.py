"""Gemini CLI's installer: ruleweave's hooks merged into a ``.gemini/settings.json``, and taken out again.

Gemini CLI reads ``{"hooks": {"AfterTool": [{"matcher": "*", "hooks": [{"type":
"command", "command": ..., "name": ...}]}]}}`` from ``<cwd>/.gemini/settings.json``
(the directory it starts in) and ``$GEMINI_CLI_HOME/.gemini/settings.json`` (``~``; 0.61.0,
``loadSettings``; docs ``hooks/reference.md``). The project scope writes the file
at the project root, where Gemini is normally started; the user scope the user's.
One command hook named ``ruleweave`` per event of ``HOST.events`` is added unless
it is there (twice = once): tool events match every tool (``*``), PreCompress only
``manual`` (``/compress``; ``auto`` fires before every model request), the others
every occurrence. Every other key, hook
and matcher group is kept in its order, and a file that needs no change keeps its
bytes. Gemini also accepts comments in the file; ruleweave cannot merge into such
a file without losing them, so it refuses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleweave.hosts import AFTER_TOOL, BEFORE_TOOL, PRE_COMPACT
from ruleweave.hosts._hooks_json import HooksJson, SettingsError, Wording
from ruleweave.hosts.gemini import HOST, MANUAL

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.config import RuleweaveConfig

__all__ = ["HOOK_NAME", "SettingsError", "change", "files", "hooks_off", "is_ours"]

HOOK_NAME = "ruleweave"
"""The name the hooks carry: ``/hooks disable ruleweave`` turns them off, and Gemini's trust record of
project hooks (``~/.gemini/trusted_hooks.json``, keyed by name and command) stays stable."""

MATCHERS = {
    **{event: "*" for event, kind in HOST.events.items() if kind in (BEFORE_TOOL, AFTER_TOOL)},
    **{event: MANUAL for event, kind in HOST.events.items() if kind == PRE_COMPACT},
}
"""Each event's matcher (a regular expression over tool names, an exact ``trigger``); others have none."""

_CONFIG_KEYS = frozenset({"enabled", "disabled", "notifications"})
"""Keys of ``hooks`` that are not events (Gemini's ``HOOKS_CONFIG_FIELDS``)."""


HOOKS = HooksJson(
    agent=HOST.name,
    events=tuple(HOST.events),
    matchers=MATCHERS,
    fields={"name": HOOK_NAME},
    config_keys=_CONFIG_KEYS,
    error=SettingsError,
    wording=Wording(  # in Gemini's words a matcher group is a hook definition
        groups='its "hooks.{event}" is not a list of hook definitions',
        group='a definition of "hooks.{event}" has "hooks" that is not a list',
    ),
)
"""Gemini CLI's variant of the Claude-style hook settings."""


def files(scope: str, config: RuleweaveConfig) -> list[Path]:
    """The file an install in ``scope`` writes: ``project`` ``<root>/.gemini/settings.json``, ``user``
    ``$GEMINI_CLI_HOME/.gemini/settings.json`` (``~/.gemini``), where Gemini CLI
    reads its user settings (``Storage.getGlobalSettingsPath``).

    Args:
        scope: One of ``HOST.scopes``.
        config: The project's configuration (its root and the agent's user folder).

    Returns:
        The one settings file (it may not exist yet).
    """
    if scope == "user":
        return [config.gemini_dir / "settings.json"]
    return [config.root / ".gemini" / "settings.json"]


is_ours = HOOKS.is_ours
"""Whether a hook entry is a command that runs ``ruleweave hook gemini`` (bare, by path or quoted)."""

change = HOOKS.change
"""``path``'s new text with ruleweave's hooks added (or removed), and one line per change
(``HooksJson.change``; ``SettingsError`` for a file that is not Gemini's settings object)."""


def hooks_off(config: RuleweaveConfig) -> str | None:
    """Why Gemini CLI's settings run none of ruleweave's hooks here, or ``None``: ``hooksConfig.enabled:
    false`` in the layer that decides it (system defaults, the user's, ``<cwd>/.gemini``, the system
    settings), or ``HOOK_NAME`` in any layer's ``hooksConfig.disabled`` (a ``union`` list; what ``/hooks
    disable ruleweave`` writes). Real runs (0.61.0): either, in the user's or the project's settings,
    and no hook ran.

    Args:
        config: The configuration (the cwd and ``$GEMINI_CLI_HOME``).
    """
    from ruleweave.hosts._layered_settings import GEMINI, layers, setting

    user, workspace = config.gemini_dir / "settings.json", config.cwd / ".gemini" / "settings.json"
    found = layers(GEMINI, str(user), str(workspace), root=str(config.root))
    enabled = setting(found, "hooksConfig", "enabled")
    if enabled is not None and enabled[1] is False:
        return f"hooksConfig.enabled is false in {enabled[0]}"
    for path, data in found:
        hooks_config = data.get("hooksConfig")
        disabled = hooks_config.get("disabled") if isinstance(hooks_config, dict) else None
        if isinstance(disabled, list) and HOOK_NAME in disabled:
            return f"hooksConfig.disabled names {HOOK_NAME!r} in {path}"
    return None
