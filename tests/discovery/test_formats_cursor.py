"""Issue #12 points 11 and 12: Cursor's ``.md`` rule files, root-only ``.cursorrules``, silent repairs.

https://cursor.com/docs/context/rules: project rules are ``.mdc`` files in
``.cursor/rules`` (current Cursor does not load ``.md`` files there); the
legacy ``.cursorrules`` file is read "in the root of your project". Its
frontmatter examples write ``globs`` unquoted (``globs: *.ts, src/**``) —
invalid YAML that is the normal format, so repairing it is not a warning
(Windsurf's ``globs: *.py`` likewise); a line that cannot be read still is.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.cli import main
from tests.conftest import WriteTree


def load(root: Path, cwd: Path | None = None) -> RuleSet:
    return RuleSet.load(RuleweaveConfig(cwd=cwd or root, project_root=root, builtin_rules=False))


def test_md_files_are_read_with_an_info_note(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """``.cursor/rules/*.md`` still gives rules; ``scan`` names the folder in one note."""
    root = write_tree(
        {
            ".cursor/rules/a.mdc": "---\nalwaysApply: true\n---\nA.",
            ".cursor/rules/b.md": "---\nalwaysApply: true\n---\nB.",
            ".cursor/rules/sub/c.md": "C.",
        }
    )
    ruleset = load(root)
    assert {"a", "b", "sub/c"} <= {r.name for r in ruleset.rules}
    [note] = [w for w in ruleset.warnings if w.severity == "info"]
    assert note.path == str(root / ".cursor/rules") and "2 .md rule files" in note.message
    assert main(["scan", "--cwd", str(root), "--strict"]) == 0
    assert "1 notes:" in capsys.readouterr().out


def test_cursorrules_is_read_at_the_project_root_only(write_tree: WriteTree) -> None:
    """A ``.cursorrules`` in a package (on the walk or below it) is not Cursor's: not read."""
    root = write_tree({".cursorrules": "Root legacy.", "pkg/.cursorrules": "Package legacy.", "pkg/a.py": ""})
    ruleset = load(root, root / "pkg")
    assert [r.name for r in ruleset.rules] == ["cursorrules"]
    session = ruleset.session("s")
    assert "Root legacy." in session.system_prompt()
    assert session.after_tool_call("read_file", {"path": str(root / "pkg/a.py")}) is None


def test_unquoted_globs_are_repaired_silently(
    write_tree: WriteTree, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ordinary Cursor and Windsurf files pass ``scan --strict``; the repair is a debug event."""
    root = write_tree(
        {
            ".cursor/rules/ts.mdc": "---\ndescription: TS\nglobs: *.ts, src/**/*.{ts,tsx}\n---\nStrict.",
            ".windsurf/rules/py.md": "---\ntrigger: glob\nglobs: *.py\n---\nPy.",
        }
    )
    with caplog.at_level(logging.DEBUG, logger="ruleweave.discovery"):
        ruleset = load(root)
    assert ruleset.warnings == ()
    assert ruleset.find_rule("ts")[0].globs == ("**/*.ts", "src/**/*.{ts,tsx}")  # type: ignore[index]
    assert ruleset.find_rule("py")[0].globs == ("**/*.py",)  # type: ignore[index]
    repaired = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert any("frontmatter_repaired" in m and "ts.mdc" in m for m in repaired)
    assert main(["scan", "--cwd", str(root), "--strict"]) == 0
    assert "warnings" not in capsys.readouterr().out


def test_a_lost_line_is_still_a_warning(write_tree: WriteTree) -> None:
    """What the repair cannot read is lost, and that is a warning naming the file and line."""
    root = write_tree({".cursor/rules/bad.mdc": "---\nglobs: *.ts\n[not a key\n---\nBody."})
    [warning] = load(root).warnings
    assert warning.path == str(root / ".cursor/rules/bad.mdc") and warning.line == 3
    assert main(["scan", "--cwd", str(root), "--strict"]) == 1
