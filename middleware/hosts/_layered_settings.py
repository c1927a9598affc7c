"""The settings files Gemini CLI and Qwen Code merge (Qwen forked Gemini's loader), read as they read them.

Four layers, lowest precedence first: the system defaults, the user's
``settings.json``, the workspace's (``<cwd>/.gemini`` or ``<cwd>/.qwen``) and the
system settings; a later layer's value replaces an earlier one's, and a list the
schema marks ``union`` (Gemini's ``hooksConfig.disabled``) collects them all.
Where each lives: the agent's ``getSystemSettingsPath`` (an environment variable,
else a fixed path per platform) and ``getSystemDefaultsPath`` (its own variable,
else ``system-defaults.json`` beside the system settings). Files are JSON with
comments, each read bounded; one that is absent, unreadable or not JSON counts
as empty, and so does a workspace file that links out of the project. Standard
library only; read by ``ruleweave install`` and the hook's cold path.
"""

from __future__ import annotations

import json
import os
import sys

from ruleweave._files.paths import real_inside, real_path
from ruleweave._files.reading import read_text
from ruleweave._text.jsonc import without_comments

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

_MAX_BYTES = 1 << 20

Layers = list[tuple[str, dict[str, object]]]
"""Each settings file and its object (``{}`` when unusable), lowest precedence first."""


class SystemPaths:
    """Where one agent keeps its system settings.

    Args:
        system_variable: The variable naming the system settings file.
        defaults_variable: The variable naming the system defaults file.
        paths: The system settings file on ``darwin``, ``win32`` and any other platform.
    """

    __slots__ = ("defaults_variable", "paths", "system_variable")

    def __init__(self, system_variable: str, defaults_variable: str, paths: tuple[str, str, str]) -> None:
        self.system_variable = system_variable
        self.defaults_variable = defaults_variable
        self.paths = paths

    def system(self, env: Mapping[str, str]) -> str:
        """The system settings file (``getSystemSettingsPath``)."""
        darwin, win32, other = self.paths
        fixed = darwin if sys.platform == "darwin" else win32 if sys.platform == "win32" else other
        return env.get(self.system_variable) or fixed

    def defaults(self, env: Mapping[str, str]) -> str:
        """The system defaults file (``getSystemDefaultsPath``)."""
        return env.get(self.defaults_variable) or os.path.join(os.path.dirname(self.system(env)),
                                                               "system-defaults.json")


GEMINI = SystemPaths("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", (
    "/Library/Application Support/GeminiCli/settings.json", "C:\\ProgramData\\gemini-cli\\settings.json",
    "/etc/gemini-cli/settings.json",
))
"""Gemini CLI 0.61.0 (``packages/cli/src/config/settings.ts``)."""

QWEN = SystemPaths("QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SYSTEM_DEFAULTS_PATH", (
    "/Library/Application Support/QwenCode/settings.json", "C:\\ProgramData\\qwen-code\\settings.json",
    "/etc/qwen-code/settings.json",
))
"""Qwen Code 0.24.4 (``getSystemSettingsPath``, ``getSystemDefaultsPath``)."""


def layers(
    agent: SystemPaths, user: str, workspace: str | None = None, root: str | None = None,
    env: Mapping[str, str] = os.environ,
) -> Layers:
    """Each settings file and its object, lowest precedence first (``workspace`` ``None``: left out).

    Args:
        agent: ``GEMINI`` or ``QWEN``.
        user: The user's ``settings.json``.
        workspace: The workspace's ``settings.json`` (the repository's own), or ``None``.
        root: The project root: a workspace file whose real path leaves it (a link out of the
            project) is not read, and counts as empty.
        env: The agent's environment.
    """
    paths = [agent.defaults(env), user]
    if workspace is not None:
        base = real_path(root) if root is not None else None
        if base is not None and real_inside(workspace, base) is not None:
            paths.append(workspace)
    paths.append(agent.system(env))
    return [(path, _object(path)) for path in paths]


def _object(path: str) -> dict[str, object]:
    data = read_jsonc(path)
    return data if isinstance(data, dict) else {}


def setting(found: Layers, *keys: str) -> tuple[str, object] | None:
    """The file that decides the setting at ``keys`` (``"hooksConfig", "enabled"``) and its value:
    the highest layer that sets it; ``None`` when none does."""
    decided: tuple[str, object] | None = None
    for path, data in found:
        value: object = data
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        if value is not None:
            decided = (path, value)
    return decided


def context_file_names(
    agent: SystemPaths, user: str, workspace: str, root: str, env: Mapping[str, str] = os.environ
) -> tuple[str, ...]:
    """``context.fileName`` as the agent reads it: the deciding layer's string or list of strings (the
    schema merges it by replacing), each trimmed, backslashes as ``/``, in order; ``()`` when no layer
    sets a non-empty name. None is dropped for its shape: a name the agent loads is left out by its hooks
    whatever ruleweave would make of it.

    Args:
        agent: ``GEMINI`` or ``QWEN``.
        user: The user's ``settings.json``.
        workspace: The project's ``settings.json``.
        root: The project root (a workspace file linking out of it is not read).
        env: The agent's environment.
    """
    decided = setting(layers(agent, user, workspace, root, env), "context", "fileName")
    value = decided[1] if decided is not None else None
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    names = (item.strip().replace("\\", "/") for item in items if isinstance(item, str))
    return tuple(dict.fromkeys(name for name in names if name))


def read_jsonc(path: str) -> object:
    """A JSON-with-comments file's value; ``None`` when it is absent, unreadable or not JSON."""
    text = read_text(path, _MAX_BYTES, whole=True).text
    if text is None:
        return None
    try:
        return json.loads(without_comments(text.removeprefix("\ufeff")))
    except (ValueError, RecursionError):
        return None
