"""Issue #12 point 8: Windsurf's 12,000-character rule files and ``.devin/rules``.

https://docs.windsurf.com/windsurf/cascade/memories (Rules): rule files live in
``.windsurf/rules/`` with a ``trigger`` (``always_on``, ``glob``,
``model_decision``, ``manual``), and "rule files are limited to 12,000
characters each" — Cascade does not see what follows. Windsurf is now part of
Devin (https://docs.devin.ai): the same rule files are read from
``.devin/rules/``.
"""

from __future__ import annotations

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.rules import Bucket
from tests.conftest import WriteTree


def test_rule_over_12000_characters_is_cut_with_a_warning(write_tree: WriteTree) -> None:
    """The text after 12,000 characters is dropped, and a warning names the file."""
    body = "é" * 11_990 + "KEPT" + "x" * 6 + "LOST-TAIL"  # characters, not bytes: 'é' is two bytes
    root = write_tree(
        {
            ".windsurf/rules/big.md": "---\ntrigger: always_on\n---\n" + body,
            ".windsurf/rules/small.md": "---\ntrigger: always_on\n---\nSmall.",
        }
    )
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, project_root=root, builtin_rules=False))
    rule = ruleset.find_rule("big")[0]  # type: ignore[index]
    assert rule.truncated
    assert rule.content.startswith(body[:12_000]) and "LOST-TAIL" not in rule.content
    assert "KEPT" in rule.content
    [warning] = [w for w in ruleset.warnings if "12,000" in w.message]
    assert warning.path == str(root / ".windsurf/rules/big.md")
    assert ruleset.find_rule("small")[0].content == "Small."  # type: ignore[index]


def test_devin_rules_are_read_like_windsurf_rules(write_tree: WriteTree) -> None:
    """``.devin/rules/*.md`` with triggers: the same four buckets."""
    root = write_tree(
        {
            ".devin/rules/on.md": "---\ntrigger: always_on\n---\nOn.",
            ".devin/rules/py.md": "---\ntrigger: glob\nglobs: '*.py'\n---\nPy.",
            ".devin/rules/ask.md": "---\ntrigger: model_decision\ndescription: When asked\n---\nAsk.",
            ".devin/rules/hand.md": "---\ntrigger: manual\n---\nHand.",
        }
    )
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, project_root=root, builtin_rules=False))
    assert {r.name: (r.source.provider, ruleset.bucket_of(r.name)) for r in ruleset.rules} == {
        "on": ("windsurf", Bucket.GENERIC),
        "py": ("windsurf", Bucket.SCOPED),
        "ask": ("windsurf", Bucket.RULEBOOK),
        "hand": ("windsurf", Bucket.MANUAL),
    }
    injection = ruleset.session("s").after_tool_call("read_file", {"path": str(root / "a/b/c.py")})
    assert injection is not None and [i.name for i in injection.items] == ["py"]
