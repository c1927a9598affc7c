"""``ruleweave scan``: the table, the JSON contract of docs/cli.md#json-output, and the exit codes."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest

from ruleweave.cli import main
from tests.conftest import WriteTree

REPO: dict[str, str] = {
    ".cursor/rules/typescript.mdc": (
        "---\ndescription: TypeScript conventions\nglobs: src/**/*.ts, src/**/*.tsx\n---\nStrict."
    ),
    ".windsurf/rules/typescript.md": "---\ntrigger: always_on\n---\nWindsurf TS.",
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nBe brief.",
    ".kiro/steering/db.md": "---\ninclusion: auto\ndescription: Database work\n---\nDB.",
    ".kiro/steering/manual.md": "---\ninclusion: manual\n---\nOnly by name.",
    ".claude/rules/overview.md": "Project overview for Claude.",
    ".ruleweave/rules/no-todo.md": "---\ncondition: 'TODO'\n---\nNo TODOs.",
    "src/app.ts": "export {};\n",
}
CLEAN: dict[str, str] = {".cursor/rules/ok.mdc": "---\nalwaysApply: true\n---\nFine."}


def scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``ruleweave scan ARGS``; return the exit code, stdout and stderr."""
    code = main(["scan", *args])
    out, err = capsys.readouterr()
    return code, out, err


def scan_json(capsys: pytest.CaptureFixture[str], root: Path, *args: str) -> dict[str, Any]:
    """Run ``ruleweave scan --json`` on ``root`` and parse stdout."""
    code, out, _ = scan(capsys, "--cwd", str(root), "--json", *args)
    assert code == 0
    data: dict[str, Any] = json.loads(out)
    return data


def test_json_shape_matches_the_contract(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--json`` prints exactly the keys of docs/cli.md#json-output with the documented types."""
    root = write_tree(REPO)
    data = scan_json(capsys, root)
    assert set(data) == {"rules", "warnings", "instructions"}
    assert isinstance(data["instructions"], list)
    for item in data["instructions"]:
        assert set(item) == {"path", "bytes", "truncated"}
    for rule in data["rules"]:
        ttsr_keys = {"scope", "interrupt_mode"} if rule["bucket"] == "ttsr" else set()
        assert set(rule) == {
            "name", "provider", "bucket", "path", "globs", "always_apply", "description",
            "shadowed", *ttsr_keys,
        }
        assert rule["bucket"] in {"generic", "rulebook", "scoped", "ttsr", "manual", "instructions"}
        assert isinstance(rule["globs"], list)
        assert isinstance(rule["always_apply"], bool)
        assert rule["description"] is None or isinstance(rule["description"], str)
        for shadow in rule["shadowed"]:
            assert set(shadow) == {"provider", "path"}
    for warning in data["warnings"]:
        assert set(warning) == {"path", "message"}


def test_json_reports_buckets_globs_and_shadowing(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each rule's provider, bucket, globs and shadowed copies appear in the JSON."""
    root = write_tree(REPO)
    data = scan_json(capsys, root, "--builtin-rules", "all")
    rules = {r["name"]: r for r in data["rules"]}
    ts = rules["typescript"]
    assert ts["provider"] == "cursor"
    assert ts["bucket"] == "scoped"
    assert ts["globs"] == ["src/**/*.ts", "src/**/*.tsx"]
    assert ts["description"] == "TypeScript conventions"
    assert ts["path"] == str(root / ".cursor/rules/typescript.mdc")
    assert ts["shadowed"] == [
        {"provider": "windsurf", "path": str(root / ".windsurf/rules/typescript.md")}
    ]
    assert {name: r["bucket"] for name, r in rules.items() if r["provider"] != "builtin"} == {
        "no-todo": "ttsr",
        "overview": "instructions",
        "typescript": "scoped",
        "always": "generic",
        "db": "rulebook",
        "manual": "manual",
    }
    assert rules["always"]["always_apply"] is True
    assert any(r["provider"] == "builtin" for r in data["rules"])


def test_json_warnings_carry_path_and_line(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """A frontmatter line that is lost shows up in ``warnings`` with the file path and the line
    (the unquoted globs beside it are repaired silently)."""
    root = write_tree(
        {"x/.cursor/rules/bad.mdc": "---\ndescription: d\nglobs: **/*.py, *.pyi\nnot a setting\n---\nBody."}
    )
    data = scan_json(capsys, root / "x")
    [warning] = data["warnings"]
    assert warning["path"] == str(root / "x/.cursor/rules/bad.mdc")
    assert warning["message"].startswith("line 4: frontmatter line is not 'key: value'")


def test_table_lists_rules_then_warnings(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default output is a table grouped by bucket, one row per rule, and the warnings below it."""
    root = write_tree({**REPO, ".cursor/rules/broken.mdc": "---\nglobs: *.md, *.txt\n???\n---\nB."})
    code, out, err = scan(capsys, "--cwd", str(root))
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["NAME", "PROVIDER", "GLOBS", "/", "TTSR", "SCOPE", "SHADOWED"]
    row = next(line for line in lines if line.startswith("  typescript "))
    assert row.split()[:2] == ["typescript", "cursor"]
    group = next(line for line in reversed(lines[: lines.index(row)]) if not line.startswith("  "))
    assert group.startswith("scoped (")
    assert "src/**/*.ts, src/**/*.tsx" in row
    assert "windsurf:.windsurf/rules/typescript.md" in row
    manual = next(line for line in lines if line.startswith("  manual "))
    assert manual.split()[1:] == ["kiro", "-", "-"]
    assert lines[lines.index(manual) - 1].startswith("manual (")
    summary = next(line for line in lines if line.endswith("shadowed"))
    assert summary.endswith("rules, 1 shadowed")
    warnings_at = lines.index("1 warnings:")
    assert lines.index(summary) < warnings_at
    assert lines[warnings_at + 1].strip().startswith(".cursor/rules/broken.mdc:3: frontmatter")


def test_clean_repo_exits_zero_even_with_strict(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without warnings both plain and ``--strict`` scans exit 0."""
    root = write_tree(CLEAN)
    assert scan(capsys, "--cwd", str(root))[0] == 0
    code, out, _ = scan(capsys, "--cwd", str(root), "--strict")
    assert code == 0
    assert "warnings" not in out


def test_warnings_exit_zero_without_strict_and_one_with_it(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """Warnings alone do not fail a scan; ``--strict`` turns them into exit 1, JSON or not."""
    root = write_tree({**CLEAN, ".cursor/rules/bad.mdc": "---\nglobs: *.md\n???\n---\nB."})
    assert scan(capsys, "--cwd", str(root))[0] == 0
    assert scan(capsys, "--cwd", str(root), "--strict")[0] == 1
    code, out, _ = scan(capsys, "--cwd", str(root), "--strict", "--json")
    assert code == 1
    assert len(json.loads(out)["warnings"]) == 1


def test_missing_cwd_exits_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A ``--cwd`` that does not exist is a usage error: exit 2 and a message on stderr."""
    code, out, err = scan(capsys, "--cwd", str(tmp_path / "nope"))
    assert code == 2
    assert out == ""
    assert "is not a directory" in err


def test_cwd_that_is_a_file_exits_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A ``--cwd`` naming a regular file is a usage error too."""
    target = tmp_path / "file.txt"
    target.write_text("x", encoding="utf-8")
    assert scan(capsys, "--cwd", str(target))[0] == 2


def test_unknown_option_exits_two(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse usage errors come back as exit code 2, not an exception."""
    assert scan(capsys, "--no-such-flag")[0] == 2


def test_default_cwd_is_the_current_directory(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ``--cwd`` the scan starts in the process's working directory."""
    root = write_tree({"pkg/.cursor/rules/here.mdc": "Here.", ".cursor/rules/top.mdc": "Top."})
    monkeypatch.chdir(root / "pkg")
    code, out, _ = scan(capsys, "--json")
    assert code == 0
    names = [r["name"] for r in json.loads(out)["rules"] if r["provider"] == "cursor"]
    assert names == ["top", "pkg:here"]


def test_user_tier_comes_from_the_environment(
    write_tree: WriteTree,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """``RULEWEAVE_HOME`` is honoured for the user tier."""
    home = tmp_path / "rwhome"
    (home / "rules").mkdir(parents=True)
    (home / "rules" / "personal.md").write_text("Mine.", encoding="utf-8")
    monkeypatch.setenv("RULEWEAVE_HOME", str(home))
    root = write_tree(CLEAN)
    rules = {r["name"]: r for r in scan_json(capsys, root)["rules"]}
    assert rules["personal"]["path"] == str(home / "rules" / "personal.md")


def test_unreadable_cwd_exits_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``--cwd`` that cannot be listed is a usage error (EACCES reproduced when running as root)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        try:
            os.listdir(locked)
        except PermissionError:
            pass  # the OS enforces the permission bits itself
        else:  # privileged: refuse the listing the way the OS would for anyone else
            real_listdir = os.listdir

            def listdir(path: Any = ".") -> list[str]:
                if Path(os.fspath(path)) == locked:
                    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
                return real_listdir(path)

            monkeypatch.setattr(os, "listdir", listdir)
        code, out, err = scan(capsys, "--cwd", str(locked))
    finally:
        locked.chmod(0o755)
    assert code == 2
    assert out == ""
    assert "cannot be read (Permission denied)" in err


def test_scan_json_lists_instruction_files(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """scan --json lists the blob's instruction files with bytes and the truncated flag."""
    root = write_tree({"AGENTS.md": "a" * 50_000, "CLAUDE.md": "near cwd"})
    assert main(["scan", "--cwd", str(root), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_path = {item["path"]: item for item in data["instructions"]}
    assert by_path["CLAUDE.md"] == {"path": "CLAUDE.md", "bytes": 8, "truncated": False}
    assert by_path["AGENTS.md"]["truncated"] is True
    assert by_path["AGENTS.md"]["bytes"] < 50_000


def test_sixty_rules_fit_100_columns_and_wide_shows_everything(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """With 60 rules and long globs the table fits 100 columns; ``--wide`` and ``--json`` keep every glob."""
    files = {".git/HEAD": "x"}
    long_glob = "services/" + "/".join(f"level{i}" for i in range(12)) + "/**/*.{py,pyi}"
    for i in range(60):
        files[f".cursor/rules/area-{i:02}-with-a-rather-long-name.mdc"] = (
            f"---\nglobs: {long_glob}, src/area{i}/**\n---\nBody {i}."
            if i % 3 else "---\nalwaysApply: true\n---\nAlways."
        )
    root = write_tree(files)
    code, out, _ = scan(capsys, "--cwd", str(root))
    assert code == 0
    table = out.split("\n\n", 1)[0].splitlines()
    assert len(table) == 1 + 2 + 60 and max(len(line) for line in table) <= 100
    assert "generic (20)" in table and "scoped (40)" in table
    assert any(line.endswith("…") or "… " in line for line in table)
    code, wide, _ = scan(capsys, "--cwd", str(root), "--wide")
    assert long_glob in wide and max(len(line) for line in wide.splitlines()) > 100
    globs = [r["globs"] for r in scan_json(capsys, root)["rules"] if r["globs"]]
    assert all(g[0] == long_glob for g in globs)
