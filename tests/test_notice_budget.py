"""The per-notice budget: one notice's rules share ``notice_max_bytes`` max-min fairly."""

from __future__ import annotations

import re
from pathlib import Path

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from tests.conftest import WriteTree


def spec_repo(write_tree: WriteTree) -> Path:
    files = {".git/HEAD": "x", "specs/api.spec.ts": "it('works')"}
    for i in range(11):
        body = "\n".join(f"spec rule {i} line {n}: " + "assert the contract " * 5 for n in range(120))
        files[f".cursor/rules/spec{i:02}.mdc"] = f"---\nglobs: **/*.spec.ts\n---\n{body}"
    files[".cursor/rules/tiny.mdc"] = "---\nglobs: specs/**\n---\nKeep specs short."
    return write_tree(files)


def test_one_read_of_a_spec_file_stays_within_the_notice_budget(write_tree: WriteTree) -> None:
    """Twelve rules that match one file share 8 KiB: each keeps its header and first part."""
    root = spec_repo(write_tree)
    session = RuleSet.load(RuleweaveConfig(cwd=root)).session("s", store=MemoryStore())
    injection = session.after_tool_call("read_file", {"path": "specs/api.spec.ts"})
    assert injection is not None
    assert len(injection.text.encode()) <= 8 * 1024 < 10_000
    headers = re.findall(r"^\[rule: ([^\]]+)\]$", injection.text, re.MULTILINE)
    assert sorted(headers) == sorted([f"spec{i:02}" for i in range(11)] + ["tiny"])
    assert "[rule: tiny]\nKeep specs short." in injection.text
    for i in range(11):
        assert f"spec rule {i} line 0: " in injection.text
    addresses = re.findall(r"^\[ruleweave: \d+ bytes left out; whole text at (rule://\S+)\]$",
                           injection.text, re.MULTILINE)
    assert sorted(addresses) == [f"rule://spec{i:02}" for i in range(11)]
    for address in addresses:
        assert session.resolve(address).content.count("\n") == 119


def test_each_cut_rule_ends_on_a_whole_line(write_tree: WriteTree) -> None:
    """The line before each marker is a whole line of the rule."""
    root = spec_repo(write_tree)
    session = RuleSet.load(RuleweaveConfig(cwd=root)).session("s", store=MemoryStore())
    injection = session.after_tool_call("read_file", {"path": "specs/api.spec.ts"})
    assert injection is not None
    lines = injection.text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("[ruleweave: "):
            assert re.fullmatch(r"spec rule \d+ line \d+: (assert the contract ){5}", lines[index - 1] + " ")


def test_the_notice_budget_is_an_option(write_tree: WriteTree) -> None:
    """A larger ``notice_max_bytes`` keeps more of each rule; a small notice is never cut."""
    root = spec_repo(write_tree)
    config = RuleweaveConfig(cwd=root, notice_max_bytes=64 * 1024)
    session = RuleSet.load(config).session("s", store=MemoryStore())
    injection = session.after_tool_call("read_file", {"path": "specs/api.spec.ts"})
    assert injection is not None and 8 * 1024 < len(injection.text.encode()) <= 64 * 1024
    small = RuleSet.load(RuleweaveConfig(cwd=root)).session("t", store=MemoryStore())
    only_tiny = small.after_tool_call("read_file", {"path": "specs/readme.md"})
    assert only_tiny is not None and only_tiny.text == "[rule: tiny]\nKeep specs short."
