"""A store that is damaged, cannot be opened, is full or read-only never switches notices off silently.

The Claude Code hook answers anyway and tells the user once, in the hook output's top-level
``systemMessage`` ("Warning message shown to the user" in the hook output schema of the Claude Code
CLI 2.1.332 bundled in claude-agent-sdk; read with ``strings`` on ``_bundled/claude``).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.hosts._hook_log import HookLog
from ruleweave.hosts._store_notes import StoreNotes
from ruleweave.hosts.claude_code.handlers import ClaudeCodeHooks
from ruleweave.store import SQLiteStore
from tests.hosts.claude_code.conftest import (
    RULEWEAVE,
    RunHook,
    context_of,
    event,
    hook_env,
    read_event,
    run_hook,
    state_dir,
)
from tests.hosts.claude_code.test_hook_snapshot import backdate

__all__ = ["hook_env", "run_hook", "state_dir"]  # the fixtures, imported for the tests below

RULE = "[rule: python]\nUse type hints everywhere."
FILES = {
    ".cursor/rules/python.mdc": '---\nglobs: "**/*.py"\n---\nUse type hints everywhere.\n',
    "src/app.py": "print('hi')\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / ".git").mkdir()
    return root


def told(stdout: str) -> str:
    """The hook answer's note for the user ('' when none)."""
    return str(json.loads(stdout).get("systemMessage", "")) if stdout else ""


def test_a_damaged_state_file_is_moved_aside_rebuilt_and_told_once(
    project: Path, run_hook: RunHook, state_dir: Path
) -> None:
    """A state.db that is not a database used to switch every notice off (no answer at all): now it is
    renamed with a timestamp beside itself, a fresh one claims, and the first answer says so, once."""
    state_dir.mkdir()
    junk = os.urandom(8192)
    (state_dir / "state.db").write_bytes(junk)
    _, out, _ = run_hook(read_event(project, "src/app.py", "c1"))
    assert context_of(out) == RULE
    [moved] = state_dir.glob("state.db.damaged-*")
    assert moved.read_bytes() == junk and str(moved) in told(out)
    _, again, _ = run_hook(read_event(project, "src/app.py", "c2"))
    assert again == ""  # claimed once in the fresh file, and nothing more to tell
    _, other, _ = run_hook(read_event(project, "src/app.py", "c3", session="s2"))
    assert context_of(other) == RULE and told(other) == ""


def test_a_damaged_page_found_in_use_is_moved_aside(tmp_path: Path) -> None:
    """A file whose header is intact but whose pages are not fails mid-call: the store moves it aside and
    the call succeeds on a fresh file instead of failing every call after."""
    path = tmp_path / "state.db"
    store = SQLiteStore(path)
    for i in range(500):
        store.put(f"s{i}", "k", "x" * 400)
    store.close()
    data = bytearray(path.read_bytes())
    for offset in range(4096 * 2, len(data) - 4096, 4096):
        data[offset : offset + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    store = SQLiteStore(path)
    try:
        assert store.get("s400", "k") is None
        assert len(store.recovered) == 1 and store.claim("s", "k") and not store.claim("s", "k")
    finally:
        store.close()


def test_a_store_url_that_cannot_be_opened_answers_without_claims_and_says_so_once(
    project: Path, run_hook: RunHook, state_dir: Path
) -> None:
    """An unreachable store used to mean no answer: now the notice goes out (without claims, so it may
    repeat) and the user is told once; once the store works, a later failure is told again."""
    down = ("--store", "redis://127.0.0.1:1/0")
    _, first, _ = run_hook(read_event(project, "src/app.py", "c1"), *down)
    assert context_of(first) == RULE and "Cannot reach the Redis store" in told(first)
    assert "may repeat" in told(first)
    _, second, _ = run_hook(read_event(project, "src/app.py", "c2"), *down)
    assert context_of(second) == RULE and told(second) == ""  # no claims: exactly-once cannot hold
    log = (state_dir / "claude-code-hook.jsonl").read_text()
    assert log.count('"store_problem"') == 2
    # A run whose store works clears the marker of that URL only.
    run_hook(read_event(project, "src/app.py", "c3"))
    _, third, _ = run_hook(read_event(project, "src/app.py", "c4"), *down)
    assert told(third) == ""  # the Redis URL never worked in between: still told


def test_a_foreign_database_is_left_alone_and_told(project: Path, run_hook: RunHook, state_dir: Path) -> None:
    """Another application's database at the store path is not moved: the hook answers without it and
    says why."""
    state_dir.mkdir()
    with sqlite3.connect(state_dir / "state.db") as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER)")
    conn.close()
    _, out, _ = run_hook(read_event(project, "src/app.py", "c1"))
    assert context_of(out) == RULE and "another application's database" in told(out)
    assert not any(state_dir.glob("state.db.damaged-*"))


class NoRoom:
    """A connection whose write transactions fail as SQLite's do on a full disk (reads still work)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.startswith("BEGIN IMMEDIATE"):
            raise sqlite3.OperationalError("database or disk is full")
        return self._conn.execute(sql, *args)


class FullDisk(SQLiteStore):
    """An SQLite store on a disk with no room left."""

    def _connection(self) -> Any:
        return NoRoom(super()._connection())


def test_a_store_failing_with_a_full_disk_is_told_once(project: Path, tmp_path: Path) -> None:
    """Every write failing with "database or disk is full": the hook answers (a store failure counts as
    nothing applied, docs/stores.md#fail-open), and its note says why, once."""
    state = tmp_path / "state"
    store = FullDisk(tmp_path / "full.db")
    hooks = ClaudeCodeHooks(RuleSet.load(RuleweaveConfig(cwd=project, builtin_rules=False)), store=store)
    texts = []
    for call in ("c1", "c2"):
        with StoreNotes("sqlite:///full.db", str(state), HookLog(None)) as notes:
            hooks.handle(read_event(project, "src/app.py", call))
        texts.append(notes.message(None))
    assert texts[0] is not None and "database or disk is full" in texts[0] and texts[1] is None


@pytest.fixture
def small_disk() -> Iterator[Path]:
    """A 1 MiB tmpfs (skipped where this process may not mount one)."""
    where = Path(tempfile.mkdtemp(prefix="rw-full-"))
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        where.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False)
        where.rmdir()


def test_a_full_disk_under_the_state_directory(
    project: Path, small_disk: Path, hook_env: dict[str, str]
) -> None:
    """The state directory on a disk with no room left: the hook answers the notice, never fails, and
    says why (the marker needs an inode, not a block)."""
    env = {**hook_env, "RULEWEAVE_STATE_DIR": str(small_disk)}

    def run(payload: dict[str, Any], *args: str) -> tuple[int, str]:
        done = subprocess.run(
            [RULEWEAVE, "hook", "claude-code", "--no-snapshot", *args], input=json.dumps(payload).encode(),
            capture_output=True, env=env, timeout=120, check=False,
        )
        return done.returncode, done.stdout.decode()

    run(read_event(project, "src/app.py", "warm", session="warm-up"))  # state.db exists
    with open(small_disk / "filler", "wb") as filler:
        try:
            while True:
                filler.write(b"\0" * 65536)
                filler.flush()
        except OSError:
            pass
    code, out = run(read_event(project, "src/app.py", "c1"))
    assert code == 0 and "database or disk is full" in told(out)
    code, again = run(read_event(project, "src/app.py", "c2"))
    assert code == 0 and told(again) == ""


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv")
def test_a_read_only_state_directory(tmp_path: Path) -> None:
    """The hook run as a user who cannot write the state directory: it answers every event, tells the user
    why at the session's start (no marker can be left there), and does not repeat it on each tool call."""
    base = Path(tempfile.mkdtemp(prefix="rw-ro-"))
    try:
        os.chmod(base, 0o755)
        root = base / "project"
        for name, text in FILES.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        (root / ".git").mkdir()
        state = base / "state"
        state.mkdir()  # root's, 0755: nobody may read it, not write it
        for directory, _, _ in os.walk(base):
            os.chmod(directory, 0o755)
        env = {**os.environ, "RULEWEAVE_STATE_DIR": str(state), "HOME": str(base)}

        def run(payload: dict[str, Any]) -> tuple[int, str]:
            done = subprocess.run(
                ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", RULEWEAVE, "hook",
                 "claude-code"],
                input=json.dumps(payload).encode(), capture_output=True, env=env, timeout=120, check=False,
            )
            return done.returncode, done.stdout.decode()

        code, start = run(event(root, "SessionStart", source="startup"))
        assert code == 0 and "Cannot open the SQLite store" in told(start)
        code, out = run(read_event(root, "src/app.py", "c1"))
        assert code == 0 and context_of(out) == RULE and told(out) == ""
        assert os.listdir(state) == []
    finally:
        shutil.rmtree(base)


@pytest.mark.parametrize("link", ["snapshots", "entries"])
def test_a_link_swapped_into_the_snapshot_directory_is_not_followed(
    project: Path, run_hook: RunHook, state_dir: Path, tmp_path: Path, link: str
) -> None:
    """A symlink put where the snapshot writer's directory was (after it was made, before the next write)
    used to lead the write (and the clean-up of old entries) out of the state directory: now nothing is
    written or removed through it, and the hook still answers."""
    backdate(project)  # a rule file changed in the last seconds keeps the snapshot from being written
    run_hook(read_event(project, "src/app.py", "w0", session="warm-up"))  # makes snapshots/<key>/
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine")
    snapshots = state_dir / "snapshots"
    [entries] = [p for p in snapshots.iterdir() if p.is_dir()]
    swapped = snapshots if link == "snapshots" else entries
    shutil.rmtree(swapped)
    swapped.symlink_to(outside, target_is_directory=True)
    (project / ".cursor/rules/python.mdc").write_text('---\nglobs: "**/*.py"\n---\nUse type hints, always.\n')
    backdate(project)
    code, out, _ = run_hook(read_event(project, "src/app.py", "c1"))
    assert code == 0 and "Use type hints, always." in context_of(out)
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]
    assert swapped.is_symlink()
