"""The warm hook claims in the SQLite file the store URL names, as ``SQLiteStore`` does; for any other store,
or a state file it cannot trust, the full path answers."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.hosts._core import snapshot
from ruleweave.hosts._options import HookOptions
from ruleweave.hosts.claude_code import HOST
from ruleweave.store import SQLiteStore
from tests.hosts.claude_code.conftest import RunHook, context_of, read_event
from tests.hosts.claude_code.test_hook_snapshot import plain, warm

__all__ = ["plain"]  # the fixture, imported for the tests below

RULE = "Use type hints everywhere."


def warm_answer(
    payload: dict[str, Any], store: str, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> object:
    """What the snapshot alone answers (in process) with ``--store store``, or ``snapshot.MISS``."""
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(state_dir))
    return snapshot.answer(HOST, payload, HookOptions(store=store))


def test_a_store_url_with_a_ttl_is_claimed_warm_in_its_file(
    plain: Path, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sqlite:///path?ttl=…`` is claimed by the warm path in that file, once, with a ledger record the
    library reads back."""
    # In the state directory: a store file elsewhere would be one of the snapshot's dependencies.
    db = state_dir / "my state" / "s.db"
    url = f"sqlite://{state_dir}/my%20state/s.db?ttl=3600"
    run_hook(read_event(plain, "src/app.py", "w0", session="warm-up"), "--store", url)
    payload = read_event(plain, "src/app.py", "call-1", session="t")
    answered = warm_answer(payload, url, state_dir, monkeypatch)
    assert answered is not snapshot.MISS and RULE in json.dumps(answered)
    assert warm_answer(dict(payload, tool_use_id="call-2"), url, state_dir, monkeypatch) is None
    assert not (state_dir / "state.db").exists()
    store = SQLiteStore(db)
    try:
        ruleset = RuleSet.load(RuleweaveConfig(cwd=plain, store=store))
        again = ruleset.session("t").notices_for("call-1")
        assert again is not None and RULE in again.text and [i.name for i in again.items] == ["python"]
        assert ruleset.session("t").notices_for("call-2") is None
    finally:
        store.close()


@pytest.mark.parametrize(
    "store", ["memory://", "redis://127.0.0.1:1/0", "sqlite://host/abs.db", "sqlite:///a.db?prefix=x"]
)
def test_another_store_is_left_to_the_full_path(
    plain: Path, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch, store: str
) -> None:
    """A memory or Redis store, or a URL the full path must report on, is not claimed in by the warm path."""
    warm(run_hook, plain)
    payload = read_event(plain, "src/app.py", "call-1", session="t")
    assert warm_answer(payload, "sqlite://", state_dir, monkeypatch) is not snapshot.MISS
    assert warm_answer(dict(payload, session_id="u"), store, state_dir, monkeypatch) is snapshot.MISS


def _garbage(path: Path) -> None:
    path.write_bytes(b"not a database at all" * 100)


def _foreign(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.execute("PRAGMA application_id = 7")
    conn.close()


@pytest.mark.parametrize(
    ("spoil", "reason"), [(_garbage, "not a database"), (_foreign, "another application's")]
)
def test_a_state_file_that_is_not_ruleweaves_takes_the_full_path(
    plain: Path, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch, spoil: Any, reason: str
) -> None:
    """A damaged or foreign state.db is never claimed in by the warm path: the full path answers (a
    damaged file is moved aside, a foreign one left alone and answered without it), logged and told."""
    warm(run_hook, plain)
    for leftover in state_dir.glob("state.db*"):
        if leftover.is_file():  # the file and SQLite's beside it; not the memos (``state.db-claimed/``)
            leftover.unlink()
    spoil(state_dir / "state.db")
    payload = read_event(plain, "src/app.py", "call-1", session="t")
    assert warm_answer(payload, "sqlite://", state_dir, monkeypatch) is snapshot.MISS
    code, out, _ = run_hook(payload)
    assert (code, context_of(out)) == (0, RULE.join(("[rule: python]\n", "")))
    told = json.loads(out)["systemMessage"]
    assert ("was damaged" if spoil is _garbage else reason) in told
    assert (spoil is _garbage) == any(state_dir.glob("state.db.damaged-*"))
    log = [json.loads(line) for line in (state_dir / "claude-code-hook.jsonl").read_text().splitlines()]
    assert [entry["message"] for entry in log if entry["event"] == "store_problem"] == [told], log
