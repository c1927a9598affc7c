"""What every subcommand shares: ``--cwd``, building the config, reading inputs, output.

Everything the CLI reads or prints is untrusted text: a file named on the
command line is read with the one bounded reader (a regular file only, never
blocking, at most ``MAX_INPUT_BYTES``), and everything printed goes through
``escaped_output`` (control, bidi and zero-width characters spelled
``\\uXXXX``) so that a cloned repository's rule names cannot drive the terminal.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ruleweave._files.paths import display
from ruleweave._files.reading import read_text
from ruleweave._kernel.surrogates import escape_surrogates, has_surrogates
from ruleweave._text.controls import escape_controls
from ruleweave.config import RuleweaveConfig
from ruleweave.errors import RuleweaveError
from ruleweave.rules import DiscoveryWarning

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""The largest file (or standard input) a command reads; a larger one is refused, never cut."""


class UsageError(RuleweaveError):
    """Bad arguments or unreadable input; the CLI prints it and exits 2."""


def add_cwd(parser: argparse.ArgumentParser) -> None:
    """Add ``--cwd DIR``."""
    parser.add_argument(
        "--cwd", default=".", metavar="DIR", help="the agent's working directory (default: .)"
    )
    parser.add_argument(
        "--root", metavar="DIR",
        help="the project root (default: the nearest directory above --cwd holding .git)",
    )
    parser.add_argument(
        "--builtin-rules", metavar="all|NAME,…",
        help="also use the rules shipped with ruleweave: all of them, or these names (default: none)",
    )


def add_store(parser: argparse.ArgumentParser) -> None:
    """Add ``--store URL`` (for commands that open a session)."""
    parser.add_argument(
        "--store", metavar="URL",
        help="where session state lives: memory://, sqlite:///path/state.db or redis://host:port/0 "
        "(default: memory://)",
    )


def add_json(parser: argparse.ArgumentParser) -> None:
    """Add ``--json``."""
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def config_from(args: argparse.Namespace, **overrides: Any) -> RuleweaveConfig:
    """A config for ``args.cwd``; a missing or unreadable directory is a UsageError."""
    cwd = Path(args.cwd).expanduser()
    if not cwd.is_dir():
        raise UsageError(f"--cwd {args.cwd} is not a directory.")
    try:
        next(iter(cwd.iterdir()), None)
    except OSError as exc:
        raise UsageError(f"--cwd {args.cwd} cannot be read ({exc.strerror}).") from exc
    root = getattr(args, "root", None)
    if root is not None:
        root_path = Path(root).expanduser()
        if not root_path.is_dir():
            raise UsageError(f"--root {root} is not a directory.")
        overrides.setdefault("project_root", root_path.resolve())
    builtin = getattr(args, "builtin_rules", None)
    if builtin is not None:
        names = tuple(n.strip() for n in builtin.split(",") if n.strip())
        overrides.setdefault("builtin_rules", True if names == ("all",) else names)
    store = getattr(args, "store", None)
    if store is not None:
        overrides.setdefault("store", store)
    return RuleweaveConfig(cwd=cwd.resolve(), **overrides)


def read_input(path: str) -> str:
    """Read a file named on the command line, whole; problems are a UsageError.

    Raises:
        UsageError: The file is missing or unreadable, not a regular file (a FIFO,
            ``/dev/zero``), larger than ``MAX_INPUT_BYTES``, binary or not UTF-8.
    """
    result = read_text(path, MAX_INPUT_BYTES, whole=True)
    if result.text is None:
        raise UsageError(f"cannot read {path}: it {result.problem}.")
    return result.text


def read_stdin() -> str:
    """Standard input as text, at most ``MAX_INPUT_BYTES`` of it.

    Raises:
        UsageError: It holds more, or is not UTF-8.
    """
    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:  # a text stream put in its place (tests, embedding)
        text: str = sys.stdin.read(MAX_INPUT_BYTES + 1)
        if len(text) > MAX_INPUT_BYTES:
            raise UsageError(f"standard input is larger than {MAX_INPUT_BYTES} characters.")
        return text
    data: bytes = binary.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"standard input is larger than {MAX_INPUT_BYTES} bytes.")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError("standard input is not UTF-8 text.") from exc


class _Escaping:
    """A text stream whose writes have hidden characters spelled as escapes."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(escape_controls(text))

    def writelines(self, lines: Iterable[str]) -> None:
        # Without this, ``writelines`` would reach the wrapped stream unescaped (``__getattr__``).
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def escaped_output() -> Iterator[None]:
    """Within the block, what goes to ``sys.stdout`` and ``sys.stderr`` is escaped (``escape_controls``)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaping(out), _Escaping(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def print_warnings(
    warnings: Sequence[DiscoveryWarning], root: Path, stream: IO[str] | None = None
) -> None:
    """Print warnings below a report (to stdout unless ``stream``), each naming its file
    (relative to ``root``) and line; info lines (``severity="info"``) follow as notes."""
    for title, group in (
        ("warnings", [w for w in warnings if w.severity != "info"]),
        ("notes", [w for w in warnings if w.severity == "info"]),
    ):
        if not group:
            continue
        print(f"\n{len(group)} {title}:", file=stream)
        for w in group:
            where = (display(w.path, root) if w.path else "") + (f":{w.line}" if w.line else "")
            print(f"  {where}: {w.message}" if where else f"  {w.message}", file=stream)


_SURROGATE = re.compile("[\ud800-\udfff]")


def print_json(data: Any) -> None:
    """Print ``data`` as indented, key-ordered-as-built JSON (hidden characters as ``\\uXXXX``).

    A file name's undecodable byte is the text ``\\xff`` inside its string, as on the terminal:
    a lone surrogate is not valid UTF-8 and strict JSON readers refuse its escape.
    """
    sys.stdout.write(escape_controls(json_text(json.dumps(data, indent=2, ensure_ascii=False))) + "\n")


def json_text(text: str) -> str:
    """JSON text with each lone surrogate (only ever inside a string) spelled ``\\\\xff``.

    Args:
        text: What ``json.dumps(..., ensure_ascii=False)`` wrote.

    Returns:
        The same document, valid UTF-8, its strings holding the escape as text.
    """
    if not has_surrogates(text):
        return text
    return _SURROGATE.sub(lambda m: escape_surrogates(m.group(0)).replace("\\", "\\\\"), text)
