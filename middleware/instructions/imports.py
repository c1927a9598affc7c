"""Reading instruction files and expanding their ``@path`` imports, each file once.

An import resolves against the importing file (``~/`` against the home
directory); it expands after the line naming it, as ``[import: <path>]`` …
``[end import: <path>]``, to at most ``import_max_depth`` levels. A target
outside the project (for the user tier: outside the Claude directory, symlinks
resolved) is refused unless ``allow_outside_imports``; a cycle, a missing or
unreadable target is a warning naming the importing file and line. A file
already included (same real path or byte-identical text) is skipped silently.

Instruction files are repository text, so every body is neutralised like a
rule's (``prompt``): a line that starts like a ruleweave header (``[file: …]``,
``[rule: …]``, ``[import: …]``) is escaped as it is read, before import
headers are placed, and block tags (``</generic-rules>``, ``<steering>``)
are made inert in the whole body and in display paths.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.instructions.markdown import (
    import_tokens,
    normalise_text,
    one_line_folded,
    path_like,
    strip_comments,
)
from ruleweave.paths import display, is_within, normalise
from ruleweave.prompt import escape_headers, neutralise_tags
from ruleweave.reading import read_text
from ruleweave.rules import Level


class Expander:
    """Reads instruction files and expands their imports, including each file once."""

    def __init__(
        self, config: RuleweaveConfig, ctx: DiscoveryContext, seen: frozenset[str] = frozenset()
    ) -> None:
        self.config = config
        self.ctx = ctx
        self.seen: set[str] = set(seen)
        self.root = normalise(config.root)
        self.home = normalise(config.user_home)
        self._import_bytes = 0

    def display(self, path: Path, level: Level) -> str:
        """``path`` relative to the project root, ``~/…`` under home, else absolute."""
        shown = display(normalise(path), self.root, self.home, home_first=level == "user")
        return neutralise_tags(one_line_folded(shown))

    def claim(self, real: str, text: str) -> bool:
        """Record a file as included; False when it (or identical text) already was."""
        digest = "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
        if real in self.seen or digest in self.seen:
            return False
        self.seen.update((real, digest))
        return True

    def file(self, path: Path, level: Level) -> str | None:
        """The processed body of an instruction file; None when absent, a repeat or empty."""
        if not self.ctx.is_file(path, level):
            return None
        real = os.path.realpath(path)
        if real in self.seen:
            return None
        text = self.ctx.read(path)
        if text is None:
            return None
        return self.body(path, real, normalise_text(text), level)

    def body(self, path: Path, real: str, text: str, level: Level) -> str | None:
        """Strip comments and expand imports of a top-level part; None for a repeat or empty."""
        if not self.claim(real, text):
            return None
        self._import_bytes = 0
        return neutralise_tags(self.expand(text, path, level, 0, (real,))) or None

    def expand(
        self, text: str, origin: Path, level: Level, depth: int, chain: tuple[str, ...]
    ) -> str:
        """``text`` without comments, each import's body placed after the line naming it."""
        out: list[str] = []
        for number, line, is_code in strip_comments(text):
            out.append(escape_headers(line))
            if is_code or "@" not in line:
                continue
            for token in import_tokens(line):
                block = self._import(token, origin, level, depth + 1, chain, number)
                if block:
                    out.append(block)
        return "\n".join(out).strip("\n").rstrip()

    def _allowed(self, target: Path, level: Level) -> bool:
        if self.config.allow_outside_imports:
            return True
        base = normalise(self.config.claude_dir) if level == "user" else self.root
        real = Path(os.path.realpath(target))
        return is_within(target, base) and is_within(real, Path(os.path.realpath(base)))

    def _import(
        self, token: str, origin: Path, level: Level, depth: int, chain: tuple[str, ...], line: int
    ) -> str | None:
        if token == "~" or token.startswith("~/"):
            target = normalise(self.home / token[2:])
        else:
            target = normalise(origin.parent / token)  # an absolute token replaces the base
        explicit = path_like(token)
        if not explicit and not target.is_file():
            return None  # a bare @word naming no file is prose (a mention, a decorator)

        def warn(message: str) -> None:
            self.ctx.warn(origin, f"import @{token}: {message}", line=line)

        if not self._allowed(target, level):
            where = "the user's Claude directory" if level == "user" else "the project"
            warn(f"{target} is outside {where}; refused (allow_outside_imports is off)")
            return None
        real = os.path.realpath(target)
        if real in chain:
            warn("import cycle (" + " -> ".join(Path(p).name for p in (*chain, real)) + ")")
            return None
        if real in self.seen:
            return None
        if depth > self.config.import_max_depth:
            warn(f"imports nest deeper than {self.config.import_max_depth} levels; not expanded")
            return None
        if not os.path.isfile(real):
            warn(f"{target} is not a file" if os.path.exists(real) else f"{target} does not exist")
            return None
        if self._import_bytes >= self.config.max_file_bytes:
            warn(f"imports of this file already exceed {self.config.max_file_bytes} bytes; skipped")
            return None
        result = read_text(target, self.config.max_file_bytes)
        if result.problem:
            warn(f"{target} {result.problem}")
        if result.text is None:
            return None
        text = normalise_text(result.text)
        if not self.claim(real, text):
            return None
        self._import_bytes += len(text.encode("utf-8"))
        body = self.expand(text, target, level, depth, (*chain, real))
        if not body:
            return None
        shown = self.display(target, level)
        return f"[import: {shown}]\n{body}\n[end import: {shown}]"
