"""roo (priority 40): Roo Code (and Zoo Code) rule folders.

User tier ``~/.roo/rules/`` and ``~/.roo/rules-<mode>/`` first, then
``.roo/rules/`` and ``.roo/rules-<mode>/`` in each directory of the root→cwd
walk (not nested folders: Roo reads the workspace's own ``.roo``). Every file
below them, recursively, in path order, whatever its extension: Roo reads each
file of the folder as rule text (RooCodeInc's own mode rules are ``.xml``) and
skips only cache and system files — ``*.log``, ``*.tmp``, ``*.bak``, ``*.lock``,
``.DS_Store``, ``Thumbs.db`` and the like (``src/core/prompts/sections/custom-instructions.ts``:
``readTextFilesFromDirectory``, ``shouldIncludeRuleFile``). ``.roo/rules/`` is
always applied (Roo puts it in every prompt, frontmatter has no meaning to it).
A mode's folder is always applied when ``RuleweaveConfig.mode`` names that
mode, else manual (``rule://`` only). Name: the path in ``.roo/rules/``
(``.md``, ``.markdown`` and ``.txt`` dropped, other extensions kept:
``style.md`` and ``style.xml`` are two rules); ``rules-<mode>/<path>`` for a
mode's folder, so ``code``'s ``style`` and the shared ``style`` are two rules.

The legacy single files are Roo's fallback, read at the project root only
(``loadRuleFiles``, ``addCustomInstructions``): ``.roorules`` when no
``rules/`` folder gave a file — the user's ``~/.roo/rules`` counts, so a
``.roorules`` is ignored as soon as ``~/.roo/rules`` holds a rule — and
``.roorules-<mode>``, else ``.clinerules-<mode>``, when no ``rules-<mode>/``
folder gave one (for Roo's built-in modes and the configured one). Roo's last
generic fallback, a ``.clinerules`` file, is Cline's file: the ``cline``
provider reads it.

Follows: Roo Code's loader, ``src/core/prompts/sections/custom-instructions.ts`` in
https://github.com/RooCodeInc/Roo-Code.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import Mapper, load_file, load_markdown_rule
from ruleweave.rules import Level, Rule

ID, PRIORITY = "roo", 40
MODE_PREFIX = "rules-"
LEGACY = ".roorules"
CLINE_LEGACY = ".clinerules"
BUILT_IN_MODES = ("architect", "ask", "code", "debug", "orchestrator")
"""Roo's built-in modes (https://docs.roocode.com/basic-usage/using-modes)."""

SKIPPED_SUFFIXES = (
    ".DS_Store", ".bak", ".cache", ".crdownload", ".db", ".dmp", ".dump", ".eslintcache", ".lock",
    ".log", ".old", ".part", ".partial", ".pyc", ".pyo", ".stackdump", ".swo", ".swp", ".temp", ".tmp",
)
"""Cache and system files Roo leaves out of a rule folder (``shouldIncludeRuleFile``)."""
SKIPPED_NAMES = frozenset({"Thumbs.db", "desktop.ini"})
_TEXT_SUFFIXES = (".md", ".markdown", ".txt")


def _always(_: dict[str, Any]) -> dict[str, Any]:
    return {"always_apply": True}


def _manual(_: dict[str, Any]) -> dict[str, Any]:
    return {}


def kept(name: str) -> bool:
    """Whether Roo reads a file of this name in a rule folder (not a cache or system file)."""
    return name not in SKIPPED_NAMES and not name.endswith(SKIPPED_SUFFIXES)


def rule_name(relative: str) -> str:
    """A rule file's name from its ``/``-separated path in the folder: text suffixes dropped."""
    for suffix in _TEXT_SUFFIXES:
        if relative.endswith(suffix) and len(relative) > len(suffix):
            return relative[: -len(suffix)]
    return relative


def load_folder(
    ctx: DiscoveryContext, folder: str, *, provider: str, priority: int, level: Level, mapper: Mapper,
    prefix: str = "",
) -> list[Rule]:
    """Every file of a Roo-style rule folder (any extension, cache files skipped), in path order.

    Args:
        ctx: The discovery context.
        folder: The rule folder (absent is fine).
        provider: Provider id for the rules' source.
        priority: Provider priority.
        level: ``user`` or ``project``.
        mapper: Frontmatter → rule fields (Roo: always or manual, whatever the file says).
        prefix: Put before each name (``rules-code/``).

    Returns:
        The rules.
    """
    if level == "user" and ctx.nested:
        return []
    base = folder.rstrip(os.sep) + os.sep
    rules: list[Rule] = []
    for path in ctx.rule_files(folder, ("",), level=level):  # every name ends with ""
        if not kept(os.path.basename(path)):
            continue
        relative = path[len(base) :] if path.startswith(base) else os.path.basename(path)
        rule = load_markdown_rule(
            ctx, path, provider=provider, priority=priority, level=level, mapper=mapper,
            name=prefix + rule_name(relative.replace(os.sep, "/")),
        )
        if rule is not None:
            rules.append(rule)
    return rules


def mode_folders(ctx: DiscoveryContext, home: str, level: Level) -> list[tuple[str, str]]:
    """``(mode, folder)`` for each ``rules-<mode>`` directory in ``home``, sorted by mode."""
    if not os.path.isdir(home) or not ctx.contained(home, level):
        return []
    try:
        with os.scandir(home) as entries:
            names = sorted(e.name for e in entries if e.name.startswith(MODE_PREFIX) and e.is_dir())
    except OSError:
        return []  # absent or unreadable: nothing to read (rule_files warns on the rest)
    return [(name[len(MODE_PREFIX) :], under(home, name)) for name in names if len(name) > len(MODE_PREFIX)]


def load_home(
    ctx: DiscoveryContext, home: str, level: Level, *, provider: str, priority: int, modes: bool = True
) -> list[Rule]:
    """``<home>/rules/`` (always applied) and, with ``modes``, each ``<home>/rules-<mode>/``."""
    rules = load_folder(
        ctx, under(home, "rules"), provider=provider, priority=priority, level=level, mapper=_always
    )
    for mode, folder in mode_folders(ctx, home, level) if modes else ():
        rules += load_folder(
            ctx, folder, provider=provider, priority=priority, level=level,
            mapper=_always if mode == ctx.config.mode else _manual, prefix=f"{os.path.basename(folder)}/",
        )
    return rules


def legacy_modes(ctx: DiscoveryContext) -> list[str]:
    """The modes whose legacy ``<file>-<mode>`` is looked for: Roo's own and the configured one.

    Probed by name rather than by listing the project root, which discovery never lists.
    """
    mode = ctx.config.mode
    return sorted({*BUILT_IN_MODES, *([mode] if mode and "/" not in mode else [])})


def load_legacy(
    ctx: DiscoveryContext, root: Path, found: list[Rule], *, provider: str, priority: int,
    generic: tuple[str, ...], per_mode: tuple[str, ...],
) -> list[Rule]:
    """The first present of ``generic`` and, per mode, of ``<per_mode>-<mode>``, where ``found``
    (every folder's rules, the user tier's included) has none of that kind."""
    have = {rule.name.partition("/")[0] if rule.name.startswith(MODE_PREFIX) else "" for rule in found}
    rules: list[Rule] = []
    if "" not in have:
        for name in generic:
            rules += load_file(
                ctx, root / name, provider=provider, priority=priority, level="project", name=name,
                mapper=_always,
            )
            if rules:
                break
    for mode in legacy_modes(ctx):
        if MODE_PREFIX + mode in have:
            continue
        mapper = _always if mode == ctx.config.mode else _manual
        for stem in per_mode:
            got = load_file(
                ctx, root / f"{stem}-{mode}", provider=provider, priority=priority, level="project",
                name=f"{stem}-{mode}", mapper=mapper,
            )
            rules += got
            if got:
                break
    return rules


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Roo Code rules, user tier first."""
    if ctx.nested:
        return []
    rules = load_home(ctx, under(ctx.config.user_home, ".roo"), "user", provider=ID, priority=PRIORITY)
    for directory in ctx.walk:
        rules += load_home(ctx, under(directory, ".roo"), "project", provider=ID, priority=PRIORITY)
    rules += load_legacy(
        ctx, ctx.config.root, rules, provider=ID, priority=PRIORITY, generic=(LEGACY,),
        per_mode=(LEGACY, CLINE_LEGACY),
    )
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load, "~/.roo/rules*, .roo/rules/, .roo/rules-<mode>/, else .roorules(-<mode>), "
    ".clinerules-<mode>",
    places=True,
)
