"""ProjectTree: per-directory records built from the parent's, on real directories in tmp_path."""

from __future__ import annotations

import os
from pathlib import Path

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave._files.tree import ProjectTree
from tests.conftest import WriteTree


def tree_of(root: Path) -> ProjectTree:
    """A ProjectTree for ``root`` (cwd at the root)."""
    return ProjectTree(RuleweaveConfig(cwd=root))


def test_nested_gitignore_files_apply_below_their_directory(write_tree: WriteTree) -> None:
    """A deeper .gitignore re-includes and adds patterns for its own subtree only, on a first deep touch."""
    root = write_tree({
        ".gitignore": "gen/\n",
        "pkg/.gitignore": "!gen/\nlocal/\n",
        "gen/AGENTS.md": "Generated.",
        "pkg/gen/AGENTS.md": "Package generated code.",
        "pkg/local/AGENTS.md": "Local scratch.",
        "other/local/AGENTS.md": "Other local.",
    })
    tree = tree_of(root)
    # The deepest directory first: its ancestors' records are built on the way down.
    assert tree.ignored(str(root / "pkg/local/deep/er")) is True
    assert tree.ignored(str(root / "gen")) is True
    assert tree.ignored(str(root / "pkg/gen")) is False
    assert tree.ignored(str(root / "other/local")) is False
    session = RuleSet.load(RuleweaveConfig(cwd=root)).session("s")
    shown = [session.after_tool_call("read", {"path": p}) for p in
             ("gen/x.py", "pkg/gen/x.py", "pkg/local/x.py", "other/local/x.py")]
    assert [n.text.count("[file:") if n else 0 for n in shown] == [0, 1, 0, 1]


def test_chain_skips_the_walk_and_stops_at_an_ignored_directory(write_tree: WriteTree) -> None:
    """The chain leaves out the root→cwd walk and ends before the first ignored directory."""
    root = write_tree({".gitignore": "build/\n", "apps/web/src/a.ts": "x", "apps/web/build/out/b.js": "x"})
    tree = ProjectTree(RuleweaveConfig(cwd=root / "apps"))
    web = str(root / "apps/web")
    assert tree.chain(str(root / "apps/web/src")) == (web, web + os.sep + "src")
    assert tree.chain(str(root / "apps/web/build/out")) == (web,)
    assert tree.chain(str(root / "apps")) == ()
    assert tree.chain(str(root.parent)) is None
    assert tree.names(web) == frozenset({"src", "build"})


def test_an_invented_path_thousands_of_directories_deep_is_answered(write_tree: WriteTree) -> None:
    """No recursion and no listing per missing directory: a 1,500-deep invented path is just no notice."""
    root = write_tree({"src/AGENTS.md": "Src.", "src/a.py": "x"})
    deep = "src/" + "d/" * 1500 + "x.py"
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root))
    notice = ruleset.session("s").after_tool_call("read", {"path": deep})
    assert notice is not None and "[file: src/AGENTS.md]" in notice.text
    chain = ruleset.nested.tree.chain(str(root / deep).rsplit(os.sep, 1)[0])
    assert chain == (str(root / "src"), str(root / "src/d"))  # the first missing directory ends it


def test_a_directory_made_after_its_parent_was_listed_is_still_judged(
    write_tree: WriteTree, tmp_path: Path
) -> None:
    """A link out of the project created after its parent's listing is still refused on touch."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "AGENTS.md").write_text("Outside.", encoding="utf-8")
    root = write_tree({"src/a.py": "x"})
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root))
    session = ruleset.session("s")
    assert session.after_tool_call("read", {"path": "src/a.py"}) is None
    (root / "src/late").symlink_to(outside, target_is_directory=True)
    assert session.after_tool_call("read", {"path": "src/late/AGENTS.md"}) is None
    assert any(w.path == str(root / "src/late") for w in ruleset.touch_warnings)


def test_first_touch_below_a_known_directory_builds_on_its_answer(write_tree: WriteTree) -> None:
    """Touching deep first, then shallower and sideways, gives each directory its own files once."""
    root = write_tree({
        "a/AGENTS.md": "A.",
        "a/b/.cursor/rules/r.mdc": "---\nalwaysApply: true\n---\nRule of b.",
        "a/b/c/CLAUDE.md": "C.",
        "a/x/y.py": "x",
    })
    session = RuleSet.load(RuleweaveConfig(cwd=root)).session("s")
    deep = session.after_tool_call("read", {"path": "a/b/c/d/e.py"})
    assert deep is not None
    assert [line for line in deep.text.splitlines() if line.startswith("[")] == [
        "[file: a/AGENTS.md]", "[file: a/b/c/CLAUDE.md]", "[rule: a/b:r]"
    ]
    fresh = RuleSet.load(RuleweaveConfig(cwd=root)).session("t")
    side = fresh.after_tool_call("read", {"path": "a/x/y.py"})
    assert side is not None and "a/AGENTS.md" in side.text and "Rule of b." not in side.text
