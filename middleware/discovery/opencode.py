"""opencode (priority 30): the ``instructions`` files listed in OpenCode's config.

In each directory of the root→cwd walk (OpenCode looks from cwd up to the
project root): ``opencode.json``, ``opencode.jsonc``, ``.opencode/opencode.json``
and ``.opencode/opencode.jsonc`` (JSON with comments and trailing commas).
Each entry of ``instructions`` is a file or a glob, relative to the walk
directory the config belongs to (the one holding ``opencode.json`` or
``.opencode/``); every file it matches is one always-applied rule, named
by its path (``docs/style.md``). Nothing leaves the project: URLs (no
network), absolute or ``~`` paths outside it and ``..`` segments are warnings,
and a glob never descends into ignored directories (``.gitignore``,
``node_modules`` …) or through links. Files another provider already reads —
instruction files (``AGENTS.md`` …) and other agents' rule folders — are
skipped, so each rule keeps the bucket its own agent gives it. A config that
is not valid JSON is a warning naming the file.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from ruleweave._files.paths import is_within, normalise
from ruleweave._files.tree import ProjectTree
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.placement import base_of
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_markdown_rule
from ruleweave.globs import compile_glob
from ruleweave.rules import Rule

ID, PRIORITY = "opencode", 30
CONFIG_FILES = ("opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc")
OTHER_RULE_FOLDERS = frozenset(
    {
        ".agent", ".agents", ".aiassistant", ".augment", ".claude", ".clinerules", ".continue",
        ".cursor", ".devin", ".junie", ".kiro", ".roo", ".ruleweave", ".trae", ".windsurf",
    }
)
"""Directory names whose files other providers read with their own agent's semantics."""
_MAGIC = re.compile(r"[*?\[{]")
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_MAX_DEPTH = 12
_MAX_DIRS = 10_000


def _without_comments(text: str) -> str:
    """JSONC → JSON: ``//`` and ``/* */`` comments and trailing commas removed, strings kept."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[i : end + 1])
            i = end + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            out.append(char)
            i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def _instructions(ctx: DiscoveryContext, path: Path) -> list[str]:
    """The ``instructions`` entries of one config file; problems are warnings."""
    text = ctx.read(path)
    if text is None:
        return []
    try:
        data: Any = json.loads(_without_comments(text.removeprefix("\ufeff")))
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

    def files(self, config: Path, base: Path, entry: str) -> list[Path]:
        """The files ``entry`` (from ``config``, relative to ``base``) names, sorted."""
        ctx = self.ctx
        if _URL.match(entry):
            ctx.warn(config, f"instruction {entry!r} is a URL; ruleweave reads no network, skipped")
            return []
        if "\x00" in entry:
            ctx.warn(config, f"instruction {entry!r} holds a NUL character; skipped")
            return []
        # ``~/`` is the configured home (never the environment); ``~user`` cannot be inside the project.
        target = str(ctx.config.user_home) + entry[1:] if entry == "~" or entry.startswith("~/") else entry
        pattern = normalise(base / target)
        if target.startswith("~") or ".." in Path(target).parts or not is_within(pattern, self.root):
            ctx.warn(config, f"instruction {entry!r} leaves the project; skipped")
            return []
        if not _MAGIC.search(str(pattern)):
            if not ctx.is_file(pattern, "project"):
                ctx.warn(config, f"instruction {entry!r} names no file; skipped")
                return []
            return [pattern]
        return self._glob(config, entry, pattern)

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


def _read_elsewhere(ctx: DiscoveryContext, path: Path, root: Path) -> bool:
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


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load the files OpenCode's configs list as instructions, each once."""
    if ctx.nested:
        return []
    root = normalise(ctx.config.root)
    matcher = _Matcher(ctx)
    walk = [str(d) for d in ctx.walk]
    rules: list[Rule] = []
    taken: set[Path] = set()
    for directory in ctx.walk:
        for name in CONFIG_FILES:
            if not ctx.is_file(under(directory, name), "project"):  # no Path for an absent file
                continue
            config = directory / name
            for entry in _instructions(ctx, config):
                for path in matcher.files(config, directory, entry):
                    if path in taken or _read_elsewhere(ctx, path, root):
                        continue
                    taken.add(path)
                    base = base_of(str(path), walk, str(root))
                    rule = load_markdown_rule(
                        ctx, path, provider=ID, priority=PRIORITY, level="project",
                        mapper=lambda _: {"always_apply": True},
                        name=path.relative_to(root / base).as_posix(),
                    )
                    if rule is not None:
                        rules.append(rule)
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load, "instructions of opencode.json(c), .opencode/opencode.json(c)", places=True,
)
