"""`ruleweave prompt`, `explain` and `read` on real rule files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleweave._files.paths import display
from ruleweave.cli import main
from ruleweave.discovery.builtin import BUILTIN_DIR
from tests.conftest import WriteTree

FILES = {
    ".cursor/rules/ts.mdc": "---\ndescription: TS\nglobs: src/**/*.ts\n---\nStrict TS.",
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nBe brief.",
    "AGENTS.md": "Root notes. " + "x" * 3000,
    "pkg/CLAUDE.md": "Package notes.",
    "pkg/AGENTS.md": "Nested agents.",
}


@pytest.fixture
def repo(write_tree: WriteTree) -> Path:
    return write_tree(FILES)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_prompt_json(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """prompt --json has the docs/cli.md#json-output keys and reports budget cuts."""
    code, out, _ = run(capsys, "prompt", "--cwd", str(repo), "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"text", "generic", "domain", "instructions", "budget"}
    assert set(data["budget"]) == {"limit", "used", "cut", "blocks"}
    assert data["generic"] == (
        "<generic-rules>\n[rule: always] .cursor/rules/always.mdc\nBe brief.\n</generic-rules>"
    )
    assert "- ts (src/**/*.ts): TS" in data["domain"]
    assert data["budget"]["cut"] == []


def test_prompt_text_reports_cuts(write_tree: WriteTree, capsys: pytest.CaptureFixture[str]) -> None:
    """A blob over budget is cut and the cut is reported on stderr."""
    root = write_tree({"AGENTS.md": "y" * 40_000, "CLAUDE.md": "small file near cwd"})
    code, out, err = run(capsys, "prompt", "--cwd", str(root))
    assert code == 0
    assert "small file near cwd" in out
    assert "cut AGENTS.md:" in err


def test_prompt_custom_prompt_dedup(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--custom-prompt drops generic rules the custom prompt already has."""
    custom = tmp_path / "system.txt"
    custom.write_text("Intro.\n\nBe brief.\n")
    _, out, _ = run(capsys, "prompt", "--cwd", str(repo), "--json", "--custom-prompt", str(custom))
    assert json.loads(out)["generic"] == ""
    code, _, err = run(capsys, "prompt", "--cwd", str(repo), "--custom-prompt", "/nope/x.txt")
    assert code == 2 and "cannot read" in err


def test_explain_json(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """explain --json names each path's rules with the matching glob and nested files."""
    code, out, _ = run(
        capsys, "explain", "--cwd", str(repo), "--json", "--builtin-rules", "all",
        "src/app.ts", "pkg/mod.py", "README",
    )
    data = json.loads(out)
    assert code == 0
    assert data["paths"][0] == {
        "path": "src/app.ts",
        "rules": [
            {"name": "ts", "provider": "cursor", "glob": "src/**/*.ts", "folder": ".cursor/rules"},
            {
                "name": "typescript-strict-equality",
                "provider": "builtin",
                "glob": "**/*.{ts,tsx,js,jsx,mjs,cjs}",
                "folder": display(BUILTIN_DIR, repo),
            },
        ],
        "instructions": [],
    }
    assert data["paths"][1]["instructions"] == [{"path": "pkg/AGENTS.md"}, {"path": "pkg/CLAUDE.md"}]
    assert [r["name"] for r in data["paths"][1]["rules"]] == ["python-typing"]
    assert data["paths"][2] == {"path": "README", "rules": [], "instructions": []}


def test_explain_text(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """explain without --json prints one line per firing rule."""
    code, out, _ = run(capsys, "explain", "--cwd", str(repo), "src/a/b.ts", "docs/x.md")
    assert code == 0
    assert "rule ts [cursor] via src/**/*.ts" in out
    assert "(nothing fires)" in out


def test_read(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """read prints the rule; an unknown name exits 1 listing the available rules."""
    code, out, _ = run(capsys, "read", "--cwd", str(repo), "rule://ts")
    assert (code, out) == (0, "Strict TS.\n")
    code, _, err = run(capsys, "read", "--cwd", str(repo), "rule://missing")
    assert code == 1
    assert "No rule named 'missing'" in err and "ts" in err


def test_missing_cwd_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A --cwd that does not exist exits 2 with one sentence."""
    for command in ("prompt", "explain", "read"):
        extra = ["x"] if command != "prompt" else []
        code, _, err = run(capsys, command, "--cwd", "/does/not/exist", *extra)
        assert code == 2
        assert err.strip() == "ruleweave: --cwd /does/not/exist is not a directory."
