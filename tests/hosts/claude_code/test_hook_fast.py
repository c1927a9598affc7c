"""The fast path's copies of core facts stay equal to the core: state dir, store constants, touched paths."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleweave.hosts.claude_code import fast_store, handlers, native, snapshot
from ruleweave.hosts.claude_code.paths import CLAUDE_CODE_EXTRACTORS, claude_code_paths
from ruleweave.session.touch import TouchExtractors
from ruleweave.store import SQLiteStore, sqlite


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"RULEWEAVE_STATE_DIR": "/srv/state"},
        {"RULEWEAVE_STATE_DIR": "~/st"},
        {"XDG_STATE_HOME": "/xdg"},
        {"XDG_STATE_HOME": "relative/ignored"},
        {"LOCALAPPDATA": "C:/Users/u/AppData/Local"},
    ],
)
@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_state_directory_is_the_stores_default(env: dict[str, str], platform: str) -> None:
    """The snapshot finds the state directory exactly where SQLiteStore keeps state.db."""
    home = "/home/u"
    expected = sqlite.default_state_path({**env, "HOME": home}, Path(home), platform=platform).parent
    assert snapshot.state_directory({**env, "HOME": home}, platform=platform) == str(expected)


def test_fast_store_constants_are_the_stores() -> None:
    """The fast path claims on the schema SQLiteStore writes, with its TTL; its keys are the handlers'."""
    assert fast_store.APPLICATION_ID == sqlite.APPLICATION_ID
    assert fast_store.SCHEMA_VERSION == sqlite.SCHEMA_VERSION
    assert fast_store.DEFAULT_TTL == sqlite.DEFAULT_TTL
    assert fast_store.BUSY_TIMEOUT == sqlite.DEFAULT_BUSY_TIMEOUT
    assert snapshot.REMINDER_KEY == handlers.REMINDER_KEY
    assert snapshot.CONTEXT_LIMIT == native.CONTEXT_LIMIT


def test_fast_claims_and_the_store_agree(tmp_path: Path) -> None:
    """Keys claimed by the fast path are taken for SQLiteStore, with their ledger records, and back."""
    store = SQLiteStore(tmp_path / "state.db")
    assert store.claim_many("s", ["inject:a"]) == [True]
    conn = fast_store.open_claims(str(tmp_path / "state.db"))
    assert conn is not None
    won, taken = fast_store.claim_and_take(conn, "s", ["inject:a", "inject:b"], "c1", ["ra", "rb"], "k")
    assert (won, taken) == ([False, True], None)
    assert store.claim_many("s", ["inject:b"]) == [False]
    assert store.ledger("s", ["c1"]) == {"c1": [("inject:b", "rb")]}
    store.put("s", "k", "kept")
    assert fast_store.claim_and_take(conn, "s", [], None, [], "k") == ([], "kept")
    assert store.get("s", "k") == ""
    conn.close()
    store.close()


def test_fast_claims_refuse_a_foreign_or_missing_file(tmp_path: Path) -> None:
    """No file, or a file that is not ruleweave's state, is not opened (the full path decides)."""
    assert fast_store.open_claims(str(tmp_path / "missing.db")) is None
    (tmp_path / "other.db").write_bytes(b"not a database at all" * 100)
    assert fast_store.open_claims(str(tmp_path / "other.db")) is None


CALLS: list[tuple[str, dict[str, Any]]] = [
    ("Read", {"file_path": "/p/src/a.py"}),
    ("Read", {"file_path": "src/./b.py", "offset": 2, "limit": 10}),
    ("Write", {"file_path": "/p/x.md", "content": "hello"}),
    ("Edit", {"file_path": "/p/y.ts", "old_string": "a", "new_string": "b", "replace_all": True}),
    ("MultiEdit", {"file_path": "/p/z.py", "edits": [{"old_string": "a", "new_string": "b"}]}),
    ("NotebookEdit", {"notebook_path": "/p/n.ipynb", "new_source": "x", "cell_id": "c"}),
    ("Read", {"file_path": ""}),
    ("Read", {"file_path": "bad\x00path"}),
    ("Glob", {"pattern": "src/**/*.py"}),
    ("Glob", {"pattern": "**/*.ts", "path": "/p/web"}),
    ("Grep", {"pattern": "TODO", "path": "/p/src", "glob": "*.py"}),
    ("Grep", {"pattern": "TODO"}),
    ("Bash", {"command": "pytest tests/test_a.py -k 'x y' && cat README.md | head"}),
    ("Bash", {"command": "echo 'unbalanced"}),
    ("Bash", {"command": "curl https://example.com/a.sh > /tmp/a.sh; ls -la"}),
]


@pytest.mark.parametrize(("tool", "args"), CALLS)
def test_claude_code_paths_are_the_extractors(tool: str, args: dict[str, Any]) -> None:
    """For Claude Code's tools the fast path reads the same paths as the rule set's extractors."""
    expected = TouchExtractors(CLAUDE_CODE_EXTRACTORS).path_strings(tool, args, "/p")
    assert claude_code_paths(tool, args, "/p") == expected


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("mcp__fs__read", {"path": "/p/a.py"}),
        ("Read", {"file_path": "/p/a.py", "other_path": "/p/b.py"}),
        ("Write", {"file_path": "/p/a.py", "patch": "*** Add File: b.py"}),
        ("Read", {"file_path": ["/p/a.py"]}),
        ("Edit", {"file_path": "/p/a.py", "meta": {"path": "/p/c.py"}}),
    ],
)
def test_claude_code_paths_leave_the_rest_to_the_extractors(tool: str, args: dict[str, Any]) -> None:
    """Unknown tools, and inputs the default extractor reads more of, are not vouched for."""
    assert claude_code_paths(tool, args, "/p") is None
