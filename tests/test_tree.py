"""ProjectTree: per-directory records built from the parent's, on real directories in tmp_path."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

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


def git(root: Path, *args: str) -> None:
    """Run git in ``root`` (no hooks or fsmonitor configured: a fresh repository)."""
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def git_project(tmp_path: Path, files: dict[str, str]) -> Path:
    """A real ``git init`` repository holding ``files`` (none added yet)."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


WHEEL = ".venv/lib/python3.12/site-packages/somepkg"
DEPENDENCIES = {
    f"{WHEEL}/AGENTS.md": "Wheel instructions.",
    f"{WHEEL}/.cursor/rules/r.mdc": "---\nalwaysApply: true\n---\nWheel rule.",
    "node_modules/x/AGENTS.md": "Package instructions.",
    "node_modules/x/.cursor/rules/r.mdc": "---\nalwaysApply: true\n---\nPackage rule.",
    "vendor/lib/AGENTS.md": "Vendored, committed.",
    "dist/AGENTS.md": "Build output.",
    "src/AGENTS.md": "Src agents.",
}


def test_dependency_trees_without_a_gitignore_entry_are_not_injected(tmp_path: Path) -> None:
    """In a real repository with no .gitignore, .venv and node_modules files (and rule folders) never arrive;
    a dependency-named folder git tracks (a committed vendor/) still speaks (#28 item 10)."""
    root = git_project(tmp_path, DEPENDENCIES)
    git(root, "add", "vendor/lib/AGENTS.md", "src/AGENTS.md")
    session = RuleSet.load(RuleweaveConfig(cwd=root)).session("s")
    for path in (f"{WHEEL}/mod.py", "node_modules/x/index.js", "dist/a.js"):
        assert session.after_tool_call("read", {"path": path}) is None, path
    vendored = session.after_tool_call("read", {"path": "vendor/lib/a.go"})
    assert vendored is not None and "Vendored, committed." in vendored.text
    src = session.after_tool_call("read", {"path": "src/x.py"})
    assert src is not None and "[file: src/AGENTS.md]" in src.text


def test_a_gitignore_negation_re_includes_a_dependency_folder(tmp_path: Path) -> None:
    """``!dist/`` in .gitignore makes an untracked dist/ the project's again; a .gitignore elsewhere
    does not switch the defaults off (it used to: any .gitignore at all)."""
    root = git_project(tmp_path, {**DEPENDENCIES, ".gitignore": "*.log\n!dist/\n"})
    tree = tree_of(root)
    assert tree.ignored(str(root / "dist")) is False
    assert tree.ignored(str(root / "node_modules")) is True
    assert tree.ignored(str(root / ".venv")) is True
    assert tree.ignored(str(root / "src/node_modules/deep")) is True


def test_git_global_excludes_are_honoured(tmp_path: Path, isolated_home: Path) -> None:
    """core.excludesFile from ~/.gitconfig, else $XDG_CONFIG_HOME/git/ignore, ignores like .gitignore."""
    root = git_project(tmp_path, {"scratch/AGENTS.md": "Mine.", "notes/AGENTS.md": "Notes.", "a.py": ""})
    xdg = tmp_path / "xdg"
    (xdg / "git").mkdir(parents=True)
    (xdg / "git/ignore").write_text("scratch/\n", encoding="utf-8")
    tree = ProjectTree(RuleweaveConfig(cwd=root, xdg_config_home=xdg))
    assert tree.ignored(str(root / "scratch")) is True and tree.ignored(str(root / "notes")) is False
    (isolated_home / "my-ignore").write_text("notes/\n", encoding="utf-8")
    (isolated_home / ".gitconfig").write_text('[user]\n\tname = x\n[core]\n\texcludesFile = "~/my-ignore"\n')
    tree = ProjectTree(RuleweaveConfig(cwd=root, xdg_config_home=xdg))
    assert tree.ignored(str(root / "notes")) is True and tree.ignored(str(root / "scratch")) is False
    # git itself agrees (check-ignore reads the same files).
    done = subprocess.run(["git", "-C", str(root), "check-ignore", "notes/AGENTS.md", "scratch/AGENTS.md"],
                          capture_output=True, text=True, env={**os.environ, "XDG_CONFIG_HOME": str(xdg)})
    assert done.stdout.split() == ["notes/AGENTS.md"]


def test_the_xdg_default_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``xdg_config_home`` defaults to an absolute $XDG_CONFIG_HOME, else ~/.config."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "x"))
    assert RuleweaveConfig(cwd=tmp_path).xdg_config_home == tmp_path / "x"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/dir")
    assert RuleweaveConfig(cwd=tmp_path, home=tmp_path).xdg_config_home == tmp_path / ".config"
