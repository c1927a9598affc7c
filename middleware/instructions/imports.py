"""Reading instruction files and expanding their ``@path`` imports, each text once.

An import resolves against the importing file (``~/`` against the home
directory); it expands after the line naming it, as ``[import: <path>]`` …
``[end import: <path>]``, to at most ``import_max_depth`` levels (or the
format's own lower ``import_depth``: Goose's three), and only in formats whose
agent expands imports (Claude Code's, Gemini CLI's, Qwen Code's and Goose's files;
``AGENTS.md`` and the others keep ``@path`` as text). A token that does not
plainly name a file (``@alice``, the npm scope ``@cline/llms``) is an import only
when that file exists, else text, without a warning. A target outside the
part's base (the project; for a user-tier or parent file, its own directory)
is refused unless ``allow_outside_imports``, symlinks resolved, except a
``@~/…`` import of a file in the user's home (Claude Code loads those after
one approval); a cycle, a missing or unreadable target is a warning naming the
importing file and line. A project file's import of a git-ignored file or of a
secret-looking name (``.env``, ``*.pem``, ``id_*``, ``.npmrc``:
``ruleweave._files.secrets``) is refused with a warning unless
``allow_secret_imports``: a committed ``@.env`` must not send the user's
untracked secrets to the model provider.

A text is included once: a file already included (same real path) is skipped,
and so is one whose text equals an included one's once whitespace and line
ends are normalised (``merged`` records which, for ``scan``). A file whose
imports expand is keyed by its directory too, since the same ``@AGENTS.md`` in
two directories names two files. An import skipped because its file is
already included leaves no bare ``@path``: a line of nothing but such imports
goes, and elsewhere the token reads ``path (already included)``.

A file (or imported file) with ``globs:`` frontmatter is Amp's path-scoped
guidance: it is left out of the text and recorded in ``scoped``. Other
frontmatter is dropped: it never reaches the prompt.

Instruction files are repository text, so every body is neutralised like a
rule's (``prompt``): a line that starts like a ruleweave header (``[file: …]``,
``[rule: …]``, ``[import: …]``) is escaped as it is read, before import
headers are placed, and block tags (``</generic-rules>``, ``<steering>``)
are made inert in the whole body and in display paths.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import Literal

from ruleweave._files.paths import display, is_within, normalise
from ruleweave._files.reading import read_text
from ruleweave._files.secrets import ImportGuard
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.frontmatter import as_globs
from ruleweave.frontmatter import parse as parse_frontmatter
from ruleweave.globs import compile_glob
from ruleweave.instructions.markdown import (
    import_spans,
    normalise_text,
    one_line_folded,
    path_like,
    plain_prose,
    strip_comments,
)
from ruleweave.instructions.model import NestedFile, ScopedFile
from ruleweave.prompt import escape_headers, neutralise_tags
from ruleweave.rules import Level

Outcome = Literal["expanded", "text", "included", "skipped"]
"""What became of one ``@path`` token."""

_MAX_TARGETS = 256
"""Import tokens looked at to key one file's text (see ``Expander.claim``)."""


_ODD_BLANKS = ("  ", "\n ", " \n", "\t", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")
"""What ``str.split`` would fold in an ASCII text besides line ends (``\r`` is gone already)."""


def content_key(text: str) -> str:
    """The digest two texts share when they differ only in whitespace and line ends."""
    text = normalise_text(text)
    # Each line's blanks folded, empty lines dropped. Most texts have nothing to fold in their
    # lines: a few substring scans say so, and only their empty lines go (this runs per part and rule).
    if (
        text.isascii() and not text.startswith(" ") and not text.endswith(" ")
        and not any(blank in text for blank in _ODD_BLANKS)
    ):
        canonical = "\n".join(filter(None, text.split("\n")))
    else:
        canonical = "\n".join(filter(None, map(" ".join, map(str.split, text.split("\n")))))
    import hashlib  # here: most loads hash nothing, and a hook process counts every import

    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def amp_glob(glob: str, directory: str) -> str:
    """An Amp ``globs:`` entry relative to the project root.

    Args:
        glob: The entry as written.
        directory: The declaring file's directory relative to the root (``""`` for the root).

    Returns:
        ``./x`` / ``../x`` joined to ``directory``; anything else with an implicit ``**/`` ahead.
    """
    glob = glob.strip()
    if glob.startswith(("./", "../")):
        joined = posixpath.normpath(posixpath.join(directory, glob))
        return joined.lstrip("/")
    glob = glob.lstrip("/")
    return glob if glob.startswith("**/") else "**/" + glob


class Expander:
    """Reads instruction files and expands their imports, including each text once."""

    def __init__(
        self, config: RuleweaveConfig, ctx: DiscoveryContext, seen: frozenset[str] = frozenset()
    ) -> None:
        self.config = config
        self.ctx = ctx
        self.seen: set[str] = set(seen)
        self.root = normalise(config.root)
        self.home = normalise(config.user_home)
        self.merged: list[tuple[str, str, str]] = []  # (path, display path, kept display path)
        self.scoped: list[ScopedFile] = []
        self._kept: dict[str, str] = {}  # content key -> display path of the file that kept it
        self._import_bytes = 0
        self._imports = True
        self._max_depth = config.import_max_depth
        self._base = self.root
        self._shown: dict[tuple[str, Level], str] = {}  # a part's header and report share one spelling
        self._guard = ImportGuard(config)

    def display(self, path: Path | str, level: Level) -> str:
        """``path`` relative to the project root, ``~/…`` under home, else absolute."""
        key = (os.fspath(path), level)
        shown = self._shown.get(key)
        if shown is None:
            spelled = display(os.path.normpath(key[0]), self.root, self.home, home_first=level == "user")
            shown = self._shown[key] = neutralise_tags(one_line_folded(spelled))
        return shown

    def claim(self, real: str, text: str, shown: str = "", keyed_dir: str = "", path: str = "") -> bool:
        """Record a text as included; False when its file (or the same text) already was.

        Args:
            real: The file's real path.
            text: Its text (frontmatter removed).
            shown: Its display path, for ``merged``.
            path: Its path, for ``merged`` (default: ``real``).
            keyed_dir: For a file whose imports expand, the files they name: the same text
                in another directory may name other files.
        """
        key = content_key(text)
        if keyed_dir:
            key += ":" + keyed_dir
        if real in self.seen:
            return False
        if key in self.seen:
            self.merged.append((path or real, shown, self._kept.get(key, "an earlier instruction file")))
            return False
        self.seen.update((real, key))
        self._kept[key] = shown
        return True

    def file(
        self, path: Path, level: Level, *, imports: bool = True, base: Path | None = None,
        checked: bool = False, depth: int = 0,
    ) -> str | None:
        """The processed body of an instruction file; None when absent, a repeat, scoped or empty.

        Args:
            path: The file.
            level: Its tier (symlink policy, display).
            imports: Its format expands ``@path`` imports.
            base: Where its imports may lead (default: the project root).
            checked: The caller has already checked that ``path`` may be read.
            depth: Its format's own nesting limit of imports (0: ``import_max_depth``).
        """
        if not checked and not self.ctx.is_file(path, level):
            return None
        real = os.path.realpath(path)
        if real in self.seen:
            return None
        text = self.ctx.read(path)
        if text is None:
            return None
        return self.body(path, real, normalise_text(text), level, imports=imports, base=base, depth=depth)

    def body(
        self, path: Path | str, real: str, text: str, level: Level, *, imports: bool = True,
        base: Path | None = None, depth: int = 0,
    ) -> str | None:
        """Strip frontmatter and comments, expand imports of a top-level part.

        ``path`` may be a string (a rule's): a ``Path`` is made only when imports need one.

        Returns:
            The body; None for a repeat, an empty text, or a ``globs:`` file (see ``scoped``).
        """
        text, globs = self._frontmatter(path, text)
        if not text.strip():
            return None  # nothing to say: never "the same text" as another empty file
        shown = self.display(path, level)
        keyed = self._targets(text, Path(path)) if imports and "@" in text else ""
        if not self.claim(real, text, shown, keyed, str(path)):
            return None
        self._import_bytes = 0
        self._imports = imports
        limit = self.config.import_max_depth
        self._max_depth = min(depth, limit) if depth > 0 else limit
        self._base = normalise(base) if base is not None else self.root
        body = neutralise_tags(self.expand(text, path, level, 0, (real,))) or None
        if body is not None and globs:
            self._scope(path, shown, body, globs)
            return None
        return body

    def _targets(self, text: str, path: Path) -> str:
        """The real paths of the existing files ``text``'s imports name, joined (``""``: none).

        Only the first ``_MAX_TARGETS`` tokens are looked at: a hostile file's thousands of
        tokens cost no more ``stat`` calls.
        """
        targets: list[str] = []
        looked = 0
        for _, line, is_code in strip_comments(text):
            if is_code or "@" not in line:
                continue
            for _, _, token in import_spans(line):
                looked += 1
                if looked > _MAX_TARGETS:
                    return "|".join(targets)
                home = token.startswith("~/")
                target = (self.home / token[2:]) if home else (path.parent / token)
                if os.path.isfile(target):
                    targets.append(os.path.realpath(target))
        return "|".join(targets)

    def _frontmatter(self, path: Path | str, text: str) -> tuple[str, tuple[str, ...]]:
        """``text`` without its frontmatter, and the frontmatter's ``globs``."""
        if not text.startswith("---"):
            return text, ()
        parsed = parse_frontmatter(text)
        if not parsed.present:
            return text, ()
        value = parsed.data.get("globs")
        if value is not None and not isinstance(value, (str, list, tuple)):
            self.ctx.warn(path, "frontmatter globs is not a glob or a list of globs; applied everywhere")
            return parsed.body, ()
        return parsed.body, as_globs(value)

    def _scope(self, path: Path | str, shown: str, body: str, globs: tuple[str, ...]) -> None:
        directory = normalise(Path(path)).parent
        relative = directory.relative_to(self.root).as_posix() if is_within(directory, self.root) else ""
        relative = "" if relative == "." else relative
        rooted = tuple(dict.fromkeys(amp_glob(g, relative) for g in globs if g.strip()))
        matchers = [compile_glob(g) for g in rooted]

        def match(relative_path: str) -> bool:
            return any(m(relative_path) for m in matchers)

        self.scoped.append(ScopedFile(NestedFile(str(normalise(Path(path))), shown, body), rooted, match))

    def expand(
        self, text: str, origin: Path | str, level: Level, depth: int, chain: tuple[str, ...]
    ) -> str:
        """``text`` without comments, each import's body placed after the line naming it."""
        if plain_prose(text, imports=self._imports):
            return escape_headers(text).strip("\n").rstrip()
        origin = Path(origin)
        out: list[str] = []
        for number, line, is_code in strip_comments(text):
            if is_code or not self._imports or "@" not in line:
                out.append(escape_headers(line))
                continue
            blocks: list[str] = []
            included: list[tuple[int, int, str]] = []
            for start, end, token in import_spans(line):
                block, outcome = self._import(token, origin, level, depth + 1, chain, number)
                if block:
                    blocks.append(block)
                elif outcome == "included":
                    included.append((start, end, token))
            if included:
                line = _mark_included(line, included)
            if line.strip() or not included:
                out.append(escape_headers(line))
            out.extend(blocks)
        return "\n".join(out).strip("\n").rstrip()

    def _allowed(self, token: str, target: Path) -> bool:
        if self.config.allow_outside_imports:
            return True
        real = Path(os.path.realpath(target))
        if token.startswith("~/"):  # Claude Code's documented home import
            return is_within(target, self.home) and is_within(real, Path(os.path.realpath(self.home)))
        base = self._base
        return is_within(target, base) and is_within(real, Path(os.path.realpath(base)))

    def _import(
        self, token: str, origin: Path, level: Level, depth: int, chain: tuple[str, ...], line: int
    ) -> tuple[str | None, Outcome]:
        if token.startswith("~/"):
            target = normalise(self.home / token[2:])
        else:
            target = normalise(origin.parent / token)  # an absolute token replaces the base
        if not path_like(token):
            try:
                if not target.is_file():
                    return None, "text"  # a bare @word naming no file is prose (a mention, a scope)
            except OSError:
                return None, "text"

        def warn(message: str) -> tuple[None, Outcome]:
            self.ctx.warn(origin, f"import @{token}: {message}", line=line)
            return None, "skipped"

        if not self._allowed(token, target):
            where = "the project" if self._base == self.root else str(self._base)
            return warn(f"{target} is outside {where}; refused (allow_outside_imports is off)")
        if _home_secret(token, target, level, self.config.allow_outside_imports):
            # A cloned repository must not pull ~/.ssh/id_rsa or ~/.aws/credentials into the prompt.
            return warn(f"{target} is not a Markdown file; a project file's @~/ import reads only those")
        if level == "project" and (refused := self._guard.refusal(str(target))) is not None:
            return warn(refused)
        real = os.path.realpath(target)
        if real in chain:
            return warn("import cycle (" + " -> ".join(Path(p).name for p in (*chain, real)) + ")")
        if real in self.seen:
            return None, "included"
        if depth > self._max_depth:
            return warn(f"imports nest deeper than {self._max_depth} levels; not expanded")
        if not os.path.isfile(real):
            return warn(f"{target} is not a file" if os.path.exists(real) else f"{target} does not exist")
        if self._import_bytes >= self.config.max_file_bytes:
            return warn(f"imports of this file already exceed {self.config.max_file_bytes} bytes; skipped")
        result = read_text(target, self.config.max_file_bytes)
        if result.problem:
            self.ctx.warn(origin, f"import @{token}: {target} {result.problem}", line=line)
        if result.text is None:
            return None, "skipped"
        text, globs = self._frontmatter(target, normalise_text(result.text))
        shown = self.display(target, level)
        if not self.claim(real, text, shown, path=str(target)):
            return None, "included"
        self._import_bytes += len(text.encode("utf-8"))
        body = self.expand(text, target, level, depth, (*chain, real))
        if not body:
            return None, "skipped"
        if globs:
            self._scope(target, shown, neutralise_tags(body), globs)
            return None, "skipped"
        return f"[import: {shown}]\n{body}\n[end import: {shown}]", "expanded"


_MARKDOWN = (".md", ".markdown", ".mdx")


def _home_secret(token: str, target: Path, level: Level, allowed: bool) -> bool:
    """Whether a project file's ``@~/`` import names something in the home that is not Markdown
    (its own files' imports, and ``allow_outside_imports``, are the user's word)."""
    return token.startswith("~/") and level == "project" and not allowed and (
        not target.name.lower().endswith(_MARKDOWN)
        or not os.path.realpath(target).lower().endswith(_MARKDOWN)
    )


def _mark_included(line: str, spans: list[tuple[int, int, str]]) -> str:
    """``line`` with each already-included ``@path`` as ``path (already included)``; blank when
    nothing but those tokens (and list or quote markers) is on it."""
    rest = line
    for start, end, _ in reversed(spans):
        rest = rest[:start] + rest[end:]
    if not rest.strip(" \t-*+>.,;:"):
        return ""
    for start, end, token in reversed(spans):
        line = f"{line[:start]}{token} (already included){line[end:]}"
    return line
