"""``ruleweave install <agent>``: merge ruleweave's hooks and its MCP server into the agent's config.

The scope names the files (the host's ``scopes``; for Claude Code ``--project``,
the default, writes ``<root>/.claude/settings.json`` and ``<root>/.mcp.json``,
committed and shared by the team, ``--local`` ``<root>/.claude/settings.local.json``
and this project's entry in ``~/.claude.json``, ``--user``
``$CLAUDE_CONFIG_DIR/settings.json`` and ``~/.claude.json``), and the host's
installer module (``Host.installer``) merges into them: the hooks, and
``ruleweave mcp --host <agent>`` as the MCP server that reads whole rules and,
where the agent supports it, answers the hooks (``--hook-type``; by default
``mcp`` when the installed agent's version has MCP tool hooks, else
``command``). Other agents' installers write files in the agent's own
formats (``FileInstaller``: a TOML or JSON config, hook scripts, a plugin)
through the same reading, link check, diff and atomic write. Only ruleweave's
entries change; a run that changes nothing writes nothing; ``--dry-run``
prints the unified diffs instead; ``--uninstall`` takes them out, and deletes
a file an install created when nothing else is left in it (the state directory
keeps which files those are). A file the agent could not read either (not a
JSON object, say) is left untouched (exit 2).

OpenCode's plugin can ask a running ``ruleweave mcp --http HOST:PORT --host
opencode`` instead of running the command (``--server URL``, stored in the
plugin beside the command, which stays its fallback): an installer module that
declares ``TAKES_SERVER`` gets the URL as ``change``'s ``server``.

The hook command is the bare ``ruleweave hook <agent>``: a committed
settings file must work on every teammate's machine, where an absolute path
to one virtual environment would not. ``--absolute`` writes this
installation's own path instead (for a ``ruleweave`` that is not on the
``PATH`` the agent runs with); the installer says when ``ruleweave`` is
not on ``PATH``.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib
import json
import os
import shlex
import shutil
import sys
import tempfile
import textwrap
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ruleweave.cli.common import UsageError, add_cwd, config_from
from ruleweave.config import RuleweaveConfig
from ruleweave.errors import RuleweaveError
from ruleweave.hosts import HOSTS, Host, host
from ruleweave.hosts._options import INSTALL_OPTIONS, add_arguments

if TYPE_CHECKING:
    from ruleweave.hosts import Installer

MAX_SETTINGS_BYTES = 64 * 1024 * 1024
"""The largest config file read (``~/.claude.json`` keeps every project's history)."""

CREATED_FILE = "installed-files.json"
"""The state directory's list of the config files an install created (``--uninstall`` may delete those)."""


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
    _scope_known(args, agent)
    return _inside(installer(agent).settings_file(args.scope, config), config)


def _inside(path: Path, config: RuleweaveConfig) -> Path:
    """``path`` itself, when it is in the user's own files or really inside the project.

    Raises:
        UsageError: A file of the project that links outside it.
    """
    real, root = os.path.realpath(path), os.path.realpath(config.root)
    if not os.path.abspath(path).startswith(str(config.root).rstrip(os.sep) + os.sep):
        return path  # the user's own config (user scope, Claude Code's ~/.claude.json)
    if not real.startswith(root.rstrip(os.sep) + os.sep):
        raise UsageError(f"{path} links outside the project (to {real}); nothing was changed.")
    return path


def read_settings(path: Path) -> tuple[str, Any]:
    """The file's text and parsed JSON (``''`` and ``{}`` when it does not exist).

    Raises:
        UsageError: It cannot be read, is too large, not UTF-8, not JSON or not a JSON object.
    """
    if not path.exists():
        return "", {}
    text = read_text_file(path)
    try:
        parsed = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "fix it first, nothing was changed."
        ) from exc
    except RecursionError as exc:  # a committed settings file may nest without end
        raise UsageError(f"{path} is nested too deeply to be settings; nothing was changed.") from exc
    return text, parsed


def write_settings(path: Path, text: str, *, executable: bool = False) -> None:
    """Replace the file atomically (through a symlink to its target), keeping its mode (``executable``:
    with the execute bits where reading is allowed, for a hook script)."""
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o7777 if target.exists() else 0o644
    if executable:
        mode |= (mode & 0o444) >> 2
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
    """The command to install: bare, or this installation's ``ruleweave`` by absolute path.

    The agent runs the command through a shell, so the path is quoted for it (``shlex.quote``
    on POSIX): a checkout named ``x$(touch PWNED)y`` must run nothing but ruleweave.

    Raises:
        UsageError: On Windows, a path holding a character its shells would expand.
    """
    return f"{shell_quoted(ruleweave_program(absolute))} hook {agent.name}"


_WINDOWS_UNSAFE = frozenset('"%!^&|<>$`\n\r')


def shell_quoted(program: str) -> str:
    """``program`` spelled for the shell that runs hooks.

    Raises:
        UsageError: On Windows, a path holding a character ``cmd`` or Git Bash would expand.
    """
    if os.name != "nt":
        return shlex.quote(program)
    if _WINDOWS_UNSAFE.intersection(program):
        raise UsageError(
            f"the path {program!r} holds characters a shell would expand; install without --absolute."
        )
    return f'"{program}"' if " " in program else program


def ruleweave_program(absolute: bool) -> str:
    """``ruleweave`` (found on the agent's ``PATH``), or this installation's by absolute path.

    Raises:
        UsageError: ``absolute`` and this installation's command cannot be found.
    """
    if not absolute:
        return "ruleweave"
    beside = Path(sys.executable).parent / "ruleweave"  # the environment's own console script
    if Path(sys.argv[0]).name.startswith("ruleweave"):
        program: str | None = str(Path(sys.argv[0]).absolute())
    else:
        program = str(beside) if beside.is_file() else shutil.which("ruleweave")
    if program is None:
        raise UsageError("cannot find this installation's ruleweave command; install without --absolute.")
    return program


def hook_type(args: argparse.Namespace, merge: Installer) -> tuple[str, str]:
    """The hook type to install and why (``--hook-type``, else what the installed agent supports).

    Raises:
        UsageError: A ``--hook-type`` that is neither ``command`` nor ``mcp``.
    """
    if args.hook_type is not None:
        if args.hook_type not in ("command", "mcp"):
            raise UsageError(f"--hook-type {args.hook_type}: expected command or mcp.")
        return args.hook_type, "as --hook-type asks"
    version = merge.agent_version()
    spelled = ".".join(map(str, version)) if version is not None else None
    if merge.supports_mcp_hooks(version):
        return "mcp", f"the installed agent ({spelled}) calls MCP tools as hooks"
    if spelled is None:
        return "command", "the agent's version could not be read (its command is not on PATH)"
    return "command", f"the installed agent ({spelled}) has no MCP tool hooks"


class _Edit:
    """One file's change: its text before, its text after (``None``: no file), the change lines."""

    __slots__ = ("after", "before", "changes", "empty", "executable", "existed", "path")

    def __init__(
        self,
        path: Path,
        before: str,
        existed: bool,
        after: str | None,
        changes: list[str],
        *,
        empty: bool = False,
        executable: bool = False,
    ) -> None:
        self.path = path
        self.before = before
        self.existed = existed
        self.after = after
        self.changes = changes
        self.empty = empty  # a JSON file left with nothing in it: deleted on uninstall if an install made it
        self.executable = executable

    def gone(self, uninstall: bool, created: set[str]) -> bool:
        """Whether applying the edit deletes the file."""
        if self.after is None:
            return self.existed
        return uninstall and self.empty and str(self.path) in created


def _edit(path: Path, change: Any) -> _Edit:
    """Read the JSON file ``path`` and apply ``change`` (parsed data → new data and change lines) to it.

    Raises:
        UsageError: The file cannot be read, or has the wrong shape.
    """
    existed = path.exists()
    before, parsed = read_settings(path)
    try:
        after, changes = change(parsed)
    except RuleweaveError as exc:  # the installer's SettingsError / ServerConfigError
        raise UsageError(f"{path}: {exc}; nothing was changed.") from exc
    text = json.dumps(after, indent=2, ensure_ascii=False) + "\n"
    return _Edit(path, before, existed, text, changes, empty=not after)


def _file_edits(agent: Host, args: argparse.Namespace, config: RuleweaveConfig, merge: Any) -> list[_Edit]:
    """The edits of an installer of any file format (``FileInstaller``).

    Raises:
        UsageError: A file that links out of the project, cannot be read, or has the wrong shape.
    """
    command = "" if args.uninstall else hook_command(agent, args.absolute)
    server = server_url(args.server, agent, merge)
    served = {"server": server} if getattr(merge, "TAKES_SERVER", False) else {}
    edits = []
    for path in merge.files(args.scope, config):
        path = _inside(path, config)
        existed = path.exists()
        before = read_text_file(path) if existed else None
        try:
            after, changes = merge.change(path, before, command=command, uninstall=args.uninstall, **served)
        except RuleweaveError as exc:
            raise UsageError(f"{path}: {exc}; nothing was changed.") from exc
        executable = bool(getattr(merge, "executable", lambda _: False)(path))
        edits.append(_Edit(path, before or "", existed, after, changes, executable=executable))
    return edits


def server_url(value: str | None, agent: Host, merge: Any) -> str | None:
    """``--server``'s URL, checked: ``http://`` to a loopback address and a port (path default ``/mcp``).

    Raises:
        UsageError: ``--server`` for an agent whose hooks cannot call a server this way, a URL that is
            not ``http://HOST:PORT/…``, or a host other machines reach: the events name this machine's
            files, and a remote server wants a bearer token the committed plugin must not hold.
    """
    if value is None:
        return None
    if not getattr(merge, "TAKES_SERVER", False):
        raise UsageError(
            f"--server: {agent.title}'s hooks cannot ask a running server this way; only OpenCode's plugin "
            "does (Claude Code: --hook-type mcp)."
        )
    served = f"e.g. http://127.0.0.1:8765/mcp for `ruleweave mcp --http 127.0.0.1:8765 --host {agent.name}`"
    wrong = UsageError(f"--server {value}: expected http://HOST:PORT/mcp, {served}.")
    try:
        parts = urllib.parse.urlsplit(value)
        port = parts.port
    except ValueError:  # a port that is not a number in 0-65535, an unclosed [
        raise wrong from None
    if port is None or parts.scheme != "http" or not parts.hostname or "@" in parts.netloc or (
        parts.query or parts.fragment
    ):
        raise wrong
    from ruleweave.adapters.mcp_http import is_loopback

    if not is_loopback(parts.hostname):
        raise UsageError(f"--server {value}: the plugin asks a server on this machine only, {served}.")
    path = parts.path if parts.path not in ("", "/") else "/mcp"
    return urllib.parse.urlunsplit(("http", parts.netloc, path, "", ""))


def read_text_file(path: Path) -> str:
    """A config file's text.

    Raises:
        UsageError: It cannot be read, is not a regular file, too large or not UTF-8.
    """
    try:
        if not path.is_file():
            raise UsageError(f"{path} is not a regular file; nothing was changed.")
        with open(path, "rb") as handle:
            data = handle.read(MAX_SETTINGS_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path} ({exc.strerror}); nothing was changed.") from exc
    if len(data) > MAX_SETTINGS_BYTES:
        raise UsageError(f"{path} is larger than {MAX_SETTINGS_BYTES} bytes; nothing was changed.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text; nothing was changed.") from exc


def run(args: argparse.Namespace) -> int:
    """Merge (or remove) the hooks (and the MCP server where the agent has one); print what changed, or
    the diffs with ``--dry-run``."""
    agent = host(args.agent)
    config = config_from(args)
    merge = installer(agent)
    kind, why = "command", "the agent runs hook commands"
    if hasattr(merge, "change"):  # a FileInstaller: any files, in the agent's own formats
        _scope_known(args, agent)
        if args.hook_type == "mcp":
            raise UsageError(f"{agent.title} runs hook commands only; --hook-type mcp is for Claude Code.")
        edits = _file_edits(agent, args, config, merge)
    else:
        path = settings_path(args, agent)
        servers = _inside(merge.mcp_file(args.scope, config), config)
        if args.uninstall:
            edits = [_edit(path, merge.uninstall),
                     _edit(servers, lambda data: merge.uninstall_server(data, args.scope, config))]
        else:
            kind, why = hook_type(args, merge)
            command = hook_command(agent, args.absolute)
            program = ruleweave_program(args.absolute)
            edits = [_edit(path, lambda data: merge.install(data, command, hook_type=kind)),
                     _edit(servers, lambda data: merge.install_server(data, args.scope, config, program))]
    changed = [edit for edit in edits if edit.changes]
    if not args.uninstall and not args.dry_run:
        _hook_notes(agent, config)
    if not changed:
        state = "not installed" if args.uninstall else "already installed"
        print(f"ruleweave {state} in {' and '.join(str(edit.path) for edit in edits)}; nothing changed.")
        return 0
    created = _created(config)
    if args.dry_run:
        for edit in changed:
            gone = edit.gone(args.uninstall, created)
            after = [] if gone or edit.after is None else edit.after.splitlines(keepends=True)
            # One write through the escaping stream: a committed file's bidi or CSI characters stay inert.
            sys.stdout.write("".join(difflib.unified_diff(
                edit.before.splitlines(keepends=True), after,
                fromfile=str(edit.path) if edit.existed else "/dev/null",
                tofile="/dev/null" if gone else str(edit.path),
            )))
        return 0
    for edit in changed:
        _apply(edit, args.uninstall, created)
    _remember(config, created)
    if not args.uninstall:
        print(f"Hooks: {kind} ({why}).")
    if not args.uninstall and not args.absolute and shutil.which("ruleweave") is None:
        print(f"Note: `ruleweave` is not on PATH here; {agent.title} needs it on its PATH "
              "(or install again with --absolute).", file=sys.stderr)
    return 0


def _hook_notes(agent: Host, config: RuleweaveConfig) -> None:
    """Say so when the hooks will not work here, which would otherwise look like a broken install: the
    agent does not trust this project (its hooks then answer nothing, ``Host.distrusted``), or its
    own settings run no hooks (``Host.hooks_off``)."""
    if agent.distrusted is not None and agent.distrusted(config):
        print(f"Note: {agent.title} does not trust this project, so it loads none of its instruction files "
              f"here and ruleweave's hooks answer nothing; trust the project in {agent.title} to get both.",
              file=sys.stderr)
    off = agent.hooks_off(config) if agent.hooks_off is not None else None
    if off is not None:
        print(f"Note: {agent.title} runs no hooks here ({off}); ruleweave's hooks will not run until that "
              "setting is taken out.", file=sys.stderr)


def _scope_known(args: argparse.Namespace, agent: Host) -> None:
    """Refuse a scope the agent has no config for.

    Raises:
        UsageError: The scope is not one of ``agent.scopes``.
    """
    if args.scope not in agent.scopes:
        scopes = ", ".join(f"--{scope}" for scope in agent.scopes)
        raise UsageError(f"{agent.title} has no --{args.scope} settings (it has {scopes}).")


def _apply(edit: _Edit, uninstall: bool, created: set[str]) -> None:
    """Write one edit (or delete the file: an installer's own file, or a JSON file an install created
    once nothing else is in it); say so."""
    for change in edit.changes:
        print(f"  {change}")
    key = str(edit.path)
    if edit.gone(uninstall, created):
        edit.path.unlink()
        created.discard(key)
        why = "" if edit.after is None else " (ruleweave had created it)"
        print(f"Removed {edit.path}{why}.")
        return
    if edit.after is None:
        return
    write_settings(edit.path, edit.after, executable=edit.executable)
    if not uninstall and not edit.existed:
        created.add(key)
    print(f"{'Removed from' if uninstall else 'Installed in'} {edit.path}.")


def _created(config: RuleweaveConfig) -> set[str]:
    """The config files an install created (and no uninstall deleted yet)."""
    try:
        with open(_created_file(config), encoding="utf-8") as handle:
            found = json.load(handle)
    except (OSError, ValueError):
        return set()
    return {item for item in found if isinstance(item, str)} if isinstance(found, list) else set()


def _remember(config: RuleweaveConfig, created: set[str]) -> None:
    """Keep the list of created files (a state directory that cannot be written only forgets them)."""
    with contextlib.suppress(OSError):
        write_settings(_created_file(config), json.dumps(sorted(created), indent=2) + "\n")


def _created_file(config: RuleweaveConfig) -> Path:
    from ruleweave._kernel.state import state_directory

    return Path(state_directory(os.environ, str(config.user_home))) / CREATED_FILE
