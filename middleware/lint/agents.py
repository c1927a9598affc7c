"""What each coding agent reads, in one table: files at session start, rule formats, limits, glob dialect.

Everything ``ruleweave lint`` knows about an agent lives here, as data, so
that adding an agent (or a limit an agent documents) is one entry:

* ``instruction_files`` — files the agent loads at session start in each
  directory from the project root down to its working directory (root first);
  ``first_only`` when it takes just the first one present per directory
  (Codex: ``AGENTS.override.md`` over ``AGENTS.md``);
* ``providers`` — the ruleweave providers whose rule formats the agent reads;
* its glob dialect is its provider's (``Provider.dialect``): ``anywhere`` (a
  bare ``*.py`` matches the file name in any directory, as Cursor and
  Windsurf do) or ``root`` (only files in the root, as Claude Code ``paths``,
  Copilot ``applyTo`` and Cline ``paths`` do);
* ``limits`` — documented limits, each with its documented name and what the
  agent does past it;
* ``ignores`` — rule files of its own format the agent never reads.

ruleweave's own budgets come from ``RuleweaveConfig`` (``limits.py``), not from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ruleweave.discovery.placement import GlobDialect
from ruleweave.discovery.registry import PROVIDERS
from ruleweave.instructions.agent_settings import AgentNames
from ruleweave.lint.findings import Severity

LimitScope = Literal["rule-file", "instruction-file", "chain", "hook-context"]
"""What a limit measures: each rule file, each instruction file, the concatenated
instruction chain (root first), or the text a hook hands the agent."""


@dataclass(frozen=True, slots=True)
class Limit:
    """A limit an agent documents.

    Attributes:
        scope: What it measures (``LimitScope``).
        amount: The limit.
        unit: ``characters`` or ``bytes``.
        name: The documented name (``project_doc_max_bytes``).
        consequence: What the agent does past it, completing "... so <agent> ...".
        severity: ``warning`` when the agent loses text, ``info`` when only a side feature does.
    """

    scope: LimitScope
    amount: int
    unit: Literal["characters", "bytes"]
    name: str
    consequence: str
    severity: Severity = "warning"


@dataclass(frozen=True, slots=True)
class Ignore:
    """Rule files of the agent's own format that it never reads.

    Attributes:
        reason: One clause saying why (``Cursor reads only .mdc files in .cursor/rules``).
        path_glob: Matches the rule file's path relative to the project root ('' for none).
        key: A frontmatter key (snake case) whose value makes the agent skip the file ('' for none).
        values: The values of ``key`` that do.
    """

    reason: str
    path_glob: str = ""
    key: str = ""
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Agent:
    """One coding agent as lint sees it.

    Attributes:
        id: The name ``--agent`` takes.
        label: The product's name.
        providers: ruleweave provider ids whose rule formats it reads.
        instruction_files: Files loaded at session start in each directory, root first.
        first_only: Only the first of ``instruction_files`` present in a directory is loaded.
        limits: Documented limits.
        ignores: Files of its format it skips.
        setting: The field of ``AgentNames`` whose names the agent's own settings add (``codex``:
            ``project_doc_fallback_filenames``; ``gemini``, ``qwen``: ``context.fileName``); '' for none.
        replaced: Which of ``instruction_files`` a non-empty setting replaces (Qwen Code's defaults).
    """

    id: str
    label: str
    providers: tuple[str, ...] = ()
    instruction_files: tuple[str, ...] = ()
    first_only: bool = False
    limits: tuple[Limit, ...] = ()
    ignores: tuple[Ignore, ...] = ()
    setting: str = ""
    replaced: tuple[str, ...] = ()

    @property
    def dialect(self) -> GlobDialect:
        """How its globs match: its first provider's dialect (``anywhere`` when it reads no rule format)."""
        return dialect_of(self.providers[0]) if self.providers else "anywhere"


AGENTS: tuple[Agent, ...] = (
    Agent(
        "claude", "Claude Code", ("claude",),
        ("AGENTS.md", "CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"),
        limits=(
            Limit("hook-context", 10_000, "characters", "hook additionalContext limit",
                  "Claude Code replaces it with a file pointer and a 2 KB preview"),
        ),
    ),
    Agent(
        "codex", "Codex CLI", (), ("AGENTS.override.md", "AGENTS.md"), first_only=True,
        limits=(
            Limit("chain", 32 * 1024, "bytes", "project_doc_max_bytes",
                  "Codex drops everything past it (ruleweave's Codex hooks send that part)"),
        ),
        setting="codex",
    ),
    Agent(
        "copilot", "GitHub Copilot", ("copilot",), (".github/copilot-instructions.md", "AGENTS.md"),
        limits=(
            Limit("instruction-file", 4_000, "characters", "code review instruction limit",
                  "Copilot code review reads only the start (the coding agent reads it whole)", "info"),
        ),
        # No ignore for ``excludeAgent: coding-agent``: Copilot code review still reads such a file
        # (https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions).
    ),
    Agent(
        "cursor", "Cursor", ("cursor",), ("AGENTS.md",),
        ignores=(
            Ignore("Cursor reads only .mdc files in .cursor/rules", path_glob="**/.cursor/rules/**/*.md"),
        ),
    ),
    Agent(
        "windsurf", "Windsurf", ("windsurf",),
        limits=(
            Limit("rule-file", 12_000, "characters", "rule file limit",
                  "Windsurf ignores the rest"),
        ),
    ),
    Agent("gemini", "Gemini CLI", (), ("GEMINI.md",), setting="gemini"),
    Agent("qwen", "Qwen Code", ("qwen",), ("QWEN.md", "AGENTS.md", ".qwen/QWEN.local.md"),
          setting="qwen", replaced=("QWEN.md", "AGENTS.md")),
    Agent("amp", "Amp", (), ("AGENTS.md", "AGENT.md"), first_only=True),
    Agent("opencode", "OpenCode", ("opencode",), ("AGENTS.md",)),
    Agent("warp", "Warp", (), ("WARP.md",)),
    Agent("crush", "Crush", (), ("CRUSH.md",)),
    Agent("goose", "Goose", (), (".goosehints",)),
    Agent(
        "zed", "Zed", (),
        (".rules", ".cursorrules", ".windsurfrules", ".clinerules", ".github/copilot-instructions.md",
         "AGENT.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md"),
        first_only=True,
    ),
    Agent("junie", "JetBrains Junie", ("junie",), (".junie/guidelines.md", ".junie/AGENTS.md")),
    Agent("roo", "Roo Code", ("roo",)),
    Agent("cline", "Cline", ("cline",)),
    Agent("continue", "Continue", ("continue",)),
    Agent("kiro", "Kiro", ("kiro",)),
    Agent("agents", ".agents rules", ("agents",)),
    Agent("trae", "Trae", ("trae",)),
    Agent("augment", "Augment", ("augment",)),
    Agent("aiassistant", "JetBrains AI Assistant", ("aiassistant",)),
    Agent("ruleweave", "ruleweave", ("native",)),
)
"""Every agent lint knows, in ``--agent`` order."""

AGENT_IDS: tuple[str, ...] = tuple(agent.id for agent in AGENTS)
"""The names ``--agent`` takes."""

INSTRUCTION_FILES: tuple[str, ...] = tuple(
    dict.fromkeys(name for agent in AGENTS for name in agent.instruction_files)
)
"""Every agent's session-start file names (relative to a directory), without repeats."""


def names_in(agent: Agent, settings: AgentNames) -> tuple[str, ...]:
    """The agent's session-start file names in a project: its own, with those its settings add.

    Args:
        agent: The agent.
        settings: The names the agents' own settings give in the project (``read_agent_names``).

    Returns:
        The names, in the agent's order (a setting's after its own, or in place of ``replaced``).
    """
    named: tuple[str, ...] = getattr(settings, agent.setting) if agent.setting else ()
    if not named:
        return agent.instruction_files
    own = tuple(n for n in agent.instruction_files if n not in agent.replaced)
    return tuple(dict.fromkeys((*own, *named)))


def agent(agent_id: str) -> Agent | None:
    """The agent called ``agent_id``, or ``None``."""
    return next((a for a in AGENTS if a.id == agent_id), None)


def dialect_of(provider: str) -> GlobDialect:
    """The glob dialect of a ruleweave provider (``Provider.dialect``; ``anywhere`` when unknown)."""
    return next((p.dialect for p in PROVIDERS if p.id == provider), "anywhere")


def readers(provider: str) -> tuple[Agent, ...]:
    """The agents that read the rule format of ``provider``."""
    return tuple(entry for entry in AGENTS if provider in entry.providers)


def format_label(provider: str) -> str:
    """The product whose rule format ``provider`` reads (``Cursor``); the provider id when no agent does."""
    return next((entry.label for entry in readers(provider)), provider)
