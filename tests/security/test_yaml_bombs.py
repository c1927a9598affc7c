"""A YAML alias bomb ("billion laughs") in a rule's frontmatter or in a SkillSpec costs bounded work.

Issue #29, "not yet tried": ten levels of nine aliases each stand for 9^10
values. The frontmatter keeps the keys it knows (the bomb is an unknown key
never walked); the SkillSpec reader counts what aliases expand to and refuses
the document past 100,000 values.
"""

from __future__ import annotations

from pathlib import Path

from ruleweave.cli import main
from tests.conftest import WriteTree
from tests.security.helpers import HANG, load, returns_within


def bomb() -> str:
    """YAML whose last anchor ``j`` expands to 9^10 strings."""
    names = "abcdefghij"
    lines = ["a: &a [" + ",".join(["x"] * 9) + "]"]
    lines += [f"{names[i]}: &{names[i]} [" + ",".join([f"*{names[i - 1]}"] * 9) + "]" for i in range(1, 10)]
    return "\n".join(lines) + "\n"


HEAD = (
    "schema: skillspec/v0\nid: bomb\ntitle: Bomb\ndescription: Aliases.\n"
    "routes:\n  - id: local\n    label: Local\n"
)


def test_a_bomb_in_frontmatter(write_tree: WriteTree, tmp_path: Path) -> None:
    """The rule loads with its globs; the prompt, a notice and scan --json come back at once, small."""
    root = write_tree({
        ".cursor/rules/bomb.mdc": "---\n" + bomb() + "globs: src/**\n---\nBomb body.\n",
        "src/a.py": "x = 1\n",
    })
    session = returns_within(HANG, lambda: load(root)).session("s")
    assert len(returns_within(HANG, session.system_prompt)) < 10_000
    hit = returns_within(HANG, lambda: session.after_tool_call("Read", {"file_path": str(root / "src/a.py")}))
    assert hit is not None and "Bomb body." in hit.text
    assert returns_within(HANG, lambda: main(["scan", "--json", "--cwd", str(root)])) == 0


def test_a_bomb_in_a_skillspec(write_tree: WriteTree) -> None:
    """The SkillSpec is refused with one sentence naming the aliases (by validate and by decide's first
    call); the rest of the rules still load."""
    spec = bomb() + HEAD + "rules:\n  - id: r\n    when: {user_says_any: *j}\n    prefer: local\n"
    root = write_tree({
        ".ruleweave/skill.spec.yml": spec,
        ".cursor/rules/a.mdc": "---\nalwaysApply: true\n---\nStill here.\n",
    })
    ruleset = returns_within(HANG, lambda: load(root))
    assert "Still here." in ruleset.session("s").system_prompt()
    assert ruleset.steering.spec is None
    assert any("through its aliases" in w.message for w in ruleset.steering.warnings)
    path = str(root / ".ruleweave/skill.spec.yml")
    assert returns_within(HANG, lambda: main(["spec", "validate", path])) == 1
    # spec decide's first call reads the YAML without the models: the same refusal, as fast
    assert returns_within(HANG, lambda: main(["spec", "decide", path, "--input", "x"])) == 1
