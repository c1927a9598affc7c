"""GitRepo: tracked dependency folders from real index files, and git's global excludes file.

Every index here is written by git itself (``git add``, ``update-index``), in each
format ``Documentation/gitformat-index.txt`` describes: version 2, 3 (extended
flags, from ``git add -N``), 4 (prefix-compressed paths), a split index and a
SHA-256 repository.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ruleweave._files import gitrepo
from ruleweave._files.gitrepo import GitRepo

NAMES = frozenset({"node_modules", "vendor", "dist"})


def git(root: Path, *args: str) -> None:
    """Run git in ``root``."""
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def repository(tmp_path: Path, *init: str) -> Path:
    """A repository tracking ``vendor/a.go``, ``web/node_modules/keep.js``, ``src/dist.py`` and
    ``node_modules_docs/x.md``; with an untracked ``node_modules/y.js``."""
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    git(root, "init", "-q", *init)
    for rel in ("vendor/a.go", "web/node_modules/keep.js", "src/dist.py", "node_modules_docs/x.md",
                "node_modules/y.js"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x\n", encoding="utf-8")
    git(root, "add", "vendor", "web", "src", "node_modules_docs")
    return root


def repo_at(root: Path, tmp_path: Path) -> GitRepo:
    """The GitRepo holding ``root``."""
    found = GitRepo.find(str(root), str(tmp_path / "home"), str(tmp_path / "xdg"))
    assert found is not None
    return found


EXPECTED = frozenset({"vendor", "web/node_modules"})


@pytest.mark.parametrize("version", ["2", "3", "4"])
def test_every_index_version_gives_the_tracked_folders(tmp_path: Path, version: str) -> None:
    """Index versions 2, 3 and 4 list the same tracked paths; a name inside a longer one is no folder."""
    root = repository(tmp_path)
    if version == "3":
        (root / "dist").mkdir()
        (root / "dist/new.js").write_text("x\n")
        git(root, "add", "-N", "dist/new.js")  # intent-to-add: an extended flag, so git writes version 3
    git(root, "update-index", "--index-version", version)
    assert (root / ".git/index").read_bytes()[4:8] == int(version).to_bytes(4, "big")
    expected = EXPECTED | ({"dist"} if version == "3" else set())
    assert repo_at(root, tmp_path).tracked(NAMES) == expected


def test_a_split_index_reads_its_shared_part(tmp_path: Path) -> None:
    """With core.splitIndex the entries live in sharedindex.<id>; they still count."""
    root = repository(tmp_path)
    git(root, "update-index", "--split-index")
    assert list((root / ".git").glob("sharedindex.*"))
    assert repo_at(root, tmp_path).tracked(NAMES) == EXPECTED


def test_a_sha256_repository(tmp_path: Path) -> None:
    """Object ids of 32 bytes (extensions.objectFormat = sha256) shift every entry's flags."""
    root = repository(tmp_path, "--object-format=sha256")
    assert repo_at(root, tmp_path).tracked(NAMES) == EXPECTED


def test_a_worktree_follows_its_gitdir_file(tmp_path: Path) -> None:
    """A linked worktree's ``.git`` is a file naming its git directory, which has its own index."""
    root = repository(tmp_path)
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "x")
    other = tmp_path / "other"
    git(root, "worktree", "add", "-q", str(other))
    assert (other / ".git").is_file()
    found = repo_at(other / "src", tmp_path)
    assert found.top == str(other) and found.tracked(NAMES) == EXPECTED


def test_no_index_and_a_damaged_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new repository tracks nothing; a damaged or oversized index is not known (``None``)."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    assert repo_at(root, tmp_path).tracked(NAMES) == frozenset()
    (root / ".git/index").write_bytes(b"DIRC\x00\x00\x00\x02\x00\x00\x00\x05" + b"\x00" * 30)
    assert repo_at(root, tmp_path).tracked(NAMES) is None
    root = repository(tmp_path / "big")
    monkeypatch.setattr(gitrepo, "MAX_INDEX_BYTES", 64)
    assert repo_at(root, tmp_path).tracked(NAMES) is None


def test_outside_a_repository_there_is_none(tmp_path: Path) -> None:
    """No ``.git`` at or above the directory: no repository."""
    assert not any((d / ".git").exists() for d in (tmp_path, *tmp_path.parents))  # the test's premise
    assert GitRepo.find(str(tmp_path), str(tmp_path), str(tmp_path)) is None


def test_the_excludes_file_is_found_as_git_finds_it(tmp_path: Path) -> None:
    """core.excludesFile (``~`` expanded, quotes and comments read) from the XDG config, ~/.gitconfig
    or the repository's config, the last one winning; else $XDG_CONFIG_HOME/git/ignore."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    home, xdg = tmp_path / "home", tmp_path / "xdg"
    (xdg / "git").mkdir(parents=True)
    home.mkdir()
    assert repo_at(root, tmp_path).excludes_file == str(xdg / "git/ignore")
    (xdg / "git/config").write_text("[core]\n  excludesfile = /etc/from-xdg ; a comment\n")
    assert repo_at(root, tmp_path).excludes_file == "/etc/from-xdg"
    (home / ".gitconfig").write_text('[core "x"]\n\texcludesFile = /nope\n[Core]\n\tExcludesFile = "~/ign"\n')
    assert repo_at(root, tmp_path).excludes_file == str(home / "ign")
    git(root, "config", "core.excludesFile", "/srv/repo-ignore")
    assert repo_at(root, tmp_path).excludes_file == "/srv/repo-ignore"
