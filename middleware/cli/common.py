"""What every subcommand shares: ``--cwd``, building the config, JSON output."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ruleweave.config import RuleweaveConfig
from ruleweave.errors import RuleweaveError
from ruleweave.paths import display
from ruleweave.rules import DiscoveryWarning


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
    store = getattr(args, "store", None)
    if store is not None:
        overrides.setdefault("store", store)
    return RuleweaveConfig(cwd=cwd.resolve(), **overrides)


def read_input(path: str) -> str:
    """Read a file named on the command line; problems are a UsageError."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or "not UTF-8 text"
        raise UsageError(f"cannot read {path} ({reason}).") from exc


def print_warnings(warnings: Sequence[DiscoveryWarning], root: Path) -> None:
    """Print warnings below a report, each naming its file (relative to ``root``) and line."""
    if not warnings:
        return
    print(f"\n{len(warnings)} warnings:")
    for w in warnings:
        where = (display(w.path, root) if w.path else "") + (f":{w.line}" if w.line else "")
        print(f"  {where}: {w.message}" if where else f"  {w.message}")


def print_json(data: Any) -> None:
    """Print ``data`` as indented, key-ordered-as-built JSON."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
