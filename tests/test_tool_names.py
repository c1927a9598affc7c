"""Tool aliases: a rule or a forbid naming one tool of a kind covers every agent's name for it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.session.tool_names import ToolNames, patch_paths
from tests.conftest import WriteTree

SPECS = Path(__file__).resolve().parent.parent / "examples" / "specs"
RULE = "---\ncondition: 'print\\('\nscope: 'tool:write(**/*.py)'\n---\nUse the logger, not print.\n"
EDIT_RULE = "---\ncondition: 'eval\\('\nscope: 'tool:edit(**/*.py)'\n---\nNo eval.\n"
PATCH = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-x = 1\n+x = eval('1')\n*** End Patch\n"


def test_canonical_names() -> None:
    """Agents' names map to one kind; unknown names stay themselves; config adds names."""
    names = ToolNames({"edit": ("patch_file",), "deploy": ("ship",)})
    assert [names.canonical(n) for n in ("Write", "write_file", "create_file")] == ["write"] * 3
    assert [names.canonical(n) for n in ("MultiEdit", "apply_patch", "str_replace_based_edit_tool")] == [
        "edit"
    ] * 3
    assert names.canonical("patch_file") == "edit" and names.canonical("ship") == "deploy"
    assert names.canonical("MyTool") == "mytool"


def test_patch_paths() -> None:
    """Codex apply_patch text and unified diffs name the files they change."""
    assert list(patch_paths("apply_patch", {"input": PATCH})) == ["src/app.py"]
    diff = "--- a/lib/x.py\n+++ b/lib/x.py\n@@ -1 +1 @@\n-a\n+b\n"
    assert list(patch_paths("apply_patch", {"patch": diff})) == ["lib/x.py", "lib/x.py"]
    assert list(patch_paths("apply_patch", {"command": ["apply_patch", PATCH]})) == ["src/app.py"]


def test_tool_scoped_streamed_rules_match_every_alias(write_tree: WriteTree) -> None:
    """``tool:write(**/*.py)`` fires for write_file and Write; ``tool:edit`` for apply_patch's files."""
    root = write_tree({".ruleweave/rules/no-print.md": RULE, ".ruleweave/rules/no-eval.md": EDIT_RULE})
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root))
    for tool in ("write_file", "Write", "create_file"):
        session = ruleset.session(f"s-{tool}")
        args = {"file_path": "src/a.py", "content": "print(1)"}
        hit = session.watch("tool", json.dumps(args), tool=tool, call_id="c")
        assert hit is not None and hit.rules[0].name == "no-print", tool
    assert ruleset.session("other").watch("tool", '{"path": "a.py", "content": "print(1)"}',
                                          tool="read_file", call_id="c") is None
    patched = ruleset.session("patch").before_tool_call("apply_patch", {"input": PATCH}, call_id="p1")
    assert patched is not None and "No eval." in patched.message


def test_notices_follow_patch_paths(write_tree: WriteTree) -> None:
    """An apply_patch call touching src/app.py brings the rule for src/**/*.py."""
    root = write_tree({".cursor/rules/py.mdc": "---\nglobs: src/**/*.py\n---\nTyped Python."})
    session = RuleSet.load(RuleweaveConfig(cwd=root)).session("s")
    found = session.after_tool_call("apply_patch", {"input": PATCH})
    assert found is not None and [i.name for i in found.items] == ["py"]


def test_steering_forbids_every_alias(write_tree: WriteTree) -> None:
    """A forbidden shell program is refused in any shell tool, whatever the agent calls it."""
    root = write_tree({"README.md": "x"})
    (root / ".ruleweave").mkdir()
    shutil.copy(SPECS / "web-research.skill.spec.yml", root / ".ruleweave" / "skill.spec.yml")
    session = RuleSet.load(RuleweaveConfig(cwd=root)).session("s")
    session.steer("browse the changelog page and tell me what changed")
    for tool in ("Bash", "run_terminal_cmd", "execute_command"):
        refusal = session.check_tool(tool, {"command": "curl -s https://example.com"})
        assert refusal is not None, tool
    assert session.check_tool("read_file", {"path": "README.md"}) is None


def test_a_forbidden_tool_name_covers_its_aliases(write_tree: WriteTree) -> None:
    """``forbid: [delete_file]`` refuses ``remove_file`` and ``rm`` too (one kind: delete)."""
    from tests.adapters.fixtures import SPEC

    root = write_tree({".ruleweave/skill.spec.yml": SPEC})
    session = RuleSet.load(RuleweaveConfig(cwd=root)).session("s")
    session.steer("please clean up the repo")
    for tool in ("delete_file", "remove_file", "rm"):
        assert session.check_tool(tool, {"path": "README.md"}) is not None, tool
    assert session.check_tool("write_file", {"path": "README.md"}) is None
