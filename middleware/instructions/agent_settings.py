"""What agents' own settings say of their instruction files: the names Codex, Gemini CLI and Qwen Code
add, and for Codex's hooks the byte budget, the trust it reads them under and whether it runs them.

* Codex: ``project_doc_fallback_filenames``, names tried in a directory when it
  has neither ``AGENTS.override.md`` nor ``AGENTS.md``, from Codex's config layers
  in precedence order: on Unix the system's ``/etc/codex/config.toml``, then
  ``$CODEX_HOME/config.toml`` (default ``~/.codex``), then
  ``<dir>/.codex/config.toml`` for each directory from the project root down to
  the cwd (the nearest wins; Codex 0.171.0, ``config_loader::load_project_layers``),
  and on Unix the managed ``/etc/codex/managed_config.toml`` above them all.
  Codex honours a project layer only in a project its user trusts
  (``[projects."<dir>"] trust_level = "trusted"``); ruleweave reads the repository's
  layers either way, as it reads a project's ``.gemini/settings.json``, and the
  Codex host leaves out only what Codex itself loads (``codex_docs``, which also reads
  ``project_doc_max_bytes``). A project the user marked ``untrusted`` gets no project
  doc from Codex at all (``codex_distrusts``).
* Gemini CLI: ``context.fileName`` in ``<project>/.gemini/settings.json``, else
  in ``~/.gemini/settings.json`` (project settings override the user's), a
  string or a list of strings.
* Qwen Code (a Gemini CLI fork, same setting): ``context.fileName`` in
  ``<project>/.qwen/settings.json``, else in ``~/.qwen/settings.json``.

Gemini CLI and Qwen Code read their settings as JSON with comments, and so does
ruleweave. A file that is not valid TOML / JSON, or a value of the wrong shape, is a
warning naming the file; a name that is absolute, empty, climbs out of its
directory (``..``) or is not a Markdown file (``.env``, a key file: a repository's
settings must not pull secrets into the prompt) is dropped with a warning. Reads are bounded and go through
the discovery context (symlink policy, no FIFOs).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ruleweave._text.jsonc import without_comments
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.rules import Level

_CODEX_KEY = "project_doc_fallback_filenames"

CODEX_DOC_MAX_BYTES = 32 * 1024
"""Codex's default ``project_doc_max_bytes`` (``codex-rs/config/defaults.toml``)."""

CODEX_SYSTEM_CONFIG = Path("/etc/codex/config.toml")
"""Codex's system layer on Unix, below the user's ``config.toml`` (0.171.0: a real run with
``features.codex_hooks = false`` there ran no hook unless the user's config set it ``true``)."""

CODEX_MANAGED_CONFIG = Path("/etc/codex/managed_config.toml")
"""Codex's managed layer on Unix, above every other (0.171.0: ``features.codex_hooks`` there decided
whatever the user's and a trusted project's ``config.toml`` said)."""

_MAX_NAMES = 32
"""Names taken from one setting (the rest are dropped with a warning)."""


class AgentNames(NamedTuple):
    """Instruction-file names from agents' settings.

    Attributes:
        codex: Codex's ``project_doc_fallback_filenames``.
        gemini: Gemini CLI's ``context.fileName`` names.
        qwen: Qwen Code's ``context.fileName`` names.
    """

    codex: tuple[str, ...] = ()
    gemini: tuple[str, ...] = ()
    qwen: tuple[str, ...] = ()


def read_agent_names(ctx: DiscoveryContext) -> AgentNames:
    """Read Codex's, Gemini CLI's and Qwen Code's settings for the extra instruction-file names.

    Args:
        ctx: The discovery context (config, bounded reads, warnings).

    Returns:
        The names; problems are warnings on ``ctx``.
    """
    codex: tuple[str, ...] = ()
    for path, data in _codex_tables(ctx, honoured=False):
        if _CODEX_KEY in data:  # a nearer layer replaces it
            codex = _names(ctx, path, data[_CODEX_KEY], _CODEX_KEY)
    return AgentNames(codex, _context_file_names(ctx, ".gemini"), _context_file_names(ctx, ".qwen"))


class CodexDocs(NamedTuple):
    """What Codex's own config says of the project docs it loads (``codex_docs``).

    Attributes:
        fallback: ``project_doc_fallback_filenames``, each as Codex keeps it.
        max_bytes: ``project_doc_max_bytes``: the bytes of the walk's files it reads, root first.
    """

    fallback: tuple[str, ...] = ()
    max_bytes: int = CODEX_DOC_MAX_BYTES


def codex_docs(config: RuleweaveConfig) -> CodexDocs:
    """``project_doc_fallback_filenames`` and ``project_doc_max_bytes`` as Codex itself reads them here.

    The user's ``config.toml``, then each ``.codex/config.toml`` from the project root down
    to the cwd whose directory the user trusts (the directory's own ``[projects."<dir>"]``
    entry, else the project root's), the nearest setting winning. Each fallback name trimmed,
    and kept as Codex's ``candidate_filenames`` keeps it: not empty, not ``.`` or ``..``, no
    ``/`` or NUL; any suffix. Problems are not reported here (``read_agent_names`` reports them).

    Args:
        config: The configuration (project root, cwd and ``CODEX_HOME``).

    Returns:
        The settings; the defaults where no layer Codex honours sets them (or sets them wrongly).
    """
    value: object = None
    limit: object = CODEX_DOC_MAX_BYTES
    for _, data in _codex_tables(DiscoveryContext(config), honoured=True):
        value = data.get(_CODEX_KEY, value)
        limit = data.get("project_doc_max_bytes", limit)
    max_bytes = limit if type(limit) is int and limit >= 0 else CODEX_DOC_MAX_BYTES
    if not isinstance(value, list):
        return CodexDocs((), max_bytes)
    names = [item.strip() for item in value if isinstance(item, str)]  # Codex trims them (config/mod.rs)
    kept = (name for name in names if name not in ("", ".", "..") and "/" not in name and "\0" not in name)
    return CodexDocs(tuple(dict.fromkeys(kept)), max_bytes)


def codex_distrusts(config: RuleweaveConfig) -> bool:
    """Whether the user marked this project ``untrusted`` for Codex (the cwd's own entry in
    ``[projects]``, else the project root's): Codex then loads none of its project docs.

    Args:
        config: The configuration (project root, cwd and ``CODEX_HOME``).

    Returns:
        True only for an explicit ``trust_level = "untrusted"``; a project without an entry is not.
    """
    ctx = DiscoveryContext(config)
    data = _toml(ctx, config.codex_dir / "config.toml", "user", warn=False)
    levels = _trust_levels(data.get("projects") if data is not None else None)
    return _decision(levels, config.cwd, config.root) == "untrusted"


def codex_hooks_off(config: RuleweaveConfig) -> str | None:
    """Why Codex runs no hook here, or ``None``: ``features.codex_hooks = false`` in the config layer
    that decides it (the user's, then each trusted ``.codex/config.toml`` from the root to the cwd; a
    real run with it in either ran no hook, 0.171.0), between the system layer below them and the
    managed one above (``/etc/codex/config.toml``, ``/etc/codex/managed_config.toml``).

    Args:
        config: The configuration (project root, cwd and ``CODEX_HOME``).

    Returns:
        The setting and the file that sets it, as a phrase.
    """
    decided: tuple[Path, bool] | None = None
    for path, data in _codex_tables(DiscoveryContext(config), honoured=True):
        features = data.get("features")
        value = features.get("codex_hooks") if isinstance(features, dict) else None
        if isinstance(value, bool):
            decided = (path, value)
    if decided is None or decided[1]:
        return None
    return f"features.codex_hooks is false in {decided[0]}"


def _codex_tables(ctx: DiscoveryContext, *, honoured: bool) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Codex's ``config.toml`` tables, lowest precedence first: the system's (``CODEX_SYSTEM_CONFIG``),
    the user's, then each project one from the root to the cwd (Codex skips the ``.codex`` that is
    ``CODEX_HOME`` itself), then the managed one (``CODEX_MANAGED_CONFIG``); the two system files on
    Unix only, and trust (``[projects]``) read from the user's alone.

    Args:
        ctx: The discovery context (its walk; warnings).
        honoured: Only the layers Codex loads, quietly: a project's only where the user trusts its
            directory (``_decision``). Else every layer, each problem a warning.
    """
    config = ctx.config
    home = os.path.normpath(config.codex_dir)
    system = os.name == "posix"  # Codex's /etc/codex layers are Unix's (macOS adds MDM, not read here)
    layers: list[tuple[Path, Level | None]] = [(CODEX_SYSTEM_CONFIG, None)] if system else []
    layers.append((config.codex_dir / "config.toml", "user"))
    for directory in ctx.walk:
        if os.path.normpath(directory / ".codex") != home:
            layers.append((directory / ".codex" / "config.toml", "project"))
    if system:
        layers.append((CODEX_MANAGED_CONFIG, None))
    levels: dict[str, object] = {}
    root = config.root
    for path, level in layers:
        data = _toml(ctx, path, level, warn=not honoured)
        if data is None:
            continue
        if level == "user":
            levels = _trust_levels(data.get("projects"))
        elif level == "project" and honoured and _decision(levels, path.parent.parent, root) != "trusted":
            continue  # Codex loads an untrusted project's layer disabled
        yield path, data


def _toml(ctx: DiscoveryContext, path: Path, level: Level | None, *, warn: bool) -> dict[str, Any] | None:
    """A Codex ``config.toml`` as a table; ``None`` when it is absent or not TOML (a warning if ``warn``).
    ``level`` ``None``: a system file (``_read``)."""
    text = _read(ctx, path, level)
    if text is None:
        return None
    import tomllib  # only when Codex has a config: not on a hook process's import path

    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        if warn:
            ctx.warn(path, f"is not valid TOML ({exc}); its project_doc_fallback_filenames are ignored")
        return None


def _trust_levels(projects: object) -> dict[str, object]:
    """A user's ``[projects]`` table: each directory's ``trust_level``."""
    if not isinstance(projects, dict):
        return {}
    return {key: entry.get("trust_level") for key, entry in projects.items()
            if isinstance(entry, dict) and "trust_level" in entry}


def _decision(levels: dict[str, object], directory: Path, root: Path) -> object:
    """Codex's trust decision for ``directory`` (``ProjectTrustContext::decision_for_dir``): its own
    ``trust_level``, else the project root's; ``None`` when neither has one."""
    for candidate in (directory, root):
        for key in dict.fromkeys((os.fspath(candidate), os.path.realpath(candidate))):
            if key in levels:
                return levels[key]
    return None


def _context_file_names(ctx: DiscoveryContext, folder: str) -> tuple[str, ...]:
    """``context.fileName`` of ``<project>/<folder>/settings.json``, else of the user's."""
    found = _context_setting(ctx, folder)
    if found is None:
        return ()
    settings, value = found
    return _names(ctx, settings, [value] if isinstance(value, str) else value, "context.fileName")


def _context_setting(ctx: DiscoveryContext, folder: str) -> tuple[Path, object] | None:
    """The settings file whose ``context.fileName`` counts (project settings override the user's), and
    that value; ``None`` when neither sets it."""
    config = ctx.config
    # The agents' own user folders: $QWEN_HOME (~/.qwen), $GEMINI_CLI_HOME/.gemini (~/.gemini).
    home = config.qwen_dir if folder == ".qwen" else config.gemini_dir if folder == ".gemini" else (
        config.user_home / folder
    )
    for settings, level in ((config.root / folder / "settings.json", "project"),
                            (home / "settings.json", "user")):
        text = _read(ctx, settings, level)  # type: ignore[arg-type]
        if text is None:
            continue
        try:  # JSON with comments, as both agents read it (strip-json-comments, jsonc-parser)
            data = json.loads(without_comments(text.removeprefix("\ufeff")))
        except (ValueError, RecursionError) as exc:
            reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            ctx.warn(settings, f"is not valid JSON ({reason}); its context.fileName is ignored")
            continue
        context = data.get("context") if isinstance(data, dict) else None
        value = context.get("fileName") if isinstance(context, dict) else None
        if value is not None:
            return settings, value
    return None


def _read(ctx: DiscoveryContext, path: Path, level: Level | None) -> str | None:
    """A settings file's text within the byte cap, ``None`` when absent. ``level`` ``None``: a system
    file, outside every tier (the administrator's, not the repository's: no symlink policy)."""
    if level is None:
        return ctx.read(path) if os.path.isfile(path) else None
    if not ctx.is_file(path, level):
        return None
    return ctx.read(path)


def _names(ctx: DiscoveryContext, path: Path, value: object, key: str) -> tuple[str, ...]:
    """``value`` as file names; anything unusable is a warning naming ``path``."""
    if value is None:
        return ()
    if not isinstance(value, Sequence) or isinstance(value, str):
        ctx.warn(path, f"{key} is not a list of file names; ignored")
        return ()
    names: list[str] = []
    for item in value:
        if not isinstance(item, str) or not _plain(item):
            ctx.warn(path, f"{key} entry {item!r} is not a file name inside its directory; ignored")
            continue
        if not item.strip().lower().endswith(_MARKDOWN):
            # A committed settings file must not pull `.env` or a key file into the prompt.
            ctx.warn(path, f"{key} entry {item!r} is not a Markdown file (.md); ignored")
            continue
        if len(names) == _MAX_NAMES:
            ctx.warn(path, f"{key} names more than {_MAX_NAMES} files; the rest are ignored")
            break
        names.append(item.strip().replace("\\", "/"))
    return tuple(dict.fromkeys(names))


_MARKDOWN = (".md", ".markdown", ".mdx")


def _plain(name: str) -> bool:
    """A relative file name that stays in its directory."""
    name = name.strip().replace("\\", "/")
    if not name or len(name) > 255 or "\x00" in name or name.startswith(("/", "~")) or ":" in name:
        return False
    return all(part not in ("", ".", "..") for part in name.split("/"))
