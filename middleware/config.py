"""`RuleweaveConfig`: every option and limit, and the one place defaults read the environment.

Nothing deeper in the stack calls ``os.getcwd()`` or reads ``os.environ``:
the config resolves ``cwd``, the project root, ``HOME``, ``CLAUDE_CONFIG_DIR``
and ``RULEWEAVE_HOME`` once, when it is built.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ruleweave.errors import ConfigError
from ruleweave.rules import InterruptMode
from ruleweave.store.base import SessionStore

SymlinkPolicy = Literal["within", "follow", "ignore"]
"""How discovery treats symbolic links: ``within`` follows a link only when its
target stays inside the project or the user tier; ``follow`` follows every
link; ``ignore`` skips every link."""

DEFAULT_INSTRUCTION_FILES: tuple[str, ...] = (
    "AGENTS.override.md",
    "AGENTS.md",
    "AGENT.md",
    "CLAUDE.md",
    ".claude/CLAUDE.md",
    "CLAUDE.local.md",
    "GEMINI.md",
    "WARP.md",
    "CRUSH.md",
    ".goosehints",
    ".junie/AGENTS.md",
    ".junie/guidelines.md",
    ".rules",
    ".augment-guidelines",
)
"""Instruction files read by default, in priority order; how each is read is
``ruleweave.instructions.formats``."""


def _find_project_root(cwd: Path, markers: tuple[str, ...]) -> Path:
    for directory in (cwd, *cwd.parents):
        if any((directory / marker).exists() for marker in markers):
            return directory
    return cwd


class RuleweaveConfig(BaseModel):
    """Every option of discovery, sessions and the CLI.

    Build it with keyword arguments; unset paths are filled from the
    environment when the config is made (``cwd`` from the process, ``home``
    from ``HOME``, ``claude_config_dir`` from ``CLAUDE_CONFIG_DIR``,
    ``ruleweave_home`` from ``RULEWEAVE_HOME``) and the project root is the
    nearest directory at or above ``cwd`` holding one of ``root_markers``.

    Attributes:
        cwd: The directory the agent works in.
        project_root: The project's root; found from ``root_markers`` if unset.
        root_markers: Names whose presence marks the project root.
        home: The user's home directory (user-tier rule locations).
        claude_config_dir: Claude Code's config dir (default ``~/.claude``).
        codex_home: Codex's home dir (default ``$CODEX_HOME``, else ``~/.codex``): its
            ``AGENTS.md`` / ``AGENTS.override.md`` and ``config.toml``.
        ruleweave_home: ruleweave's own user dir (default ``~/.ruleweave``).
        disabled_providers: Provider ids to skip.
        disabled_rules: Rule names to drop.
        builtin_rules: The rules shipped with ruleweave: off by default (a repository
            speaks for itself); ``True`` for all of them, or a list of their names.
        tool_aliases: More tool names per kind of tool (``{"edit": ("patch_file",)}``),
            over ``ruleweave.tool_names.DEFAULT_TOOL_ALIASES``: TTSR scopes and steering
            match every alias of a kind.
        ignored_dirs: Directory names never read for nested rule folders and
            instruction files, besides those the repository's ``.gitignore`` files
            ignore (and ``node_modules``, ``.venv``, ``venv``, ``site-packages``,
            ``__pypackages__``, ``.tox`` when it has none).
        max_rule_bytes: Cap on one rule's body; longer bodies are cut.
        max_rule_files: Cap on rule files read from one provider root.
        max_file_bytes: Cap on the bytes read from any one file.
        symlinks: Symbolic-link policy (see ``SymlinkPolicy``).
        instruction_files: Instruction file names looked up in each walk dir.
        parent_instructions: Also read Claude Code's ``CLAUDE.md`` / ``CLAUDE.local.md`` in the
            directories above the project root, as Claude Code does.
        instructions_max_bytes: Byte cap of the instruction blob.
        generic_max_bytes: Byte cap of the ``<generic-rules>`` block (default: none of its own).
        domain_max_bytes: Byte cap of the ``<domain-rules>`` listing (default: none of its own).
        prompt_max_bytes: Byte budget of the whole prompt contribution (blob, ``<generic-rules>``,
            ``<domain-rules>``), shared max-min fairly by the three after their own caps.
        notice_max_bytes: Byte budget of one after-tool notice, shared max-min fairly by its
            rules and files (the default stays under Claude Code's 10,000-character hook limit).
        import_max_depth: Nesting limit of ``@path`` imports.
        allow_outside_imports: Let ``@path`` imports leave the project.
        custom_system_prompt: The caller's own system prompt, for dedup.
        custom_template: Render rules with the ``<rule name>`` template.
        templates: Overrides of the named prompt templates.
        interrupt_mode: Default TTSR interrupt mode.
        ttsr_window: TTSR look-back in characters: every condition match up to this
            long is found even when it spans deltas (longer ones may be missed);
            the cost of one delta grows with it, never with the stream.
        event_log: Also write every event as a JSON line to this file.
        skillspec: A SkillSpec file to steer with (default: the nearest
            ``.ruleweave/skill.spec.yml`` on the root→cwd walk).
        steering_tools: Per forbidden id, the tool patterns it forbids
            (``"playwright*"`` on tool names, ``"shell:curl"`` on shell programs);
            replaces the built-in mapping for that id.
        store: Where sessions keep their state: a ``SessionStore`` or a URL
            (``memory://``, ``sqlite:///path/state.db``, ``redis://host:port/0``);
            default: one ``MemoryStore`` per loaded rule set.
        ttsr_retries: How many times one turn's model calls may be retried after
            streamed rules interrupt them; once spent, hits become reminders.
        max_globs_per_rule: Cap on one rule's globs, each brace alternative counted
            (``*.{ts,tsx}`` is two); the rest are dropped with a warning naming the file.
        max_globs_total: Cap on the globs of all rules of one discovery, counted the
            same way, in precedence order; past it, globs are dropped with a warning.
        mode: The agent's mode (Roo Code's ``code``, ``architect`` …): the rules of
            ``.roo/rules-<mode>/`` are always applied; other modes' rules stay manual.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    cwd: Path = Field(default_factory=Path.cwd)
    project_root: Path | None = None
    root_markers: tuple[str, ...] = (".git",)
    home: Path | None = None
    claude_config_dir: Path | None = None
    codex_home: Path | None = None
    ruleweave_home: Path | None = None
    disabled_providers: frozenset[str] = frozenset()
    disabled_rules: frozenset[str] = frozenset()
    builtin_rules: bool | tuple[str, ...] = False
    ignored_dirs: tuple[str, ...] = ()
    tool_aliases: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    max_rule_bytes: int = Field(default=32 * 1024, gt=0)
    max_rule_files: int = Field(default=64, gt=0)
    max_file_bytes: int = Field(default=256 * 1024, gt=0)
    symlinks: SymlinkPolicy = "within"
    instruction_files: tuple[str, ...] = DEFAULT_INSTRUCTION_FILES
    parent_instructions: bool = True
    instructions_max_bytes: int = Field(default=32 * 1024, gt=0)
    generic_max_bytes: int | None = Field(default=None, gt=0)
    domain_max_bytes: int | None = Field(default=None, gt=0)
    prompt_max_bytes: int = Field(default=48 * 1024, gt=0)
    notice_max_bytes: int = Field(default=8 * 1024, gt=0)
    import_max_depth: int = Field(default=4, ge=0)
    allow_outside_imports: bool = False
    custom_system_prompt: str | None = None
    custom_template: bool = False
    templates: dict[str, str] = Field(default_factory=dict)
    interrupt_mode: InterruptMode = "always"
    ttsr_window: int = Field(default=1024, ge=16, le=1 << 20)
    event_log: Path | None = None
    skillspec: Path | None = None
    steering_tools: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    store: SessionStore | str | None = None
    ttsr_retries: int = Field(default=2, ge=0)
    max_globs_per_rule: int = Field(default=256, gt=0)
    max_globs_total: int = Field(default=20_000, gt=0)
    mode: str | None = None

    def __init__(self, **data: Any) -> None:
        """Build the config; a bad value is a ``ConfigError`` naming the option.

        Raises:
            ConfigError: An option has a value of the wrong type or out of range.
        """
        try:
            super().__init__(**data)
        except ValidationError as exc:
            errors = exc.errors()
            first = errors[0]
            option = ".".join(str(part) for part in first["loc"]) or "(options)"
            more = f" ({len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
            raise ConfigError(
                f"RuleweaveConfig option {option!r}: {first['msg'].rstrip('.')}, "
                f"not {first.get('input')!r}{more}."
            ) from exc

    @model_validator(mode="before")
    @classmethod
    def _fill_from_environment(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        env = os.environ
        cwd = Path(data.get("cwd") or Path.cwd()).expanduser()
        cwd = cwd if cwd.is_absolute() else Path.cwd() / cwd
        data["cwd"] = Path(os.path.normpath(cwd))
        markers = tuple(data.get("root_markers") or (".git",))
        if data.get("project_root") is None:
            data["project_root"] = _find_project_root(data["cwd"], markers)
        else:
            data["project_root"] = Path(os.path.abspath(Path(data["project_root"]).expanduser()))
        home = data.get("home")
        if home is None:
            home = env.get("HOME") or str(Path.home())
        data["home"] = Path(home)
        if data.get("claude_config_dir") is None:
            data["claude_config_dir"] = Path(
                env.get("CLAUDE_CONFIG_DIR") or data["home"] / ".claude"
            )
        if data.get("codex_home") is None:
            data["codex_home"] = Path(env.get("CODEX_HOME") or data["home"] / ".codex")
        if data.get("ruleweave_home") is None:
            data["ruleweave_home"] = Path(
                env.get("RULEWEAVE_HOME") or data["home"] / ".ruleweave"
            )
        for key in ("disabled_providers", "disabled_rules"):
            if key in data and data[key] is not None:
                data[key] = frozenset(data[key])
        return data

    def replayable_options(self) -> dict[str, Any]:
        """The options that shape rules and prompts, as JSON (no machine-specific paths).

        ``ruleweave replay`` rebuilds a config from these plus its own ``--cwd``.
        """
        machine = {
            "cwd", "project_root", "home", "claude_config_dir", "codex_home", "ruleweave_home",
            "event_log", "skillspec", "store",
        }
        options = self.model_dump(mode="json", exclude=machine)
        for key in ("disabled_providers", "disabled_rules"):
            options[key] = sorted(options[key])  # sets dump in hash order
        return options

    @property
    def root(self) -> Path:
        """The project root (always set once the config is built)."""
        assert self.project_root is not None
        return self.project_root

    @property
    def user_home(self) -> Path:
        """The user's home directory (always set once the config is built)."""
        assert self.home is not None
        return self.home

    @property
    def claude_dir(self) -> Path:
        """Claude Code's user config directory."""
        assert self.claude_config_dir is not None
        return self.claude_config_dir

    @property
    def codex_dir(self) -> Path:
        """Codex's home directory."""
        assert self.codex_home is not None
        return self.codex_home

    @property
    def native_home(self) -> Path:
        """ruleweave's user directory."""
        assert self.ruleweave_home is not None
        return self.ruleweave_home
