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
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ruleweave.config import RuleweaveConfig
from ruleweave.errors import ReplayError
from ruleweave.reading import read_text
from ruleweave.ruleset import RuleSet
from ruleweave.store import MemoryStore

MAX_LOG_BYTES = 64 * 1024 * 1024


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
    """

    session: str
    prompt_logged: str
    prompt_now: str
    blocks: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]
    calls: tuple[CallDiff, ...]
    replayed: int

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
class _Logged:
    start: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)


def read_log(path: Path) -> tuple[list[_Logged], list[int]]:
    """Group a log's events by session; raises ReplayError for an unusable log."""
    result = read_text(path, MAX_LOG_BYTES)
    if result.text is None:
        raise ReplayError(f"cannot read the event log {path}: it {result.problem}.")
    sessions: dict[str, _Logged] = {}
    order: list[_Logged] = []
    skipped: list[int] = []
    for number, line in enumerate(result.text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError:
            skipped.append(number)
            continue
        if not isinstance(event, dict) or not isinstance(event.get("session"), str):
            skipped.append(number)
            continue
        name, session = event.get("event"), event["session"]
        if name == "session_start":
            logged = _Logged(event)
            sessions[session] = logged
            order.append(logged)
        elif name in ("tool_touch", "compacted") and session in sessions:
            sessions[session].steps.append(event)
    if not order:
        raise ReplayError(f"the event log {path} holds no ruleweave session_start event.")
    return order, skipped


def _rebase(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return new + value[len(old) :] if value == old or value.startswith(old + "/") else value
    if isinstance(value, list):
        return [_rebase(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: _rebase(item, old, new) for key, item in value.items()}
    return value


def _names(items: Iterable[Any]) -> tuple[str, ...]:
    return tuple(str(item) for item in items)


def _block_diff(logged: Any, now: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    before = _names(logged or ())
    return (
        tuple(n for n in now if n not in before),
        tuple(n for n in before if n not in now),
    )


def replay_session(logged: _Logged, cwd: Path | None, root: Path | None) -> SessionDiff:
    """Re-run one logged session against the rules on disk now."""
    start = logged.start
    old_root = str(start.get("project_root") or "")
    old_cwd = str(start.get("cwd") or old_root)
    logged_options = start.get("options")
    options = logged_options if isinstance(logged_options, dict) else {}
    if cwd is None:
        if not old_cwd:
            raise ReplayError(f"session {start['session']!r} logged no cwd; pass one to replay it.")
        cwd = Path(old_cwd)
    if root is None and old_root and Path(old_cwd).is_relative_to(old_root):
        root = cwd
        for _ in Path(old_cwd).relative_to(old_root).parts:
            root = root.parent
    try:
        config = RuleweaveConfig(cwd=cwd, project_root=root, **options)
    except (TypeError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
        detail = (
            "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            if isinstance(exc, ValidationError) else str(exc)
        )
        raise ReplayError(
            f"session {start['session']!r} logged options this version cannot use ({detail})."
        ) from exc
    ruleset = RuleSet.load(config)
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
        args = _rebase(step.get("args"), old_root, str(config.root)) if old_root else step.get("args")
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
        ReplayError: The log is unreadable or holds no session.
    """
    sessions, skipped = read_log(Path(log))
    return ReplayReport(
        sessions=tuple(
            replay_session(
                logged,
                Path(cwd).resolve() if cwd is not None else None,
                Path(root).resolve() if root is not None else None,
            )
            for logged in sessions
        ),
        skipped=tuple(skipped),
    )
