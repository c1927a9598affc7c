"""aider (priority 30): the files Aider's ``.aider.conf.yml`` names under ``read:``.

Aider loads no conventions file by itself: ``CONVENTIONS.md`` (its documented
name, https://aider.chat/docs/usage/conventions.html) reaches the chat only
when ``--read`` or ``read:`` in ``.aider.conf.yml`` names it. Aider looks for
``.aider.conf.yml`` in cwd, the git root and the home directory, the nearer
file overriding the farther (``aider/main.py``: ``default_config_files``,
reversed for ``configargparse``), so the nearest file that sets ``read`` gives
the list. Each entry is a path (a string or a list of them), relative to cwd
(``Path(fn).expanduser().resolve()``; ``~/`` is the home directory); a
directory stands for every file below it. Every file is one always-applied,
read-only rule, named by its path relative to the project root (``~/…`` for a
file in the home directory, a user-tier rule). Nothing leaves the project and
the home directory; a config that is not valid YAML, or a ``read`` that is not
a path or a list of paths, is a warning naming the file. Files another
provider already reads (instruction files, other agents' rule folders) are
skipped, as OpenCode's ``instructions`` are.

Follows: Aider's ``aider/main.py`` in https://github.com/Aider-AI/aider, and its
conventions docs, https://aider.chat/docs/usage/conventions.html.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ruleweave._files.paths import is_within, normalise
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.opencode import read_elsewhere
from ruleweave.discovery.placement import base_of
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_markdown_rule
from ruleweave.rules import Level, Rule

ID, PRIORITY = "aider", 30
CONFIG = ".aider.conf.yml"


def _always(_: dict[str, Any]) -> dict[str, Any]:
    return {"always_apply": True}


def _read_entries(ctx: DiscoveryContext) -> tuple[Path, list[str]] | None:
    """The nearest ``.aider.conf.yml`` that sets ``read``, and its entries."""
    config = ctx.config
    places: list[tuple[Path, Level]] = [(Path(config.cwd), "project"), (Path(config.root), "project"),
                                        (Path(config.user_home), "user")]
    for directory, level in dict.fromkeys(places):
        path = directory / CONFIG
        if not ctx.is_file(path, level):
            continue
        text = ctx.read(path)
        if text is None:
            continue
        from ruleweave.frontmatter import yaml_load  # YAML only when Aider has a config here

        try:
            data = yaml_load(text)
        except Exception as exc:  # yaml.YAMLError, ValueError, RecursionError: a bad file, not a crash
            ctx.warn(path, f"is not valid YAML ({exc.__class__.__name__}); its read: list was not used")
            continue
        value = data.get("read") if isinstance(data, dict) else None
        if value is None:
            continue
        entries = [value] if isinstance(value, str) else value
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            ctx.warn(path, "read is not a path or a list of paths; ignored")
            return None
        return path, [entry.strip() for entry in entries if entry.strip()]
    return None


def _files(ctx: DiscoveryContext, config: Path, entry: str) -> list[tuple[Path, Level]]:
    """The files one ``read`` entry names, each with its tier."""
    home = normalise(ctx.config.user_home)
    root = normalise(ctx.config.root)
    if "\x00" in entry:
        ctx.warn(config, f"read entry {entry!r} holds a NUL character; skipped")
        return []
    spelled = str(home) + entry[1:] if entry == "~" or entry.startswith("~/") else entry
    target = normalise(Path(ctx.config.cwd) / spelled)
    level: Level = "project" if is_within(target, root) else "user"
    if level == "user" and not is_within(target, home):
        ctx.warn(config, f"read entry {entry!r} leaves the project and the home directory; skipped")
        return []
    if os.path.isdir(target):
        return [(Path(p), level) for p in ctx.rule_files(target, ("",), level=level)]
    if not ctx.is_file(target, level):
        ctx.warn(config, f"read entry {entry!r} names no file; skipped")
        return []
    return [(target, level)]


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load the files the nearest ``.aider.conf.yml`` names under ``read:``."""
    if ctx.nested:
        return []
    found = _read_entries(ctx)
    if found is None:
        return []
    config, entries = found
    root = normalise(ctx.config.root)
    home = normalise(ctx.config.user_home)
    walk = ctx.walk_spelled
    rules: list[Rule] = []
    taken: set[Path] = set()
    for entry in entries:
        for path, level in _files(ctx, config, entry):
            if path in taken or (level == "project" and read_elsewhere(ctx, path, root)):
                continue
            taken.add(path)
            if level == "user":
                name = "~/" + path.relative_to(home).as_posix()
            else:  # relative to the walk directory it is placed in (placement adds that directory)
                name = path.relative_to(root / base_of(str(path), walk, str(root))).as_posix()
            rule = load_markdown_rule(
                ctx, path, provider=ID, priority=PRIORITY, level=level, mapper=_always, name=name
            )
            if rule is not None:
                rules.append(rule)
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load, "read: of the nearest .aider.conf.yml (cwd, git root, ~)", places=True,
)
