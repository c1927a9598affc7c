"""The map's directory tree: pre-order nodes, and deep levels folded into their parents past a bound."""

from __future__ import annotations

from pathlib import Path

from ruleweave import RuleweaveConfig
from ruleweave.rulemap import build_map
from ruleweave.rulemap.tree import DirectoryTree, directory_counts

PATHS = [
    "README.md",
    "a/x.py", "a/b/y.py", "a/b/c/z.py", "a/b/c/d/w.py", "a/b/c/d/v.py",
    "e/f/g.py",
]


def test_nodes_come_in_pre_order_with_every_ancestor() -> None:
    """Directories with no file of their own (e) are nodes too; each follows its parent."""
    tree = DirectoryTree(directory_counts(PATHS), {})
    assert tree.paths == ["", "a", "a/b", "a/b/c", "a/b/c/d", "e", "e/f"]
    assert tree.files == [1, 1, 1, 1, 2, 0, 1]
    assert tree.folded_below is None and tree.total == 7


def test_past_the_bound_the_deepest_levels_fold_into_their_parents() -> None:
    """Four nodes allowed: depths 4 and 3 fold into depth 2; files and coverage add up in the ancestor."""
    coverage = {"a/b/c/d": {(0, 0): 2}, "a/b/c": {(0, 0): 1, (1, 0): 1}, "a/b": {(1, 0): 1}}
    tree = DirectoryTree(directory_counts(PATHS), coverage, max_directories=5)
    assert tree.paths == ["", "a", "a/b", "e", "e/f"]
    assert tree.folded_below == 2
    b = tree.index["a/b"]
    assert tree.files[b] == 4 and tree.folded[b] == 2
    assert tree.coverage[b] == {(0, 0): 3, (1, 0): 2}
    assert sum(tree.files) == len(PATHS)
    assert tree.node_of("a/b/c/d") == b and tree.node_of_file("a/b/c/d/w.py") == b


def test_coverage_entries_bound_the_tree_too() -> None:
    """A tree small in directories but heavy in (directory, rule) entries folds as well."""
    coverage = {d: {(r, 0): 1 for r in range(10)} for d in ("a/b/c/d", "a/b/c", "a/b")}
    tree = DirectoryTree(directory_counts(PATHS), coverage, max_coverage=15)
    assert tree.folded_below == 2 and sum(map(len, tree.coverage.values())) == 10


def test_outside_paths_land_on_the_root() -> None:
    """A path outside the project (a user-tier rule, an absolute path) is placed on the root node."""
    tree = DirectoryTree(directory_counts(PATHS), {})
    assert tree.node_of("~/.cursor/rules") == 0 and tree.node_of("/etc") == 0 and tree.node_of("../x") == 0
    assert tree.node_of("nowhere/at/all") == 0 and tree.node_of_file("") == 0


def test_a_deep_repository_is_folded_in_the_map(tmp_path: Path) -> None:
    """build_map folds a tree of 4,201 directories below depth 3 and says so; every file still counts."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    for i in range(1_400):
        leaf = root / "src" / f"m{i:04d}" / "deep" / "er"
        leaf.mkdir(parents=True)
        (leaf / "f.py").write_text("x\n", encoding="utf-8")
    (root / ".cursor" / "rules").mkdir(parents=True)
    rule_file = root / ".cursor" / "rules" / "py.mdc"
    rule_file.write_text("---\nglobs: '**/*.py'\n---\nPython.\n", encoding="utf-8")
    data = build_map(RuleweaveConfig(cwd=root))
    project = data["project"]
    assert project["directories"] == 4_204 and project["shown"] == 2_804 and project["folded_below"] == 3
    assert sum(n["files"] for n in data["tree"]) == project["files"] == 1_401
    [rule] = data["rules"]
    assert sum(files for _, _, files in rule["covers"]) == rule["files"] == 1_400
    deep = next(n for n in data["tree"] if n["path"] == "src/m0000/deep")
    assert deep == {"path": "src/m0000/deep", "parent": deep["parent"], "files": 1, "folded": 1}
