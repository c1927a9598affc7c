"""Which files a tool call touched, and whether a path lies in the project: one copy for library and hook.

``call_paths`` turns what an extractor reads from a call's arguments into
absolute, normalised paths; ``default_paths`` is the extractor for tools
without one of their own: the argument keys ``file_path``, ``path``,
``paths``, ``notebook_path``, ``target_file``, ``filename`` and any key ending
in ``path``/``paths``, one level of nesting too (tools whose arguments wrap a
payload). Anything odd — numbers, huge strings, NUL bytes, non-string list
items, a mapping that raises — is skipped, never raised on.
``ruleweave.session.touch.TouchExtractors`` (the library's registry) and the
Claude Code hook's warm path both call these.

Standard library only, and no ``typing`` or ``pathlib``: the hook's warm path imports this module.
"""

from __future__ import annotations

import os

# What ``collections.abc`` re-exports, from the module ``os`` loads at start-up: importing
# ``collections.abc`` itself would add a module to every warm hook process.
from _collections_abc import Mapping

TYPE_CHECKING = False  # not typing's: see the module docstring
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

    Extractor = Callable[[str, Mapping[str, Any]], Iterable[str]]
    """``(tool_name, args) -> path strings`` for one kind of tool."""

PATH_KEYS = frozenset({"file_path", "path", "paths", "notebook_path", "target_file", "filename"})
"""Argument keys ``default_paths`` reads (besides any key ending in ``path``/``paths``)."""

PATCH_KEYS = ("input", "patch", "diff", "command")
"""Argument keys whose text may be a patch naming files (``tool_names.patch_paths`` reads them)."""

MAX_PATH_CHARS = 4096
"""The longest path string taken (the kernel's ``PATH_MAX``)."""

MAX_PATHS = 256
"""The most paths one call touches; the rest are left out."""


def _usable(value: str) -> bool:
    return 0 < len(value) <= MAX_PATH_CHARS and "\x00" not in value and "\n" not in value


def _strings(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        if _usable(value):
            out.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value[:MAX_PATHS]:
            if isinstance(item, str) and _usable(item):
                out.append(item)


_PATH_KEY_MEMO: dict[str, bool] = {}
_PATH_KEY_MEMO_SIZE = 4096  # keys come from the model: remembered up to a bound, then decided each time


def _is_path_key(key: object) -> bool:
    if type(key) is str:
        known = _PATH_KEY_MEMO.get(key)
        if known is not None:
            return known
    elif not isinstance(key, str):
        return False
    lowered = key.lower()
    verdict = lowered in PATH_KEYS or lowered.endswith(("path", "paths"))
    if len(_PATH_KEY_MEMO) < _PATH_KEY_MEMO_SIZE and type(key) is str:
        _PATH_KEY_MEMO[key] = verdict
    return verdict


def default_paths(tool: str, args: Mapping[str, Any]) -> list[str]:
    """Path strings under the well-known argument keys (and one nested level).

    Args:
        tool: The tool's name (unused: the extractor signature).
        args: The call's arguments.

    Returns:
        The strings, in argument order (those read before a mapping that raises did).
    """
    out: list[str] = []
    memo = _PATH_KEY_MEMO
    try:
        for key, value in args.items():
            known = memo.get(key) if type(key) is str else None
            if known is None:
                known = _is_path_key(key)
            if known:
                if type(value) is str:  # the usual call: one path string, checked here
                    if 0 < len(value) <= MAX_PATH_CHARS and "\x00" not in value and "\n" not in value:
                        out.append(value)
                else:
                    _strings(value, out)
            elif isinstance(value, Mapping):
                for inner_key, inner in value.items():
                    if _is_path_key(inner_key):
                        _strings(inner, out)
    except Exception:
        return out  # a hostile mapping: what was read before it raised
    return out


_SEP_IS_SLASH = os.sep == "/"


def absolute(raw: str, cwd: str) -> str:
    """``raw`` taken against ``cwd`` (when relative) and normalised, as ``os.path.normpath`` would.

    ``normpath`` is Python code before 3.12 and costs more than matching the path: a path
    with no ``//``, no ``/.`` and no trailing ``/`` is already normal and comes back as it is.

    Args:
        raw: A path string (``/``-separated).
        cwd: An absolute, normalised directory.

    Returns:
        The absolute, normalised path.
    """
    path = raw if raw.startswith("/") else os.path.join(cwd, raw)
    if _SEP_IS_SLASH and "//" not in path and "/." not in path and not path.endswith("/"):
        return path
    return os.path.normpath(path)


def call_paths(
    tool: str,
    args: Mapping[str, Any],
    cwd: str,
    extractor: Extractor,
    more: Extractor | None = None,
) -> list[str]:
    """The absolute, normalised paths a call touched (deduplicated, in argument order).

    Args:
        tool: The tool's name.
        args: Its arguments, decoded.
        cwd: What relative paths resolve against.
        extractor: Reads path strings from the arguments.
        more: Reads more of them, after ``extractor`` (patch text, for edit and write tools).

    Returns:
        At most ``MAX_PATHS`` paths; what was found before an extractor or a hostile
        mapping raised.
    """
    out: dict[str, None] = {}
    try:
        if not args:  # a hostile mapping may raise even here
            return []
        if extractor is default_paths and more is None:
            raws = default_paths(tool, args)  # usable strings already, and it never raises
            if len(raws) == 1:  # most calls name one path
                return [absolute(raws[0], cwd)]
        for found in (extractor, more):
            if found is None:
                continue
            for raw in found(tool, args):
                if not isinstance(raw, str) or not _usable(raw):
                    continue
                out[absolute(raw, cwd)] = None
                if len(out) >= MAX_PATHS:
                    return list(out)
    except Exception:
        return list(out)
    return list(out)


def in_project(path: str, root_prefix: str, real_root_prefix: str) -> str:
    """``path``, re-spelled under the project root when only a symbolic link hides that it is there.

    A tool may name a file through a link to the project (``/tmp`` vs
    ``/private/tmp``, a linked checkout) or by its real path while the session
    was started through the link; both reach the same file, so both must be
    matched relative to the project root.

    Args:
        path: An absolute, normalised path.
        root_prefix: The project root followed by one ``/``.
        real_root_prefix: The same, links resolved.

    Returns:
        The path under ``root_prefix`` when its real path is inside the project, else as given.
    """
    if path.startswith(root_prefix):
        return path
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return path
    if real.startswith(real_root_prefix) and len(real) > len(real_root_prefix):
        return root_prefix + real[len(real_root_prefix) :]
    return path
