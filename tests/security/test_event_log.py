"""Points 8 and 13: a bad event_log loses no rule, and the log records bounded, marked arguments."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import WriteTree
from tests.security.helpers import HANG, fifo, load, returns_within, unblock_fifo

FILES = {".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nTyped Python."}


@pytest.mark.parametrize("kind", ["directory", "under a file", "NUL byte", "unwritable", "FIFO"])
def test_a_bad_event_log_is_a_warning_and_every_rule_loads(
    write_tree: WriteTree, tmp_path: Path, kind: str
) -> None:
    """A directory, a path under a regular file, a NUL byte, an unwritable path or a FIFO: rules load."""
    root = write_tree(FILES)
    (tmp_path / "file").write_text("x")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    paths = {
        "directory": tmp_path,
        "under a file": tmp_path / "file" / "events.jsonl",
        "NUL byte": tmp_path / "ev\x00ents.jsonl",
        "unwritable": locked / "events.jsonl" if os.geteuid() != 0 else Path("/proc/self/events.jsonl"),
    }
    with fifo(tmp_path / "pipe") as pipe:
        log = pipe if kind == "FIFO" else paths[kind]
        ruleset = returns_within(HANG, lambda: load(root, event_log=log), unblock=unblock_fifo(pipe))
        session = ruleset.session("s")
        injection = returns_within(HANG, lambda: session.after_tool_call("read", {"path": "a.py"}))
    assert injection is not None and "Typed Python." in injection.text
    [warning] = [w for w in ruleset.warnings if "event_log" in w.message]
    assert warning.path == str(log) and "written to no file" in warning.message
    locked.chmod(0o700)


def test_unbounded_arguments_are_capped_and_marked(write_tree: WriteTree, tmp_path: Path) -> None:
    """A 10-million-item ``paths`` list, a huge string and deep nesting log a small line marking each cut."""
    root = write_tree(FILES)
    log = tmp_path / "events.jsonl"
    ruleset = load(root, event_log=log)
    session = ruleset.session("s")
    deep: Any = "bottom"
    for _ in range(50):
        deep = [deep]
    args = {"paths": ["src/a.py"] * 10_000_000, "content": "x" * 5_000_000, "deep": deep}
    session.after_tool_call("edit", args)
    ruleset.events.close()
    touch = [json.loads(line) for line in log.read_text().splitlines()][1]
    assert touch["event"] == "tool_touch"
    assert len(json.dumps(touch)) < 200_000
    logged = touch["args"]
    assert logged["paths"][-1] == "[ruleweave: 9999744 more items cut]"
    assert logged["content"].endswith("[ruleweave: 4995904 characters cut]")
    assert "nested deeper than" in json.dumps(logged["deep"])


class Hostile(Mapping[str, Any]):
    """Tool arguments whose every read raises."""

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("boom")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("boom")

    def __len__(self) -> int:
        return 1

    def items(self) -> Any:
        raise RuntimeError("boom")


def test_arguments_that_cannot_be_serialised_still_log_the_event(
    write_tree: WriteTree, tmp_path: Path
) -> None:
    """Objects JSON cannot hold, and a mapping that raises, leave a marked event instead of none."""
    root = write_tree(FILES)
    log = tmp_path / "events.jsonl"
    ruleset = load(root, event_log=log)
    session = ruleset.session("s")
    assert session.after_tool_call("edit", {"path": "a.py", "handle": object(), "raw": b"\xff"}) is not None
    assert session.after_tool_call("edit", Hostile()) is None
    ruleset.events.close()
    touches = [e for e in map(json.loads, log.read_text().splitlines()) if e["event"] == "tool_touch"]
    assert len(touches) == 2
    assert touches[0]["args"]["handle"] == "[ruleweave: a value of type object]"
    assert touches[0]["args"]["raw"] == "[ruleweave: 1 bytes]"
    assert touches[1]["args"] == "[ruleweave: could not be read (RuntimeError)]"
