"""``ruleweave install <agent>``: merge ruleweave's hooks into the agent's settings file.

The scope names the file (the host's ``scopes``; for Claude Code ``--project``,
the default, writes ``<root>/.claude/settings.json``, committed and shared by
the team, ``--local`` ``<root>/.claude/settings.local.json``, ``--user``
``$CLAUDE_CONFIG_DIR/settings.json``), and the host's installer module
(``Host.installer``) merges into it. Only ruleweave's entries change; a run
that changes nothing writes nothing; ``--dry-run`` prints the unified diff
instead; ``--uninstall`` takes them out. A settings file that is not a JSON
object is left untouched (exit 2).

The hook command is the bare ``ruleweave hook <agent>``: a committed
settings file must work on every teammate's machine, where an absolute path
to one virtual environment would not. ``--absolute`` writes this
installation's own path instead (for a ``ruleweave`` that is not on the
``PATH`` the agent runs with); the installer says when ``ruleweave`` is
not on ``PATH``.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import json
import os
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ruleweave.cli.common import UsageError, add_cwd, config_from
from ruleweave.errors import RuleweaveError
from ruleweave.hosts import HOSTS, Host, host
from ruleweave.hosts._options import INSTALL_OPTIONS, add_arguments

if TYPE_CHECKING:
    from ruleweave.hosts import Installer

MAX_SETTINGS_BYTES = 4 * 1024 * 1024


def register(subparsers: Any) -> None:
    """Add the ``install`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "install",
        help="add ruleweave's hooks to an agent's settings",
        description=textwrap.fill(
            "Merge the ruleweave hook command into the agent's settings, keeping everything else in them.",
            width=78,
        ),
        epilog="settings files:\n" + "\n".join(_described(host(name)) for name in HOSTS),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("agent", choices=HOSTS, help="the agent to install the hooks for")
    add_arguments(parser, INSTALL_OPTIONS)
    add_cwd(parser)
    parser.set_defaults(func=run)


def _described(agent: Host) -> str:
    """One host's settings file per scope, for ``--help``."""
    return "\n".join(f"  {agent.name} --{scope}: {where}" for scope, where in agent.scopes.items())


def installer(agent: Host) -> Installer:
    """The host's installer module (``Host.installer``)."""
    return cast("Installer", importlib.import_module(agent.installer))


def settings_path(args: argparse.Namespace, agent: Host) -> Path:
    """The settings file the scope names.

    Raises:
        UsageError: A scope the agent has no settings for, or a project or local settings file
            that links outside the project: a cloned repository must not make the installer
            rewrite a file elsewhere.
    """
    config = config_from(args)
    if args.scope not in agent.scopes:
        scopes = ", ".join(f"--{scope}" for scope in agent.scopes)
        raise UsageError(f"{agent.title} has no --{args.scope} settings (it has {scopes}).")
    path = installer(agent).settings_file(args.scope, config)
    if args.scope == "user":
        return path
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


def hook_command(agent: Host, absolute: bool) -> str:
    """The command to install: bare, or this installation's ``ruleweave`` by absolute path."""
    if not absolute:
        return f"ruleweave hook {agent.name}"
    beside = Path(sys.executable).parent / "ruleweave"  # the environment's own console script
    if Path(sys.argv[0]).name.startswith("ruleweave"):
        program: str | None = str(Path(sys.argv[0]).absolute())
    else:
        program = str(beside) if beside.is_file() else shutil.which("ruleweave")
    if program is None:
        raise UsageError("cannot find this installation's ruleweave command; install without --absolute.")
    quoted = f'"{program}"' if " " in program else program
    return f"{quoted} hook {agent.name}"


def run(args: argparse.Namespace) -> int:
    """Merge (or remove) the hooks; print what changed, or the diff with ``--dry-run``."""
    agent = host(args.agent)
    path = settings_path(args, agent)
    before, parsed = read_settings(path)
    merge = installer(agent)
    try:
        if args.uninstall:
            after, changes = merge.uninstall(parsed)
        else:
            after, changes = merge.install(parsed, hook_command(agent, args.absolute))
    except RuleweaveError as exc:  # the settings have the wrong shape (the installer's SettingsError)
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
        print(f"Note: `ruleweave` is not on PATH here; {agent.title} needs it on its PATH "
              "(or install again with --absolute).", file=sys.stderr)
    return 0
