"""Imports: resolved from the spec's folder, contained, bounded, in the reference's load order."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from ruleweave.cli import main
from ruleweave.steering import SpecValidationError, inspect_spec, load_spec, resolve_imports
from ruleweave.steering.imports import MAX_IMPORT_DEPTH, load_order, markdown_section

HEAD = """\
schema: skillspec/v0
id: imports.case
title: Imports case
description: A skill with imports.
routes:
  - id: local
    label: Local
"""

GRAPH = """\
imports:
  zeta:
    path: refs/zeta.md
    role: procedure
    requires: {imports: [beta, alpha]}
    used_by: [{kind: route, id: local}]
  alpha:
    path: refs/alpha.md
    role: reference
  beta:
    path: notes.md
    role: policy
    section: Shared rules
    requires: {imports: [alpha]}
"""


def skill(tmp_path: Path, body: str, files: dict[str, str] | None = None) -> Path:
    """Write a skill folder: the spec and its files."""
    folder = tmp_path / "skill"
    for name, text in (files or {}).items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    folder.mkdir(exist_ok=True)
    path = folder / "skill.spec.yml"
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return path


NOTES = "# Notes\n\n## Shared rules\n\nAsk first.\n\n### Detail\n\nMore.\n\n## Next\n\nOther.\n"
FILES = {"refs/zeta.md": "Z\n", "refs/alpha.md": "A\n", "notes.md": NOTES}


def test_load_order_is_dependencies_first_in_sorted_id_order(tmp_path: Path) -> None:
    """Sorted ids, each after what it requires (in listed order), each once."""
    path = skill(tmp_path, GRAPH, FILES)
    graph = resolve_imports(load_spec(path), path)
    assert graph.ok
    assert graph.load_order == ("alpha", "beta", "zeta")
    assert [item.id for item in graph.loading("zeta")] == ["alpha", "beta", "zeta"]
    assert load_order({"b": ("c", "a"), "a": (), "c": ()}) == ("a", "c", "b")


def test_a_section_is_the_heading_and_its_children(tmp_path: Path) -> None:
    """A section import reads its heading up to the next heading of the same or a higher level."""
    path = skill(tmp_path, GRAPH, FILES)
    beta = resolve_imports(load_spec(path), path).get("beta")
    assert beta is not None and beta.section_found is True
    assert beta.body == "## Shared rules\n\nAsk first.\n\n### Detail\n\nMore.\n"
    assert markdown_section("# A\n## shared RULES ##\nx\n", "Shared rules") == "## shared RULES ##\nx\n"
    assert markdown_section("# A\n", "Missing") is None


def test_always_imports_come_with_their_requirements(tmp_path: Path) -> None:
    """always() lists what must be loaded before any task action."""
    body = GRAPH.replace("    section: Shared rules\n", "    section: Shared rules\n    load: always\n")
    path = skill(tmp_path, body, FILES)
    graph = resolve_imports(load_spec(path), path)
    assert [item.id for item in graph.always()] == ["alpha", "beta"]


def test_paths_outside_the_skill_folder_need_an_import_root(tmp_path: Path) -> None:
    """../ is refused by default and read when a wider import root allows it."""
    (tmp_path / "INDEX.md").write_text("# Plugin rules\n", encoding="utf-8")
    body = "imports:\n  plugin: {path: ../INDEX.md, role: policy, load: always}\n"
    path = skill(tmp_path, body)
    with pytest.raises(SpecValidationError, match="leaves the import root"):
        load_spec(path)
    spec = load_spec(path, import_root=tmp_path)
    assert resolve_imports(spec, path, root=tmp_path).ok


def test_a_link_leading_outside_is_refused(tmp_path: Path) -> None:
    """A symbolic link inside the folder that points outside it is never followed."""
    (tmp_path / "secret.md").write_text("secret\n", encoding="utf-8")
    path = skill(tmp_path, "imports:\n  s: {path: link.md, role: policy, load: always}\n")
    os.symlink(tmp_path / "secret.md", path.parent / "link.md")
    report = inspect_spec(path.read_text(), file=str(path), folder=path.parent)
    assert [issue.line for issue in report.issues] == [9]
    assert "symbolic link leads outside" in report.issues[0].reason


def test_a_fifo_is_not_opened(tmp_path: Path) -> None:
    """An import naming a FIFO is reported at once instead of blocking the reader."""
    path = skill(tmp_path, "imports:\n  f: {path: pipe.md, role: policy, load: always}\n")
    os.mkfifo(path.parent / "pipe.md")
    report = inspect_spec(path.read_text(), file=str(path), folder=path.parent)
    assert "not a regular file" in report.issues[0].reason


def test_oversized_and_binary_imports_are_refused(tmp_path: Path) -> None:
    """Imports are read through the bounded reader: too large or not text is a problem."""
    body = (
        "imports:\n  big: {path: big.md, role: policy, load: always}\n"
        "  bin: {path: bin.md, role: policy, load: always}\n"
    )
    path = skill(tmp_path, body, {"big.md": "x" * 300, "bin.md": "a\x00b"})
    graph = resolve_imports(load_spec_unchecked(path), path, max_bytes=100)
    reasons = {item.id: item.error or "" for item in graph.imports}
    assert "larger than 100 bytes" in reasons["big"]
    assert "binary" in reasons["bin"]


def load_spec_unchecked(path: Path):  # type: ignore[no-untyped-def]
    """The spec without resolving its files (to resolve them with other limits)."""
    report = inspect_spec(path.read_text(), file=str(path))
    assert report.spec is not None
    return report.spec


def test_a_deep_chain_is_refused(tmp_path: Path) -> None:
    """A requires chain longer than MAX_IMPORT_DEPTH is a problem."""
    count = MAX_IMPORT_DEPTH + 2
    lines = ["imports:"]
    for index in range(count):
        needs = f", requires: {{imports: [i{index + 1}]}}" if index + 1 < count else ""
        lines.append(f"  i{index}: {{path: n.md, role: reference, load: always{needs}}}")
    path = skill(tmp_path, "\n".join(lines) + "\n", {"n.md": "n\n"})
    report = inspect_spec(path.read_text(), file=str(path), folder=path.parent)
    assert any(
        f"requires a chain of more than {MAX_IMPORT_DEPTH} imports" in issue.reason for issue in report.issues
    )


def test_spec_imports_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """spec imports shows the resolved graph; --json carries the reference's keys and the load order."""
    path = skill(tmp_path, GRAPH, FILES)
    assert main(["spec", "imports", str(path)]) == 0
    out = capsys.readouterr().out
    assert "load order: alpha -> beta -> zeta" in out
    assert main(["spec", "imports", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["load_order"] == ["alpha", "beta", "zeta"]
    zeta = next(item for item in data["imports"] if item["id"] == "zeta")
    assert set(zeta) == {
        "id",
        "path",
        "resolved_path",
        "role",
        "load",
        "section",
        "section_found",
        "requires",
        "status",
        "error",
        "line",
    }
    assert zeta["requires"] == ["beta", "alpha"] and zeta["status"] == "ok" and zeta["line"] == 9


def test_spec_imports_cli_on_a_broken_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing file makes spec imports (and validate) exit 1 naming the import and its line."""
    path = skill(tmp_path, GRAPH, {"refs/zeta.md": "Z\n", "notes.md": NOTES})
    assert main(["spec", "imports", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False
    assert data["errors"][0]["line"] == 14 and "alpha" in data["errors"][0]["reason"]
    assert main(["spec", "validate", str(path)]) == 1


def test_import_root_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--import-root widens where imports may be read from, for every action."""
    (tmp_path / "INDEX.md").write_text("# Plugin\n", encoding="utf-8")
    path = skill(tmp_path, "imports:\n  plugin: {path: ../INDEX.md, role: policy, load: always}\n")
    assert main(["spec", "validate", str(path)]) == 1
    assert main(["spec", "validate", str(path), "--import-root", str(tmp_path)]) == 0
    capsys.readouterr()
