"""The prompt contribution's shared budget: blocks, fairness, clean cuts and the report."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.cli import main
from tests.conftest import WriteTree


def load(root: Path, **options: Any) -> RuleSet:
    return RuleSet.load(RuleweaveConfig(cwd=root, **options))


def paragraphs(n: int, word: str) -> str:
    return "\n".join(f"{word} line {i} " + "lorem ipsum dolor " * 4 for i in range(n))


def huge_repo(write_tree: WriteTree) -> Path:
    files = {
        ".git/HEAD": "ref: refs/heads/main\n",
        "AGENTS.md": "Run make test before you commit.\n",
        ".cursor/rules/huge.mdc": "---\nalwaysApply: true\n---\n" + paragraphs(3000, "huge"),
        ".cursor/rules/small.mdc": "---\nalwaysApply: true\n---\nKeep changes small.",
        ".claude/rules/house.md": paragraphs(600, "house"),
    }
    for i in range(30):
        files[f".cursor/rules/topic{i}.mdc"] = f"---\ndescription: Topic {i} conventions\n---\nBody {i}."
    return write_tree(files)


def test_one_huge_always_on_rule_cannot_starve_the_rest(write_tree: WriteTree) -> None:
    """A 250 KB always-on rule is cut to its fair share; small blocks and small rules stay whole."""
    root = huge_repo(write_tree)
    parts = load(root).prompt_parts()
    assert parts.budget.limit == 48 * 1024
    assert parts.budget.used == len(parts.text.encode()) <= 48 * 1024
    assert "Run make test before you commit." in parts.instructions
    assert "[rule: small] .cursor/rules/small.mdc\nKeep changes small." in parts.generic
    assert all(f"- topic{i}: Topic {i} conventions" in parts.domain for i in range(30))
    blocks = {b.block: b for b in parts.budget.blocks}
    assert blocks["domain"].cut == ()
    (huge_cut,) = blocks["generic"].cut
    assert (huge_cut.name, huge_cut.path) == ("huge", ".cursor/rules/huge.mdc")
    assert f"[ruleweave: {huge_cut.bytes_dropped} bytes left out; whole text at rule://huge]" in parts.generic
    assert sum(b.used for b in parts.budget.blocks) <= parts.budget.used
    assert (".cursor/rules/huge.mdc", huge_cut.bytes_dropped) in parts.budget.cut


def test_every_name_in_a_cut_block_resolves(write_tree: WriteTree) -> None:
    """Each ``[rule: name]`` of the blob and of ``<generic-rules>``, cut or not, resolves with rule://."""
    root = huge_repo(write_tree)
    ruleset = load(root, instructions_max_bytes=4096)
    session = ruleset.session("s")
    parts = session.prompt_parts()
    assert "whole text at rule://house]" in parts.instructions
    names = re.findall(r"^\[rule: ([^\]]+)\]", parts.text, re.MULTILINE)
    assert {"house", "huge", "small"} <= set(names)
    for name in names:
        assert session.resolve(f"rule://{name}").name == name
    for address in re.findall(r"whole text at (rule://[^\]]+)\]", parts.text):
        assert session.resolve(address).content


def test_cuts_fall_on_line_boundaries(write_tree: WriteTree) -> None:
    """The kept part of a cut rule ends with a whole line, right before the marker line."""
    root = huge_repo(write_tree)
    generic = load(root).prompt_parts().generic
    before = generic.split("\n[ruleweave:", 1)[0].rsplit("\n", 1)[1]
    assert re.fullmatch(r"huge line \d+ (lorem ipsum dolor ){4}", before + " ")


def test_a_block_cap_of_its_own_is_kept(write_tree: WriteTree) -> None:
    """``generic_max_bytes`` and ``domain_max_bytes`` cap their blocks even under the shared limit."""
    root = huge_repo(write_tree)
    parts = load(root, generic_max_bytes=3000, domain_max_bytes=900).prompt_parts()
    blocks = {b.block: b for b in parts.budget.blocks}
    assert len(parts.generic.encode()) <= 3000 and blocks["generic"].limit == 3000
    assert len(parts.domain.encode()) <= 900 and blocks["domain"].limit == 900
    left = len(blocks["domain"].cut)
    assert left and f"{left} more rules (" in parts.domain
    assert "rule:// with no name lists every rule]" in parts.domain
    assert len(parts.domain_rules) == 30 - left


def test_the_shared_limit_is_an_option(write_tree: WriteTree) -> None:
    """A smaller ``prompt_max_bytes`` shares fewer bytes; the output stays byte-identical."""
    root = huge_repo(write_tree)
    first = load(root, prompt_max_bytes=8192).prompt_parts()
    again = load(root, prompt_max_bytes=8192).prompt_parts()
    assert first.text == again.text and len(first.text.encode()) <= 8192
    assert {b.block for b in first.budget.blocks if b.cut} >= {"generic"}


def test_small_prompts_are_not_touched(write_tree: WriteTree) -> None:
    """Under the limit nothing is cut and each block reports its bytes."""
    root = write_tree({".git/HEAD": "x", ".cursor/rules/a.mdc": "---\nalwaysApply: true\n---\nBe brief."})
    parts = load(root).prompt_parts()
    assert parts.budget.cut == ()
    assert [(b.block, b.used) for b in parts.budget.blocks] == [
        ("instructions", 0), ("generic", len(parts.generic.encode())), ("domain", 0)
    ]


def test_prompt_cli_reports_every_block(write_tree: WriteTree, capsys: pytest.CaptureFixture[str]) -> None:
    """``ruleweave prompt`` reports each block and each cut; ``--json`` adds per-block detail."""
    root = huge_repo(write_tree)
    assert main(["prompt", "--cwd", str(root)]) == 0
    err = capsys.readouterr().err
    assert "-- prompt: " in err and " of 49152 bytes" in err
    assert "-- instructions: " in err and "-- <generic-rules>: " in err and "-- <domain-rules>: " in err
    assert "   cut rule://huge (.cursor/rules/huge.mdc): " in err
    assert "  .cursor/rules/huge.mdc: " in err and str(root) not in err  # paths relative to the project
    assert main(["prompt", "--cwd", str(root), "--json"]) == 0
    budget = json.loads(capsys.readouterr().out)["budget"]
    assert [b["block"] for b in budget["blocks"]] == ["instructions", "generic", "domain"]
    assert any(
        {"path": ".cursor/rules/huge.mdc", "name": "huge", "block": "generic"}.items() <= cut.items()
        for cut in budget["cut"]
    )


def chronicle_like(write_tree: WriteTree) -> tuple[Path, str]:
    """A 23 KB main AGENTS.md (CLAUDE.md a link to it) and many always-on rules: Copilot instructions
    with ``applyTo: '**'`` and Claude rules without ``paths`` (the shape of Cratis/Chronicle)."""
    line = "Event sourcing guidance line with detail." + " More." * 6 + "\n"
    main = "# Chronicle\n\n" + "".join(f"## Section {i}\n\n" + line * 13 + "\n" for i in range(23))
    files = {
        "AGENTS.md": main, ".github/copilot-instructions.md": "# Copilot\n\n" + paragraphs(60, "copilot"),
    }
    for i in range(14):
        files[f".github/instructions/topic{i}.instructions.md"] = (
            f"---\napplyTo: '**'\n---\n# Topic {i}\n\n" + paragraphs(40, f"topic{i}")
        )
    for i in range(6):
        files[f".claude/rules/house{i}.md"] = f"# House {i}\n\n" + paragraphs(36, f"house{i}")
        files[f".github/instructions/scoped{i}.instructions.md"] = (
            f"---\napplyTo: '**/*.cs'\ndescription: Scoped {i}\n---\nScoped {i}.\n"
        )
    root = write_tree(files)
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    assert 23 * 1024 <= len(main.encode()) < 24 * 1024
    return root, main


def test_the_main_instruction_file_stays_whole_before_always_on_rules(write_tree: WriteTree) -> None:
    """Files come first, then always-on rules, then the listing: the 23 KB AGENTS.md is whole (it was cut
    by 16 KB when the blocks shared max-min), and every rule cut names rule://<name> (#28 item 11)."""
    root, main = chronicle_like(write_tree)
    parts = load(root).prompt_parts()
    assert parts.budget.used == len(parts.text.encode()) <= 48 * 1024
    assert not [c for c in parts.budget.cut if c[0] == "AGENTS.md"]
    assert "## Section 22" in parts.instructions and main.splitlines()[-1] in parts.instructions
    cut = {c.name: c for b in parts.budget.blocks for c in b.cut}
    assert {"house0", "copilot-instructions", "topic0"} <= set(cut)
    for name in cut:
        assert f"whole text at rule://{name}]" in parts.text
    assert all(f"- scoped{i} (**/*.cs): Scoped {i}" in parts.domain for i in range(6))  # the listing whole


def test_keep_whole_names_files_no_budget_cuts(write_tree: WriteTree) -> None:
    """Max-min cuts the big root AGENTS.md for the small file near cwd; ``keep_whole`` keeps it whole and
    the other file shrinks instead."""
    root = write_tree({"AGENTS.md": paragraphs(150, "root"), "app/CLAUDE.md": paragraphs(60, "app")})
    plain = RuleSet.load(RuleweaveConfig(cwd=root / "app", project_root=root, instructions_max_bytes=16384))
    assert [c.path for c in plain.blob.budget.cut] == ["AGENTS.md"]
    kept = RuleSet.load(RuleweaveConfig(
        cwd=root / "app", project_root=root, instructions_max_bytes=16384, keep_whole=["AGENTS.*"]
    ))
    instructions = kept.prompt_parts().instructions
    assert "root line 149 " in instructions and "whole text at AGENTS.md]" not in instructions
    assert [c.path for c in kept.blob.budget.cut] == ["app/CLAUDE.md"]
    assert "whole text at app/CLAUDE.md]" in instructions
