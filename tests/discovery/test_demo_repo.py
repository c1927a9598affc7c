"""The example repository discovers cleanly: many formats, a shadowed name, the walk."""

from __future__ import annotations

from pathlib import Path

from ruleweave.buckets import assign
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import discover
from ruleweave.rules import Bucket

DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo-repo"


def test_demo_repo_carries_many_formats_and_shows_shadowing() -> None:
    """The demo yields rules from eight providers, shadowed names and every bucket."""
    found = discover(RuleweaveConfig(cwd=DEMO / "services" / "api", project_root=DEMO,
                                     builtin_rules=False))
    providers = {rule.source.provider for rule in found.rules}
    assert providers == {
        "native", "claude", "cursor", "windsurf", "cline", "copilot", "continue", "kiro",
    }
    rules = {rule.name: rule for rule in found.rules}
    assert [s.provider for s in rules["python-style"].shadowed] == ["windsurf", "kiro"]
    assert [s.provider for s in rules["typescript"].shadowed] == ["copilot"]
    assert rules["typescript"].globs == ("src/**/*.ts", "src/**/*.tsx")
    assert rules["testing"].globs == ("**/*.test.ts", "**/*.test.tsx")
    assert "services/api:api-errors" in rules  # from services/api/.cursor/rules, on the walk
    assert rules["services/api:api-errors"].base == "services/api"
    assert set(assign(found.rules).by_rule.values()) == set(Bucket)
    assert found.warnings == ()  # the unquoted Cursor globs of testing.mdc are repaired silently
