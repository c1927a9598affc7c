"""Instruction-file formats: which names each agent reads, where, and whether ``@path`` expands.

The table below is the data; ``plan`` turns it, the configured names
(``RuleweaveConfig.instruction_files``) and the names agents' own settings add
(``agent_settings``) into what one directory is searched for.

In a directory the formats are read in table order (that order is the
priority a shared text keeps, see ``Expander.claim``). Formats of one
``group`` are alternatives, the first present wins: Codex reads
``AGENTS.override.md`` instead of ``AGENTS.md`` and its
``project_doc_fallback_filenames`` only when neither is there, and Amp reads
its legacy ``AGENT.md`` only when there is no ``AGENTS.md``; Junie takes the
first of ``.junie/AGENTS.md`` and ``.junie/guidelines.md``. ``root_only``
formats are read in the project root alone (Zed, Augment, Roo, Junie); Crush's
``CRUSH.md`` is read like ``AGENTS.md`` (its docs name the working directory only);
``above_root`` ones also in each directory above the project root, up to the
file system root, before the project's (Claude Code's upward walk).
``imports``: ``@path`` lines expand (Claude Code, Gemini CLI); every other
format keeps ``@path`` as text the model may read (Codex, OpenCode, Copilot
do not expand).

User-tier files are in ``user_files``: ``$CLAUDE_CONFIG_DIR/CLAUDE.md``,
``$CODEX_HOME/AGENTS.override.md`` or ``AGENTS.md``, ``~/.gemini/GEMINI.md``
(and the other ``context.fileName`` names), ``~/.config/amp/AGENTS.md`` and
``~/.config/goose/.goosehints``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence, Set
from pathlib import Path
from typing import NamedTuple

from ruleweave._files.paths import is_within, normalise
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext


class FileFormat(NamedTuple):
    """One instruction-file name and how its agent reads it.

    Attributes:
        name: The path relative to the directory holding it (``.junie/guidelines.md``).
        agent: Who reads it (for people: the README's provider table, ``scan``).
        imports: ``@path`` lines expand into the imported file's text.
        group: Formats sharing a group are alternatives in one directory: the first present wins.
        root_only: Read in the project root only (never in directories below it).
        above_root: Also read in the directories above the project root.
    """

    name: str
    agent: str
    imports: bool = False
    group: str = ""
    root_only: bool = False
    above_root: bool = False


FORMATS: tuple[FileFormat, ...] = (
    FileFormat("AGENTS.override.md", "Codex", group="agents"),
    FileFormat("AGENTS.md", "Codex, Amp, OpenCode, Copilot, Cursor, Junie…", group="agents"),
    FileFormat("AGENT.md", "Amp (legacy name)", group="agents"),
    FileFormat("CLAUDE.md", "Claude Code", imports=True, above_root=True),
    FileFormat(".claude/CLAUDE.md", "Claude Code", imports=True),
    FileFormat("CLAUDE.local.md", "Claude Code", imports=True, above_root=True),
    FileFormat("GEMINI.md", "Gemini CLI", imports=True),
    FileFormat("WARP.md", "Warp"),
    FileFormat("CRUSH.md", "Crush"),
    FileFormat(".goosehints", "Goose"),
    FileFormat(".junie/AGENTS.md", "JetBrains Junie", group="junie", root_only=True),
    FileFormat(".junie/guidelines.md", "JetBrains Junie", group="junie", root_only=True),
    FileFormat(".rules", "Zed", root_only=True),
    FileFormat(".augment-guidelines", "Augment", root_only=True),
)
"""Every instruction-file format ruleweave knows, in priority order."""

BY_NAME: dict[str, FileFormat] = {f.name: f for f in FORMATS}

CODEX_FALLBACK = FileFormat("", "Codex (project_doc_fallback_filenames)", group="agents")
"""The shape of a name from Codex's ``project_doc_fallback_filenames``."""

GEMINI_NAME = FileFormat("", "Gemini CLI (context.fileName)", imports=True)
"""The shape of a name from Gemini CLI's ``context.fileName``."""

CONFIGURED = FileFormat("", "configured")
"""The shape of a configured name no agent above defines (``@path`` stays text)."""


def plan(
    config: RuleweaveConfig, codex: tuple[str, ...] = (), gemini: tuple[str, ...] = ()
) -> list[FileFormat]:
    """The formats to look for in a directory, in priority order.

    Args:
        config: Its ``instruction_files`` are the names (unknown ones read as plain text).
        codex: Names from Codex's ``project_doc_fallback_filenames`` (alternatives of ``AGENTS.md``).
        gemini: Names from Gemini CLI's ``context.fileName`` (read with ``@path`` imports).

    Returns:
        One format per name, configured names first, each name once.
    """
    found: dict[str, FileFormat] = {}
    for name in config.instruction_files:
        found.setdefault(name, BY_NAME.get(name) or CONFIGURED._replace(name=name))
    for name in codex:
        found.setdefault(name, CODEX_FALLBACK._replace(name=name))
    for name in gemini:
        found.setdefault(name, GEMINI_NAME._replace(name=name))
    return list(found.values())


def user_files(config: RuleweaveConfig, gemini: tuple[str, ...] = ()) -> list[tuple[Path, FileFormat]]:
    """The user tier's instruction files, in blob order, each with its format.

    Formats of one group are alternatives (Codex's override), as in a directory.
    """
    home = config.user_home
    codex = config.codex_dir
    files = [
        (config.claude_dir / "CLAUDE.md", BY_NAME["CLAUDE.md"]),
        (codex / "AGENTS.override.md", BY_NAME["AGENTS.override.md"]._replace(group="codex-user")),
        (codex / "AGENTS.md", BY_NAME["AGENTS.md"]._replace(group="codex-user")),
    ]
    for name in dict.fromkeys(("GEMINI.md", *gemini)):
        files.append((home / ".gemini" / name, GEMINI_NAME._replace(name=name)))
    files.append((home / ".config" / "amp" / "AGENTS.md", BY_NAME["AGENTS.md"]._replace(group="")))
    files.append((home / ".config" / "goose" / ".goosehints", BY_NAME[".goosehints"]))
    return files


def present(
    ctx: DiscoveryContext, directory: Path, formats: Sequence[FileFormat], *, root_dir: bool,
    listed: Set[str] | None = None,
) -> list[tuple[Path, FileFormat]]:
    """The instruction files to read in ``directory``: per group, the first present one.

    One listing of ``directory`` decides which names can be there; only those are
    checked against the symlink policy.

    Args:
        ctx: The discovery context (symlink policy, warnings).
        directory: A directory of the project.
        formats: The formats, in priority order.
        root_dir: ``directory`` is the project root (``root_only`` formats are read there only).
        listed: The names in ``directory``, when the caller has them already.
    """
    if listed is None:
        try:
            listed = set(os.listdir(directory))
        except OSError:
            return []  # absent or unreadable: the walk and the tree report directories
    found: list[tuple[Path, FileFormat]] = []
    taken: set[str] = set()
    for fmt in formats:
        if (fmt.root_only and not root_dir) or (fmt.group and fmt.group in taken):
            continue
        head = fmt.name.split("/", 1)[0]
        if head not in listed:
            if not _stays_inside(fmt.name):
                ctx.warn(
                    directory / fmt.name, f"instruction file name {fmt.name!r} leaves its directory; ignored"
                )
            continue
        path = normalise(directory / fmt.name)
        if not is_within(path, directory) or path == directory:
            ctx.warn(path, f"instruction file name {fmt.name!r} leaves its directory; ignored")
            continue
        if ctx.is_file(path, "project") and (not fmt.group or non_empty(path)):
            if fmt.group:
                taken.add(fmt.group)
            found.append((path, fmt))
    return found


def _stays_inside(name: str) -> bool:
    parts = name.replace("\\", "/").split("/")
    return bool(name) and not name.startswith(("/", "~")) and ".." not in parts and name not in (".", "")


def non_empty(path: Path) -> bool:
    """Whether a file has bytes (Codex takes the first non-empty file of a group)."""
    try:
        return os.stat(path).st_size > 0
    except OSError:
        return True  # the read reports it
