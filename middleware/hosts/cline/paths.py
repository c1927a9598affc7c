"""The paths a Cline tool call touches, for the tools the default extractor does not read.

``read_files`` takes ``{"files": [{"path": ...}]}`` and, leniently, every other
shape a model sends (``@cline/core``'s input union): ``files`` as a list of paths
or objects, one object or one path; ``file_paths``/``paths``; a bare ``path``,
``file_path`` or ``filePath``. ``run_commands`` takes ``commands``, each a
command line or ``{"command", "args"}``; its path-like words are read as for
Claude Code's ``Bash`` (``ruleweave.hosts.claude_code.paths.bash_paths``).
``editor`` names its file under ``path`` (the default extractor), and
``apply_patch``'s ``input`` is patch text, read by the patch extractor every
edit tool gets. No ``typing`` here: the warm path imports this module.
"""

from __future__ import annotations

from ruleweave.hosts.claude_code.paths import bash_paths

TYPE_CHECKING = False  # not typing's: see the module docstring
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ruleweave._kernel.paths import Extractor

_MAX_ITEMS = 256
_FILE_KEYS = ("path", "file_path", "filePath")


def _file(value: Any) -> Iterable[str]:
    """One read request: a path, or an object naming one."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key in _FILE_KEYS:
            if isinstance(value.get(key), str):
                yield value[key]
                return


def read_files_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``read_files``: every file it reads, whatever shape its input has."""
    for key in ("files", "file_paths", "paths"):
        value = args.get(key)
        for item in value[:_MAX_ITEMS] if isinstance(value, list) else (value,):
            yield from _file(item)
    for key in _FILE_KEYS:
        yield from _file(args.get(key))


def _command_lines(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict) and isinstance(value.get("command"), str):
        words = value.get("args")
        words = [w for w in words[:_MAX_ITEMS] if isinstance(w, str)] if isinstance(words, list) else []
        import shlex  # only argv-form commands pay for it

        yield shlex.join([value["command"], *words])


def run_commands_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``run_commands``: the path-like words of each command it runs."""
    for key in ("commands", "command", "cmd"):
        value = args.get(key)
        for item in value[:_MAX_ITEMS] if isinstance(value, list) else (value,):
            for line in _command_lines(item):
                yield from bash_paths(tool, {"command": line})


EXTRACTORS: Mapping[str, Extractor] = {"read_files": read_files_paths, "run_commands": run_commands_paths}
"""Extractors for Cline's tools whose arguments name paths in their own way."""
