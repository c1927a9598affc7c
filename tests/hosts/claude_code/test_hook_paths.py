"""The paths a Claude Code tool call touches: what the extractors read, and the warm path reading the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleweave.hosts._core import snapshot
from ruleweave.hosts.claude_code.paths import CLAUDE_CODE_EXTRACTORS
from ruleweave.session.touch import TouchExtractors
from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import RunHook, context_of, event
from tests.hosts.claude_code.test_hook_snapshot import PLAIN_FILES, backdate, fast, warm


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("Read", {"file_path": "src/./b.py", "offset": 2, "limit": 10}, ["/p/src/b.py"]),
        ("NotebookEdit", {"notebook_path": "/p/n.ipynb", "new_source": "x"}, ["/p/n.ipynb"]),
        ("Read", {"file_path": "bad\x00path"}, []),
        ("Glob", {"pattern": "src/**/*.py"}, ["/p/src/**/*.py"]),
        ("Glob", {"pattern": "**/*.ts", "path": "/p/web"}, ["/p/web", "/p/web/**/*.ts"]),
        ("Glob", {"pattern": "../**/*.ts"}, []),
        ("Grep", {"pattern": "TODO", "path": "/p/src", "glob": "*.py"}, ["/p/src", "/p/src/*.py"]),
        ("Grep", {"pattern": "TODO"}, []),
        ("bash", {"command": "pytest tests/test_a.py -k 'x y' && cat README.md | head"},
         ["/p/tests/test_a.py", "/p/README.md"]),
        ("Bash", {"command": "echo 'unbalanced"}, []),
        ("Bash", {"command": "curl https://example.com/a.sh > /tmp/a.sh; ls -la $HOME/x"}, ["/tmp/a.sh"]),
        ("mcp__fs__read", {"path": "a.py", "meta": {"other_path": "/p/b.py"}}, ["/p/a.py", "/p/b.py"]),
    ],
)
def test_claude_code_tools_name_their_paths(tool: str, args: dict[str, Any], expected: list[str]) -> None:
    """Glob and Grep touch their directory and pattern, Bash the words that look like paths, any other
    tool its path arguments; all absolute and normalised against the cwd."""
    assert TouchExtractors(CLAUDE_CODE_EXTRACTORS).path_strings(tool, args, "/p") == expected


CALLS: list[tuple[str, dict[str, Any]]] = [
    ("Grep", {"pattern": "TODO", "path": "src", "glob": "*.py"}),
    ("Glob", {"pattern": "**/*.tsx", "path": "src"}),
    ("Bash", {"command": "python src/app.py && cat setup.py"}),
    ("mcp__fs__read_file", {"path": "src/app.py"}),
    ("Edit", {"file_path": "src/ui.tsx", "old_string": "x", "new_string": "y", "meta": {"path": "setup.py"}}),
]


@pytest.mark.parametrize(("tool", "tool_input"), CALLS)
def test_the_warm_path_reads_the_paths_the_full_path_reads(
    write_tree: WriteTree, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch,
    tool: str, tool_input: dict[str, Any],
) -> None:
    """Claude Code's own tools and any other tool's path arguments are answered warm (once the call's
    directories are known), as the full path answers them in a fresh session."""
    root = write_tree(PLAIN_FILES)
    backdate(root)
    warm(run_hook, root, "src/app.py", "setup.py")
    payload = event(root, "PostToolUse", "warm-up", tool_name=tool, tool_input=tool_input, tool_use_id="t1")
    run_hook(payload)  # a Glob's pattern is a directory no snapshot knows before
    answered = fast(dict(payload, session_id="fresh-0"), state_dir, monkeypatch)
    assert answered is not snapshot.MISS
    _, hooked, _ = run_hook(dict(payload, session_id="fresh-1"))
    _, full, _ = run_hook(dict(payload, session_id="fresh-2"), "--no-snapshot")
    assert json.dumps(answered, ensure_ascii=False) + "\n" == hooked == full
    assert "[rule: " in context_of(full)


def test_patch_text_is_left_to_the_full_path(
    write_tree: WriteTree, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file named only in a call's patch text (``apply_patch``-style) is read by the full path: the warm
    path does not know which tool names the configuration counts as edits."""
    root = write_tree(PLAIN_FILES)
    backdate(root)
    warm(run_hook, root, "src/app.py", "setup.py")
    tool_input = {"file_path": str(root / "docs/guide.md"), "patch": "*** Update File: src/app.py\n"}
    payload = event(root, "PostToolUse", "p1", tool_name="Write", tool_input=tool_input, tool_use_id="t1")
    assert fast(payload, state_dir, monkeypatch) is snapshot.MISS
    assert "Use type hints everywhere." in context_of(run_hook(dict(payload, session_id="p2"))[1])
