"""opencode (priority 30): the ``instructions`` files listed in OpenCode's config.

The global config first — ``config.json``, ``opencode.json`` and
``opencode.jsonc`` in ``~/.config/opencode`` (``xdg_config_home``) — then, in
each directory of the root→cwd walk, ``opencode.json``, ``opencode.jsonc``,
``.opencode/opencode.json`` and ``.opencode/opencode.jsonc`` (JSON with
comments and trailing commas). Each entry of ``instructions`` is a file or a
glob, read as OpenCode reads it (``packages/opencode/src/session/instruction.ts``:
``systemPaths``): a relative entry is searched upward, in every directory from
cwd up to the project root (``globUp``), whichever config named it; a ``~/``
entry is the user's home; an absolute one is taken as written (a glob in its
last part only). Every file it matches is one always-applied rule, named by
its path relative to its walk directory (``docs/style.md``), or ``~/…`` for a
file in the home directory (a user-tier rule). Nothing leaves the project and
the home directory: URLs (no network), paths elsewhere and ``..`` segments are
warnings, and a glob never descends into ignored directories (``.gitignore``,
``node_modules`` …) or through links. Files another provider already reads —
instruction files (``AGENTS.md`` …) and other agents' rule folders — are
skipped, so each rule keeps the bucket its own agent gives it. A config that
is not valid JSON is a warning naming the file.

Follows: OpenCode's loader, ``packages/opencode/src/session/instruction.ts`` in
https://github.com/anomalyco/opencode.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ruleweave._files.paths import is_within, normalise
from ruleweave._files.tree import ProjectTree
from ruleweave._text.jsonc import without_comments
from ruleweave._text.lazy_regex import LazyRegex
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.placement import base_of
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_markdown_rule
from ruleweave.globs import compile_glob
from ruleweave.rules import Level, Rule

ID, PRIORITY = "opencode", 30
CONFIG_FILES = ("opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc")
GLOBAL_CONFIG_FILES = ("config.json", "opencode.json", "opencode.jsonc")
"""OpenCode's global config files, in ``~/.config/opencode`` (its ``Config.global``)."""
OTHER_RULE_FOLDERS = frozenset(
    {
        ".agent", ".agents", ".aiassistant", ".augment", ".claude", ".clinerules", ".continue",
        ".cursor", ".devin", ".junie", ".kilocode", ".kiro", ".openhands", ".roo", ".ruleweave", ".trae",
        ".windsurf",
    }
)
"""Directory names whose files other providers read with their own agent's semantics."""
_MAGIC = LazyRegex(r"[*?\[{]")
_URL = LazyRegex(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_MAX_DEPTH = 12
_MAX_DIRS = 10_000


def _instructions(ctx: DiscoveryContext, path: Path) -> list[str]:
    """The ``instructions`` entries of one config file; problems are warnings."""
    text = ctx.read(path)
    if text is None:
        return []
    try:
        data: Any = json.loads(without_comments(text.removeprefix("\ufeff")))
    except (ValueError, RecursionError) as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
        ctx.warn(path, f"is not valid JSON{where}; its instructions were not read")
        return []
    entries = data.get("instructions") if isinstance(data, dict) else None
    if entries is None:
        return []
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        ctx.warn(path, "has an 'instructions' value that is not a list of paths; ignored")
        return []
    return [entry.strip() for entry in entries if entry.strip()]


class _Matcher:
    """Files of the project that one config's entries name, inside the project only."""

    def __init__(self, ctx: DiscoveryContext) -> None:
        self.ctx = ctx
        self.root = normalise(ctx.config.root)
        self._tree: ProjectTree | None = None

    @property
    def tree(self) -> ProjectTree:
        """The project's ignore answers, built on the first glob (a plain file list needs none)."""
        if self._tree is None:
            self._tree = ProjectTree(self.ctx.config)
        return self._tree

    def files(self, config: Path, bases: list[Path], entry: str) -> list[tuple[Path, Level]]:
        """The files ``entry`` (from ``config``) names, each with its tier.

        A relative entry is looked for in each of ``bases`` (cwd up to the project root, as
        OpenCode's ``globUp``), a ``~/`` or absolute one where it points.
        """
        ctx = self.ctx
        if _URL.match(entry):
            ctx.warn(config, f"instruction {entry!r} is a URL; ruleweave reads no network, skipped")
            return []
        if "\x00" in entry:
            ctx.warn(config, f"instruction {entry!r} holds a NUL character; skipped")
            return []
        home = entry == "~" or entry.startswith("~/")
        # ``~/`` is the configured home (never the environment); ``~user`` is no path OpenCode reads.
        target = str(ctx.config.user_home) + entry[1:] if home else entry
        if target.startswith("~") or ".." in Path(target).parts:
            ctx.warn(config, f"instruction {entry!r} leaves the project; skipped")
            return []
        if home or os.path.isabs(target):
            return self._pointed(config, entry, normalise(Path(target)))
        found: list[tuple[Path, Level]] = []
        for base in bases:
            pattern = normalise(base / target)
            if not is_within(pattern, self.root):
                continue
            if not _MAGIC.search(str(pattern)):
                if os.path.lexists(pattern) and ctx.is_file(pattern, "project"):
                    found.append((pattern, "project"))
            else:
                found += [(path, "project") for path in self._glob(config, entry, pattern)]
        if not found:
            ctx.warn(config, f"instruction {entry!r} names no file; skipped")
        return found

    def _pointed(self, config: Path, entry: str, pattern: Path) -> list[tuple[Path, Level]]:
        """A ``~/`` or absolute entry: a file, or a glob in its last part (OpenCode's ``fs.glob``)."""
        ctx = self.ctx
        home = normalise(ctx.config.user_home)
        level: Level = "project" if is_within(pattern, self.root) else "user"
        if level == "user" and not is_within(pattern, home):
            ctx.warn(config, f"instruction {entry!r} leaves the project and the home directory; skipped")
            return []
        folder, name = pattern.parent, pattern.name
        if _MAGIC.search(str(folder)):
            ctx.warn(config, f"instruction {entry!r} has a glob before its last part; skipped")
            return []
        if not _MAGIC.search(name):
            if not ctx.is_file(pattern, level):
                ctx.warn(config, f"instruction {entry!r} names no file; skipped")
                return []
            return [(pattern, level)]
        match = compile_glob(name)
        try:
            with os.scandir(folder) as items:
                names = sorted(item.name for item in items if match(item.name) and item.is_file())
        except OSError:
            names = []
        cap = ctx.config.max_rule_files
        return [(folder / n, level) for n in names[:cap] if ctx.is_file(folder / n, level)]

    def _glob(self, config: Path, entry: str, pattern: Path) -> list[Path]:
        parts = pattern.relative_to(self.root).parts
        literal = next((i for i, part in enumerate(parts) if _MAGIC.search(part)), len(parts))
        start = self.root.joinpath(*parts[:literal])
        match = compile_glob("/".join(parts))
        found: list[str] = []
        stack = [(str(start), 0)]
        visited = 0
        while stack:
            directory, depth = stack.pop()
            visited += 1
            if visited > _MAX_DIRS:
                self.ctx.warn(config, f"instruction {entry!r} would search more than {_MAX_DIRS} "
                              "directories; the search stopped there")
                break
            if directory != str(self.root) and (self.tree.ignored(directory) or not os.path.isdir(directory)):
                continue
            try:
                with os.scandir(directory) as entries:
                    items = sorted(entries, key=lambda e: e.name)
            except OSError:
                continue  # absent or unreadable: a glob that matches nothing there
            for item in items:
                if item.is_symlink():
                    continue  # links are never followed by a glob (they may leave the project)
                if item.is_dir():
                    if depth < _MAX_DEPTH:
                        stack.append((item.path, depth + 1))
                elif match(self.tree.relative(item.path)) and item.is_file():
                    found.append(item.path)
        found.sort()
        cap = self.ctx.config.max_rule_files
        if len(found) > cap:
            self.ctx.warn(config, f"instruction {entry!r} matches {len(found)} files, more than the limit "
                          f"of {cap}; only the first {cap} by path were read")
        return [Path(path) for path in found[:cap]]


def read_elsewhere(ctx: DiscoveryContext, path: Path, root: Path) -> bool:
    """Whether another provider reads ``path``: an instruction file of the walk or a rule folder."""
    relative = path.relative_to(root).parts
    if any(part in OTHER_RULE_FOLDERS for part in relative[:-1]):
        return True
    if relative[:2] == (".github", "instructions") or relative == (".github", "copilot-instructions.md"):
        return True
    names = ctx.config.instruction_files
    return any(
        is_within(path, directory) and path.relative_to(directory).as_posix() in names
        for directory in ctx.walk
    )


def _configs(ctx: DiscoveryContext) -> list[tuple[Path, Level]]:
    """OpenCode's config files that exist: the global ones, then each walk directory's."""
    config = ctx.config
    xdg = config.xdg_config_home or config.user_home / ".config"
    found: list[tuple[Path, Level]] = []
    for name in GLOBAL_CONFIG_FILES:
        if ctx.is_file(under(xdg, f"opencode/{name}"), "user"):
            found.append((xdg / "opencode" / name, "user"))
    for directory in ctx.walk:
        for name in CONFIG_FILES:
            if ctx.is_file(under(directory, name), "project"):  # no Path for an absent file
                found.append((directory / name, "project"))
    return found


def _always(_: dict[str, Any]) -> dict[str, Any]:
    return {"always_apply": True}


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load the files OpenCode's configs list as instructions, each once."""
    if ctx.nested:
        return []
    root = normalise(ctx.config.root)
    home = normalise(ctx.config.user_home)
    matcher = _Matcher(ctx)
    walk = [str(d) for d in ctx.walk]
    upward = list(reversed(ctx.walk))  # cwd first, as OpenCode's globUp
    rules: list[Rule] = []
    taken: set[Path] = set()
    for config, _ in _configs(ctx):
        for entry in _instructions(ctx, config):
            for path, level in matcher.files(config, upward, entry):
                if path in taken or (level == "project" and read_elsewhere(ctx, path, root)):
                    continue
                taken.add(path)
                if level == "user":
                    name = "~/" + path.relative_to(home).as_posix()
                else:
                    name = path.relative_to(root / base_of(str(path), walk, str(root))).as_posix()
                rule = load_markdown_rule(
                    ctx, path, provider=ID, priority=PRIORITY, level=level, mapper=_always, name=name,
                )
                if rule is not None:
                    rules.append(rule)
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load,
    "instructions of ~/.config/opencode/opencode.json(c), opencode.json(c), .opencode/opencode.json(c)",
    places=True,
)
