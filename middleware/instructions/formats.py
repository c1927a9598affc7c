"""Instruction-file formats: which names each agent reads, where, and whether ``@path`` expands.

The table below is the data; ``plan`` turns it, the configured names
(``RuleweaveConfig.instruction_files``) and the names agents' own settings add
(``agent_settings``) into what one directory is searched for.

In a directory the formats are read in table order (that order is the
priority a shared text keeps, see ``Expander.claim``). Formats of one
``group`` are alternatives, the first present wins: Codex reads
``AGENTS.override.md`` instead of ``AGENTS.md`` and its
``project_doc_fallback_filenames`` only when neither is there, Amp reads
its legacy ``AGENT.md`` only when there is no ``AGENTS.md``, and OpenCode its
deprecated ``CONTEXT.md`` only when there is no ``AGENTS.md``
(``packages/opencode/src/session/instruction.ts``: ``FILES``, the first name found
wins; OpenCode also skips ``CONTEXT.md`` beside a ``CLAUDE.md``, which ruleweave
reads for Claude Code anyway); Junie takes the first of ``.junie/AGENTS.md`` and
``.junie/guidelines.md``. ``AGENTS.local.md`` (Roo Code's
``loadAgentRulesFileFromDirectory``, OpenCode's ``.local.md`` variant) is read
beside ``AGENTS.md``. Crush folds the case of its names and reads the first of
``CRUSH.md`` and ``crush.md`` (``internal/agent/prompt/prompt.go``:
``loadContextFiles`` keys by the lower-cased path; on a case-sensitive file
system its own lookup of ``CRUSH.md`` misses a lowercase ``crush.md``, on macOS
it opens it), and ``CRUSH.local.md``. ``root_only`` formats are read in the project
root alone (Zed, Augment, Roo, Junie); ``above_root`` ones also in each directory
above the project root, up to the file system root, before the project's (Claude
Code's upward walk).
``imports``: ``@path`` lines expand (Claude Code, Gemini CLI, Qwen Code, and Goose's
``.goosehints``, which inlines ``@file`` references inside the git root
three levels deep: ``crates/goose/src/hints/import_files.rs``, ``MAX_DEPTH``);
``import_depth`` caps a format's nesting below ``import_max_depth``; every other
format keeps ``@path`` as text the model may read (Codex, OpenCode, Copilot
do not expand).

User-tier files are in ``user_files``: Claude Code's managed
``<claude_managed_dir>/CLAUDE.md`` (``/etc/claude-code/CLAUDE.md`` on Linux) first,
then ``$CLAUDE_CONFIG_DIR/CLAUDE.md``, ``$CODEX_HOME/AGENTS.override.md`` or
``AGENTS.md``, ``~/.gemini/GEMINI.md`` and ``~/.qwen/QWEN.md`` (and the other
``context.fileName`` names), ``~/.config/amp/AGENTS.md``,
``~/.config/opencode/AGENTS.md`` and ``AGENTS.local.md``, Crush's
``~/.config/crush/CRUSH.md`` and ``~/.config/AGENTS.md``, and
``~/.config/goose/.goosehints`` (``~/.config`` is ``xdg_config_home``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence, Set
from pathlib import Path
from typing import NamedTuple

from ruleweave._files.paths import is_within, normalise
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext

GOOSE_IMPORT_DEPTH = 3
"""Goose expands ``@file`` references in ``.goosehints`` three levels deep (``import_files.rs``)."""


class FileFormat(NamedTuple):
    """One instruction-file name and how its agent reads it.

    Attributes:
        name: The path relative to the directory holding it (``.junie/guidelines.md``).
        agent: Who reads it (for people: the README's provider table, ``scan``).
        imports: ``@path`` lines expand into the imported file's text.
        group: Formats sharing a group are alternatives in one directory: the first present wins.
        root_only: Read in the project root only (never in directories below it).
        above_root: Also read in the directories above the project root.
        import_depth: Its agent's own nesting limit of imports, when lower than
            ``import_max_depth`` (0: none of its own).
        follows: The agent's source file or documentation page this reading follows
            (``docs/formats.md`` shows it; every entry of ``FORMATS`` has one).
    """

    name: str
    agent: str
    imports: bool = False
    group: str = ""
    root_only: bool = False
    above_root: bool = False
    import_depth: int = 0
    follows: str = ""


# Sources several formats follow (``FileFormat.follows``).
_CODEX_DOC = "Codex's docs, https://developers.openai.com/codex/guides/agents-md"
_CLAUDE_DOC = "Claude Code's memory docs, https://code.claude.com/docs/en/memory"
_OPENCODE_SOURCE = (
    "OpenCode's ``packages/opencode/src/session/instruction.ts`` (https://github.com/anomalyco/opencode)"
)
_CRUSH_SOURCE = (
    "Crush's ``internal/config/config.go`` (``defaultContextPaths``) and ``internal/agent/prompt/prompt.go`` "
    "(``loadContextFiles``), https://github.com/charmbracelet/crush"
)
_JUNIE_DOC = "Junie's docs, https://junie.jetbrains.com/docs/guidelines-and-memory.html"

FORMATS: tuple[FileFormat, ...] = (
    FileFormat("AGENTS.override.md", "Codex", group="agents", follows=_CODEX_DOC),
    FileFormat(
        "AGENTS.md", "Codex, Amp, OpenCode, Copilot, Cursor, Junie…", group="agents",
        follows=f"{_CODEX_DOC}; the shared format, https://agents.md",
    ),
    FileFormat("AGENT.md", "Amp (legacy name)", group="agents",
               follows="Amp's manual, https://ampcode.com/manual (\"AGENTS.md\")"),
    FileFormat("CONTEXT.md", "OpenCode (deprecated name)", group="agents",
               follows=f"{_OPENCODE_SOURCE}: ``FILES``"),
    FileFormat(
        "AGENTS.local.md", "Roo Code, OpenCode (personal)",
        follows="Roo Code's ``src/core/prompts/sections/custom-instructions.ts`` "
        "(``loadAgentRulesFileFromDirectory``, https://github.com/RooCodeInc/Roo-Code); "
        f"{_OPENCODE_SOURCE}",
    ),
    FileFormat("CLAUDE.md", "Claude Code", imports=True, above_root=True, follows=_CLAUDE_DOC),
    FileFormat(".claude/CLAUDE.md", "Claude Code", imports=True, follows=_CLAUDE_DOC),
    FileFormat("CLAUDE.local.md", "Claude Code", imports=True, above_root=True, follows=_CLAUDE_DOC),
    FileFormat(
        "GEMINI.md", "Gemini CLI", imports=True,
        follows="Gemini CLI's memory discovery, ``packages/core/src/utils/memoryDiscovery.ts`` "
        "(https://github.com/google-gemini/gemini-cli); docs: https://geminicli.com/docs/cli/gemini-md",
    ),
    FileFormat(
        "QWEN.md", "Qwen Code", imports=True,
        follows="Qwen Code's memory discovery, ``packages/core/src/utils/memoryDiscovery.ts``, and "
        "``packages/core/src/tools/memoryTool.ts`` (``DEFAULT_CONTEXT_FILENAME``), "
        "https://github.com/QwenLM/qwen-code",
    ),
    FileFormat(
        ".qwen/QWEN.local.md", "Qwen Code (personal)", imports=True, root_only=True,
        follows="Qwen Code's ``loadServerHierarchicalMemory`` in "
        "``packages/core/src/memory/memoryDiscovery.ts`` (``LOCAL_CONTEXT_FILENAME``, "
        "``packages/core/src/utils/memory-constants.ts``, 0.24.4), "
        "https://github.com/QwenLM/qwen-code",
    ),
    FileFormat("WARP.md", "Warp",
               follows="Warp's rules docs, https://docs.warp.dev/knowledge-and-collaboration/rules"),
    FileFormat("CRUSH.md", "Crush", group="crush", follows=_CRUSH_SOURCE),
    FileFormat("crush.md", "Crush (lowercase name)", group="crush", follows=_CRUSH_SOURCE),
    FileFormat("CRUSH.local.md", "Crush (personal)", follows=_CRUSH_SOURCE),
    FileFormat(
        ".goosehints", "Goose", imports=True, import_depth=GOOSE_IMPORT_DEPTH,
        follows="Goose's docs, https://block.github.io/goose/docs/guides/using-goosehints, and "
        "``crates/goose/src/hints/import_files.rs`` (https://github.com/block/goose)",
    ),
    FileFormat(".junie/AGENTS.md", "JetBrains Junie", group="junie", root_only=True, follows=_JUNIE_DOC),
    FileFormat(".junie/guidelines.md", "JetBrains Junie", group="junie", root_only=True, follows=_JUNIE_DOC),
    FileFormat(".rules", "Zed", root_only=True, follows="Zed's rules docs, https://zed.dev/docs/ai/rules"),
    FileFormat(".augment-guidelines", "Augment", root_only=True,
               follows="Augment's docs, https://docs.augmentcode.com/setup-augment/guidelines"),
)
"""Every instruction-file format ruleweave knows, in priority order."""

BY_NAME: dict[str, FileFormat] = {f.name: f for f in FORMATS}

CODEX_FALLBACK = FileFormat("", "Codex (project_doc_fallback_filenames)", group="agents")
"""The shape of a name from Codex's ``project_doc_fallback_filenames``."""

GEMINI_NAME = FileFormat("", "Gemini CLI (context.fileName)", imports=True)
"""The shape of a name from Gemini CLI's ``context.fileName``."""

QWEN_NAME = FileFormat("", "Qwen Code (context.fileName)", imports=True)
"""The shape of a name from Qwen Code's ``context.fileName`` (Gemini CLI's setting, in ``.qwen``)."""

CONFIGURED = FileFormat("", "configured")
"""The shape of a configured name no agent above defines (``@path`` stays text)."""


def plan(
    config: RuleweaveConfig, codex: tuple[str, ...] = (), gemini: tuple[str, ...] = (),
    qwen: tuple[str, ...] = (),
) -> list[FileFormat]:
    """The formats to look for in a directory, in priority order.

    Args:
        config: Its ``instruction_files`` are the names (unknown ones read as plain text).
        codex: Names from Codex's ``project_doc_fallback_filenames`` (alternatives of ``AGENTS.md``).
        gemini: Names from Gemini CLI's ``context.fileName`` (read with ``@path`` imports).
        qwen: Names from Qwen Code's ``context.fileName`` (read with ``@path`` imports).

    Returns:
        One format per name, configured names first, each name once; a name Gemini CLI's
        or Qwen Code's setting gives is read as that agent reads it (``@path`` expanded,
        never an alternative of ``AGENTS.md``), even when another agent has it too (``CONTEXT.md``).
        No name of ``config.native_files`` (the agent served reads those itself).
    """
    found: dict[str, FileFormat] = {}
    for name in config.instruction_files:
        found.setdefault(name, BY_NAME.get(name) or CONFIGURED._replace(name=name))
    for name in codex:
        found.setdefault(name, CODEX_FALLBACK._replace(name=name))
    for names, shape in ((gemini, GEMINI_NAME), (qwen, QWEN_NAME)):
        for name in names:
            known = found.get(name)
            if known is None or not known.imports:  # the setting's agent reads it, imports expanded
                found[name] = shape._replace(name=name)
    native = frozenset(config.native_files)
    return [fmt for name, fmt in found.items() if name not in native]


def user_files(
    config: RuleweaveConfig, gemini: tuple[str, ...] = (), qwen: tuple[str, ...] = ()
) -> list[tuple[Path, FileFormat]]:
    """The user tier's instruction files, in blob order, each with its format.

    Formats of one group are alternatives (Codex's override), as in a directory.

    Args:
        config: Where the homes are.
        gemini: Gemini CLI's ``context.fileName`` names (default ``GEMINI.md``).
        qwen: Qwen Code's ``context.fileName`` names (default ``QWEN.md``).
    """
    home = config.user_home
    codex = config.codex_dir
    xdg = config.xdg_config_home or home / ".config"
    plain = BY_NAME["AGENTS.md"]._replace(group="")
    files = [
        (config.claude_managed / "CLAUDE.md", BY_NAME["CLAUDE.md"]),
        (config.claude_dir / "CLAUDE.md", BY_NAME["CLAUDE.md"]),
        (codex / "AGENTS.override.md", BY_NAME["AGENTS.override.md"]._replace(group="codex-user")),
        (codex / "AGENTS.md", BY_NAME["AGENTS.md"]._replace(group="codex-user")),
    ]
    for name in dict.fromkeys(("GEMINI.md", *gemini)):
        files.append((config.gemini_dir / name, GEMINI_NAME._replace(name=name)))
    for name in dict.fromkeys(("QWEN.md", *qwen)):
        files.append((config.qwen_dir / name, QWEN_NAME._replace(name=name)))
    files += [
        (home / ".config" / "amp" / "AGENTS.md", plain),
        (xdg / "opencode" / "AGENTS.md", plain),  # OpenCode's Global.Path.config
        (xdg / "opencode" / "AGENTS.local.md", BY_NAME["AGENTS.local.md"]),
        (xdg / "crush" / "CRUSH.md", BY_NAME["CRUSH.md"]._replace(group="")),  # GlobalContextPaths
        (xdg / "AGENTS.md", plain),
        (xdg / "goose" / ".goosehints", BY_NAME[".goosehints"]),
    ]
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
        # The first present file wins its group, even one without text: Codex 0.171.0 probes each
        # name for a regular file and then skips an empty one, so a blank AGENTS.override.md hides
        # AGENTS.md (a real run; ``agents_md.rs``), and OpenCode takes the first name found.
        if ctx.is_file(path, "project"):
            if fmt.group:
                taken.add(fmt.group)
            found.append((path, fmt))
    return found


def _stays_inside(name: str) -> bool:
    parts = name.replace("\\", "/").split("/")
    return bool(name) and not name.startswith(("/", "~")) and ".." not in parts and name not in (".", "")
