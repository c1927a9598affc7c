"""Hostile repositories: caps, bad bytes, symlink tricks, unreadable directories, huge trees.

Every case also carries an ordinary rule and checks that it still loads.
"""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ruleweave._files import reading
from ruleweave.discovery import Discovery
from tests.conftest import WriteTree
from tests.discovery.helpers import messages, named, run

GOOD = {".kiro/steering/good.md": "An ordinary rule that must survive."}


def assert_good_loaded(found: Discovery) -> None:
    """The ordinary rule planted beside every hostile file is loaded intact."""
    assert named(found)["good"].content == "An ordinary rule that must survive."


def warnings_for(found: Discovery, path: Path) -> list[str]:
    """The messages of warnings naming ``path``."""
    return [w.message for w in found.warnings if w.path == str(path)]


def test_rule_over_max_rule_bytes_is_cut_at_a_utf8_boundary(write_tree: WriteTree) -> None:
    """A long body is cut to the cap without splitting a character, marked, and reported."""
    body = "a" * 33 + "€" * 20  # '€' is three bytes: a cap of 40 lands inside the third one
    root = write_tree({**GOOD, ".cursor/rules/long.mdc": body})
    found = run(root, max_rule_bytes=40)
    rule = named(found)["long"]
    kept, marker = rule.content.split("\n", 1)
    assert kept == "a" * 33 + "€€"
    assert len(kept.encode()) == 39
    assert marker == f"[ruleweave: rule truncated, {len(body.encode()) - 39} bytes dropped]"
    assert rule.truncated is True
    [message] = warnings_for(found, root / ".cursor/rules/long.mdc")
    assert "over 40 bytes" in message
    assert_good_loaded(found)


def test_more_than_max_rule_files_in_a_root_is_capped_with_a_warning(
    write_tree: WriteTree,
) -> None:
    """Only the first ``max_rule_files`` by path load from a crowded root, with a warning."""
    crowded = {f".cursor/rules/r{i:02d}.mdc": f"Rule {i}." for i in range(12)}
    root = write_tree({**GOOD, **crowded})
    found = run(root, max_rule_files=5)
    cursor_rules = [r.name for r in found.rules if r.source.provider == "cursor"]
    assert cursor_rules == ["r00", "r01", "r02", "r03", "r04"]
    [message] = warnings_for(found, root / ".cursor/rules")
    assert "holds 12 rule files, more than the limit of 5" in message
    assert_good_loaded(found)


def test_huge_file_is_never_read_past_the_cap(
    write_tree: WriteTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 1 GiB file yields only its first ``max_file_bytes``; its NUL tail is never seen."""
    root = write_tree(GOOD)
    huge = root / ".cursor/rules/huge.mdc"
    huge.parent.mkdir(parents=True)
    head = "---\ndescription: enormous\n---\n" + "x" * 9_000
    huge.write_text(head, encoding="utf-8")
    os.truncate(huge, 1 << 30)  # sparse: zero bytes (NUL) from offset 9 KB to 1 GiB
    tally: dict[str, list[int]] = {}
    opened: dict[int, str] = {}
    real_open, real_read = os.open, os.read

    def counting_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        fd = real_open(path, flags, *args, **kwargs)
        opened[fd] = os.fspath(path)
        return fd

    def counting_read(fd: int, size: int) -> bytes:
        data = real_read(fd, size)
        tally.setdefault(opened.get(fd, ""), []).append(len(data))
        return data

    monkeypatch.setattr(os, "open", counting_open)
    monkeypatch.setattr(os, "read", counting_read)
    found = run(root, max_file_bytes=4_096, max_rule_bytes=64_000)
    assert sum(tally[str(huge)]) <= 4_097
    rule = named(found)["huge"]
    assert rule.description == "enormous"
    assert set(rule.content) == {"x"}
    assert any("larger than 4096 bytes" in m for m in warnings_for(found, huge))
    assert_good_loaded(found)


def test_non_utf8_file_is_skipped_with_a_warning(write_tree: WriteTree) -> None:
    """A Latin-1 rule file is not loaded and the warning says it is not UTF-8."""
    root = write_tree(GOOD)
    bad = root / ".cursor/rules/latin1.mdc"
    bad.parent.mkdir(parents=True)
    bad.write_bytes("Caf\u00e9 cr\u00e8me: \u00e9vitez les accents.".encode("latin-1"))
    found = run(root)
    assert "latin1" not in named(found)
    assert warnings_for(found, bad) == ["is not valid UTF-8 and was skipped"]
    assert_good_loaded(found)


def test_binary_file_is_skipped_with_a_warning(write_tree: WriteTree) -> None:
    """A binary blob named like a rule is not loaded and is reported as binary."""
    root = write_tree(GOOD)
    blob = root / ".windsurf/rules/logo.md"
    blob.parent.mkdir(parents=True)
    blob.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    found = run(root)
    assert "logo" not in named(found)
    [message] = warnings_for(found, blob)
    assert "binary" in message
    assert_good_loaded(found)


def test_symlink_loop_does_not_hang_and_warns(write_tree: WriteTree) -> None:
    """A directory link back to its parent and a self-referencing link are reported, once."""
    root = write_tree({**GOOD, ".cursor/rules/a.mdc": "A.", ".cursor/rules/sub/b.mdc": "B."})
    rules_dir = root / ".cursor/rules"
    (rules_dir / "sub" / "back").symlink_to("..", target_is_directory=True)
    (rules_dir / "self.mdc").symlink_to("self.mdc")
    found = run(root)
    cursor_rules = [r.name for r in found.rules if r.source.provider == "cursor"]
    assert cursor_rules == ["a", "sub/b"]
    assert any("loop" in m for m in warnings_for(found, rules_dir / "sub" / "back"))
    assert any("looping" in m for m in warnings_for(found, rules_dir / "self.mdc"))
    assert_good_loaded(found)


def test_symlink_out_of_the_project_is_refused_unless_followed(
    write_tree: WriteTree, tmp_path: Path
) -> None:
    """Links leading out of the project are refused; ``symlinks='follow'`` reads them."""
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "pack").mkdir(parents=True)
    (elsewhere / "secret.mdc").write_text("Outside file.", encoding="utf-8")
    (elsewhere / "pack" / "packed.mdc").write_text("Outside dir.", encoding="utf-8")
    root = write_tree({**GOOD, ".cursor/rules/inside.mdc": "Inside."})
    rules_dir = root / ".cursor/rules"
    (rules_dir / "secret.mdc").symlink_to(elsewhere / "secret.mdc")
    (rules_dir / "pack").symlink_to(elsewhere / "pack", target_is_directory=True)

    found = run(root)
    assert {"secret", "pack/packed"}.isdisjoint(named(found))
    assert "inside" in named(found)
    for link in ("secret.mdc", "pack"):
        [message] = warnings_for(found, rules_dir / link)
        assert "outside the project tier" in message
    assert_good_loaded(found)

    followed = run(root, symlinks="follow")
    assert named(followed)["secret"].content == "Outside file."
    assert named(followed)["pack/packed"].content == "Outside dir."
    assert followed.warnings == ()


def test_symlink_inside_the_project_is_followed(write_tree: WriteTree) -> None:
    """The default policy follows a link whose target stays inside the project."""
    root = write_tree({**GOOD, "docs/shared-rule.md": "Shared from docs."})
    link = root / ".cursor/rules/shared.mdc"
    link.parent.mkdir(parents=True)
    link.symlink_to(root / "docs/shared-rule.md")
    found = run(root)
    assert named(found)["shared"].content == "Shared from docs."
    assert found.warnings == ()


def test_user_tier_symlink_into_another_tree_is_refused(
    write_tree: WriteTree, isolated_home: Path, tmp_path: Path
) -> None:
    """A link in ``~/.cursor/rules`` leading out of the user tier is refused with a warning."""
    outside = tmp_path / "outside.mdc"
    outside.write_text("Not the user's.", encoding="utf-8")
    user_rules = isolated_home / ".cursor" / "rules"
    user_rules.mkdir(parents=True)
    (user_rules / "mine.mdc").write_text("Mine.", encoding="utf-8")
    (user_rules / "borrowed.mdc").symlink_to(outside)
    root = write_tree(GOOD)
    found = run(root)
    assert "borrowed" not in named(found)
    assert named(found)["mine"].source.level == "user"
    [message] = warnings_for(found, user_rules / "borrowed.mdc")
    assert "outside the user tier" in message
    assert_good_loaded(found)


def test_ignore_policy_skips_every_symlink(write_tree: WriteTree) -> None:
    """``symlinks='ignore'`` refuses even a link that stays inside the project."""
    root = write_tree({**GOOD, "docs/rule.md": "Doc rule."})
    link = root / ".cursor/rules/doc.mdc"
    link.parent.mkdir(parents=True)
    link.symlink_to(root / "docs/rule.md")
    found = run(root, symlinks="ignore")
    assert "doc" not in named(found)
    assert any("ignored by configuration" in m for m in warnings_for(found, link))
    assert_good_loaded(found)


@dataclass
class Denier:
    """Makes directories unlistable, the way the OS refuses them to an unprivileged user.

    ``chmod 000`` is applied for real. When the process is privileged (root
    ignores permission bits) the OS still lets it list the directory, so the
    refusal is reproduced by ``os.scandir`` raising the same ``PermissionError``
    the OS would raise; either way discovery meets a real EACCES.
    """

    chmodded: list[Path] = field(default_factory=list)
    injected: set[Path] = field(default_factory=set)

    def deny(self, path: Path) -> None:
        """Make ``path`` unlistable."""
        path.chmod(0)
        self.chmodded.append(path)
        try:
            os.listdir(path)
        except PermissionError:
            return  # the OS enforces the permission bits itself
        self.injected.add(path)


@pytest.fixture
def denier(monkeypatch: pytest.MonkeyPatch) -> Iterator[Denier]:
    """A ``Denier`` whose directories are restored to 0755 after the test."""
    state = Denier()
    real_scandir = os.scandir

    def scandir(path: Any = ".") -> Any:
        if Path(os.fspath(path)) in state.injected:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    yield state
    for path in state.chmodded:
        path.chmod(0o755)


def test_unreadable_directory_is_a_warning(write_tree: WriteTree, denier: Denier) -> None:
    """A rule directory that cannot be listed is reported; its siblings still load."""
    root = write_tree(
        {
            **GOOD,
            ".cursor/rules/open.mdc": "Open.",
            ".cursor/rules/locked/hidden.mdc": "Hidden.",
            ".windsurf/rules/w.md": "W.",
        }
    )
    locked = root / ".cursor/rules/locked"
    denier.deny(locked)
    unlisted = root / ".windsurf/rules"
    denier.deny(unlisted)
    found = run(root)
    assert "hidden" not in named(found)
    assert "w" not in named(found)
    assert named(found)["open"].content == "Open."
    assert warnings_for(found, locked) == ["cannot be listed (Permission denied)"]
    assert warnings_for(found, unlisted) == ["cannot be listed (Permission denied)"]
    assert_good_loaded(found)


def test_dangling_symlink_in_a_rule_dir_is_a_warning(write_tree: WriteTree) -> None:
    """A rule entry that is a dangling link (unreadable even for root) is reported and skipped."""
    root = write_tree({**GOOD, ".cursor/rules/ok.mdc": "OK."})
    dangling = root / ".cursor/rules/gone.mdc"
    dangling.symlink_to(root / "does-not-exist.mdc")
    found = run(root)
    assert "gone" not in named(found)
    assert any("broken" in m for m in warnings_for(found, dangling))
    assert_good_loaded(found)


def test_fifo_named_like_a_rule_does_not_block(write_tree: WriteTree) -> None:
    """A FIFO where a rule file is expected is skipped instead of blocking discovery forever."""
    root = write_tree({**GOOD, ".cursor/rules/ok.mdc": "OK."})
    fifo = root / ".cursor/rules/pipe.mdc"
    os.mkfifo(fifo)
    os.mkfifo(root / ".cursorrules")
    result: list[Discovery] = []
    worker = threading.Thread(target=lambda: result.append(run(root)), daemon=True)
    worker.start()
    worker.join(timeout=20)
    if worker.is_alive():  # unblock the reader before failing
        for path in (fifo, root / ".cursorrules"):
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        pytest.fail("discovery blocked on a FIFO")
    [found] = result
    assert "pipe" not in named(found)
    assert "cursorrules" not in named(found)
    assert named(found)["ok"].content == "OK."
    assert_good_loaded(found)


def test_directories_nested_too_deep_are_skipped_with_a_warning(write_tree: WriteTree) -> None:
    """A rule tree deeper than the nesting limit stops at the limit with a warning."""
    deep = ".cursor/rules/" + "/".join(f"d{i}" for i in range(20)) + "/deep.mdc"
    root = write_tree({**GOOD, ".cursor/rules/shallow.mdc": "Shallow.", deep: "Deep."})
    found = run(root)
    assert "deep" not in named(found)
    assert "shallow" in named(found)
    assert any("nested deeper than" in m for m in messages(found))
    assert_good_loaded(found)


RULE_DIRS = frozenset(
    {".ruleweave", ".agent", ".agents", ".claude", ".cursor", ".windsurf",
     ".clinerules", ".github", ".continue", ".kiro"}
)


def test_discovery_visits_only_known_rule_locations(
    write_tree: WriteTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Among thousands of unrelated files only rule directories are listed and rule files read."""
    noise: dict[str, str] = {}
    for package in range(30):
        for module in range(10):
            base = f"packages/p{package}/src/m{module}"
            noise[f"{base}/index.ts"] = "export const x = 1;\n"
            noise[f"{base}/README.md"] = "---\ndescription: not a rule\n---\nDocs.\n"
            noise[f"{base}/notes.mdc"] = "Not a rule either.\n"
            noise[f"node_modules/lib{package}/m{module}/index.js"] = "module.exports = {};\n"
    noise["docs/guide.md"] = "# Guide\n"
    rules = {
        ".cursor/rules/root.mdc": "Root.",
        "packages/p3/.cursor/rules/pkg.mdc": "Pkg.",
        "packages/p3/src/.claude/rules/src.md": "Src.",
        "packages/p4/.cursor/rules/other.mdc": "Not on the walk.",
        **GOOD,
    }
    root = write_tree({**noise, **rules})
    listed: list[Path] = []
    read: list[Path] = []
    real_scandir, real_listdir = os.scandir, os.listdir

    def scandir(path: Any = ".") -> Any:
        listed.append(Path(os.fspath(path)))
        return real_scandir(path)

    def listdir(path: Any = ".") -> list[str]:
        listed.append(Path(os.fspath(path)))
        return real_listdir(path)

    def read_text(path: Path | str, limit: int, **options: Any) -> Any:
        read.append(Path(path))
        return reading.read_text(path, limit, **options)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "listdir", listdir)
    monkeypatch.setattr("ruleweave.discovery.context.read_text", read_text)
    found = run(root, cwd="packages/p3/src/m1")

    assert [r.name for r in found.rules if r.source.provider != "kiro"] == [
        "packages/p3/src:src", "root", "packages/p3:pkg"
    ]
    inside = [p for p in listed if p.is_relative_to(root)]
    assert inside, "the rule directories themselves must be listed"
    for path in inside:
        assert RULE_DIRS & set(path.relative_to(root).parts), f"listed {path}"
    assert sorted(p.relative_to(root).as_posix() for p in read) == sorted(
        [
            ".cursor/rules/root.mdc",
            ".kiro/steering/good.md",
            "packages/p3/.cursor/rules/pkg.mdc",
            "packages/p3/src/.claude/rules/src.md",
        ]
    )
    assert len(inside) == 4
