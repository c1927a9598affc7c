"""Hostile ignore rules and paths cannot make the ignore check raise or drop a notice (#29 items 4, 11).

The ignore matcher is pathspec on RE2. RE2 matches UTF-8, so a lone surrogate
in a tool argument's directory (``src/\\ud800/x.py``) made ``check_file`` raise
``UnicodeEncodeError``; and RE2 refuses to compile a set of about 5,000
``dir/file`` patterns, so a ``.gitignore`` with 100,000 of them made every
``after_tool_call`` raise ``re2.Error`` (and the Claude Code hook answer
nothing). Now a file's patterns are bounded (``MAX_IGNORE_PATTERNS``,
``MAX_PATTERN_CHARS``), a file RE2 still refuses is left out with a warning,
and the notice is always given.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from ruleweave._files.tree import MAX_IGNORE_PATTERNS, MAX_PATTERN_CHARS
from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import context_of, event, read_event
from tests.security.helpers import HANG, load, returns_within, run_hook

NESTED = {"pkg/AGENTS.md": "Package rules: run make pkg-test.", "pkg/src/a.py": "x = 1\n"}


def many_patterns(count: int) -> str:
    """A ``.gitignore`` of ``count`` distinct ``dirN/fileN.txt`` patterns (about 20 bytes each)."""
    return "".join(f"dir{i}/file{i}.txt\n" for i in range(count))


@pytest.mark.parametrize("store", ["memory://", "sqlite"])
def test_a_lone_surrogate_in_a_touched_directory_does_not_raise(
    write_tree: WriteTree, tmp_path: Path, store: str
) -> None:
    """``src/\\ud800/x.py`` under a .gitignore gets an answer; the nested file still arrives after it."""
    root = write_tree({".gitignore": "build/\n*.log\n", **NESTED})
    url = f"sqlite:///{tmp_path / 'state.db'}" if store == "sqlite" else store
    session = load(root, store=url).session("s")
    assert session.after_tool_call("read", {"path": "src/\ud800/x.py"}) is None
    notice = session.after_tool_call("edit", {"file_path": "pkg/\ud800/y.py"})
    assert notice is not None and "Package rules: run make pkg-test." in notice.text


def test_an_undecodable_directory_name_is_matched_by_a_wildcard(write_tree: WriteTree) -> None:
    """A directory named with the byte 0xff is ignored by ``gen-*/`` (its name spelled with an escape)."""
    root = write_tree({".gitignore": "gen-*/\n", "keep/AGENTS.md": "Kept."})
    odd = Path(str(root / "gen-") + "\udcff")  # b"gen-\xff" on disk
    odd.mkdir()
    (odd / "AGENTS.md").write_text("Generated, ignored.", encoding="utf-8")
    ruleset = load(root)
    assert ruleset.nested.tree.ignored(str(odd)) is True
    session = ruleset.session("s")
    assert session.after_tool_call("read", {"path": str(odd / "x.py")}) is None
    assert session.after_tool_call("read", {"path": "keep/x.py"}) is not None


def test_a_gitignore_of_100000_patterns_keeps_the_notice(write_tree: WriteTree) -> None:
    """Past the bound, patterns are dropped with a warning; the notice arrives, in bounded time."""
    root = write_tree({".gitignore": "pkg/skipped/\n" + many_patterns(100_000), **NESTED})
    ruleset = load(root, max_file_bytes=4 * 1024 * 1024)  # the whole file read: the bound is ours
    session = ruleset.session("s")
    start = time.perf_counter()
    notice = returns_within(HANG, lambda: session.after_tool_call("read", {"path": "pkg/src/a.py"}))
    took = time.perf_counter() - start
    assert notice is not None and "Package rules: run make pkg-test." in notice.text
    assert took < 5.0, took  # compiling 2,000 patterns; 100,000 took Python's re compiler 10 s
    assert ruleset.nested.tree.ignored(str(root / "pkg/skipped")) is True  # the first patterns still apply
    [warning] = [w for w in ruleset.touch_warnings if w.path == str(root / ".gitignore")]
    assert f"more ignore patterns than ruleweave applies ({MAX_IGNORE_PATTERNS:,}" in warning.message
    assert "the last 98,001 are not applied" in warning.message


def test_patterns_re2_refuses_degrade_only_their_own_set(write_tree: WriteTree) -> None:
    """A pattern over the length bound is dropped; a set RE2 refuses is left out, the others apply."""
    # Within the bounds, yet past the memory RE2 gives one set.
    refused = "".join(f"d{i:03d}{'y' * 240}\n" for i in range(256))
    root = write_tree({
        ".gitignore": "out/\n" + "*" * (MAX_PATTERN_CHARS + 1) + "\n",
        "pkg/.gitignore": refused + "skipped/\n",
        "pkg/skipped/AGENTS.md": "Skipped.",
        "out/AGENTS.md": "Build output.",
        **NESTED,
    })
    ruleset = load(root, max_file_bytes=4 * 1024 * 1024)
    session = ruleset.session("s")
    notice = returns_within(HANG, lambda: session.after_tool_call("read", {"path": "pkg/src/a.py"}))
    assert notice is not None and "Package rules" in notice.text
    assert session.after_tool_call("read", {"path": "out/x.py"}) is None  # the root file still applies
    assert ruleset.nested.tree.ignored(str(root / "pkg/skipped")) is True  # the next set still applies
    messages = {w.path: w.message for w in ruleset.touch_warnings}
    assert "longer than 1,024 characters" in messages[str(root / ".gitignore")]
    assert "has 256 ignore pattern(s) RE2 could not compile" in messages[str(root / "pkg/.gitignore")]


def test_the_hook_answers_with_a_gitignore_of_100000_patterns(write_tree: WriteTree, tmp_path: Path) -> None:
    """Claude Code's PostToolUse gets the nested file's notice, not an empty answer (the hook, as run)."""
    # GEMINI.md: Claude Code loads a nested AGENTS.md itself here (hosts.claude_code.NATIVE_FALLBACK).
    root = write_tree({
        ".gitignore": many_patterns(100_000), "pkg/GEMINI.md": "Package rules: run make pkg-test.",
        "pkg/src/a.py": "x = 1\n",
    })
    state = tmp_path / "state"
    assert run_hook(event(root, "SessionStart", source="startup"), state)[0] == 0
    code, out, err = returns_within(HANG, lambda: run_hook(read_event(root, "pkg/src/a.py", "c1"), state))
    assert code == 0, err
    assert "Package rules: run make pkg-test." in context_of(out)
