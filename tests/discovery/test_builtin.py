"""builtin provider: the rules shipped with ruleweave and the builtin_rules switch."""

from __future__ import annotations

from ruleweave.discovery import builtin
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run


def test_at_least_six_builtin_rules_with_ttsr_and_scoped(write_tree: WriteTree) -> None:
    """The shipped set has six or more rules covering Python, TypeScript and shell."""
    root = write_tree({"README.md": "x"})
    found = run(root, only=builtin.PROVIDER, builtin_rules=True)
    assert len(found.rules) >= 6
    assert found.warnings == ()
    names = " ".join(named(found))
    for language in ("python", "typescript", "shell"):
        assert language in names
    kinds = set(buckets(found).values())
    assert Bucket.TTSR in kinds
    assert Bucket.SCOPED in kinds
    assert {(r.source.level, r.source.priority) for r in found.rules} == {("builtin", 1)}


def test_builtin_rules_false_drops_them(write_tree: WriteTree) -> None:
    """``builtin_rules=False`` yields no builtin rules at all."""
    root = write_tree({"README.md": "x"})
    assert run(root, builtin_rules=False).rules == ()


def test_a_project_rule_shadows_a_builtin_of_the_same_name(write_tree: WriteTree) -> None:
    """Any project rule beats a builtin of the same name, which is listed as shadowed."""
    root = write_tree({".cursor/rules/python-typing.mdc": "Our own typing policy."})
    found = run(root, builtin_rules=True)
    rule = named(found)["python-typing"]
    assert rule.source.provider == "cursor"
    assert [s.provider for s in rule.shadowed] == ["builtin"]
    assert found.rules[-1].source.provider == "builtin"
