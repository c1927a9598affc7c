"""Glob caps: a rule or a repository that writes too many globs loads, capped, with a warning."""

from __future__ import annotations

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from ruleweave.discovery import cursor
from ruleweave.discovery.glob_caps import cap_globs
from ruleweave.rules import Bucket, Rule, SourceMeta
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


def test_the_rules_of_one_file_share_the_per_file_cap() -> None:
    """Rules from one file (a plugin's policy file) keep their globs in order up to the per-file cap;
    a rule left with none says so, and a rule from another file keeps all of its own."""
    source = SourceMeta(provider="plugin", priority=1, level="project", path="/p/policy.yml")
    def rule(name: str, path: str, globs: list[str]) -> Rule:
        return Rule(name=name, path=path, content="x", source=source._replace(path=path), globs=tuple(globs))

    rules = [
        rule("a", "/p/policy.yml", [f"a{i}/**" for i in range(6)]),
        rule("b", "/p/policy.yml", [f"b{i}/**" for i in range(6)]),
        rule("c", "/p/policy.yml", [f"c{i}/**" for i in range(6)]),
        rule("d", "/p/other.yml", [f"d{i}/**" for i in range(6)]),
    ]
    capped, warnings = cap_globs(rules, per_rule=256, per_file=8)
    assert [len(r.globs) for r in capped] == [6, 2, 0, 6]
    assert capped[1].globs == ("b0/**", "b1/**")
    assert capped[3] is rules[3]
    assert [w.path for w in warnings] == ["/p/policy.yml", "/p/policy.yml"]
    assert all("limit of 8 for the rules of one file" in w.message for w in warnings)


def test_ten_thousand_legitimate_rules_keep_every_glob(write_tree: WriteTree) -> None:
    """A monorepo of 10,000 rules writing 30,000 globs (past the old global cap of 20,000) drops none."""
    files = {
        f".cursor/rules/r{i:05d}.mdc": _rule([f"packages/p{i}/**/*.{{ts,tsx}}", f"docs/d{i}/*.md"])
        for i in range(10_000)
    }
    root = write_tree(files)
    found = run(root, only=cursor.PROVIDER, max_rule_files=100_000)
    assert not [w for w in found.warnings if "globs were dropped" in w.message]
    assert sum(len(rule.globs) for rule in found.rules) == 20_000
    assert all(kind is Bucket.SCOPED for kind in buckets(found).values())


def test_rules_under_the_caps_are_untouched(write_tree: WriteTree) -> None:
    """A repository within the caps loads with no cap warning and every glob intact."""
    root = write_tree({".cursor/rules/small.mdc": _rule(["src/**/*.ts", "*.{md,mdx}"])})
    found = run(root, only=cursor.PROVIDER)
    assert named(found)["small"].globs == ("src/**/*.ts", "**/*.{md,mdx}")
    assert not [w for w in found.warnings if "globs were dropped" in w.message]


def test_a_repository_writing_100000_globs_loads_capped_and_still_matches(write_tree: WriteTree) -> None:
    """100 rules × 1,000 globs load bounded by the per-rule cap: a warning per rule, 256 globs each
    kept, matching still right (``benchmarks/bench_after_tool.py`` times its calls)."""
    files = {
        f".cursor/rules/r{f:03d}.mdc": _rule([f"src/m{f}/n{j}/*_{j}.ts" for j in range(1000)])
        for f in range(100)
    }
    root = write_tree(files)
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, max_rule_files=1000, builtin_rules=False))
    warned = {w.path for w in ruleset.warnings if "globs were dropped" in w.message}
    assert len(warned) == 100
    assert all(len(rule.globs) == 256 for rule in ruleset.rules)
    session = ruleset.session("s", store=MemoryStore())
    hit = session.after_tool_call("read_file", {"path": str(root / "src/m3/n7/x_7.ts")})
    assert hit is not None and [item.name for item in hit.items] == ["r003"]
    assert session.after_tool_call("read_file", {"path": str(root / "src/m3/n999/x_999.ts")}) is None
