"""Glob caps: a rule or a repository that writes too many globs loads, capped, with a warning."""

from __future__ import annotations

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from ruleweave.discovery import cursor
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run


def _rule(globs: list[str], description: str = "area rules") -> str:
    return f"---\ndescription: {description}\nglobs: {', '.join(globs)}\n---\nFollow them.\n"


def test_a_rule_keeps_its_first_globs_up_to_the_per_rule_cap(write_tree: WriteTree) -> None:
    """300 globs in one rule: the first 256 stay, and a warning names the file and the cap."""
    globs = [f"src/area{i}/**" for i in range(300)]
    root = write_tree({".cursor/rules/big.mdc": _rule(globs)})
    found = run(root, only=cursor.PROVIDER)
    assert named(found)["big"].globs == tuple(globs[:256])
    [warning] = [w for w in found.warnings if "globs were dropped" in w.message]
    assert warning.path == str(root / ".cursor/rules/big.mdc")
    assert "limit of 256 per rule" in warning.message
    assert "44 of its 300 globs" in warning.message


def test_brace_alternatives_count_towards_the_caps(write_tree: WriteTree) -> None:
    """``*.{a,b,c}`` counts three: with a cap of four, the second such glob is dropped."""
    root = write_tree({".cursor/rules/braces.mdc": _rule(["*.{a,b,c}", "*.{d,e}", "*.f"])})
    found = run(root, only=cursor.PROVIDER, max_globs_per_rule=4)
    assert named(found)["braces"].globs == ("**/*.{a,b,c}",)  # Cursor: bare globs match anywhere
    assert any("has 6 globs" in w.message for w in found.warnings)


def test_the_total_cap_keeps_rules_in_precedence_order(write_tree: WriteTree) -> None:
    """Past the total cap the later rules lose their globs; a rule left with none is not scoped."""
    root = write_tree(
        {
            ".cursor/rules/a.mdc": _rule([f"a{i}/**" for i in range(6)]),
            ".cursor/rules/b.mdc": _rule([f"b{i}/**" for i in range(6)]),
            ".cursor/rules/c.mdc": _rule([f"c{i}/**" for i in range(6)]),
        }
    )
    found = run(root, only=cursor.PROVIDER, max_globs_total=8)
    rules = named(found)
    assert len(rules["a"].globs) == 6
    assert rules["b"].globs == ("b0/**", "b1/**")
    assert rules["c"].globs == ()
    assert buckets(found)["c"] is Bucket.RULEBOOK
    dropped = [w for w in found.warnings if "globs were dropped" in w.message]
    assert {w.path for w in dropped} == {str(root / ".cursor/rules/b.mdc"), str(root / ".cursor/rules/c.mdc")}
    assert all("limit of 8 for all rules together" in w.message for w in dropped)


def test_rules_under_the_caps_are_untouched(write_tree: WriteTree) -> None:
    """A repository within the caps loads with no cap warning and every glob intact."""
    root = write_tree({".cursor/rules/small.mdc": _rule(["src/**/*.ts", "*.{md,mdx}"])})
    found = run(root, only=cursor.PROVIDER)
    assert named(found)["small"].globs == ("src/**/*.ts", "**/*.{md,mdx}")
    assert not [w for w in found.warnings if "globs were dropped" in w.message]


def test_a_repository_writing_100000_globs_loads_capped_and_still_matches(write_tree: WriteTree) -> None:
    """100 rules × 1,000 globs load with a warning per rule, 20,000 globs kept, matching still right."""
    files = {
        f".cursor/rules/r{f:03d}.mdc": _rule([f"src/m{f}/n{j}/*_{j}.ts" for j in range(1000)])
        for f in range(100)
    }
    root = write_tree(files)
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, max_rule_files=1000, builtin_rules=False))
    warned = {w.path for w in ruleset.warnings if "globs were dropped" in w.message}
    assert len(warned) == 100
    assert sum(len(rule.globs) for rule in ruleset.rules) == 20_000
    session = ruleset.session("s", store=MemoryStore())
    hit = session.after_tool_call("read_file", {"path": str(root / "src/m3/n7/x_7.ts")})
    assert hit is not None and [item.name for item in hit.items] == ["r003"]
    assert session.after_tool_call("read_file", {"path": str(root / "src/m3/n999/x_999.ts")}) is None
