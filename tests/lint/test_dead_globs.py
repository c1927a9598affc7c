"""Dead globs: one pass over git's listing (or a walk honouring ignore rules), in each agent's dialect."""

from __future__ import annotations

from pathlib import Path

from tests.lint.helpers import git_repo, of, plain_tree, run

API = "---\ndescription: API\nglobs: src/api/**/*.ts, src/**/*.py\n---\nUse the client.\n"


def test_a_glob_matching_no_tracked_file_is_dead_with_its_line(tmp_path: Path) -> None:
    """The glob no file matches is reported at its frontmatter line; the live one is not."""
    root = git_repo(tmp_path / "r", {".cursor/rules/api.mdc": API, "src/app.py": "x = 1\n"})
    report = run(root)
    dead = of(report, "dead-glob")
    assert [(f.path, f.line) for f in dead] == [(".cursor/rules/api.mdc", 3)]
    assert "'src/api/**/*.ts'" in dead[0].message
    assert of(report, "dead-rule") == []
    assert report.listing == "git"


def test_a_rule_whose_globs_are_all_dead_is_a_dead_rule(tmp_path: Path) -> None:
    """With no Python or TypeScript file at all, the rule itself never fires."""
    root = git_repo(tmp_path / "r", {".cursor/rules/api.mdc": API, "README.md": "hi\n"})
    report = run(root)
    assert len(of(report, "dead-glob")) == 2
    [rule] = of(report, "dead-rule")
    assert rule.path == ".cursor/rules/api.mdc" and "'api' never fires" in rule.message


def test_git_ignored_files_do_not_keep_a_glob_alive(tmp_path: Path) -> None:
    """A file git ignores is not the project's: a glob matching only it is dead."""
    root = git_repo(tmp_path / "r", {
        ".gitignore": "build/\n",
        "build/gen.py": "x = 1\n",
        ".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nPython.\n",
    })
    assert [f.message for f in of(run(root), "dead-glob")] == [
        "glob '**/*.py' of rule 'py' never fires: no file in the project matches it."
    ]


def test_without_git_the_walk_honours_gitignore(tmp_path: Path) -> None:
    """Outside a git repository the walk skips ignored directories too."""
    root = plain_tree(tmp_path / "r", {
        ".gitignore": "vendor/\n",
        "vendor/lib.py": "x = 1\n",
        "app/main.go": "package main\n",
        ".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nPython.\n",
        ".cursor/rules/go.mdc": "---\nglobs: '**/*.go'\n---\nGo.\n",
    })
    report = run(root)
    assert report.listing == "walk"
    assert [f.path for f in of(report, "dead-glob")] == [".cursor/rules/py.mdc"]


def test_a_bare_copilot_glob_only_matches_root_files(tmp_path: Path) -> None:
    """Copilot's applyTo '*.py' matches root files only, and lint says how to write it."""
    root = git_repo(tmp_path / "r", {
        ".github/instructions/py.instructions.md": "---\napplyTo: '*.py'\n---\nPython.\n",
        ".cursor/rules/py.mdc": "---\nglobs: '*.py'\n---\nPython.\n",
        "src/app.py": "x = 1\n",
    })
    [dead] = of(run(root), "dead-glob")
    assert dead.path == ".github/instructions/py.instructions.md" and dead.line == 2
    assert "root only (write '**/*.py')" in dead.message


def test_nested_rule_folders_are_checked_with_rebased_globs(tmp_path: Path) -> None:
    """A nested folder's glob is matched under its own directory, and its line is the one written."""
    root = git_repo(tmp_path / "r", {
        "apps/web/.cursor/rules/web.mdc": "---\nglobs: '*.tsx'\n---\nWeb.\n",
        "apps/api/.cursor/rules/api.mdc": "---\nglobs: '*.go'\n---\nGo.\n",
        "apps/api/main.go": "package main\n",
        "apps/other/page.tsx": "x\n",
    })
    report = run(root)
    assert [(f.path, f.line) for f in of(report, "dead-glob")] == [("apps/web/.cursor/rules/web.mdc", 2)]


def test_a_malformed_glob_is_dead_and_says_why(tmp_path: Path) -> None:
    """An unclosed '[' can never match; the finding says so instead of blaming the files."""
    root = git_repo(tmp_path / "r", {
        ".cursor/rules/bad.mdc": "---\nglobs: 'src/[abc.py'\n---\nBad.\n", "src/a.py": "",
    })
    [dead] = of(run(root), "dead-glob")
    assert "'[' that is never closed" in dead.message


def test_a_link_to_a_directory_outside_is_not_walked(tmp_path: Path) -> None:
    """Without git, files reached only through a directory link leaving the project do not count."""
    outside = tmp_path / "outside"
    (outside / "lib").mkdir(parents=True)
    (outside / "lib" / "x.py").write_text("x = 1\n")
    root = plain_tree(tmp_path / "r", {".cursor/rules/py.mdc": "---\nglobs: 'vendor/**/*.py'\n---\nPy.\n"})
    (root / "vendor").symlink_to(outside)
    assert [f.path for f in of(run(root), "dead-glob")] == [".cursor/rules/py.mdc"]
