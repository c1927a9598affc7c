"""The instruction budget: max-min fair shares, markers, UTF-8 cuts, the report."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ruleweave.config import RuleweaveConfig
from ruleweave.instructions import BudgetCut, InstructionBlob, build_instructions, refit
from tests.conftest import WriteTree
from tests.instructions.helpers import build, claude_rule


def _body(blob: InstructionBlob, header: str) -> str:
    """The text of the part under ``header`` (up to the next part)."""
    start = blob.text.index(header + "\n") + len(header) + 1
    end = blob.text.find("\n\n[file: ", start)
    return blob.text[start:] if end < 0 else blob.text[start:end]


def test_under_budget_is_untouched(write_tree: WriteTree) -> None:
    """A blob within the limit keeps every body whole and reports no cut."""
    root = write_tree({"AGENTS.md": "a" * 1000, "pkg/CLAUDE.md": "b" * 1000})
    blob = build(root, "pkg", instructions_max_bytes=4096)
    assert blob.budget.cut == () and not any(f.truncated for f in blob.files)
    assert "ruleweave:" not in blob.text
    assert blob.budget.limit == 4096 and blob.budget.used == len(blob.text.encode())


def test_big_root_file_cannot_starve_the_small_cwd_file(write_tree: WriteTree) -> None:
    """A 100 KB root AGENTS.md is cut; the 300-byte CLAUDE.md nearest cwd stays whole."""
    small = "near cwd. " * 30
    root = write_tree({"AGENTS.md": "R" * 100_000, "pkg/CLAUDE.md": small})
    blob = build(root, "pkg", max_file_bytes=200_000)
    limit = 32 * 1024
    assert blob.budget.used <= limit and blob.budget.used == len(blob.text.encode())
    assert blob.budget.used > limit - 16  # the budget is spent, not wasted
    assert _body(blob, "[file: pkg/CLAUDE.md]") == small.strip()
    big, near = blob.files
    assert (near.truncated, near.bytes, near.bytes_dropped) == (False, 299, 0)
    assert big.truncated and big.original_bytes == 100_000
    assert big.bytes + big.bytes_dropped == 100_000
    marker = f"[ruleweave: {big.bytes_dropped} bytes left out; whole text at AGENTS.md]"
    assert _body(blob, "[file: AGENTS.md]") == "R" * big.bytes + "\n" + marker
    assert blob.budget.cut == (BudgetCut("AGENTS.md", big.bytes_dropped),)


def test_files_over_the_fair_share_get_equal_shares(write_tree: WriteTree) -> None:
    """Water-filling: the small file stays whole and the two big ones get equal shares."""
    root = write_tree(
        {"AGENTS.md": "a" * 30_000, "CLAUDE.md": "b" * 20_000, "CLAUDE.local.md": "c" * 500}
    )
    blob = build(root, instructions_max_bytes=10_000)
    agents, claude, local = blob.files
    assert not local.truncated and local.bytes == 500
    assert agents.truncated and claude.truncated
    share_a = len(_body(blob, "[file: AGENTS.md]").encode())
    share_c = len(_body(blob, "[file: CLAUDE.md]").encode())
    assert share_a == share_c
    assert blob.budget.used <= 10_000
    assert [c.path for c in blob.budget.cut] == ["AGENTS.md", "CLAUDE.md"]


def test_cut_respects_utf8_boundaries(write_tree: WriteTree) -> None:
    """A cut through multi-byte characters keeps only whole characters."""
    text = "é€😀" * 5000
    root = write_tree({"AGENTS.md": text})
    for limit in range(300, 310):
        blob = build(root, instructions_max_bytes=limit)
        (part,) = blob.files
        kept = _body(blob, "[file: AGENTS.md]").split("\n[ruleweave:")[0]
        assert text.startswith(kept)
        assert len(kept.encode()) == part.bytes
        assert part.bytes + part.bytes_dropped == len(text.encode())
        assert blob.budget.used <= limit


def test_rule_parts_share_the_budget(write_tree: WriteTree) -> None:
    """Claude rules take part in the fair share and their cuts name the rule file."""
    root = write_tree({"AGENTS.md": "small"})
    rule = claude_rule(root, "huge", "z" * 20_000)
    blob = build(root, rules=(rule,), instructions_max_bytes=2_000)
    assert blob.files[0].truncated is False
    assert blob.budget.cut == (BudgetCut(".claude/rules/huge.md", blob.files[1].bytes_dropped),)
    assert blob.text.endswith(f"\n[ruleweave: {blob.files[1].bytes_dropped} bytes left out; whole text at rule://huge]")
    assert blob.budget.used <= 2_000


def test_budget_too_small_for_headers_drops_farthest_parts(write_tree: WriteTree) -> None:
    """When not even headers and markers fit, parts farthest from cwd drop whole, reported."""
    root = write_tree({"AGENTS.md": "a" * 500, "pkg/AGENTS.md": "b" * 20})
    blob = build(root, "pkg", instructions_max_bytes=60)
    assert blob.text == "[file: pkg/AGENTS.md]\n" + "b" * 20
    dropped, kept = blob.files
    assert (dropped.truncated, dropped.bytes, dropped.bytes_dropped) == (True, 0, 500)
    assert not kept.truncated
    assert blob.budget.cut == (BudgetCut("AGENTS.md", 500),)
    assert any("dropped whole" in w.message for w in blob.warnings)


def test_cut_blob_is_deterministic(write_tree: WriteTree) -> None:
    """Two builds of an over-budget blob are byte-identical."""
    root = write_tree({"AGENTS.md": "ü" * 9000, "CLAUDE.md": "x" * 7000, "pkg/CLAUDE.md": "y"})
    first = build(root, "pkg", instructions_max_bytes=5000)
    second = build(root, "pkg", instructions_max_bytes=5000)
    assert first.text.encode() == second.text.encode() and first.budget == second.budget


def test_refit_cuts_the_text_and_keeps_what_the_session_needs(write_tree: WriteTree) -> None:
    """``refit`` to a smaller share cuts the text; merged, scoped, seen and warnings carry over."""
    scoped = "---\nglobs: '*.ts'\n---\nTS rules."
    same = "claude line\n" * 200
    root = write_tree({"AGENTS.md": scoped, "CLAUDE.md": same, "GEMINI.md": same, "WARP.md": "warp\n" * 100})
    blob = build(root)
    assert refit(blob, blob.budget.used) is blob
    fitted = refit(blob, 1000)
    assert fitted.budget.limit == 1000 and fitted.budget.used == len(fitted.text.encode()) <= 1000
    assert [c.path for c in fitted.budget.cut] == ["CLAUDE.md", "WARP.md"]
    assert fitted.merged == blob.merged == (("GEMINI.md", "CLAUDE.md"),)
    assert [s.file.display for s in fitted.scoped] == ["AGENTS.md"] and fitted.scoped[0].match("a/b.ts")
    assert fitted.formats == blob.formats and fitted.seen == blob.seen and fitted.parts == blob.parts
    assert fitted.warnings == blob.warnings
    assert [w.message for w in blob.warnings] == ["same text as CLAUDE.md; included once, there"]


@settings(max_examples=40, deadline=None)
@given(
    sizes=st.lists(st.integers(min_value=1, max_value=3000), min_size=1, max_size=4),
    limit=st.integers(min_value=1, max_value=6000),
    char=st.sampled_from(["a", "é", "€", "😀"]),
)
def test_any_blob_fits_and_is_fair(sizes: list[int], limit: int, char: str) -> None:
    """For any sizes and limit the blob fits, and no whole file is bigger than a cut share."""
    names = ("AGENTS.md", "CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / ".git").mkdir()
        (root / ".claude").mkdir()
        for index, size in enumerate(sizes):
            (root / names[index]).write_text(f"{index}" + char * size, encoding="utf-8")
        config = RuleweaveConfig(cwd=root, home=root / "home", instructions_max_bytes=limit)
        blob = build_instructions(config)
    assert blob.budget.used <= limit
    assert len(blob.files) == len(sizes)
    for part in blob.files:
        assert part.bytes + part.bytes_dropped == part.original_bytes
    whole = [p for p in blob.files if not p.truncated]
    for part in blob.files:
        marker = f"[ruleweave: {part.bytes_dropped} bytes left out; whole text at {part.path}]"
        if part.truncated and marker in blob.text:
            # its share paid for the marker; the UTF-8 step back and marker width cost < 6
            share = part.bytes + len(marker.encode()) + 1
            assert all(w.original_bytes <= share + 6 for w in whole)


def test_non_ascii_headers_count_in_bytes(write_tree: WriteTree) -> None:
    """Headers and markers naming non-ASCII paths are budgeted by their UTF-8 bytes."""
    root = write_tree({"AGENTS.md": "a" * 4000, "文档/説明/AGENTS.md": "ü" * 3000})
    for limit in (500, 1000, 3000):
        blob = build(root, "文档/説明", instructions_max_bytes=limit)
        assert blob.budget.used == len(blob.text.encode()) <= limit
        assert "bytes left out; whole text at 文档/説明/AGENTS.md]" in blob.text
