"""Which paths a tool call touched."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from ruleweave.session.touch import TouchExtractors

CWD = Path("/work/repo")


def test_default_keys_and_relative_paths() -> None:
    """Well-known keys and any key ending in path/paths are read; relative paths join cwd."""
    ex = TouchExtractors()
    args = {
        "file_path": "src/a.ts", "notebook_path": "/abs/n.ipynb", "paths": ["b.py", "c.py"],
        "target_file": "t.md", "filename": "f.txt", "sourcePath": "s.rs", "content": "x.py",
    }
    got = ex.paths("Edit", args, CWD)
    assert got == [
        CWD / "src/a.ts", Path("/abs/n.ipynb"), CWD / "b.py", CWD / "c.py", CWD / "t.md",
        CWD / "f.txt", CWD / "s.rs",
    ]


def test_json_string_arguments() -> None:
    """OpenAI-style JSON string arguments are decoded."""
    assert TouchExtractors().paths("read", json.dumps({"path": "x.py"}), CWD) == [CWD / "x.py"]


def test_dotdot_is_folded() -> None:
    """'..' segments are folded so the path is what the tool really touched."""
    assert TouchExtractors().paths("read", {"path": "a/../../b.py"}, CWD) == [Path("/work/b.py")]


@pytest.mark.parametrize(
    "args",
    [
        None, 42, "not json", "[1, 2]", {"path": 7}, {"path": None}, {"path": ["a", 3, None]},
        {"path": "x" * 100_000}, {"path": "a\x00b"}, {"path": {"nested": "dict"}},
        {1: "int key"}, {"paths": [[["deep"]]]}, b"\xff\xfe",
    ],
)
def test_odd_arguments_never_raise(args: Any) -> None:
    """Numbers, nested values, huge strings and NUL bytes are skipped, never raised on."""
    got = TouchExtractors().paths("tool", args, CWD)
    assert all(isinstance(p, Path) for p in got)
    assert CWD / ("x" * 100_000) not in got


def test_custom_extractor_and_failure() -> None:
    """A registered extractor serves its tool; one that raises yields what it produced so far."""

    def shell(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
        return [word for word in str(args.get("command", "")).split() if "." in word]

    def broken(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
        yield "ok.py"
        raise RuntimeError("boom")

    ex = TouchExtractors({"bash": shell})
    ex.register("weird", broken)
    assert ex.paths("Bash", {"command": "cat src/app.ts"}, CWD) == [CWD / "src/app.ts"]
    assert ex.paths("weird", {"x": 1}, CWD) == [CWD / "ok.py"]
