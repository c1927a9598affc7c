"""A glob written to make a backtracking regex engine stall is matched in linear time, by both doors.

wcmatch's regex for ``CATASTROPHIC`` takes Python's ``re`` minutes on ``DEEP``
(121 characters of ``a/`` segments); every glob regex ruleweave runs is RE2's.
The library (``RuleSession.after_tool_call``) and the Claude Code hook's warm
path (the snapshot's glob table) must each answer in well under a second.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from ruleweave.hosts._core import snapshot
from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import RULEWEAVE, context_of, read_event
from tests.hosts.claude_code.test_hook_snapshot import backdate, fast
from tests.security.helpers import HANG, load, returns_within

CATASTROPHIC = "**/a/**/a/**/a/**/a/**/a/**/a/**/c/**/b"
DEEP = "/".join(["a"] * 60) + "/b"
SHALLOW = "a/a/a/a/a/a/c/b"  # what the glob is for: it matches

T = TypeVar("T")


def project(write_tree: WriteTree) -> Path:
    """A project whose one scoped rule has the catastrophic glob, with both files on disk."""
    root = write_tree({
        ".cursor/rules/deep.mdc": f"---\nglobs: '{CATASTROPHIC}'\n---\nDeep rule.\n",
        DEEP: "x\n",
        SHALLOW: "x\n",
    })
    assert len(DEEP) == 121
    return root


def timed(call: Callable[[], T]) -> tuple[T, float]:
    """``call()``'s result and its wall time; a hang fails the test after ``HANG`` seconds."""
    start = time.perf_counter()
    result = returns_within(HANG, call)
    return result, time.perf_counter() - start


def test_after_tool_call_answers_at_once(write_tree: WriteTree) -> None:
    """The library decides the deep path (no notice) and the shallow one (the rule) in well under a second."""
    session = load(project(write_tree)).session("s")
    miss, took = timed(lambda: session.after_tool_call("read", {"path": DEEP}))
    assert miss is None and took < 1.0
    hit, took = timed(lambda: session.after_tool_call("read", {"path": SHALLOW}))
    assert hit is not None and "Deep rule." in hit.text and took < 1.0


def test_the_hook_answers_at_once(
    write_tree: WriteTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook's warm path decides both paths from the snapshot in well under a second, as the full path
    (the first process, which writes the snapshot) does."""
    root = project(write_tree)
    backdate(root)
    state = tmp_path / "state"
    env = {**os.environ, "RULEWEAVE_STATE_DIR": str(state)}
    started = time.perf_counter()
    payload = json.dumps(read_event(root, DEEP, "t0", "warm-up")).encode()
    command = [RULEWEAVE, "hook", "claude-code"]
    cold = subprocess.run(command, input=payload, capture_output=True, env=env, timeout=120, check=True)
    assert cold.stdout == b"" and time.perf_counter() - started < 60
    miss, took = timed(lambda: fast(read_event(root, DEEP, "t1", "fresh"), state, monkeypatch))
    assert miss is None and took < 1.0  # answered warm: nothing to say
    hit, took = timed(lambda: fast(read_event(root, SHALLOW, "t2", "fresh"), state, monkeypatch))
    assert hit is not snapshot.MISS and took < 1.0
    assert "Deep rule." in context_of(json.dumps(hit))


def test_a_streamed_rule_path_gate_answers_at_once(write_tree: WriteTree) -> None:
    """A streamed rule gated by the glob decides a tool stream on the deep path (no hit) and the shallow
    one."""
    root = project(write_tree)
    streamed = f"---\ncondition: 'eval\\('\nglobs: '{CATASTROPHIC}'\n---\nNo eval.\n"
    write_tree({".ruleweave/rules/no-eval.md": streamed})
    session = load(root).session("s")
    watch = session.watch
    miss, took = timed(lambda: watch("tool", "eval(", tool="edit", call_id="c1", args={"path": DEEP}))
    assert miss is None and took < 1.0
    hit, took = timed(lambda: watch("tool", "eval(", tool="edit", call_id="c2", args={"path": SHALLOW}))
    assert hit is not None and took < 1.0


def test_lint_and_map_match_the_glob_at_once(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """lint's dead-glob pass and map's reach both match the glob against every file, the deep one too."""
    from ruleweave.cli import main

    root = project(write_tree)
    code, took = timed(lambda: main(["lint", "--cwd", str(root), "--json"]))
    assert code in (0, 1) and took < 5.0
    assert "dead-glob" not in capsys.readouterr().out  # the shallow file keeps the glob alive
    code, took = timed(lambda: main(["map", "--cwd", str(root), "--json"]))
    assert code == 0 and took < 5.0
