"""The hook's warm start: answer from a snapshot of the loaded rule set, if every file it read is unchanged.

A hook process runs per tool call, and loading the rules (discovery, the
instruction blob, the glob index and their imports) costs about four times
Python's own start-up.
The full path (``command.full_answer``) writes, after answering, a JSON
snapshot of what the next events need (``snapshot_build``): the
SessionStart answer, each scoped rule's globs as regexes and its rendered
notice part, and for each directory seen whether nested rule folders or
instruction files speak there. Here, a later process reads it back with
only ``json``, ``os``, ``re`` and (to claim notices) ``sqlite3``.

It is trusted only while every dependency is as recorded: each file read
(kind, size, mtime_ns, inode), each directory listed (the same), each path
only looked at (whether it exists and what it is). Directories are deps of
the rule set, or of one directory's entry (the chain from the root down and
what nested lookups read there). Anything this module cannot answer exactly
as the full path would — steering, streamed rules (except a PostToolUse's
kept reminder), a gated rule, a notice the budget would cut, an unknown tool
or directory, an event log — is a ``MISS``, and the full path answers.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import zlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    from ruleweave.hosts.claude_code.options import HookOptions

FORMAT = 3
"""The snapshot layout; a file of another format is rebuilt."""

MISS = object()
"""What ``answer`` returns when the full path must answer."""

REMINDER_KEY = "claude-code:reminder:"  # handlers.REMINDER_KEY (pinned by a test)
CONTEXT_LIMIT = 10_000  # native.CONTEXT_LIMIT


def state_directory(env: Mapping[str, str], platform: str = sys.platform) -> str:
    """``ruleweave.store.sqlite.default_state_path``'s directory, without importing the store (a test pins
    the two)."""
    home = env.get("HOME") or os.path.expanduser("~")
    override = env.get("RULEWEAVE_STATE_DIR")
    if override:
        if override == "~" or override.startswith("~/"):
            override = home + override[1:]
        return override
    xdg = env.get("XDG_STATE_HOME")
    if xdg and os.path.isabs(xdg):
        base = xdg
    elif platform == "darwin":
        base = os.path.join(home, "Library", "Application Support")
    elif platform == "win32":
        base = env.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
    else:
        base = os.path.join(home, ".local", "state")
    return os.path.join(base, "ruleweave")


ENVIRONMENT = ("HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "RULEWEAVE_HOME")
"""The variables ``RuleweaveConfig`` reads its user tier from: another home is another rule set."""


def snapshot_key(options: HookOptions, cwd: str) -> str:
    """What a snapshot is valid for: the directory, the options and the environment that shape the rule
    set (a snapshot built under another ``HOME`` only records that home's files)."""
    env = [os.environ.get(name) for name in ENVIRONMENT]
    return json.dumps([FORMAT, cwd, options.root, options.include_native, env])


def snapshot_path(state: str, key: str) -> str:
    """Where the snapshot for ``key`` lives (the key is checked inside: a hash clash is a miss)."""
    return os.path.join(state, "snapshots", f"{zlib.crc32(key.encode('utf-8', 'surrogatepass')):08x}.json")


def store_file(options: HookOptions, state: str) -> str | None:
    """The SQLite file the store URL names, for the two spellings the fast path takes; else ``None``."""
    url = options.store
    if url == "sqlite://":
        return os.path.join(state, "state.db")
    if url.startswith("sqlite:///") and "?" not in url and "#" not in url and "%" not in url:
        return url[len("sqlite://"):]
    return None


def dep_state(path: str, how: str) -> list[int] | None:
    """A dependency's state now: ``None`` when missing; the kind alone for a path only looked at."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    kind = st.st_mode & 0o170000
    if how == "s":
        return [kind]
    return [kind, st.st_size, st.st_mtime_ns, st.st_ino]


def current(deps: Sequence[Sequence[Any]]) -> bool:
    """Whether every ``[path, how, state]`` dependency is as recorded."""
    return all(dep_state(path, how) == state for path, how, state in deps)


def dir_path(snapshot_file: str, directory: str) -> str:
    """Where the entry of one touched directory lives, beside its snapshot."""
    name = f"{zlib.crc32(directory.encode('utf-8', 'surrogatepass')):08x}.json"
    return os.path.join(snapshot_file[: -len(".json")], name)


def read_json(path: str) -> Any:
    """A JSON file of the state directory, or ``None``: opened without blocking, regular files only."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return json.loads(handle.read())
    except (OSError, ValueError, RecursionError):  # a damaged file is no snapshot: it is rebuilt
        return None
    finally:
        os.close(fd)


def load(options: HookOptions, cwd: str, state: str) -> dict[str, Any] | None:
    """The snapshot for this directory and options, if there is one and its rule-set deps are current."""
    key = snapshot_key(options, cwd)
    path = snapshot_path(state, key)
    data = read_json(path)
    if not isinstance(data, dict) or data.get("key") != key or not current(data["deps"]):
        return None
    data["path"] = path
    return data


def directory_entry(data: dict[str, Any], directory: str) -> bool:
    """Whether ``directory`` is known clean (no nested rules or instructions) and unchanged since."""
    entry = read_json(dir_path(data["path"], directory))
    return (
        isinstance(entry, dict)
        and entry.get("dir") == directory
        and entry.get("base") == data["fingerprint"]
        and current(entry["deps"])
    )


def answer(payload: Mapping[str, Any], options: HookOptions) -> object:
    """The hook's answer from the snapshot, or ``MISS``.

    Args:
        payload: The hook input.
        options: The hook's options.

    Returns:
        The answer (a dict, or ``None`` for no output), or ``MISS``.
    """
    if options.event_log is not None:
        return MISS  # the full path logs every event; this one logs none
    event, session_id = payload.get("hook_event_name"), payload.get("session_id")
    if not isinstance(event, str) or not isinstance(session_id, str) or not session_id:
        return None  # what ClaudeCodeHooks answers too
    cwd = options.cwd or payload.get("cwd")
    if not isinstance(cwd, str) or not cwd:
        return MISS
    cwd = os.path.normpath(os.path.abspath(cwd))
    state = state_directory(os.environ)
    data = load(options, cwd, state)
    if data is None:
        return MISS
    flags = data["flags"]
    if event == "SessionStart":
        # Once per session, and it records in the store that the session got its start
        # context (so that a resumed session is not given it twice): the full path's job.
        return MISS
    if event in ("UserPromptSubmit", "PreToolUse"):
        return MISS if flags["steering"] or flags["ttsr"] else None
    if event == "Stop":
        return MISS if flags["ttsr"] else None
    if event == "PostToolUse":
        return _post_tool_use(payload, options, data, state, session_id)
    return None


def _post_tool_use(
    payload: Mapping[str, Any], options: HookOptions, data: dict[str, Any], state: str, session_id: str
) -> object:
    tool, args, call_id = payload.get("tool_name"), payload.get("tool_input"), payload.get("tool_use_id")
    if not isinstance(tool, str) or not isinstance(args, dict):
        return MISS
    call_id = call_id if isinstance(call_id, str) and call_id else None
    from ruleweave.hosts.claude_code.paths import claude_code_paths

    paths = claude_code_paths(tool, args, data["cwd"])
    if paths is None:
        return MISS
    matches = _matches(paths, data, lambda directory: directory_entry(data, directory))
    if matches is None:
        return MISS
    parts = [text for _, _, text in matches]
    if len("\n\n".join(parts).encode("utf-8")) > data["notice_max_bytes"]:
        return MISS  # the budget would cut: only the full path renders cuts
    take = REMINDER_KEY + call_id if call_id is not None and data["flags"]["ttsr"] else None
    won: list[bool] = []
    kept = None
    if matches or take is not None:
        db = store_file(options, state)
        if db is None:
            return MISS
        from ruleweave.hosts.claude_code.fast_store import claim_and_take, open_claims

        conn = open_claims(db)
        if conn is None:
            return MISS
        # Not closed here: closing the last connection checkpoints the WAL (an fsync); the
        # hook process exits without it, and the next commit's auto-checkpoint does that work.
        won, kept = claim_and_take(
            conn, session_id, [k for k, _, _ in matches], call_id,
            [r for _, r, _ in matches] if call_id is not None else [], take,
        )
    text = "\n\n".join(part for part, flag in zip(parts, won, strict=False) if flag)
    if kept and kept not in text:
        text = f"{text}\n\n{kept}" if text else kept
    if not text:
        return None
    if len(text) > CONTEXT_LIMIT:
        from ruleweave.hosts.claude_code.native import fit_context

        text = fit_context(text)[0]
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": text}}


def _matches(
    paths: Sequence[str], data: dict[str, Any], clean: Callable[[str], bool]
) -> list[tuple[str, str, str]] | None:
    """``(store key, ledger record, notice part)`` per scoped rule the paths call for, as
    ``Notices.for_paths`` orders them; ``None`` when only the full path can tell.

    ``clean(directory)`` says whether the snapshot knows no nested rule folder or
    instruction file speaks in that directory.
    """
    root_prefix, real_prefix = data["root_prefix"], data["real_root_prefix"]
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    compiled: dict[str, re.Pattern[str]] = {}
    for raw in paths:
        path = raw
        if not path.startswith(root_prefix):  # Notices.in_project
            try:
                real = os.path.realpath(path)
            except (OSError, ValueError):
                real = path
            if real.startswith(real_prefix) and len(real) > len(real_prefix):
                path = root_prefix + real[len(real_prefix):]
        if not clean(os.path.dirname(path)):
            return None  # a directory not seen yet, or changed: nested rules may speak there
        inside = path.startswith(root_prefix) and len(path) > len(root_prefix)
        relative = path[len(root_prefix):] if inside else None
        trigger = relative or path
        for name, rule_path, gated, part, glob in _lookup(relative, path, data, compiled):
            if gated:
                return None  # the rule reads the file's content, or has exclusions: the full path decides
            key = f"inject:{rule_path}#{name}"
            if key not in seen:
                seen.add(key)
                record = json.dumps(["rule", name, rule_path, trigger, glob], ensure_ascii=False)
                out.append((key, record, part))
    return out


def _lookup(
    relative: str | None, path: str, data: dict[str, Any], compiled: dict[str, re.Pattern[str]]
) -> list[tuple[str, str, bool, str, str]]:
    """``GlobIndex.lookup``: each rule whose glob matches a spelling, with its first glob in index order."""
    rules = data["rules"]
    name = path.rsplit("/", 1)[-1]
    out = []
    taken: set[int] = set()
    for glob, regex, mode, directory, keys, kind, literal, child in data["entries"]:
        # The literal GlobIndex files the entry under, checked before any regex is compiled.
        if (kind == "name" and name != literal) or (kind == "suffix" and not name.endswith(literal)):
            continue
        if kind == "prefix" and not name.startswith(literal):
            continue
        test: Callable[[str], object]
        if regex:
            pattern = compiled.get(regex)
            if pattern is None:
                pattern = compiled[regex] = re.compile(regex)
            test = pattern.fullmatch
        elif child:  # the key decided the name; the file must be directly in the directory
            test = _ChildOf(len(directory))
        else:  # the key decided the name, the directory (if any) the place
            test = _anything
        if mode == "root":
            hit = relative is not None and "/" not in relative and bool(test(relative))
        elif mode == "rel":
            hit = relative is not None and relative.startswith(directory) and bool(test(relative))
        else:
            hit = (
                (relative is not None and bool(test(relative)))
                or bool(test(path))
                or (mode == "name" and bool(test(name)))
            )
        if hit:
            for index in keys:
                if index not in taken:
                    taken.add(index)
                    out.append((*rules[index], glob))
    return out


def _anything(text: str) -> bool:
    """The test of an entry its key and literal directory decide alone."""
    return True


class _ChildOf:
    """The test of a keyed entry in a literal directory: no further ``/`` after its ``at`` characters."""

    __slots__ = ("at",)

    def __init__(self, at: int) -> None:
        self.at = at

    def __call__(self, text: str) -> bool:
        return "/" not in text[self.at :]
