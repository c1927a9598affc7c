"""Writing the hook's snapshot: what the full path read, recorded while it answered.

``answer_and_snapshot`` loads the rule set and answers the event as
``HostHooks`` does, recording every file opened, directory listed and
path looked at (an audit hook for ``open``/``os.listdir``/``os.scandir``,
and ``os.stat``/``os.lstat`` wrapped while it runs), then writes what
``snapshot`` needs next time. Files that Python's own imports read, the
state directory and ruleweave's installation are not dependencies; ruleweave's
package directories are (an upgrade or reinstall rewrites their entries, and
so rebuilds the snapshot; an in-place edit of one of its files does not).

A snapshot whose dependencies changed in the last ``RACY_SECONDS`` is not
written: a file rewritten twice within one timestamp tick, at the same size,
would look unchanged.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any

from ruleweave._kernel.globtable import KEYS
from ruleweave.hosts import AFTER_TOOL
from ruleweave.hosts._core.glob_cache import GlobCache
from ruleweave.hosts._core.snapshot import (
    FORMAT,
    PREFILL,
    dep_state,
    dir_path,
    read_json,
    snapshot_key,
    snapshot_path,
)

if TYPE_CHECKING:
    from ruleweave.hosts import Host
    from ruleweave.hosts._core.hooks import HostHooks
    from ruleweave.hosts._hook_log import HookLog
    from ruleweave.hosts._options import HookOptions
    from ruleweave.ruleset import RuleSet

RACY_SECONDS = 2.0
"""A dependency changed this recently makes the snapshot untrustworthy (not written)."""

PREFILL_DIRS = 256
"""Directories a new snapshot gets entries for up front (the rest on their first touch)."""

NEARBY_DIRS = 64
"""Directories a first touch outside the prefill adds entries for: its parent's subtree, breadth
first. In a project larger than the prefill an agent working deep in it touches these next."""

MAX_TOUCHED_ENTRIES = 16
"""Directories one event adds entries for: each entry holds the whole call's lookups, so a command
line naming hundreds of directories would write hundreds of times hundreds (those stay cold)."""

MAX_ENTRIES = 4096
"""Entries one snapshot keeps: a model naming ever new directories must not fill the disk."""

_STRENGTH = {"s": 0, "l": 1, "r": 1}

_TMP_NAMES = itertools.count()  # with the pid, a temporary name no other writer uses

# The process's one audit hook (audit hooks cannot be removed) reports to the recorders
# active now; a hook process records while it loads its rules, nothing else does.
_ACTIVE: list[Recorder] = []
_AUDIT_INSTALLED: list[bool] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if not _ACTIVE or event not in ("open", "os.listdir", "os.scandir"):
        return
    for recorder in _ACTIVE:
        recorder.note(args[0] if args else None, "r" if event == "open" else "l")


class Recorder:
    """The paths one phase of the full path depended on.

    Args:
        excluded: Path prefixes that are never dependencies (the interpreter, the state directory).
    """

    def __init__(self, excluded: tuple[str, ...]) -> None:
        self.excluded = tuple(p.rstrip("/") + "/" for p in excluded if p)
        self.paths: dict[str, str] = {}

    def note(self, raw: Any, how: str) -> None:
        """Record ``raw`` (a path-like) as read (``r``), listed (``l``) or looked at (``s``)."""
        if raw is None or isinstance(raw, int):
            return
        try:
            path = os.path.abspath(os.fsdecode(raw))
        except (TypeError, ValueError):
            return
        if f"{path}/".startswith(self.excluded):  # under an excluded directory, or that directory
            return
        if path.endswith((".py", ".pyc", ".so")) or "__pycache__" in path:
            return
        if _STRENGTH[how] >= _STRENGTH[self.paths.get(path, "s")]:
            self.paths[path] = how if path not in self.paths or how != "s" else self.paths[path]

    @contextmanager
    def recording(self) -> Iterator[None]:
        """Within the block, record what is opened, listed and stat'ed."""
        if not _AUDIT_INSTALLED:
            sys.addaudithook(_audit)
            _AUDIT_INSTALLED.append(True)
        stat, lstat = os.stat, os.lstat

        def wrap(original: Callable[..., os.stat_result]) -> Callable[..., os.stat_result]:
            def recorded(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
                self.note(path, "s")
                return original(path, *args, **kwargs)

            return recorded

        _ACTIVE.append(self)
        os.stat, os.lstat = wrap(stat), wrap(lstat)
        try:
            yield
        finally:
            os.stat, os.lstat = stat, lstat
            _ACTIVE.remove(self)

    def deps(self, extra: Mapping[str, str] | None = None) -> list[list[Any]]:
        """``[path, how, state]`` for every recorded path (and ``extra``), sorted."""
        merged = dict(self.paths)
        for path, how in (extra or {}).items():
            if _STRENGTH[how] >= _STRENGTH[merged.get(path, "s")]:
                merged[path] = how
        return _deps(merged)


def _deps(paths: Mapping[str, str]) -> list[list[Any]]:
    """``[path, how, state now]`` for each path, sorted."""
    return [[path, how, dep_state(path, how)] for path, how in sorted(paths.items())]


def _prefill(
    ruleset: RuleSet,
    excluded: tuple[str, ...],
    seen: Mapping[str, str],
    start: str | None = None,
    limit: int = PREFILL_DIRS,
) -> dict[str, dict[str, str] | None]:
    """Entries for the first ``limit`` directories of the project (or of ``start``'s subtree; breadth
    first, ignored trees skipped), so a first touch there is answered warm: for each, what its
    nested lookup read — with what its ancestors' read (cached in this process by then) and
    ``seen`` (what this process read before) — or ``None`` when nested rules or instructions
    speak there."""
    tree = ruleset.nested.tree
    out: dict[str, dict[str, str] | None] = {}
    inherited: dict[str, dict[str, str]] = {}
    holds: dict[str, bool] = {}
    queue = [start or str(ruleset.config.root)]
    recorder = Recorder(excluded)
    with recorder.recording():
        while queue and len(out) < limit:
            directory = queue.pop(0)
            recorder.paths = {}  # what this directory's lookups read
            clean = _clean(ruleset, os.path.join(directory, "_"), holds)
            try:
                with os.scandir(directory) as listing:
                    children = sorted(e.name for e in listing if e.is_dir(follow_symlinks=False))
            except OSError:
                children = []
            parent = inherited.get(os.path.dirname(directory), dict(seen))
            inherited[directory] = {**parent, **recorder.paths}
            out[directory] = inherited[directory] if clean else None
            for name in children:
                child = os.path.join(directory, name)
                if name != ".git" and not tree.ignored(child):
                    queue.append(child)
    return out


def _excluded(state: str) -> tuple[str, ...]:
    import ruleweave

    package = os.path.dirname(os.path.abspath(ruleweave.__file__))
    return (sys.prefix, sys.base_prefix, sys.exec_prefix, state, package, "/proc", "/dev", "/sys")


def _own_sources() -> dict[str, str]:
    """ruleweave's own package directories, as listed: installing another ruleweave (pip replaces
    every file, so each directory's mtime moves) rebuilds the snapshot. Directories, not the ~160
    files: statting each costs every cold start a millisecond or two."""
    import ruleweave

    out: dict[str, str] = {}
    stack = [os.path.dirname(os.path.abspath(ruleweave.__file__))]
    while stack:
        directory = stack.pop()
        out[directory] = "l"
        with suppress(OSError), os.scandir(directory) as listing:
            # Not os.walk: it stats every entry that is a link, and an editable install's files all are.
            stack.extend(
                e.path for e in listing if e.name != "__pycache__" and e.is_dir(follow_symlinks=False)
            )
    return out


def _entries(ruleset: RuleSet) -> tuple[list[list[Any]], list[list[Any]]]:
    """The scoped rules and the glob table as ``snapshot`` matches them.

    Rules: ``[name, path, gated, notice part, bytes its body lost]`` in precedence order. Entries: the rows
    of the scoped rules' glob index (``Notices.glob_table``; ``ruleweave._kernel.globtable``
    says what a row holds), each rule named by its index in the rules. Only the rows whose
    test needs a pattern are translated (wcmatch): a literal name, ``*suffix``, ``prefix*``
    or ``test_*.py`` in a literal place needs none, and so no cold start pays for wcmatch.
    """
    from ruleweave.session.notices import Match

    notices = ruleset.notices
    rules: list[list[Any]] = []
    index_of: dict[str, int] = {}
    for index, rule in enumerate(ruleset.buckets.scoped):
        match = Match("rule", rule.name, rule.path, "", None, rule.content, rule.source.provider)
        part, cut = notices.render_alone(match)  # cut for size: the delivery record says how much
        gated = bool(rule.content_regex) or bool(getattr(rule, "exclude_globs", ()))
        rules.append([rule.name, rule.path, gated, part, cut])
        index_of[rule.name] = index  # as Notices._by_name: names are the index's keys
    entries = notices.glob_table()
    for row in entries:
        row[KEYS] = [index_of[name] for name in row[KEYS]]
    return rules, entries


def _clean(ruleset: RuleSet, path: str, holds: dict[str, bool] | None = None) -> bool:
    """Whether no nested rule folder or instruction file speaks for files in ``path``'s directory.

    ``holds`` keeps, per directory, whether an instruction file is there (``_holds``): the
    directories of one snapshot share their ancestors."""
    directory = os.path.dirname(path)
    nested_rules = ruleset.notices.nested_rules
    if nested_rules is not None and nested_rules.for_directory(directory):
        return False
    if ruleset.nested.for_path(path):
        return False
    names = ruleset.config.instruction_files
    if names:
        # The walk's files are the start context's (or the agent's own), never a notice: only a file
        # with globs (Amp's), which speaks for some paths of a directory and not others, counts there.
        walk = () if ruleset.blob.scoped else _chain(ruleset, str(ruleset.config.cwd))
        known = {} if holds is None else holds
        for parent in _chain(ruleset, directory):
            if parent in walk:
                continue
            found = known.get(parent)
            if found is None:
                found = known[parent] = _holds(parent, names)
            if found:
                return False
    return True


def _holds(directory: str, names: Sequence[str]) -> bool:
    """Whether one of ``names`` is in ``directory`` as ``os.path.lexists`` finds it, from one listing
    rather than a look per name (a prefill looked ~13 names up in every ancestor of 256 directories).

    A name the listing holds only in another case (a case-insensitive disk finds it), or one inside a
    subfolder the listing holds, is still looked up. The listing is a dependency of every entry under
    the directory (``_chain``), so the names it lacks need no record of their own.
    """
    try:
        listed = set(os.listdir(directory))
    except OSError:
        return any(os.path.lexists(os.path.join(directory, name)) for name in names)
    folded = {name.casefold() for name in listed}
    for name in names:
        head = name.split("/", 1)[0]
        if head == name and name in listed:
            return True
        if (head.casefold() in folded or head in ("", ".", "..")) and os.path.lexists(
            os.path.join(directory, name)
        ):
            return True  # ``""``, ``.``, ``..``: a configured name no listing holds (``./AGENTS.md``)
    return False


def _chain(ruleset: RuleSet, directory: str) -> list[str]:
    """The directories from the project root down to ``directory`` (none outside the project)."""
    root = str(ruleset.config.root)
    if directory != root and not directory.startswith(root.rstrip("/") + "/"):
        return []
    out = [root]
    rest = directory[len(root):].strip("/")
    for part in rest.split("/") if rest else []:
        out.append(os.path.join(out[-1], part))
    return out


def answer_and_snapshot(
    agent: Host,
    payload: Mapping[str, Any],
    options: HookOptions,
    log: HookLog,
    state: str,
    load: Callable[[], HostHooks | None],
) -> dict[str, Any] | None:
    """Answer with a freshly loaded rule set, and write the host's snapshot for the next events.

    Args:
        agent: The host.
        payload: The hook input.
        options: The hook's options.
        log: The hook log (snapshot write failures go there).
        state: The state directory.
        load: Loads the rule set and makes the ``HostHooks``; ``None`` where the agent does not trust
            the project (then nothing is answered or written).

    Returns:
        The answer, exactly as ``HostHooks.handle`` gives it.
    """
    excluded = _excluded(state)
    loading, calling = Recorder(excluded), Recorder(excluded)
    globs = GlobCache(state)
    globs.remember()
    with loading.recording():
        found = load()
        if found is None:
            return None  # the agent does not trust the project: no answer, no snapshot
        hooks = found
        ruleset = hooks.ruleset
        steering = _steers(ruleset)
        rules, entries = _entries(ruleset)
    with calling.recording():
        result = hooks.handle(payload)
        touched = _touched_dirs(hooks, payload)
    try:
        _write(agent, hooks, options, state, loading, calling, touched, steering, rules, entries)
        globs.save(lambda path, data: _atomic_json(state, path, data))
    except Exception as exc:  # a snapshot is an optimisation: never fail the answer for it
        log.write("hook_error", hook_event="snapshot", error=f"{type(exc).__name__}: {exc}")
    return result


def _steers(ruleset: RuleSet) -> bool:
    """Whether the rule set steers: looked up first, so that without a SkillSpec file the
    steering machinery is never imported."""
    from ruleweave._files.paths import walk_down
    from ruleweave.steering.locate import find_spec

    config = ruleset.config
    if find_spec(config, walk_down(config.root, config.cwd)) is None:
        return False
    return ruleset.steering.spec is not None


def _touched_dirs(hooks: HostHooks, payload: Mapping[str, Any]) -> dict[str, bool]:
    """After a tool call: each touched path's directory and whether it is clean (recorded as deps)."""
    event = hooks.host.read_event(payload)
    if event.kind != AFTER_TOOL:
        return {}
    ruleset = hooks.ruleset
    tool, args = event.tool, event.args
    if not tool or not isinstance(args, dict):
        return {}
    out: dict[str, bool] = {}
    for raw in ruleset.extractors.path_strings(tool, args, str(ruleset.config.cwd)):
        path = ruleset.notices.in_project(raw)
        out[os.path.dirname(path)] = _clean(ruleset, path)
    return out


def _write(
    agent: Host,
    hooks: HostHooks,
    options: HookOptions,
    state: str,
    loading: Recorder,
    calling: Recorder,
    touched: Mapping[str, bool],
    steering: bool,
    rules: list[list[Any]],
    entries: list[list[Any]],
) -> None:
    ruleset = hooks.ruleset
    config = ruleset.config
    cwd = str(config.cwd)
    key = snapshot_key(agent, options, cwd)
    path = snapshot_path(state, key)
    racy = time.time_ns() - int(RACY_SECONDS * 1e9)
    if any(s is not None and len(s) > 1 and s[2] > racy for _, _, s in loading.deps()):
        return  # ruleweave's own sources are exempt: they are code, not rules
    deps = loading.deps(_own_sources())
    fingerprint = f"{zlib.crc32(json.dumps(deps).encode('utf-8', 'surrogatepass')):08x}"
    entries_dir = path[: -len(".json")]
    found: dict[str, dict[str, str] | None] = {}
    previous = read_json(path)
    rebuilt = not isinstance(previous, dict) or fingerprint != previous.get("fingerprint")
    if rebuilt:
        if os.path.lexists(entries_dir):  # entries of another rule set
            with suppress(OSError), _opened_dir(state, os.path.dirname(entries_dir), create=False) as fd:
                _remove_entries(os.path.basename(entries_dir), fd)
        prefilled = _prefill(ruleset, loading.excluded, calling.paths)
        with _opened_dir(state, entries_dir) as fd:
            _write_prefill(fd, prefilled, calling.paths, fingerprint, racy, ruleset)
    names = _entry_names(entries_dir)
    room = len(touched) <= MAX_TOUCHED_ENTRIES and len(names or ()) < MAX_ENTRIES
    for directory, clean in touched.items():
        if not clean:
            found[directory] = None  # always: a stale entry must go
        elif room:
            found[directory] = dict(calling.paths)
    if room and not rebuilt and names is not None:  # the rule set unchanged: a touch may be past the prefill
        _nearby(ruleset, entries_dir, names, loading.excluded, calling.paths, touched, found)
    if found:
        _write_entries(state, path, found, fingerprint, racy, ruleset)
    root = str(config.root)
    data = {
        "key": key,
        "format": FORMAT,
        "deps": deps,
        "cwd": cwd,
        "root_prefix": root.rstrip("/") + "/",
        "real_root_prefix": os.path.realpath(root).rstrip("/") + "/",
        "flags": {
            "steering": steering,
            **_ttsr_flags(ruleset),
            "templates": bool(config.templates),
        },
        "notice_max_bytes": config.notice_max_bytes,
        "extractors": sorted(ruleset.extractors.registered),
        "rules": rules,
        "entries": entries,
        "fingerprint": fingerprint,
    }
    _atomic_json(state, path, data)


def _ttsr_flags(ruleset: RuleSet) -> dict[str, Any]:
    """What the warm path must know of the streamed rules: whether there are any (``ttsr``), whether
    one watches the reply's text (``ttsr_text``: a Stop is the full path's), and the tool names whose
    calls one watches (``ttsr_tools``, lower-cased; ``None`` when one watches every tool), so that a
    PreToolUse of any other tool is answered warm. A name is watched as the watcher decides
    (``ttsr.index``: the call's tool kind, ``ToolNames.canonical``, admitted by a scope entry)."""
    compiled = ruleset.buckets.ttsr_compiled
    entries = {entry for rule in compiled for entry in rule.scope}
    tools = [entry for entry in entries if entry.source == "tool"]
    watched: list[str] | None = None
    if all(entry.tool is not None for entry in tools):
        from ruleweave.session.tool_names import ToolNames

        names = ToolNames(ruleset.config.tool_aliases)
        canonical = names.canonical
        # A name outside the table is its own kind: only a kind some entry names can be watched so.
        candidates = names.names | {canonical(entry.tool) for entry in tools if entry.tool is not None}
        watched = sorted(
            name for name in candidates if any(e.admits("tool", canonical(name), canonical) for e in tools)
        )
    text = any(entry.source == "text" for entry in entries)
    return {"ttsr": bool(compiled), "ttsr_text": text, "ttsr_tools": watched}


def _write_entries(
    state: str,
    path: str,
    found: Mapping[str, Mapping[str, str] | None],
    fingerprint: str,
    racy: int,
    ruleset: RuleSet,
) -> None:
    """Write (or, for ``None``, remove) the entry of each directory in ``found`` beside the snapshot
    at ``path``, through one opened folder; a path shared by entries is stat'ed once."""
    states: dict[tuple[str, str], list[int] | None] = {}

    def state_of(dep: str, how: str) -> list[int] | None:
        if (dep, how) not in states:
            states[dep, how] = dep_state(dep, how)
        return states[dep, how]

    entries_dir = path[: -len(".json")]
    gone = [directory for directory, recorded in found.items() if recorded is None]
    if gone:
        with suppress(OSError), _opened_dir(state, entries_dir, create=False) as fd:
            for directory in gone:
                with suppress(OSError):
                    os.unlink(os.path.basename(dir_path(path, directory)), dir_fd=fd)
    if len(gone) == len(found):
        return
    with _opened_dir(state, entries_dir) as fd:
        for directory, recorded in found.items():
            if recorded is None:
                continue
            merged = {**recorded, **{d: "l" for d in _chain(ruleset, directory)}}
            entry: list[list[Any]] = [[dep, how, state_of(dep, how)] for dep, how in sorted(merged.items())]
            if not any(s is not None and len(s) > 1 and s[2] > racy for _, _, s in entry):
                name = os.path.basename(dir_path(path, directory))
                _atomic_json_at(fd, name, {"dir": directory, "base": fingerprint, "deps": entry})


def _nearby(
    ruleset: RuleSet,
    entries_dir: str,
    names: set[str],
    excluded: tuple[str, ...],
    seen: Mapping[str, str],
    touched: Mapping[str, bool],
    found: dict[str, dict[str, str] | None],
) -> None:
    """Add to ``found`` the entries of the ``NEARBY_DIRS`` directories around the first clean touched
    directory neither the prefill nor an entry file (``names``) knew (its parent's subtree), but those
    already known: a first touch outside the prefill costs a cold start, its neighbours' need not."""
    bundle = read_json(os.path.join(entries_dir, PREFILL))
    dirs = bundle.get("dirs") if isinstance(bundle, dict) else None
    known = set(dirs) if isinstance(dirs, dict) else set()

    def new(directory: str) -> bool:
        entry = os.path.basename(dir_path(entries_dir + ".json", directory))
        return directory not in known and entry not in names

    inside = str(ruleset.config.root).rstrip("/") + "/"
    for directory, clean in touched.items():
        parent = os.path.dirname(directory)
        if clean and parent.startswith(inside) and new(directory):
            for near, recorded in _prefill(ruleset, excluded, seen, start=parent, limit=NEARBY_DIRS).items():
                if recorded is not None and near not in found and new(near):
                    found[near] = recorded
            return  # one neighbourhood an event: a command naming many directories writes no more


def _write_prefill(
    directory: int,
    prefilled: Mapping[str, Mapping[str, str] | None],
    seen: Mapping[str, str],
    fingerprint: str,
    racy: int,
    ruleset: RuleSet,
) -> None:
    """The prefilled directories' entries as one file (``snapshot.PREFILL``) in the opened entries
    folder: each dependency once, the ones every entry shares (``seen``) named once.

    One file, not one per directory: a prefill of 256 directories wrote 256 files, the largest part
    of a cold start in a monorepo. The warm path reads it only for a directory with no file of its own.
    """
    rows: list[list[Any]] = []
    index: dict[tuple[str, str], int] = {}

    def at(dep: str, how: str) -> int:
        found = index.get((dep, how))
        if found is None:
            found = index[dep, how] = len(rows)
            rows.append([dep, how, dep_state(dep, how)])
        return found

    def fresh(numbers: list[int]) -> bool:
        return not any((s := rows[i][2]) is not None and len(s) > 1 and s[2] > racy for i in numbers)

    common = [at(dep, how) for dep, how in sorted(seen.items())]
    if not fresh(common):
        return
    dirs: dict[str, list[int]] = {}
    for name, recorded in prefilled.items():
        if recorded is None:
            continue  # nested rules or instructions speak there: the full path answers
        merged = {**recorded, **{d: "l" for d in _chain(ruleset, name)}}
        own = [at(dep, how) for dep, how in sorted(merged.items()) if seen.get(dep) != how]
        if fresh(own):
            dirs[name] = own
    _atomic_json_at(directory, PREFILL, {"base": fingerprint, "deps": rows, "common": common, "dirs": dirs})


def _remove_entries(name: str, parent: int) -> None:
    """Remove the entries folder ``name`` of the opened folder ``parent`` (files only, as written here)."""
    fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent)
    try:
        for entry in os.listdir(fd):
            with suppress(OSError):
                os.unlink(entry, dir_fd=fd)
    finally:
        os.close(fd)
    with suppress(OSError):  # not empty (something else was put there): left as it is
        os.rmdir(name, dir_fd=parent)


def _entry_names(directory: str) -> set[str] | None:
    """The file names of an entries folder (``None`` when it cannot be listed)."""
    try:
        return set(os.listdir(directory))
    except OSError:
        return None


@contextmanager
def _opened_dir(state: str, directory: str, *, create: bool = True) -> Iterator[int]:
    """``directory``, a folder inside ``state``, opened without following a link below ``state`` at any
    level (created when missing, with ``create``): a link swapped in there fails the write instead of
    leading it out, and a swap after the check changes nothing, as the write goes through this fd."""
    if create:
        os.makedirs(state, mode=0o700, exist_ok=True)  # the state directory itself is the user's choice
    fd = os.open(state, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in os.path.relpath(directory, state).split(os.sep):
            if part in ("", "."):
                continue
            if create:
                with suppress(FileExistsError):
                    os.mkdir(part, 0o700, dir_fd=fd)
            child = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = child
        yield fd
    finally:
        os.close(fd)


def _atomic_json(state: str, path: str, data: Any) -> None:
    """Write ``data`` to ``path`` (inside ``state``) whole or not at all (a reader never sees half a
    file), never through a link below ``state``."""
    with _opened_dir(state, os.path.dirname(path)) as directory:
        _atomic_json_at(directory, os.path.basename(path), data)


def _atomic_json_at(directory: int, name: str, data: Any) -> None:
    """Write ``data`` to the file ``name`` of the opened folder ``directory``, whole or not at all."""
    # Not ``tempfile.mkstemp``: importing it (random, hashlib) costs the cold hook more than this.
    tmp = f".snapshot-{os.getpid()}-{next(_TMP_NAMES)}.json"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW
    try:
        fd = os.open(tmp, flags, 0o600, dir_fd=directory)
    except FileExistsError:  # left by a dead process that had this pid: no live writer owns it
        os.unlink(tmp, dir_fd=directory)
        fd = os.open(tmp, flags, 0o600, dir_fd=directory)
    try:
        try:
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))  # the C encoder
            view = memoryview(text.encode("utf-8", "surrogatepass"))
            while view:  # os.write, not a file object: a prefill writes hundreds of these
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, name, src_dir_fd=directory, dst_dir_fd=directory)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp, dir_fd=directory)
        raise
