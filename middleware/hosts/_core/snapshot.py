"""The hook's warm start: answer from a snapshot of the loaded rule set, if every file it read is unchanged.

A hook process runs per tool call, and loading the rules (discovery, the
instruction blob, the glob index and their imports) costs about four times
Python's own start-up.
The full path (``command.full_answer``) writes, after answering, a JSON
snapshot of what the next events need (``snapshot_build``): what the
streamed rules and steering watch, each scoped rule's rendered notice part, the
glob table of the rules' globs (``ruleweave._kernel.globtable``), and for each
directory seen whether nested rule folders or instruction files speak
there. Here, a later process reads it back with only ``json``, ``os``, the
kernel (``re2`` only for a glob that needs a pattern) and, to claim
notices, ``sqlite3`` — not even that when the session's memo
(``ruleweave._kernel.claimed``) shows every notice of the call went out before.

It is trusted only while every dependency is as recorded: each file read
(kind, size, mtime_ns, inode), each directory listed (the same), each path
only looked at (whether it exists and what it is). Directories are deps of
the rule set, or of one directory's entry (the chain from the root down and
what nested lookups read there). What waits in the session's delivery queue
goes out first, packed with the notices under the agent's limit as the full
path's delivery packs them. Anything this module cannot answer exactly as the
full path would — steering, an event a streamed rule watches (a PreToolUse of a
tool in its scope, a Stop or a streamed chunk when one watches the text, any
prompt; a PostToolUse's kept reminder is taken here), a gated rule, a piece
alone past the answer's limit, a subagent's queue, patch text in a tool's input,
an unknown directory, an event log — is a ``MISS``, and the full path answers.
"""

from __future__ import annotations

import os
import stat
import zlib

from ruleweave._kernel import delivery, jsontext, ledger
from ruleweave._kernel.state import STATE_FILE, parse_store_url, state_directory
from ruleweave.hosts import (
    AFTER_TOOL,
    AGENT_START,
    BEFORE_TOOL,
    CHUNK,
    CONTEXT,
    PRE_COMPACT,
    SESSION_CLEAR,
    SESSION_COMPACT,
    SESSION_RESUME,
    SESSION_START,
    STOP,
    USER_PROMPT,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    from ruleweave.hosts import HookEvent, Host
    from ruleweave.hosts._options import HookOptions

FORMAT = 6
"""The snapshot layout; a file of another format is rebuilt."""

PREFILL = "prefill.json"
"""The file of the prefilled directories' entries, among the entry files (``snapshot_build._prefill``)."""

MISS = object()
"""What ``answer`` returns when the full path must answer."""


ENVIRONMENT = (
    "HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "QWEN_HOME", "GEMINI_CLI_HOME", "CLINE_DIR", "RULEWEAVE_HOME",
    "XDG_CONFIG_HOME",
    # Qwen Code's folder trust and both agents' system settings (``hosts.qwen.trust.ENVIRONMENT``,
    # ``hosts._layered_settings``; not imported on this path).
    "QWEN_CODE_TRUSTED_FOLDERS_PATH", "QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SYSTEM_DEFAULTS_PATH",
    "QWEN_CODE_IDE_SERVER_PORT", "QWEN_CODE_IDE_WORKSPACE_PATH",
    "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
)
"""The variables ``RuleweaveConfig`` reads (user tiers, git's global excludes) and those a host's trust
decision reads: another value is another rule set, or another answer to whether there is one."""


def snapshot_key(agent: Host, options: HookOptions, cwd: str) -> str:
    """What a snapshot is valid for: the host (what it reads itself is left out), the directory, the
    options and the environment that shape the rule set (a snapshot built under another ``HOME`` only
    records that home's files)."""
    env = [os.environ.get(name) for name in ENVIRONMENT]
    return jsontext.dumps([FORMAT, agent.name, cwd, options.root, options.include_native, env])


def snapshot_path(state: str, key: str) -> str:
    """Where the snapshot for ``key`` lives (the key is checked inside: a hash clash is a miss)."""
    return os.path.join(state, "snapshots", f"{zlib.crc32(key.encode('utf-8', 'surrogatepass')):08x}.json")


def store_file(options: HookOptions, state: str) -> tuple[str, float | None] | None:
    """The SQLite file the store URL names and its ``ttl`` parameter; ``None`` for another store or a
    URL the full path must report on."""
    try:
        url = parse_store_url(options.store)
    except ValueError:
        return None
    if url.scheme != "sqlite":
        return None
    return url.location or os.path.join(state, STATE_FILE), url.ttl


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
            return jsontext.loads(handle.read())
    except (OSError, ValueError, RecursionError):  # a damaged file is no snapshot: it is rebuilt
        return None
    finally:
        os.close(fd)


def load(agent: Host, options: HookOptions, cwd: str, state: str) -> dict[str, Any] | None:
    """The host's snapshot for this directory and options, if there is one and its rule-set deps are
    current."""
    key = snapshot_key(agent, options, cwd)
    path = snapshot_path(state, key)
    data = read_json(path)
    if not isinstance(data, dict) or data.get("key") != key or not current(data["deps"]):
        return None
    data["path"] = path
    return data


def directory_entry(data: dict[str, Any], directory: str) -> bool:
    """Whether ``directory`` is known clean (no nested rules or instructions) and unchanged since:
    from its own entry file, else from the prefill's (``PREFILL``)."""
    entry = read_json(dir_path(data["path"], directory))
    if entry is None:
        return _prefilled(data, directory)
    return (
        isinstance(entry, dict)
        and entry.get("dir") == directory
        and entry.get("base") == data["fingerprint"]
        and current(entry["deps"])
    )


def _prefilled(data: dict[str, Any], directory: str) -> bool:
    """``directory_entry`` from the prefill's file: ``{"base", "deps": [[path, how, state]...],
    "common": [index...], "dirs": {directory: [index...]}}``, read once per process."""
    if PREFILL not in data:
        data[PREFILL] = read_json(os.path.join(data["path"][: -len(".json")], PREFILL))
    bundle = data[PREFILL]
    if not isinstance(bundle, dict) or bundle.get("base") != data["fingerprint"]:
        return False
    try:
        own = bundle["dirs"].get(directory)
        if own is None:
            return False
        rows = bundle["deps"]
        return current([rows[i] for i in (*bundle["common"], *own)])
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):  # a damaged file: not trusted
        return False


_NO_WARM = frozenset(
    {SESSION_START, SESSION_RESUME, SESSION_CLEAR, SESSION_COMPACT, PRE_COMPACT, AGENT_START}
)
"""Kinds answered once per session or subagent, recording that in the store: the full path's job."""


def answer(agent: Host, payload: Mapping[str, Any], options: HookOptions) -> object:
    """The hook's answer from the host's snapshot, or ``MISS``.

    Args:
        agent: The host.
        payload: The hook input.
        options: The hook's options.

    Returns:
        The answer (a dict, or ``None`` for no output), or ``MISS``.
    """
    if options.event_log is not None:
        return MISS  # the full path logs every event; this one logs none
    event = agent.read_event(payload)
    if event.name is None or not event.session_id:
        return None  # what HostHooks answers too
    cwd = options.cwd or event.cwd
    if not isinstance(cwd, str) or not cwd:
        return MISS
    cwd = os.path.normpath(os.path.abspath(cwd))
    state = state_directory(os.environ, os.path.expanduser("~"))
    queue = delivery.queue_id(event.session_id, event.agent_id)
    waiting = _context_event(agent, event) and delivery.marked(os.path.join(state, delivery.MARKS), queue)
    if waiting and (event.agent_id is not None or agent.encode(event, CONTEXT, "-") is None):
        return MISS  # a subagent's queue, or an event that takes no context: the full path's delivery
    kind = event.kind
    if kind is None:
        return None
    if kind in _NO_WARM:
        return MISS
    data = load(agent, options, cwd, state)
    if data is None:
        return MISS
    flags = data["flags"]
    if kind == USER_PROMPT:
        if flags["steering"] or flags["ttsr"]:
            return MISS
        return _deliver(agent, event, options, state, [], None, waiting) if waiting else None
    if kind == BEFORE_TOOL:
        if flags["steering"] or event.tool in agent.delegation_tools:
            return MISS  # a refusal to decide, or a delegated task to keep for its subagent's start
        if flags["ttsr"] and _watched(flags["ttsr_tools"], event.tool):
            return MISS  # a streamed rule watches this tool's calls: the full path's watcher decides
        if event.tool not in agent.notice_before:
            return None
        return _notices(agent, event, options, data, state, waiting)
    if kind in (STOP, CHUNK):
        # Only a rule watching the text speaks at a Stop or on a streamed chunk (whose kept window
        # of the reply only such a rule reads).
        return MISS if flags["ttsr_text"] else None
    if kind == AFTER_TOOL:
        return _notices(agent, event, options, data, state, waiting)
    return None


def _watched(tools: list[str] | None, tool: str | None) -> bool:
    """Whether a streamed rule watches calls of ``tool`` (``snapshot_build._ttsr_flags``)."""
    return tools is None or not isinstance(tool, str) or tool.lower() in tools


def _context_event(agent: Host, event: HookEvent) -> bool:
    """Whether the full path would add context to this event (and so deliver a waiting queue with it)."""
    if event.kind == BEFORE_TOOL:
        return event.tool in agent.notice_before
    return event.kind in (USER_PROMPT, AFTER_TOOL)


def _notices(
    agent: Host, event: HookEvent, options: HookOptions, data: dict[str, Any], state: str, waiting: bool
) -> object:
    """The notices of the paths a tool call touches (after it ran, or before an edit of
    ``Host.notice_before``), claimed in the store and sent after what waits in the queue."""
    tool, args, call_id = event.tool, event.args, event.call_id
    if not tool or not isinstance(args, dict):
        return MISS
    from ruleweave._kernel.paths import PATCH_KEYS, call_paths, default_paths

    if tool.lower() in data["extractors"]:  # a tool the rule set has its own extractor for
        extractor = agent.extractor_for(tool)
        if extractor is None:
            return MISS
    elif any(key in args for key in PATCH_KEYS):
        return MISS  # patch text counts for edit and write tools, whose names the config may extend
    else:
        extractor = default_paths
    paths = call_paths(tool, args, data["cwd"], extractor)
    matches = _matches(paths, data, lambda directory: directory_entry(data, directory))
    if matches is None:
        return MISS
    parts = [text for _, _, text, _ in matches]
    length = delivery.UNITS[agent.context_unit]
    if any(length(part) > agent.context_limit for part in parts):
        return MISS  # a part alone over the limit: the full path cuts it to fit
    if event.agent_id is not None and length(delivery.SEPARATOR.join(parts)) > agent.context_limit:
        return MISS  # a subagent's answer that queues: the full path's delivery keeps its queue
    if event.agent_id is not None:  # a subagent's own ledger (``ledger.agent_scope``)
        scope = ledger.agent_scope(event.agent_id)
        matches = [(ledger.scoped_key(key, scope), record, part, cut) for key, record, part, cut in matches]
    after = event.kind == AFTER_TOOL
    take = ledger.reminder_key(call_id) if after and call_id is not None and data["flags"]["ttsr"] else None
    return _deliver(agent, event, options, state, matches, take, waiting)


def _deliver(
    agent: Host,
    event: HookEvent,
    options: HookOptions,
    state: str,
    matches: Sequence[tuple[str, str, str, int]],
    take: str | None,
    waiting: bool,
) -> object:
    """Claim ``matches`` (and ``take`` the kept reminder), and answer with what waits in the queue, then
    the notices won, packed under the agent's limit (``_recorder``); nothing to do, no store opened."""
    if not matches and take is None and not waiting:
        return None
    db = store_file(options, state)
    if db is None:
        return MISS
    import time

    from ruleweave._kernel import claimed

    keys = [k for k, _, _, _ in matches]
    if take is None and not waiting and claimed.known(db[0], event.session_id, keys, db[1], time.time()):
        return None  # every notice went out before: nothing to claim, the state file stays closed
    from ruleweave._kernel.sqlite import DEFAULT_TTL, claim_with_queue, open_claims

    conn = open_claims(db[0])
    if conn is None:
        return MISS  # no state file yet, or not one of this schema: SQLiteStore decides
    # Not closed here: closing the last connection checkpoints the WAL (an fsync); the
    # hook process exits without it, and the next commit's auto-checkpoint does that work.
    queue = delivery.queue_id(event.session_id, event.agent_id)
    answered: list[Any] = ["", False]  # the answer's text; whether pieces wait in the queue after it
    call_id = event.call_id
    limit, length = agent.context_limit, delivery.UNITS[agent.context_unit]

    def ready(waiting: list[str], kept: str | None) -> bool:
        # Only the full path cuts a piece alone over the limit to fit.
        if kept and length(kept) > limit:
            return False
        return not any((item := delivery.read_item(raw)) is not None and length(item[4]) > limit
                       for raw in waiting)

    # Held from before the claim until its memo is written: no release can come in between.
    held = claimed.holding(db[0]) if keys else None
    try:
        at = time.time()
        done = claim_with_queue(
            conn, event.session_id, queue, keys, call_id,
            [r for _, r, _, _ in matches] if call_id is not None else [], take,
            _recorder(event, limit, length, matches, queue, answered),
            ttl=DEFAULT_TTL if db[1] is None else db[1], ready=ready,
        )
        if done is not None and held is not None:
            held.remember(event.session_id, keys, at, db[1])
    finally:
        if held is not None:
            held.release()
    if done is None:
        return MISS  # nothing was claimed, taken or recorded
    if waiting or answered[1]:
        delivery.set_mark(os.path.join(state, delivery.MARKS), queue, answered[1])
    if not answered[0]:
        return None
    return agent.encode(event, CONTEXT, answered[0])


def _recorder(
    event: HookEvent, limit: int, length: Callable[[str], int], matches: Sequence[tuple[str, str, str, int]],
    queue: str, answered: list[Any],
) -> Callable[[Any, list[bool], str | None, list[str]], None]:
    """What runs last in the claim's transaction, packing as the full path's delivery does
    (``hosts._core.delivery.plan``): the pieces that waited in the queue, then the notices won (but
    one a waiting piece already carries), then a kept reminder no notice holds, in order, while they
    fit under ``limit``; the first that does not, and every one after it, go back to the queue. Writes
    the answer's text (into ``answered[0]``), the delivery record entries, and whether pieces wait
    after it (``answered[1]``). No piece is over the limit alone: ``_deliver`` asked first."""

    def record(conn: Any, won: list[bool], kept: str | None, waiting: list[str]) -> None:
        import time

        from ruleweave._kernel.sqlite import append_entries, push_queue

        where = (time.time(), event.name, event.call_id, event.agent_id)
        # (the queue item it came from, or None for a new piece; key, kind, name, path, text, cut)
        pieces: list[tuple[str | None, str, str, str, str, str, int]] = []
        for raw in waiting:
            item = delivery.read_item(raw)
            if item is not None:  # an unreadable item: the full path drops it too
                pieces.append((raw, *item[:6]))
        held = {piece[1] for piece in pieces if piece[1]}
        notices: list[tuple[str | None, str, str, str, str, str, int]] = []
        for (key, ledger_record, part, cut), flag in zip(matches, won, strict=True):
            if flag:
                fields = ledger.read_record(ledger_record)
                kind, name, path = fields[:3] if fields is not None else ("rule", "", "")
                notices.append((None, key, kind, name, path, part, cut))
        if kept and not any(kept in notice[5] for notice in notices):
            notices.append((None, "", "reminder", "", "", kept, 0))
        pieces += [notice for notice in notices if not notice[1] or notice[1] not in held]
        sent: list[str] = []
        entries: list[str] = []
        back: list[str] = []
        used = 0
        for index, (source, _key, kind, name, path, text, cut) in enumerate(pieces):
            need = length(text) + (len(delivery.SEPARATOR) if sent else 0)
            if used + need > limit:  # this one and all after it wait, in order
                for rest in pieces[index:]:
                    if rest[0] is not None:
                        back.append(rest[0])
                        continue
                    _, r_key, r_kind, r_name, r_path, r_text, r_cut = rest
                    size = len(r_text.encode("utf-8", "surrogatepass"))
                    entries.append(
                        delivery.entry("queued", r_kind, r_name, r_path, where, size=size, cut=r_cut)
                    )
                    back.append(delivery.item(r_key, r_kind, r_name, r_path, r_text, r_cut, event.name,
                                              event.call_id, where[0]))
                break
            used += need
            sent.append(text)
            size = len(text.encode("utf-8", "surrogatepass"))
            if source is not None:
                entries.append(delivery.entry("dequeued", kind, name, path, where, size=size))
            entries.append(delivery.entry("delivered", kind, name, path, where, size=size, cut=cut))
        if back:
            push_queue(conn, queue, back, front=True)
        append_entries(conn, event.session_id, entries)
        answered[0] = delivery.SEPARATOR.join(sent)
        answered[1] = bool(back)

    return record


def _matches(
    paths: Sequence[str], data: dict[str, Any], clean: Callable[[str], bool]
) -> list[tuple[str, str, str, int]] | None:
    """``(store key, ledger record, notice part, bytes its body lost)`` per scoped rule the paths call
    for, as ``Notices.for_paths`` orders them; ``None`` when only the full path can tell.

    ``clean(directory)`` says whether the snapshot knows no nested rule folder or
    instruction file speaks in that directory.
    """
    from ruleweave._kernel.globtable import lookup, spell
    from ruleweave._kernel.paths import in_project

    root_prefix, real_prefix = data["root_prefix"], data["real_root_prefix"]
    rules = data["rules"]
    out: list[tuple[str, str, str, int]] = []
    seen: set[str] = set()
    patterns: dict[str | None, Any] = {}
    for raw in paths:
        path = in_project(raw, root_prefix, real_prefix)
        if not clean(os.path.dirname(path)):
            return None  # a directory not seen yet, or changed: nested rules may speak there
        relative, absolute, _ = spell(path, root_prefix)
        trigger = relative or path
        found = lookup(data["entries"], relative, absolute, patterns)
        if found is None:
            return None  # a glob RE2 has no form of: the library decides it
        for index, glob in found:
            name, rule_path, gated, part, cut = rules[index]
            if gated:
                return None  # the rule reads the file's content, or has exclusions: the full path decides
            key = ledger.rule_key(rule_path, name)
            if key not in seen:
                seen.add(key)
                record = ledger.record("rule", name, rule_path, trigger, glob)
                out.append((key, record, part, cut))
    return out
