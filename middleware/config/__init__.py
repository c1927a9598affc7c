"""`RuleweaveConfig`: every option and limit, and the one place defaults read the environment.

Nothing deeper in the stack calls ``os.getcwd()`` or reads ``os.environ``:
the config resolves ``cwd``, the project root, ``HOME``, ``CLAUDE_CONFIG_DIR``
and ``RULEWEAVE_HOME`` once, when it is built.

A plain immutable class whose constructor checks each option itself, not a
pydantic model or a dataclass: a Claude Code hook builds one per tool call, and
importing pydantic (or the ``dataclasses`` module, which imports ``inspect``)
costs that process more than Python's own start-up (#16). Derive a changed
config with ``config.replace(...)``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, get_args

from ruleweave.config._checks import (
    as_bool,
    as_choice,
    as_int,
    as_json,
    as_optional_int,
    as_optional_text,
    as_path,
    as_store,
    as_string_lists,
    as_strings,
    as_texts,
)
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
    "CONTEXT.md",
    "AGENTS.local.md",
    "CLAUDE.md",
    ".claude/CLAUDE.md",
    "CLAUDE.local.md",
    "GEMINI.md",
    "QWEN.md",
    ".qwen/QWEN.local.md",
    "WARP.md",
    "CRUSH.md",
    "crush.md",
    "CRUSH.local.md",
    ".goosehints",
    ".junie/AGENTS.md",
    ".junie/guidelines.md",
    ".rules",
    ".augment-guidelines",
)
"""Instruction files read by default, in priority order; how each is read is
``ruleweave.instructions.formats``."""


def find_project_root(start: Path, markers: tuple[str, ...] = (".git",)) -> Path:
    """The nearest directory at or above ``start`` holding one of ``markers``.

    Args:
        start: Where to begin (a directory).
        markers: Names whose presence marks the project root.

    Returns:
        That directory, or ``start`` itself when none above it has a marker.
    """
    for directory in (start, *start.parents):
        if any((directory / marker).exists() for marker in markers):
            return directory
    return start


class RuleweaveConfig:
    """Every option of discovery, sessions and the CLI.

    Build it with keyword arguments; unset paths are filled from the
    environment when the config is made (``cwd`` from the process, ``home``
    from ``HOME``, ``claude_config_dir`` from ``CLAUDE_CONFIG_DIR``,
    ``ruleweave_home`` from ``RULEWEAVE_HOME``, ``xdg_config_home`` from
    ``XDG_CONFIG_HOME``) and the project root is the
    nearest directory at or above ``cwd`` holding one of ``root_markers``.

    Attributes:
        cwd: The directory the agent works in.
        project_root: The project's root; found from ``root_markers`` if unset.
        root_markers: Names whose presence marks the project root.
        home: The user's home directory (user-tier rule locations).
        claude_config_dir: Claude Code's config dir (default ``~/.claude``).
        codex_home: Codex's home dir (default ``$CODEX_HOME``, else ``~/.codex``): its
            ``AGENTS.md`` / ``AGENTS.override.md`` and ``config.toml``.
        qwen_home: Qwen Code's home dir (default ``$QWEN_HOME``, else ``~/.qwen``): its
            ``QWEN.md``, ``rules/`` and ``settings.json``.
        gemini_cli_home: The home Gemini CLI reads its ``.gemini`` folder from (default
            ``$GEMINI_CLI_HOME``, else ``home``): its ``GEMINI.md`` and ``settings.json``.
        cline_dir: Cline's own folder (default ``$CLINE_DIR``, else ``~/.cline``): its global
            ``rules/`` and ``hooks/``.
        ruleweave_home: ruleweave's own user dir (default ``~/.ruleweave``).
        claude_managed_dir: Claude Code's managed (organisation) directory, whose ``CLAUDE.md``
            comes first in the blob (default: Claude Code's own, ``/etc/claude-code`` on Linux,
            ``/Library/Application Support/ClaudeCode`` on macOS, ``C:\\Program Files\\ClaudeCode``
            on Windows).
        xdg_config_home: The user's XDG config dir (default ``$XDG_CONFIG_HOME``, else
            ``~/.config``): git's global ``git/config`` and excludes file ``git/ignore`` are read there.
        disabled_providers: Provider ids to skip.
        disabled_rules: Rule names to drop.
        builtin_rules: The rules shipped with ruleweave: off by default (a repository
            speaks for itself); ``True`` for all of them, or a list of their names.
        tool_aliases: More tool names per kind of tool (``{"edit": ("patch_file",)}``),
            over ``ruleweave.session.tool_names.DEFAULT_TOOL_ALIASES``: TTSR scopes and steering
            match every alias of a kind.
        ignored_dirs: Directory names never read for nested rule folders and
            instruction files, besides those git ignores (``.gitignore`` files,
            ``.git/info/exclude``, the global excludes file) and the dependency and
            build folders git does not track (``node_modules``, ``.venv``, ``dist``,
            ``vendor`` …: ``ruleweave._files.tree.DEPENDENCY_DIRS``).
        max_rule_bytes: Cap on one rule's body; longer bodies are cut.
        max_rule_files: Cap on rule files read from one provider root.
        max_file_bytes: Cap on the bytes read from any one file.
        symlinks: Symbolic-link policy (see ``SymlinkPolicy``).
        instruction_files: Instruction file names looked up in each walk dir.
        native_walk_files: Instruction file names an agent reads itself on the walk from the root to
            the cwd, and only there (Codex's and Qwen Code's ``AGENTS.md``): left out of the start
            blob, still delivered as nested files below the cwd.
        native_walk_budget: The bytes of ``native_walk_files`` the agent reads itself, root first
            (Codex's ``project_doc_max_bytes``): it cuts the file that crosses it and drops the rest of
            the walk's, so those parts go into the start blob. ``None``: it reads them whole.
        native_user_files: User-tier instruction files (absolute paths) the agent reads itself
            (Claude Code's ``~/.claude/CLAUDE.md``): left out of the start blob.
        native_files: Instruction file names an agent reads itself wherever they are (Gemini CLI's
            ``GEMINI.md`` and its ``context.fileName`` names): never looked up, on the walk or below
            it, even where an agent's setting names them.
        parent_instructions: Also read Claude Code's ``CLAUDE.md`` / ``CLAUDE.local.md`` in the
            directories above the project root, as Claude Code does.
        instructions_max_bytes: Byte cap of the instruction files of the blob (Claude rules
            without ``paths`` share what the files leave of it).
        keep_whole: Instruction files never cut by a budget, as project-relative paths or
            ``fnmatch`` patterns (``AGENTS.md``, ``docs/*.md``); other parts shrink instead.
        generic_max_bytes: Byte cap of the ``<generic-rules>`` block (default: none of its own).
        domain_max_bytes: Byte cap of the ``<domain-rules>`` listing (default: none of its own).
        prompt_max_bytes: Byte budget of the whole prompt contribution (blob, ``<generic-rules>``,
            ``<domain-rules>``), shared max-min fairly by the three after their own caps.
        notice_max_bytes: Byte budget of one after-tool notice, shared max-min fairly by its
            rules and files (the default stays under Claude Code's 10,000-character hook limit).
        import_max_depth: Nesting limit of ``@path`` imports: five hops, as Claude Code's docs and
            Gemini CLI's ``memoryImportProcessor`` have it (a format may have a lower one of its own).
        allow_outside_imports: Let ``@path`` imports leave the project.
        allow_secret_imports: Let a project's ``@path`` and Kiro ``#[[file:…]]`` imports read
            git-ignored files and secret-looking names (``.env*``, ``*.pem``, ``*.key``, ``id_*``,
            ``.npmrc`` …; ``ruleweave._files.secrets``), refused with a warning by default.
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
        max_globs_per_file: Cap on the globs of all the rules one file holds (a plugin's
            policy file may hold many), counted the same way, in order. There is no cap on
            the globs of all rules together: a hostile flood is bounded by these two caps,
            by ``max_rule_files``, and by a lookup's cost, which follows the globs a path
            could match, not their number (docs/rules.md#how-many-globs).
        mode: The agent's mode (Roo Code's ``code``, ``architect`` …): the rules of
            ``.roo/rules-<mode>/`` are always applied; other modes' rules stay manual.
    """

    cwd: Path
    project_root: Path | None
    root_markers: tuple[str, ...]
    home: Path | None
    claude_config_dir: Path | None
    codex_home: Path | None
    qwen_home: Path | None
    gemini_cli_home: Path | None
    cline_dir: Path | None
    ruleweave_home: Path | None
    claude_managed_dir: Path | None
    xdg_config_home: Path | None
    disabled_providers: frozenset[str]
    disabled_rules: frozenset[str]
    builtin_rules: bool | tuple[str, ...]
    ignored_dirs: tuple[str, ...]
    tool_aliases: dict[str, tuple[str, ...]]
    max_rule_bytes: int
    max_rule_files: int
    max_file_bytes: int
    symlinks: SymlinkPolicy
    instruction_files: tuple[str, ...]
    native_walk_files: tuple[str, ...]
    native_walk_budget: int | None
    native_user_files: tuple[str, ...]
    native_files: tuple[str, ...]
    parent_instructions: bool
    instructions_max_bytes: int
    keep_whole: tuple[str, ...]
    generic_max_bytes: int | None
    domain_max_bytes: int | None
    prompt_max_bytes: int
    notice_max_bytes: int
    import_max_depth: int
    allow_outside_imports: bool
    allow_secret_imports: bool
    custom_system_prompt: str | None
    custom_template: bool
    templates: dict[str, str]
    interrupt_mode: InterruptMode
    ttsr_window: int
    event_log: Path | None
    skillspec: Path | None
    steering_tools: dict[str, tuple[str, ...]]
    store: SessionStore | str | None
    ttsr_retries: int
    max_globs_per_rule: int
    max_globs_per_file: int
    mode: str | None

    def __init__(
        self,
        *,
        cwd: str | os.PathLike[str] | None = None,
        project_root: str | os.PathLike[str] | None = None,
        root_markers: Iterable[str] = (".git",),
        home: str | os.PathLike[str] | None = None,
        claude_config_dir: str | os.PathLike[str] | None = None,
        codex_home: str | os.PathLike[str] | None = None,
        qwen_home: str | os.PathLike[str] | None = None,
        gemini_cli_home: str | os.PathLike[str] | None = None,
        cline_dir: str | os.PathLike[str] | None = None,
        ruleweave_home: str | os.PathLike[str] | None = None,
        claude_managed_dir: str | os.PathLike[str] | None = None,
        xdg_config_home: str | os.PathLike[str] | None = None,
        disabled_providers: Iterable[str] = (),
        disabled_rules: Iterable[str] = (),
        builtin_rules: bool | Iterable[str] = False,
        ignored_dirs: Iterable[str] = (),
        tool_aliases: Mapping[str, Iterable[str]] | None = None,
        max_rule_bytes: int = 32 * 1024,
        max_rule_files: int = 64,
        max_file_bytes: int = 256 * 1024,
        symlinks: SymlinkPolicy = "within",
        instruction_files: Iterable[str] = DEFAULT_INSTRUCTION_FILES,
        native_walk_files: Iterable[str] = (),
        native_walk_budget: int | None = None,
        native_user_files: Iterable[str] = (),
        native_files: Iterable[str] = (),
        parent_instructions: bool = True,
        instructions_max_bytes: int = 32 * 1024,
        keep_whole: Iterable[str] = (),
        generic_max_bytes: int | None = None,
        domain_max_bytes: int | None = None,
        prompt_max_bytes: int = 48 * 1024,
        notice_max_bytes: int = 8 * 1024,
        import_max_depth: int = 5,
        allow_outside_imports: bool = False,
        allow_secret_imports: bool = False,
        custom_system_prompt: str | None = None,
        custom_template: bool = False,
        templates: Mapping[str, str] | None = None,
        interrupt_mode: InterruptMode = "always",
        ttsr_window: int = 1024,
        event_log: str | os.PathLike[str] | None = None,
        skillspec: str | os.PathLike[str] | None = None,
        steering_tools: Mapping[str, Iterable[str]] | None = None,
        store: SessionStore | str | None = None,
        ttsr_retries: int = 2,
        max_globs_per_rule: int = 256,
        max_globs_per_file: int = 1024,
        mode: str | None = None,
    ) -> None:
        """Build the config; a bad value is a ``ConfigError`` naming the option.

        Raises:
            ConfigError: An option has a value of the wrong type or out of range.
        """
        env = os.environ
        where = _normal_cwd(as_path("cwd", cwd) or Path.cwd())
        markers = as_strings("root_markers", root_markers) or (".git",)
        root = as_path("project_root", project_root)
        user_home = as_path("home", home) or Path(env.get("HOME") or str(Path.home()))
        values: dict[str, Any] = {
            "cwd": where,
            "project_root": (
                find_project_root(where, markers) if root is None
                else Path(os.path.abspath(root.expanduser()))
            ),
            "root_markers": markers,
            "home": user_home,
            "claude_config_dir": as_path("claude_config_dir", claude_config_dir)
            or Path(env.get("CLAUDE_CONFIG_DIR") or user_home / ".claude"),
            "codex_home": as_path("codex_home", codex_home)
            or Path(env.get("CODEX_HOME") or user_home / ".codex"),
            "qwen_home": as_path("qwen_home", qwen_home)
            or Path(env.get("QWEN_HOME") or user_home / ".qwen"),
            "gemini_cli_home": as_path("gemini_cli_home", gemini_cli_home)
            or Path(env.get("GEMINI_CLI_HOME") or user_home),
            # Cline trims it (``@cline/shared`` storage paths); a blank one is unset.
            "cline_dir": as_path("cline_dir", cline_dir)
            or Path((env.get("CLINE_DIR") or "").strip() or user_home / ".cline"),
            "ruleweave_home": as_path("ruleweave_home", ruleweave_home)
            or Path(env.get("RULEWEAVE_HOME") or user_home / ".ruleweave"),
            "claude_managed_dir": as_path("claude_managed_dir", claude_managed_dir) or _claude_managed_dir(),
            "xdg_config_home": (
                as_path("xdg_config_home", xdg_config_home) or _xdg_config_home(env, user_home)
            ),
            "disabled_providers": frozenset(as_strings("disabled_providers", disabled_providers)),
            "disabled_rules": frozenset(as_strings("disabled_rules", disabled_rules)),
            "builtin_rules": (
                builtin_rules if isinstance(builtin_rules, bool)
                else as_strings("builtin_rules", builtin_rules)
            ),
            "ignored_dirs": as_strings("ignored_dirs", ignored_dirs),
            "tool_aliases": as_string_lists("tool_aliases", tool_aliases),
            "max_rule_bytes": as_int("max_rule_bytes", max_rule_bytes, 1),
            "max_rule_files": as_int("max_rule_files", max_rule_files, 1),
            "max_file_bytes": as_int("max_file_bytes", max_file_bytes, 1),
            "symlinks": as_choice("symlinks", symlinks, _SYMLINK_POLICIES),
            "instruction_files": as_strings("instruction_files", instruction_files),
            "native_walk_files": as_strings("native_walk_files", native_walk_files),
            "native_walk_budget": as_optional_int("native_walk_budget", native_walk_budget, 0),
            "native_user_files": as_strings("native_user_files", native_user_files),
            "native_files": as_strings("native_files", native_files),
            "parent_instructions": as_bool("parent_instructions", parent_instructions),
            "instructions_max_bytes": as_int("instructions_max_bytes", instructions_max_bytes, 1),
            "keep_whole": as_strings("keep_whole", keep_whole),
            "generic_max_bytes": as_optional_int("generic_max_bytes", generic_max_bytes, 1),
            "domain_max_bytes": as_optional_int("domain_max_bytes", domain_max_bytes, 1),
            "prompt_max_bytes": as_int("prompt_max_bytes", prompt_max_bytes, 1),
            "notice_max_bytes": as_int("notice_max_bytes", notice_max_bytes, 1),
            "import_max_depth": as_int("import_max_depth", import_max_depth, 0),
            "allow_outside_imports": as_bool("allow_outside_imports", allow_outside_imports),
            "allow_secret_imports": as_bool("allow_secret_imports", allow_secret_imports),
            "custom_system_prompt": as_optional_text("custom_system_prompt", custom_system_prompt),
            "custom_template": as_bool("custom_template", custom_template),
            "templates": as_texts("templates", templates),
            "interrupt_mode": as_choice("interrupt_mode", interrupt_mode, _INTERRUPT_MODES),
            "ttsr_window": as_int("ttsr_window", ttsr_window, 16, 1 << 20),
            "event_log": as_path("event_log", event_log),
            "skillspec": as_path("skillspec", skillspec),
            "steering_tools": as_string_lists("steering_tools", steering_tools),
            "store": as_store(store),
            "ttsr_retries": as_int("ttsr_retries", ttsr_retries, 0),
            "max_globs_per_rule": as_int("max_globs_per_rule", max_globs_per_rule, 1),
            "max_globs_per_file": as_int("max_globs_per_file", max_globs_per_file, 1),
            "mode": as_optional_text("mode", mode),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def replayable_options(self) -> dict[str, Any]:
        """The options that shape rules and prompts, as JSON (no machine-specific paths).

        ``ruleweave replay`` rebuilds a config from these plus its own ``--cwd``.
        """
        machine = {
            "cwd", "project_root", "home", "claude_config_dir", "codex_home", "qwen_home", "gemini_cli_home",
            "cline_dir", "ruleweave_home", "claude_managed_dir", "xdg_config_home", "event_log", "skillspec",
            "store",
        }
        return {name: as_json(getattr(self, name)) for name in OPTIONS if name not in machine}

    def fingerprint(self) -> str:
        """Every option but ``store`` as one JSON text: equal for configs that load the same rules."""
        import json

        return json.dumps({name: as_json(getattr(self, name)) for name in OPTIONS if name != "store"})

    def replace(self, **changes: Any) -> RuleweaveConfig:
        """A copy with ``changes``, checked as the constructor checks them (paths already resolved stay).

        Raises:
            ConfigError: A changed option has a bad value.
            TypeError: An option the config does not have.
        """
        return RuleweaveConfig(**{**{name: getattr(self, name) for name in OPTIONS}, **changes})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"RuleweaveConfig is immutable; derive one with config.replace({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("RuleweaveConfig is immutable")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in OPTIONS)

    __hash__ = None  # type: ignore[assignment]  # equal configs may hold dicts: not hashable

    def __repr__(self) -> str:
        return f"RuleweaveConfig({', '.join(f'{name}={getattr(self, name)!r}' for name in OPTIONS)})"

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
    def qwen_dir(self) -> Path:
        """Qwen Code's home directory (``Storage.getGlobalQwenDir``)."""
        assert self.qwen_home is not None
        return self.qwen_home

    @property
    def cline_folder(self) -> Path:
        """Cline's own folder (``$CLINE_DIR``, else ``~/.cline``: ``@cline/shared``'s storage paths)."""
        assert self.cline_dir is not None
        return self.cline_dir

    @property
    def gemini_dir(self) -> Path:
        """Gemini CLI's user directory: ``.gemini`` in ``$GEMINI_CLI_HOME``, else the home
        (``Storage.getGlobalGeminiDir``)."""
        assert self.gemini_cli_home is not None
        return self.gemini_cli_home / ".gemini"

    @property
    def claude_managed(self) -> Path:
        """Claude Code's managed (organisation) directory."""
        assert self.claude_managed_dir is not None
        return self.claude_managed_dir

    @property
    def native_home(self) -> Path:
        """ruleweave's user directory."""
        assert self.ruleweave_home is not None
        return self.ruleweave_home


OPTIONS: tuple[str, ...] = tuple(RuleweaveConfig.__annotations__)
"""Every option's name, in declaration order (what ``replace``, equality and the JSON forms go by)."""

_SYMLINK_POLICIES: tuple[str, ...] = get_args(SymlinkPolicy)
_INTERRUPT_MODES: tuple[str, ...] = get_args(InterruptMode)


def _claude_managed_dir() -> Path:
    """Claude Code's managed directory on this platform (its bundled CLI: ``getManagedFilePath``)."""
    import sys

    if sys.platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode")
    if sys.platform == "win32":
        return Path("C:\\Program Files\\ClaudeCode")
    return Path("/etc/claude-code")


def _xdg_config_home(env: Mapping[str, str], home: Path) -> Path:
    """``$XDG_CONFIG_HOME`` when absolute (the XDG spec ignores a relative one), else ``~/.config``."""
    value = env.get("XDG_CONFIG_HOME") or ""
    return Path(value) if os.path.isabs(value) else home / ".config"


def _normal_cwd(cwd: Path) -> Path:
    cwd = cwd.expanduser()
    cwd = cwd if cwd.is_absolute() else Path.cwd() / cwd
    return Path(os.path.normpath(cwd))
