"""Test helpers that ship with ruleweave (like ``structlog.testing``).

``capture_events`` collects what sessions log, checked against the event
schema (``ruleweave.events``)::

    def test_my_agent_reads_the_typescript_rule():
        with capture_events() as events:
            run_my_agent("fix src/app.ts")
        injected = [e for e in events if e["event"] == "injection"]
        assert injected[0]["items"][0]["name"] == "typescript"

``assert_replays`` turns a recorded event log into a regression test::

    def test_agent_session_still_gets_its_rules():
        assert_replays("tests/replays/checkout.jsonl", cwd="examples/demo-repo")
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ruleweave.events import check_event
from ruleweave.log import start_capture, stop_capture
from ruleweave.replay import ReplayReport, replay
from ruleweave.store.memory import MemoryStore

__all__ = ["MemoryStore", "assert_replays", "capture_events"]


@contextmanager
def capture_events(*, check: bool = True) -> Iterator[list[dict[str, Any]]]:
    """Collect every event logged in this process while the block runs.

    Each event is a dict: ``{"event": name, "session": id, ...fields}``, in the
    order logged (from any thread). ``tool_touch`` events are logged too, as
    capturing turns the event sinks on.

    Args:
        check: On leaving the block, fail unless every event matches the schema
            in ``ruleweave.events`` (a known name, its documented fields).

    Yields:
        The list events are appended to.

    Raises:
        AssertionError: ``check`` is on and an event does not match the schema.
    """
    __tracebackhide__ = True
    captured = start_capture()
    try:
        yield captured
    finally:
        stop_capture(captured)
    if check:
        problems = [p for e in captured for p in check_event(e["event"], e)]
        if problems:
            raise AssertionError("Events differ from the schema:\n" + "\n".join(problems))


def assert_replays(
    log: str | Path, *, cwd: str | Path | None = None, root: str | Path | None = None
) -> ReplayReport:
    """Fail with a readable diff unless every session of ``log`` replays unchanged.

    Args:
        log: The JSON-lines event log.
        cwd: Where to replay (default: the logged cwd).
        root: The project root (default: as logged).

    Returns:
        The clean report.

    Raises:
        AssertionError: Something differs; the message lists what.
        ReplayError: The log is unreadable or holds no session.
    """
    __tracebackhide__ = True
    report = replay(log, cwd=cwd, root=root)
    if not report.clean:
        raise AssertionError(f"{log} no longer replays:\n{report.format()}")
    return report
