"""Claude-style hook settings: ruleweave's command hooks merged into a JSON file, and taken out again.

Claude Code's schema, which Codex (``hooks.json``), Qwen Code and Gemini CLI (``settings.json``) read
too: ``{"hooks": {<event>: [{"matcher": <pattern>, "hooks": [{"type": "command", "command": ...}]}]}}``.
``HooksJson`` is one host's variant of it (its events, each event's matcher, the extra fields of a
handler, the keys under ``hooks`` that are not events, the root keys the agent accepts, its error and
wording); its ``change`` is that host's ``FileInstaller.change``. An install adds one command hook per
event unless one is there (twice = once; one running ruleweave by another path is re-spelled); an
uninstall takes out only ruleweave's entries, and the groups and events that leaves empty. Every other
key, group and hook is kept in its order, and a file with nothing to change keeps its bytes.
"""

from __future__ import annotations

import copy
import json
import shlex
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ruleweave.errors import RuleweaveError

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.errors import RuleweaveError

__all__ = ["HooksJson", "SettingsError", "Wording", "runs_hook"]


class SettingsError(RuleweaveError, ValueError):
    """An agent's settings file has a shape the agent would not read either, or holds a file of the user's
    where ruleweave would write its own (one sentence; ``ruleweave install`` names the file)."""


class Wording(NamedTuple):
    """The messages of a refused file, as ``str.format`` templates (``{path}``, ``{exc}``, ``{event}``,
    ``{keys}``). The defaults are fragments ``ruleweave install`` prefixes with the file's path."""

    json: str = "it is not plain JSON ({exc}); comments cannot be kept by a rewrite"
    """The text does not parse (an agent that accepts comments would lose them to a rewrite)."""
    object: str = "it holds JSON but not an object"
    """The root is not an object."""
    root: str = "its root holds {keys}, which the agent refuses"
    """The root holds keys outside ``HooksJson.root_keys``."""
    hooks: str = 'its "hooks" is not an object'
    """``hooks`` is not an object."""
    groups: str = 'its "hooks.{event}" is not a list of matcher groups'
    """An event's value is not a list of objects."""
    group: str = 'a matcher group of "hooks.{event}" has "hooks" that is not a list'
    """A matcher group's ``hooks`` is not a list."""


def runs_hook(entry: Any, agent: str) -> bool:
    """Whether a hook entry is a command that runs ``ruleweave hook <agent>`` (bare, by path, or quoted as
    a POSIX shell would: the installer quotes a path holding a space or a shell character).

    Args:
        entry: One handler of a matcher group (any JSON value).
        agent: The host's name on the command line (``codex``).

    Returns:
        ``True`` for ruleweave's own entry.
    """
    if not isinstance(entry, dict) or entry.get("type", "command") != "command":
        return False
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: not a command the installer wrote
        return False
    return (
        len(words) >= 3 and words[0].replace("\\", "/").rsplit("/", 1)[-1] in ("ruleweave", "ruleweave.exe")
        and words[1] == "hook" and words[2] == agent
    )


class HooksJson:
    """One host's Claude-style hook file, and how ruleweave's hooks go in and out of it.

    Attributes:
        agent: The host's name on the command line (``ruleweave hook <agent>``).
        events: The events ruleweave answers, in the order they are added.
        matchers: Event → the ``matcher`` of ruleweave's group (``*``: every tool); an event not named
            gets a group without one.
        fields: Handler fields after ``type`` and ``command`` (Codex's ``timeout``, Gemini's ``name``).
        config_keys: Keys of ``hooks`` that are settings, not events (Qwen's and Gemini's ``enabled``,
            ``disabled``, ``notifications``): never checked nor changed.
        root_keys: The only keys the agent accepts at the file's root (``None``: any).
        error: The exception a refused file raises (a ``RuleweaveError``), with one sentence from
            ``wording``.
        wording: The messages of a refused file.
    """

    __slots__ = ("agent", "config_keys", "error", "events", "fields", "matchers", "root_keys", "wording")

    def __init__(
        self,
        *,
        agent: str,
        events: tuple[str, ...],
        error: type[RuleweaveError],
        matchers: Mapping[str, str] | None = None,
        fields: Mapping[str, Any] | None = None,
        config_keys: frozenset[str] = frozenset(),
        root_keys: frozenset[str] | None = None,
        wording: Wording | None = None,
    ) -> None:
        self.agent = agent
        self.events = events
        self.error = error
        self.matchers: Mapping[str, str] = matchers or {}
        self.fields: Mapping[str, Any] = fields or {}
        self.config_keys = config_keys
        self.root_keys = root_keys
        self.wording = wording or Wording()

    def is_ours(self, entry: Any) -> bool:
        """Whether a hook entry runs ``ruleweave hook <agent>`` (``runs_hook``)."""
        return runs_hook(entry, self.agent)

    def spelled(self, entry: dict[str, Any]) -> str:
        """One of ruleweave's entries as a change line names it: its command."""
        return repr(entry["command"])

    def change(
        self, path: Path, text: str | None, *, command: str, uninstall: bool
    ) -> tuple[str | None, list[str]]:
        """``path``'s new text with ruleweave's hooks added (or removed), and one line per change.

        Args:
            path: The file, for messages.
            text: Its text (``None``: it does not exist).
            command: The hook command line (``ruleweave hook <agent>``).
            uninstall: Take ruleweave's entries out instead.

        Returns:
            The new text (``text`` itself when nothing changes; ``None``: no file, as when an uninstall
            leaves it empty) and the change lines.

        Raises:
            RuleweaveError: ``error``: the file is not JSON, or not the shape the agent reads.
        """
        if text is None or not text.strip():
            settings: Any = {}
        else:
            try:
                settings = json.loads(text)
            except ValueError as exc:
                raise self.error(self.wording.json.format(path=path, exc=exc)) from exc
        self.check(settings, path)
        new, changes = self.uninstall(settings) if uninstall else self.install(settings, command)
        if not changes:
            return text, []
        if uninstall and not new:
            return None, changes  # nothing but ruleweave's hooks was in it
        return json.dumps(new, indent=2, ensure_ascii=False) + "\n", changes

    def check(self, settings: Any, path: Path | None = None) -> None:
        """Refuse settings of a shape the agent would not read either.

        Args:
            settings: The parsed file.
            path: The file, for messages.

        Raises:
            RuleweaveError: ``error``: the root, ``hooks``, an event's list or a matcher group has the wrong
                type, or the root holds a key the agent refuses.
        """
        words = self.wording
        if not isinstance(settings, dict):
            raise self.error(words.object.format(path=path))
        extra = sorted(set(settings) - self.root_keys) if self.root_keys is not None else []
        if extra:
            raise self.error(words.root.format(path=path, keys=", ".join(map(repr, extra))))
        hooks = settings.get("hooks", {})
        if not isinstance(hooks, dict):
            raise self.error(words.hooks.format(path=path))
        for event, groups in hooks.items():
            if event in self.config_keys:
                continue
            if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
                raise self.error(words.groups.format(path=path, event=event))
            if not all(isinstance(g.get("hooks", []), list) for g in groups):
                raise self.error(words.group.format(path=path, event=event))

    def install(self, settings: dict[str, Any], command: str) -> tuple[dict[str, Any], list[str]]:
        """``settings`` (checked) with ruleweave's hook on every event, and one line per change."""
        result = copy.deepcopy(settings)
        hooks = result.setdefault("hooks", {})
        changes: list[str] = []
        for event in self.events:
            groups = hooks.setdefault(event, [])
            ours = [entry for group in groups for entry in group.get("hooks", []) if self.is_ours(entry)]
            for entry in ours:
                if entry["command"] != command:
                    changes.append(f"{event}: re-spelled {entry['command']!r} as {command!r}")
                    entry["command"] = command
            if not ours:
                group: dict[str, Any] = {"matcher": self.matchers[event]} if event in self.matchers else {}
                group["hooks"] = [{"type": "command", "command": command, **self.fields}]
                groups.append(group)
                changes.append(f"{event}: added {command!r}")
        return result, changes

    def uninstall(self, settings: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """``settings`` (checked) without ruleweave's entries, and one line per change: a group or an event
        that held only ruleweave's entries goes, ``hooks`` too when nothing is left in it."""
        result = copy.deepcopy(settings)
        hooks = result.get("hooks")
        if not isinstance(hooks, dict):
            return result, []
        changes: list[str] = []
        for event in list(hooks):
            if event in self.config_keys or not hooks[event]:  # an empty list of theirs stays
                continue
            kept_groups = []
            for group in hooks[event]:
                entries = group.get("hooks", [])
                ours = [entry for entry in entries if self.is_ours(entry)]
                kept = [entry for entry in entries if entry not in ours]
                changes.extend(f"{event}: removed {self.spelled(entry)}" for entry in ours)
                if kept or not entries:
                    kept_groups.append(group if len(kept) == len(entries) else {**group, "hooks": kept})
            if kept_groups:
                hooks[event] = kept_groups
            else:
                del hooks[event]
        if not hooks and changes:
            del result["hooks"]
        return result, changes
