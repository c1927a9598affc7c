"""Replaying a logged session against today's rules.

``RuleweaveConfig(event_log=PATH)`` records every session as JSON lines:
``session_start`` (the options, the prompt digest and the rules in each
block), then every ``tool_touch`` (tool, arguments, what was injected) and
``compacted``. ``replay`` rebuilds each session with a fresh in-memory store
in a project directory of your choosing, re-runs the tool calls in order,
and reports what differs: the prompt digest and the rules that entered or
left its blocks, and, per call, the notices that appear or disappear.
Absolute paths under the recorded project root are moved to the new root,
so a log recorded on one machine replays on another.

A log is untrusted input. Its options are vetted (``replay_options``: only
those ``replayable_options()`` writes, none that widens what is read), every
event field replay uses must have its logged type, a line nested deeper than
``MAX_LOG_DEPTH`` levels or a log larger than ``MAX_LOG_BYTES`` is refused:
a malformed or cut log is a ``ReplayError``, never a clean replay.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruleweave._files.reading import read_text
from ruleweave._text.echo import shown
from ruleweave.config import RuleweaveConfig
from ruleweave.errors import ReplayError
from ruleweave.replay._options import OptionError, vet_options
from ruleweave.ruleset import RuleSet
from ruleweave.store import MemoryStore

MAX_LOG_BYTES = 64 * 1024 * 1024
"""The largest log replayed; a larger one is refused whole (a cut log could hide a difference)."""

MAX_LOG_DEPTH = 64
"""Nesting levels an event may have (ruleweave logs at most about ten)."""

MAX_SESSIONS = 10_000
"""Sessions one log may hold."""

_LIST_OF_STR = "a list of strings"


@dataclass(frozen=True, slots=True)
class CallDiff:
    """One replayed tool call whose notices changed.

    Attributes:
        index: The call's position in its session (1-based).
        tool: The tool's name.
        paths: The paths it touched, as logged.
        logged: What was injected then.
        now: What is injected now.
    """

    index: int
    tool: str
    paths: tuple[str, ...]
    logged: tuple[str, ...]
    now: tuple[str, ...]

    @property
    def appeared(self) -> tuple[str, ...]:
        """Notices injected now but not then."""
        return tuple(n for n in self.now if n not in self.logged)

    @property
    def disappeared(self) -> tuple[str, ...]:
        """Notices injected then but not now."""
        return tuple(n for n in self.logged if n not in self.now)


@dataclass(frozen=True, slots=True)
class SessionDiff:
    """How one logged session replays.

    Attributes:
        session: The session id.
        prompt_logged: The logged prompt sha256.
        prompt_now: Today's prompt sha256.
        blocks: Per block (``generic``, ``domain``), ``(appeared, disappeared)`` rule names.
        calls: The calls whose notices changed.
        replayed: How many tool calls were replayed.
        notes: Logged options the replay ignored, one sentence each.
    """

    session: str
    prompt_logged: str
    prompt_now: str
    blocks: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]
    calls: tuple[CallDiff, ...]
    replayed: int
    notes: tuple[str, ...] = ()

    @property
    def prompt_changed(self) -> bool:
        """Whether the prompt text differs."""
        return self.prompt_logged != self.prompt_now

    @property
    def clean(self) -> bool:
        """Nothing differs."""
        return not self.prompt_changed and not self.calls


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """Every session of a log, replayed.

    Attributes:
        sessions: One diff per logged session, in log order.
        skipped: Lines that were not JSON objects (1-based line numbers).
    """

    sessions: tuple[SessionDiff, ...]
    skipped: tuple[int, ...] = ()

    @property
    def clean(self) -> bool:
        """No session differs."""
        return all(s.clean for s in self.sessions)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "clean": self.clean,
            "sessions": [
                {
                    "session": s.session,
                    "replayed": s.replayed,
                    "notes": list(s.notes),
                    "prompt": {
                        "logged": s.prompt_logged,
                        "now": s.prompt_now,
                        "changed": s.prompt_changed,
                        "blocks": {
                            name: {"appeared": list(added), "disappeared": list(removed)}
                            for name, (added, removed) in s.blocks.items()
                        },
                    },
                    "calls": [
                        {
                            "index": c.index, "tool": c.tool, "paths": list(c.paths),
                            "logged": list(c.logged), "now": list(c.now),
                            "appeared": list(c.appeared), "disappeared": list(c.disappeared),
                        }
                        for c in s.calls
                    ],
                }
                for s in self.sessions
            ],
            "skipped_lines": list(self.skipped),
        }

    def format(self) -> str:
        """A readable account of every difference ('' when clean)."""
        lines: list[str] = []
        for s in self.sessions:
            if s.clean:
                continue
            lines.append(f"session {s.session}:")
            if s.prompt_changed:
                lines.append(f"  prompt changed: {s.prompt_logged[:12]} -> {s.prompt_now[:12]}")
                for block, (added, removed) in s.blocks.items():
                    for name in added:
                        lines.append(f"    + {name} now in <{block}-rules>")
                    for name in removed:
                        lines.append(f"    - {name} no longer in <{block}-rules>")
            for c in s.calls:
                where = ", ".join(c.paths) or "-"
                lines.append(f"  call {c.index} {c.tool} ({where}):")
                lines.extend(f"    + {name} is injected now" for name in c.appeared)
                lines.extend(f"    - {name} is no longer injected" for name in c.disappeared)
        return "\n".join(lines)


@dataclass
class LoggedSession:
    """One logged session: its ``session_start`` event and its ``tool_touch``/``compacted`` steps."""

    start: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` nests deeper than ``limit`` containers (iteratively: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


_FIELDS: dict[str, dict[str, tuple[tuple[type, ...], str]]] = {
    "session_start": {
        "cwd": ((str,), "a string"),
        "project_root": ((str,), "a string"),
        "prompt_sha256": ((str,), "a string"),
        "generic_rules": ((list,), _LIST_OF_STR),
        "domain_rules": ((list,), _LIST_OF_STR),
    },
    "tool_touch": {
        "tool": ((str,), "a string"),
        "args": ((dict, str), "an object or a JSON string"),
        "paths": ((list,), _LIST_OF_STR),
        "injected": ((list,), _LIST_OF_STR),
    },
}


def _check_fields(event: dict[str, Any], where: str) -> None:
    """Raise ``ReplayError`` unless every field replay reads has its logged type (or is absent)."""
    for name, (types, wanted) in _FIELDS.get(str(event.get("event")), {}).items():
        value = event.get(name)
        if value is None:
            continue
        if not isinstance(value, types) or (
            isinstance(value, list) and not all(isinstance(item, str) for item in value)
        ):
            raise ReplayError(
                f"{where}: the {event['event']} field {name!r} is {shown(value, 40)}, not {wanted}; "
                "the log is malformed."
            )


def read_log(path: Path) -> tuple[list[LoggedSession], list[int]]:
    """Group a log's events by session; raises ReplayError for an unusable log.

    Lines that are not JSON objects are skipped (and reported); an event whose
    fields have the wrong types, a line nested too deep, too many sessions or a
    log over ``MAX_LOG_BYTES`` make the whole log unusable.
    """
    result = read_text(path, MAX_LOG_BYTES, whole=True)
    if result.text is None:
        if result.oversized:
            raise ReplayError(
                f"the event log {path} is larger than {MAX_LOG_BYTES} bytes; "
                "a log cut to a size limit cannot be replayed."
            )
        raise ReplayError(f"cannot read the event log {path}: it {result.problem}.")
    sessions: dict[str, LoggedSession] = {}
    order: list[LoggedSession] = []
    skipped: list[int] = []
    for number, line in enumerate(result.text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except RecursionError:
            raise ReplayError(
                f"line {number} of {path} nests too deep to be an event; the log is malformed."
            ) from None
        except ValueError:
            skipped.append(number)
            continue
        if not isinstance(event, dict) or not isinstance(event.get("session"), str):
            skipped.append(number)
            continue
        if _depth_exceeds(event, MAX_LOG_DEPTH):
            raise ReplayError(
                f"line {number} of {path} nests deeper than {MAX_LOG_DEPTH} levels; the log is malformed."
            )
        name, session = event.get("event"), event["session"]
        if name not in ("session_start", "tool_touch", "compacted"):
            continue
        _check_fields(event, f"line {number} of {path}")
        if name == "session_start":
            if len(order) >= MAX_SESSIONS:
                raise ReplayError(f"the event log {path} holds more than {MAX_SESSIONS} sessions.")
            logged = LoggedSession(event)
            sessions[session] = logged
            order.append(logged)
        elif name in ("tool_touch", "compacted") and session in sessions:
            sessions[session].steps.append(event)
    if not order:
        raise ReplayError(f"the event log {path} holds no ruleweave session_start event.")
    return order, skipped


def rebase(value: Any, old: str, new: str) -> Any:
    """``value`` with every path under ``old`` re-spelled under ``new`` (a replay in a moved copy)."""
    if isinstance(value, str):
        return new + value[len(old) :] if value == old or value.startswith(old + "/") else value
    if isinstance(value, list):
        return [rebase(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: rebase(item, old, new) for key, item in value.items()}
    return value


def _names(items: Iterable[Any]) -> tuple[str, ...]:
    return tuple(str(item) for item in items)


def _block_diff(logged: Any, now: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    before = _names(logged or ())
    return (
        tuple(n for n in now if n not in before),
        tuple(n for n in before if n not in now),
    )


def replay_config(
    start: dict[str, Any], cwd: Path | None, root: Path | None
) -> tuple[RuleweaveConfig, str, list[str]]:
    """The configuration a logged session replays with, its logged root, and notes on ignored options."""
    who = f"session {shown(start['session'], 80)}"
    old_root = str(start.get("project_root") or "")
    old_cwd = str(start.get("cwd") or old_root)
    if "\x00" in old_root or "\x00" in old_cwd:
        raise ReplayError(f"{who} logged a path holding a NUL byte; the log is malformed.")
    if cwd is None:
        if not old_cwd:
            raise ReplayError(f"{who} logged no cwd; pass one to replay it.")
        cwd = Path(old_cwd)
        if not cwd.is_dir():
            raise ReplayError(f"{who} logged the cwd {shown(old_cwd)}, which is not a directory here; "
                              "pass --cwd to replay it.")
    if root is None and old_root and Path(old_cwd).is_relative_to(old_root):
        root = cwd
        for _ in Path(old_cwd).relative_to(old_root).parts:
            root = root.parent
    defaults = RuleweaveConfig(cwd=cwd, project_root=root).replayable_options()
    try:
        options, notes = vet_options(start.get("options"), defaults)
        config = RuleweaveConfig(cwd=cwd, project_root=root, **options)
    except (OptionError, TypeError, ValueError) as exc:  # ConfigError is a ValueError
        raise ReplayError(f"{who} logged options this version cannot use ({str(exc).rstrip('.')}).") from exc
    return config, old_root, notes


def replay_session(
    logged: LoggedSession, cwd: Path | None, root: Path | None, rulesets: dict[str, RuleSet] | None = None
) -> SessionDiff:
    """Re-run one logged session against the rules on disk now.

    Args:
        logged: The session's events.
        cwd: Where to replay (default: the logged cwd).
        root: The project root (default: found from ``cwd`` the way it was logged).
        rulesets: Rule sets already loaded by this replay, by configuration (sessions
            logged with the same options share one load).

    Raises:
        ReplayError: The session's options or paths cannot be used.
    """
    start = logged.start
    config, old_root, notes = replay_config(start, cwd, root)
    key = config.fingerprint()
    cache = rulesets if rulesets is not None else {}
    ruleset = cache.get(key)
    if ruleset is None:
        ruleset = cache.setdefault(key, RuleSet.load(config))
    session = ruleset.session(f"replay:{start['session']}", store=MemoryStore())
    parts = ruleset.prompt_parts()
    blocks = {
        "generic": _block_diff(start.get("generic_rules"), parts.generic_rules),
        "domain": _block_diff(start.get("domain_rules"), parts.domain_rules),
    }
    calls: list[CallDiff] = []
    replayed = 0
    for step in logged.steps:
        if step.get("event") == "compacted":
            session.compacted()
            continue
        replayed += 1
        args = rebase(step.get("args"), old_root, str(config.root)) if old_root else step.get("args")
        injection = session.after_tool_call(str(step.get("tool", "")), args)
        now = tuple(i.name for i in injection.items) if injection else ()
        was = _names(step.get("injected") or ())
        if now != was:
            calls.append(
                CallDiff(replayed, str(step.get("tool", "")), _names(step.get("paths") or ()), was, now)
            )
    return SessionDiff(
        session=str(start["session"]),
        prompt_logged=str(start.get("prompt_sha256", "")),
        prompt_now=parts.sha256,
        blocks=blocks,
        calls=tuple(calls),
        replayed=replayed,
        notes=tuple(notes),
    )


def replay(log: str | Path, *, cwd: str | Path | None = None, root: str | Path | None = None) -> ReplayReport:
    """Replay every session of an event log against today's rules.

    Args:
        log: The JSON-lines event log.
        cwd: Where to replay (default: the logged cwd).
        root: The project root (default: found from ``cwd`` the way it was logged).

    Returns:
        The ``ReplayReport``.

    Raises:
        ReplayError: The log is unreadable, malformed, larger than ``MAX_LOG_BYTES``
            or holds no session.
    """
    sessions, skipped = read_log(Path(log))
    rulesets: dict[str, RuleSet] = {}
    return ReplayReport(
        sessions=tuple(
            replay_session(
                logged,
                Path(cwd).resolve() if cwd is not None else None,
                Path(root).resolve() if root is not None else None,
                rulesets,
            )
            for logged in sessions
        ),
        skipped=tuple(skipped),
    )
