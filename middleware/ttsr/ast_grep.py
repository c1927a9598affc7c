"""The ``astCondition`` part of TTSR: ast-grep patterns over the code a tool call writes.

ast-grep-py is the optional extra ``ast`` (``pip install 'ruleweave[ast]'``)
and is imported only here, inside functions. Without it a rule's regex
conditions still work and the rule carries a warning that its AST part is
off; a rule with nothing but ``astCondition`` does not register.

The code is read from the call's arguments (``content``, ``new_string``,
``new_source``, ``file_text``, ... and MultiEdit's ``edits[].new_string``);
the language comes from the extension of the path the arguments name.
Reparsing a growing snapshot on every delta would cost the square of the
file's size, so a snapshot is parsed when it differs from the last one
parsed *and* either it grew by a quarter (at least 64 characters) since
then, or the delta is empty — an adapter calls
``watch("tool", "", tool=..., call_id=..., args=complete_args)`` when a call's
arguments are complete. Parse work over a call is thus linear in the code's
size, and the complete code is always checked.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ruleweave.log import LibraryLogger

EXTRA = "ast"
"""The pip extra that installs ast-grep-py."""

LANGUAGES: Mapping[str, str] = MappingProxyType(
    {
        "py": "python", "pyi": "python",
        "js": "javascript", "mjs": "javascript", "cjs": "javascript", "jsx": "javascript",
        "ts": "typescript", "mts": "typescript", "cts": "typescript", "tsx": "tsx",
        "rs": "rust", "go": "go", "java": "java", "kt": "kotlin", "kts": "kotlin",
        "c": "c", "h": "c", "cc": "cpp", "cpp": "cpp", "cxx": "cpp", "hpp": "cpp", "hh": "cpp",
        "cs": "csharp", "swift": "swift", "rb": "ruby", "php": "php", "scala": "scala",
        "lua": "lua", "sh": "bash", "bash": "bash", "zsh": "bash",
        "html": "html", "htm": "html", "css": "css", "json": "json", "yaml": "yaml", "yml": "yaml",
        "ex": "elixir", "exs": "elixir", "hs": "haskell", "tf": "hcl", "hcl": "hcl",
        "nix": "nix", "sol": "solidity",
    }
)
"""File extension → ast-grep language name."""

CODE_KEYS: tuple[str, ...] = (
    "content", "contents", "new_string", "new_str", "new_source", "file_text",
    "new_content", "code", "source",
)
"""Argument keys that hold the code a tool call writes, in the order they are tried."""

MIN_STEP = 64
"""A partial snapshot is parsed again only after growing this many characters (and 25%)."""

_log = LibraryLogger("ruleweave.ttsr")


def available() -> bool:
    """Whether ast-grep-py can be imported, without importing it (start-up stays cheap)."""
    if "ast_grep_py" in sys.modules:
        return sys.modules["ast_grep_py"] is not None
    try:
        return importlib.util.find_spec("ast_grep_py") is not None
    except (ImportError, ValueError):
        return False


def language_for(path: Path | str) -> str | None:
    """The ast-grep language for a file name, or ``None`` when its extension is unknown."""
    name = Path(path).name
    dot = name.rfind(".")
    return LANGUAGES.get(name[dot + 1 :].lower()) if dot > 0 else None


def code_of(args: Mapping[str, Any]) -> str | None:
    """The code a tool call writes, read from its (possibly partial) arguments.

    Args:
        args: The call's arguments.

    Returns:
        The first string under ``CODE_KEYS``, MultiEdit's ``new_string``s joined
        by newlines, or ``None``.
    """
    for key in CODE_KEYS:
        value = args.get(key)
        if isinstance(value, str):
            return value
    edits = args.get("edits")
    if isinstance(edits, Sequence) and not isinstance(edits, str):
        parts = [
            e["new_string"] for e in edits
            if isinstance(e, Mapping) and isinstance(e.get("new_string"), str)
        ]
        return "\n".join(parts) if parts else None
    return None


def due(size: int, last_size: int, final: bool) -> bool:
    """Whether a snapshot of ``size`` characters is parsed, after one of ``last_size``.

    Args:
        size: Characters in the new snapshot.
        last_size: Characters in the last parsed snapshot (-1: none yet).
        final: The call's arguments are complete (empty delta).

    Returns:
        True when the geometric schedule (or completion) calls for a parse.
    """
    if final or last_size < 0 or size < last_size:
        return True
    return size - last_size >= max(MIN_STEP, last_size // 4)


def _fatal(exc: BaseException) -> bool:
    return isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit, MemoryError))


def _reason(exc: BaseException) -> str:
    text = str(exc).split("Stack backtrace", 1)[0]
    return " ".join(text.split())[:300]


def find(code: str, language: str, patterns: Sequence[str]) -> list[tuple[str, str]]:
    """Every pattern with a match in ``code``, and the text of its first match.

    ast-grep errors (a pattern that does not parse in ``language``) and
    panics are logged and count as no match.

    Args:
        code: The source text.
        language: An ast-grep language name (a value of ``LANGUAGES``).
        patterns: ast-grep patterns.

    Returns:
        ``(pattern, matched text)`` pairs, in ``patterns`` order.
    """
    try:
        module = importlib.import_module("ast_grep_py")
    except ImportError:
        return []
    try:
        root = module.SgRoot(code, language).root()
    except BaseException as exc:  # pyo3 panics derive from BaseException
        if _fatal(exc):
            raise
        _log.warning("ttsr_ast_error", language=language, error=_reason(exc))
        return []
    out: list[tuple[str, str]] = []
    for pattern in patterns:
        try:
            node = root.find(pattern=pattern)
        except BaseException as exc:
            if _fatal(exc):
                raise
            _log.warning(
                "ttsr_ast_error", pattern=pattern, language=language,
                error=_reason(exc),
            )
            continue
        if node is not None:
            out.append((pattern, str(node.text())))
    return out
