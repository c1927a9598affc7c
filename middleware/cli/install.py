"""``ruleweave install claude-code``: merge ruleweave's hooks into a Claude Code settings file.

``--project`` (default) writes ``<root>/.claude/settings.json`` (committed,
shared by the team), ``--local`` ``<root>/.claude/settings.local.json``,
``--user`` ``$CLAUDE_CONFIG_DIR/settings.json`` (``~/.claude``). Only
ruleweave's entries change; a run that changes nothing writes nothing;
``--dry-run`` prints the unified diff instead; ``--uninstall`` takes them out.
A settings file that is not a JSON object is left untouched (exit 2).

The hook command is the bare ``ruleweave hook claude-code``: a committed
settings file must work on every teammate's machine, where an absolute path
to one virtual environment would not. ``--absolute`` writes this
installation's own path instead (for a ``ruleweave`` that is not on the
``PATH`` Claude Code runs with); the installer says when ``ruleweave`` is
not on ``PATH``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from ruleweave.cli.common import UsageError, add_cwd, config_from
from ruleweave.hosts.claude_code.settings import COMMAND, SettingsError, install, uninstall

MAX_SETTINGS_BYTES = 4 * 1024 * 1024


def register(subparsers: Any) -> None:
    """Add the ``install`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "install",
        help="add ruleweave's hooks to an agent's settings (Claude Code)",
        description="Merge the ruleweave hook command into Claude Code's settings.json, "
        "keeping everything else in it.",
    )
    parser.add_argument("agent", choices=["claude-code"], help="the agent to install the hooks for")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--project", dest="scope", action="store_const", const="project",
                       help="<root>/.claude/settings.json, shared with the team (default)")
    where.add_argument("--local", dest="scope", action="store_const", const="local",
                       help="<root>/.claude/settings.local.json, this checkout only")
    where.add_argument("--user", dest="scope", action="store_const", const="user",
                       help="$CLAUDE_CONFIG_DIR/settings.json (~/.claude), every project")
    parser.add_argument("--dry-run", action="store_true", help="print the diff; write nothing")
    parser.add_argument("--uninstall", action="store_true", help="remove ruleweave's hooks only")
    parser.add_argument("--absolute", action="store_true",
                        help="write this installation's absolute path instead of a bare `ruleweave`")
    add_cwd(parser)
    parser.set_defaults(func=run, scope="project")


def settings_path(args: argparse.Namespace) -> Path:
    """The settings file the scope names.

    Raises:
        UsageError: A project or local settings file that links outside the project: a
            cloned repository must not make the installer rewrite a file elsewhere.
    """
    config = config_from(args)
    if args.scope == "user":
        return config.claude_dir / "settings.json"
    name = "settings.local.json" if args.scope == "local" else "settings.json"
    path = config.root / ".claude" / name
    real, root = os.path.realpath(path), os.path.realpath(config.root)
    if not real.startswith(root.rstrip(os.sep) + os.sep):
        raise UsageError(f"{path} links outside the project (to {real}); nothing was changed.")
    return path


def read_settings(path: Path) -> tuple[str, Any]:
    """The file's text and parsed JSON (``''`` and ``{}`` when it does not exist).

    Raises:
        UsageError: It cannot be read, is too large, not UTF-8, not JSON or not a JSON object.
    """
    try:
        if not path.exists():
            return "", {}
        if not path.is_file():
            raise UsageError(f"{path} is not a regular file; nothing was changed.")
        with open(path, "rb") as handle:
            data = handle.read(MAX_SETTINGS_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path} ({exc.strerror}); nothing was changed.") from exc
    if len(data) > MAX_SETTINGS_BYTES:
        raise UsageError(f"{path} is larger than {MAX_SETTINGS_BYTES} bytes; nothing was changed.")
    try:
        text = data.decode("utf-8-sig")
        parsed = json.loads(text) if text.strip() else {}
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text; nothing was changed.") from exc
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "fix it first, nothing was changed."
        ) from exc
    except RecursionError as exc:  # a committed settings file may nest without end
        raise UsageError(f"{path} is nested too deeply to be settings; nothing was changed.") from exc
    return text, parsed


def write_settings(path: Path, text: str) -> None:
    """Replace the file atomically (through a symlink to its target), keeping its mode."""
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o7777 if target.exists() else 0o644
    fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".json", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def hook_command(absolute: bool) -> str:
    """The command to install: bare, or this installation's ``ruleweave`` by absolute path."""
    if not absolute:
        return COMMAND
    beside = Path(sys.executable).parent / "ruleweave"  # the environment's own console script
    if Path(sys.argv[0]).name.startswith("ruleweave"):
        program: str | None = str(Path(sys.argv[0]).absolute())
    else:
        program = str(beside) if beside.is_file() else shutil.which("ruleweave")
    if program is None:
        raise UsageError("cannot find this installation's ruleweave command; install without --absolute.")
    quoted = f'"{program}"' if " " in program else program
    return f"{quoted} hook claude-code"


def run(args: argparse.Namespace) -> int:
    """Merge (or remove) the hooks; print what changed, or the diff with ``--dry-run``."""
    path = settings_path(args)
    before, parsed = read_settings(path)
    try:
        after, changes = uninstall(parsed) if args.uninstall else install(parsed, hook_command(args.absolute))
    except SettingsError as exc:
        raise UsageError(f"{path}: {exc}; nothing was changed.") from exc
    if not changes:
        state = "not installed" if args.uninstall else "already installed"
        print(f"ruleweave hooks {state} in {path}; nothing changed.")
        return 0
    text = json.dumps(after, indent=2, ensure_ascii=False) + "\n"
    if args.dry_run:
        diff = difflib.unified_diff(
            before.splitlines(keepends=True), text.splitlines(keepends=True),
            fromfile=str(path) if before else "/dev/null", tofile=str(path),
        )
        sys.stdout.writelines(diff)
        return 0
    write_settings(path, text)
    for change in changes:
        print(f"  {change}")
    print(f"{'Removed from' if args.uninstall else 'Installed in'} {path}.")
    if not args.uninstall and not args.absolute and shutil.which("ruleweave") is None:
        print("Note: `ruleweave` is not on PATH here; Claude Code needs it on its PATH "
              "(or install again with --absolute).", file=sys.stderr)
    return 0
