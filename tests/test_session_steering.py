"""SkillSpec steering inside a session: the <steering> block and refused tool calls."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ruleweave import RuleSet, RuleweaveConfig
from tests.conftest import WriteTree

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "specs"


def repo_with_spec(write_tree: WriteTree, name: str = "web-research.skill.spec.yml") -> Path:
    root = write_tree({"README.md": "demo"})
    (root / ".ruleweave").mkdir()
    shutil.copy(EXAMPLES / name, root / ".ruleweave" / "skill.spec.yml")
    return root


def test_steering_block_joins_next_prompt(write_tree: WriteTree) -> None:
    """steer() puts a <steering> block with route, forbids and the question into the prompt."""
    root = repo_with_spec(write_tree)
    session = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False)).session("s")
    before = session.system_prompt()
    assert "<steering>" not in before
    decision = session.steer("browse the changelog page and tell me what changed")
    assert decision is not None and decision.route == "browser"
    after = session.system_prompt()
    assert after.startswith(before)
    block = after[after.index("<steering>") :]
    assert "browser" in block
    assert "curl" in block
    assert "Which browser should I use?" in block
    assert block.rstrip().endswith("</steering>")


def test_forbidden_tool_is_refused_with_rule_name(write_tree: WriteTree) -> None:
    """A shell call running curl is refused, naming the rule; an allowed call passes."""
    root = repo_with_spec(write_tree)
    session = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False)).session("s")
    assert session.check_tool("bash", {"command": "curl https://example.com"}) is None
    session.steer("browse the changelog page and tell me what changed")
    refusal = session.check_tool("bash", {"command": "curl -s https://example.com | head"})
    assert refusal is not None
    assert refusal.rule == "browse_words_use_the_browser"
    assert "browse_words_use_the_browser" in refusal.message
    assert "actually read" in refusal.message
    assert session.check_tool("bash", json.dumps({"command": "ls -la"})) is None
    assert session.check_tool("read_file", {"path": "README.md"}) is None


def test_configured_tool_map(write_tree: WriteTree) -> None:
    """config.steering_tools maps a forbid id onto the agent's own tool names."""
    root = repo_with_spec(write_tree)
    config = RuleweaveConfig(
        cwd=root, builtin_rules=False, steering_tools={"curl": ("http_get",)}
    )
    session = RuleSet.load(config).session("s")
    session.steer("browse the changelog page")
    assert session.check_tool("http_get", {"url": "https://example.com"}) is not None


def test_invalid_spec_is_a_warning(write_tree: WriteTree) -> None:
    """A broken SkillSpec turns steering off with a warning naming file and line."""
    root = write_tree(
        {
            ".ruleweave/skill.spec.yml": (
                "schema: skillspec/v0\nid: x\ntitle: x\ndescription: d\nroutes:\n  - id: a\n    label: A\n"
                "rules:\n  - id: r\n    when: {user_says_any: [x]}\n    preferr: a\n"
            )
        }
    )
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False))
    assert ruleset.steering.spec is None
    warnings = [w for w in ruleset.warnings if w.provider == "skillspec"]
    assert [(w.line, "preferr" in w.message) for w in warnings] == [(11, True)]
    assert warnings[0].path.endswith("skill.spec.yml")
    assert ruleset.session("s").steer("x") is None


def test_explicit_spec_path(write_tree: WriteTree) -> None:
    """RuleweaveConfig(skillspec=PATH) steers with that file."""
    root = write_tree({"README.md": "x"})
    config = RuleweaveConfig(
        cwd=root, builtin_rules=False, skillspec=EXAMPLES / "composition.skill.spec.yml"
    )
    session = RuleSet.load(config).session("s")
    decision = session.steer(
        "check whether the repo is in sync and browse each committer social profile"
    )
    assert decision is not None
    assert decision.route == "browser"
    assert list(decision.matched_rules) == [
        "local_repo_state_uses_cli",
        "browse_profiles_uses_browser",
    ]
