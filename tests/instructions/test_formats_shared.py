"""One text in several agents' files (AGENTS.md, CLAUDE.md, GEMINI.md, Copilot's) is included once.

The files are copies kept for different agents: Codex and Amp read AGENTS.md
(developers.openai.com/codex/guides/agents-md), Claude Code CLAUDE.md
(docs.anthropic.com/en/docs/claude-code/memory), Gemini CLI GEMINI.md
(geminicli.com/docs/cli/gemini-md), Copilot ``.github/copilot-instructions.md``
("Adding repository custom instructions for GitHub Copilot",
docs.github.com/en/copilot/customizing-copilot/adding-repository-custom-instructions-for-github-copilot).
Sent to one model, the copies would only repeat one another.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleweave.cli import main
from ruleweave.config import RuleweaveConfig
from ruleweave.rules import Bucket
from ruleweave.ruleset import RuleSet
from tests.conftest import WriteTree
from tests.instructions.helpers import build, headers

TEXT = "# Project\n\n- Run `make test` before committing.\n- Prefer small diffs.\n"


def shared_repo(write_tree: WriteTree) -> Path:
    """The same text four times: CRLF in one copy, trailing spaces and extra blank lines in others."""
    return write_tree(
        {
            "AGENTS.md": TEXT,
            "CLAUDE.md": TEXT.replace("\n", "\r\n"),
            "GEMINI.md": "\n\n" + TEXT.replace("diffs.", "diffs.   ") + "\n\n\n",
            ".github/copilot-instructions.md": TEXT,
            "WARP.md": "Warp only.",
        }
    )


def test_shared_text_is_included_once_keeping_the_first_by_priority(write_tree: WriteTree) -> None:
    """AGENTS.md keeps the text; CLAUDE.md and GEMINI.md copies are merged into it."""
    blob = build(shared_repo(write_tree))
    assert headers(blob) == ["[file: AGENTS.md]", "[file: WARP.md]"]
    assert blob.merged == (("CLAUDE.md", "AGENTS.md"), ("GEMINI.md", "AGENTS.md"))
    notes = [(Path(w.path).name, w.severity) for w in blob.warnings]
    assert notes == [("CLAUDE.md", "info"), ("GEMINI.md", "info")]


def test_copilot_copy_leaves_the_generic_block(write_tree: WriteTree) -> None:
    """Copilot's always-on instructions with the same text are not repeated in ``<generic-rules>``."""
    root = shared_repo(write_tree)
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root))
    prompt = ruleset.session("s").system_prompt()
    assert prompt.count("Prefer small diffs.") == 1
    assert "copilot-instructions" not in [r.name for r in ruleset.buckets.generic]
    assert ruleset.bucket_of("copilot-instructions") is Bucket.INSTRUCTIONS
    assert "small diffs" in ruleset.session("r").resolve("rule://copilot-instructions").content
    info = [w for w in ruleset.warnings if w.severity == "info" and w.provider == "copilot"]
    assert len(info) == 1 and "AGENTS.md" in info[0].message


def test_different_text_is_kept(write_tree: WriteTree) -> None:
    """A copy that differs in a word is its own file, and Copilot's rule stays in the block."""
    root = write_tree({"AGENTS.md": TEXT, ".github/copilot-instructions.md": TEXT + "- Copilot only.\n"})
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root))
    assert [r.name for r in ruleset.buckets.generic] == ["copilot-instructions"]
    assert not [w for w in ruleset.warnings if w.severity == "info"]


def test_scan_reports_merged_files_as_info(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """``scan --json`` lists the merged copies as info, and ``--strict`` does not fail on them."""
    root = shared_repo(write_tree)
    assert main(["scan", "--json", "--strict", "--cwd", str(root)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [Path(i["path"]).name for i in out["info"]] == [
        "CLAUDE.md", "GEMINI.md", "copilot-instructions.md",
    ]
    assert [f["path"] for f in out["instructions"]] == ["AGENTS.md", "WARP.md"]


def test_output_is_byte_identical_across_loads(write_tree: WriteTree) -> None:
    """The same files give the same prompt text, byte for byte."""
    root = shared_repo(write_tree)
    first = RuleSet.load(RuleweaveConfig(cwd=root)).session("a").system_prompt()
    second = RuleSet.load(RuleweaveConfig(cwd=root)).session("b").system_prompt()
    assert first.encode() == second.encode()


def test_empty_files_are_not_the_same_text(write_tree: WriteTree) -> None:
    """Empty (or frontmatter-only) files are skipped without a note: they share nothing."""
    root = write_tree({"AGENTS.md": "", "CLAUDE.md": "\n\n", "GEMINI.md": "---\ndescription: x\n---\n"})
    blob = build(root)
    assert blob.text == "" and blob.merged == () and blob.warnings == ()
