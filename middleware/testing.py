"""Test helpers that ship with ruleweave (like ``structlog.testing``).

``assert_replays`` turns a recorded event log into a regression test::

    def test_agent_session_still_gets_its_rules():
        assert_replays("tests/replays/checkout.jsonl", cwd="examples/demo-repo")
"""

from __future__ import annotations

from pathlib import Path

from ruleweave.replay import ReplayReport, replay
from ruleweave.store.memory import MemoryStore

__all__ = ["MemoryStore", "assert_replays"]


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
