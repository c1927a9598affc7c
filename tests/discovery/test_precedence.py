"""Precedence across providers: priority, registration order, tiers, shadowing, switches."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import PROVIDERS, Provider, cursor, discover, windsurf
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.registry import ordered
from ruleweave.rules import Rule, SourceMeta
from tests.conftest import WriteTree
from tests.discovery.helpers import named, run

MIXED: dict[str, str] = {
    ".ruleweave/rules/style.md": "Native style.",
    ".agents/rules/style.md": "Agents style.",
    ".claude/rules/style.md": "---\npaths: ['*.py']\n---\nClaude style.",
    ".cursor/rules/style.mdc": "Cursor style.",
    ".windsurf/rules/style.md": "Windsurf style.",
    ".clinerules/style.md": "Cline style.",
    ".github/instructions/style.instructions.md": "---\napplyTo: '*.py'\n---\nCopilot style.",
    ".continue/rules/style.md": "Continue style.",
    ".kiro/steering/style.md": "Kiro style.",
    ".cursor/rules/editor.mdc": "Cursor editor.",
    ".windsurf/rules/editor.md": "Windsurf editor.",
    ".cursor/rules/cursor-only.mdc": "Only cursor.",
    ".kiro/steering/kiro-only.md": "Only kiro.",
    ".ruleweave/rules/native-only.md": "Only native.",
}


def test_registry_order_is_by_priority_with_ties_in_registration_order() -> None:
    """Providers run highest priority first; cursor precedes windsurf at equal priority."""
    ids = [p.id for p in ordered(PROVIDERS)]
    assert ids == [
        "native", "plugins", "agents", "claude", "cursor", "windsurf", "trae",
        "cline", "roo", "kilocode", "copilot", "continue", "kiro", "augment", "junie", "aiassistant",
        "opencode", "aider", "openhands", "codeassist", "qwen", "builtin",
    ]
    priorities = [p.priority for p in ordered(PROVIDERS)]
    assert priorities == sorted(priorities, reverse=True)


def test_highest_priority_wins_and_every_loser_is_shadowed(write_tree: WriteTree) -> None:
    """Nine providers define ``style``: native wins and lists the eight others best first."""
    root = write_tree(MIXED)
    found = run(root)
    rule = named(found)["style"]
    assert rule.content == "Native style."
    assert [s.provider for s in rule.shadowed] == [
        "agents", "claude", "cursor", "windsurf", "cline", "copilot", "continue", "kiro",
    ]
    assert sorted(r.source.provider for r in found.shadowed if r.name == "style") == sorted(
        s.provider for s in rule.shadowed
    )


def test_equal_priority_keeps_registration_order(write_tree: WriteTree) -> None:
    """cursor and windsurf share priority 50; cursor's rule wins because it registered first."""
    root = write_tree(MIXED)
    rule = named(run(root))["editor"]
    assert rule.source.provider == "cursor"
    assert [s.provider for s in rule.shadowed] == ["windsurf"]


def test_rules_come_out_in_precedence_order(write_tree: WriteTree) -> None:
    """The rule list runs native, then lower providers, keeping each provider's path order."""
    root = write_tree(MIXED)
    providers = [r.source.provider for r in run(root).rules]
    assert providers == ["native", "native", "cursor", "cursor", "kiro"]
    assert [r.name for r in run(root).rules] == [
        "native-only", "style", "cursor-only", "editor", "kiro-only",
    ]


def test_registration_order_decides_when_custom_providers_tie(write_tree: WriteTree) -> None:
    """Passing windsurf before cursor makes windsurf win the tie instead."""
    root = write_tree(MIXED)
    found = run(root, only=(windsurf.PROVIDER, cursor.PROVIDER))
    assert named(found)["editor"].source.provider == "windsurf"


def test_project_beats_user_tier_within_a_provider_but_not_across(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """Inside cursor the project wins; a user-tier native rule still beats a project cursor rule."""
    (isolated_home / ".cursor" / "rules").mkdir(parents=True)
    (isolated_home / ".cursor" / "rules" / "tabs.mdc").write_text("User tabs.", encoding="utf-8")
    (isolated_home / ".ruleweave" / "rules").mkdir(parents=True)
    (isolated_home / ".ruleweave" / "rules" / "quotes.md").write_text(
        "User quotes.", encoding="utf-8"
    )
    root = write_tree(
        {".cursor/rules/tabs.mdc": "Project tabs.", ".cursor/rules/quotes.mdc": "Project quotes."}
    )
    rules = named(run(root))
    assert rules["tabs"].content == "Project tabs."
    assert rules["tabs"].shadowed[0].level == "user"
    assert rules["quotes"].content == "User quotes."
    assert (rules["quotes"].shadowed[0].provider, rules["quotes"].shadowed[0].level) == (
        "cursor",
        "project",
    )


def test_same_name_at_three_levels_is_three_rules(write_tree: WriteTree) -> None:
    """With the same name at root, middle and cwd, each directory's rule is its own, none shadowed."""
    root = write_tree(
        {
            ".kiro/steering/db.md": "root",
            "a/.kiro/steering/db.md": "middle",
            "a/b/.kiro/steering/db.md": "cwd",
        }
    )
    rules = named(run(root, cwd="a/b"))
    assert [rules[n].content for n in ("db", "a:db", "a/b:db")] == ["root", "middle", "cwd"]
    assert all(not rules[n].shadowed for n in ("db", "a:db", "a/b:db"))


def test_disabled_providers_are_not_run(write_tree: WriteTree) -> None:
    """A disabled provider contributes no rules, so the next one in precedence wins."""
    root = write_tree(MIXED)
    found = run(root, disabled_providers={"native", "agents", "claude"})
    rule = named(found)["style"]
    assert rule.source.provider == "cursor"
    assert "native-only" not in named(found)
    assert {r.source.provider for r in found.rules} <= {"cursor", "kiro"}


def test_disabled_rules_are_dropped_by_name(write_tree: WriteTree) -> None:
    """``disabled_rules`` drops a name from every provider, not only the winner."""
    root = write_tree(MIXED)
    found = run(root, disabled_rules={"style", "kiro-only"})
    assert set(named(found)) == {"native-only", "cursor-only", "editor"}


def test_a_provider_that_raises_becomes_a_warning(write_tree: WriteTree) -> None:
    """A failing provider is reported by id, and the providers after it still load."""

    def explode(ctx: DiscoveryContext) -> list[Rule]:
        raise OSError("disk on fire")

    root = write_tree(MIXED)
    bad = Provider("flaky", 60, explode, "always fails")
    found = run(root, only=(bad, cursor.PROVIDER))
    assert {r.source.provider for r in found.rules} == {"cursor"}
    [warning] = found.warnings
    assert warning.provider == "flaky"
    assert "'flaky' failed" in warning.message
    assert "disk on fire" in warning.message


def test_custom_provider_priority_is_respected(write_tree: WriteTree) -> None:
    """A provider passed with priority 200 outranks native on a shared name."""

    def load(ctx: DiscoveryContext) -> list[Rule]:
        source = SourceMeta(provider="top", priority=200, level="project", path="memory")
        return [Rule(name="style", path="memory", content="Top style.", source=source)]

    root = write_tree(MIXED)
    config = RuleweaveConfig(cwd=root, builtin_rules=False)
    found = discover(config, (*PROVIDERS, Provider("top", 200, load)))
    assert named(found)["style"].content == "Top style."
    assert named(found)["style"].shadowed[0].provider == "native"


@pytest.mark.parametrize("provider", [p.id for p in PROVIDERS])
def test_every_provider_can_be_switched_off(write_tree: WriteTree, provider: str) -> None:
    """Disabling any one provider removes exactly its rules from the mixed repo."""
    root = write_tree(MIXED)
    everything = run(root, builtin_rules=True)
    without = run(root, builtin_rules=True, disabled_providers={provider})
    winners = {r.source.provider for r in without.rules}
    assert provider not in winners
    shadowed = {r.source.provider for r in without.shadowed}
    assert provider not in shadowed
    assert len(without.rules) + len(without.shadowed) <= len(everything.rules) + len(
        everything.shadowed
    )


def test_warnings_are_logged_not_printed(
    write_tree: WriteTree, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    """Warnings go to the ``ruleweave.discovery`` logger and never to stdout or stderr."""
    root = write_tree({".cursor/rules/bad.mdc": "---\nglobs: *.md\nnot a setting\n---\nBody."})
    with caplog.at_level(logging.WARNING, logger="ruleweave.discovery"):
        found = run(root)
    assert len(found.warnings) == 1
    [record] = caplog.records
    assert record.name == "ruleweave.discovery"
    assert "discovery_warning" in record.getMessage()
    assert str(root / ".cursor/rules/bad.mdc") in record.getMessage()
    assert capsys.readouterr() == ("", "")


def test_user_tier_inside_the_walk_is_read_once(write_tree: WriteTree) -> None:
    """When the project root is the home directory, a user-tier rule does not shadow itself."""
    root = write_tree({
        ".cursor/rules/style.mdc": "---\nalwaysApply: true\n---\nHome style.",
        ".ruleweave/rules/native.md": "---\ndescription: native\n---\nNative.",
    })
    found = run(root, home=root, ruleweave_home=root / ".ruleweave")
    rules = named(found)
    assert [(r.name, r.source.level, r.shadowed) for r in found.rules] == [
        ("native", "user", ()), ("style", "user", ()),
    ]
    assert found.shadowed == ()
    assert rules["style"].content == "Home style."


def test_a_rule_directory_linked_to_its_twin_is_read_once(write_tree: WriteTree) -> None:
    """``.agent`` symlinked to ``.agents`` gives each rule once, not a rule shadowing itself."""
    root = write_tree({".agents/rules/style.md": "---\ndescription: d\n---\nAgents style."})
    (root / ".agent").symlink_to(root / ".agents", target_is_directory=True)
    found = run(root)
    assert [(r.name, r.shadowed) for r in found.rules] == [("style", ())]
    assert found.shadowed == ()
