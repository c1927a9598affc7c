"""Paths a call touches and paths in the project (``ruleweave._kernel.paths``), with real links on disk."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ruleweave._kernel.paths import MAX_PATHS, absolute, call_paths, default_paths, in_project


def test_paths_are_absolute_normalised_and_distinct() -> None:
    """Relative paths join the cwd, ``.``/``..`` fold, repeats go, and what ``more`` reads comes after."""

    def patch(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
        return ["b.py", "/abs/./c.py"]

    args = {"file_path": "src/../a.py", "meta": {"paths": ["a.py", "b.py"]}, "patch": "..."}
    assert call_paths("Edit", args, "/p", default_paths, patch) == ["/p/a.py", "/p/b.py", "/abs/c.py"]


def test_absolute_is_normpath_of_the_joined_path() -> None:
    """Every path of up to eight of ``/``, ``.`` and a letter, against three cwds, comes out as
    ``os.path.normpath`` spells it (the shortcut skips normpath only for paths already normal)."""
    for size in range(1, 9):
        for letters in itertools.product("/.a", repeat=size):
            raw = "".join(letters)
            for cwd in ("/", "/p", "/p/q"):
                expected = os.path.normpath(raw if raw.startswith("/") else os.path.join(cwd, raw))
                assert absolute(raw, cwd) == expected, (raw, cwd)


def test_at_most_so_many_paths() -> None:
    """A call naming thousands of paths touches the first ``MAX_PATHS``."""
    many = {"paths": [f"f{i}.py" for i in range(MAX_PATHS)], "other_path": "last.py"}
    found = call_paths("Read", many, "/p", default_paths)
    assert len(found) == MAX_PATHS and found[-1] == f"/p/f{MAX_PATHS - 1}.py"


class Hostile(Mapping[str, Any]):
    """Arguments that raise once read past their first key."""

    def __getitem__(self, key: str) -> Any:
        return "a.py"

    def __len__(self) -> int:
        return 2

    def __iter__(self) -> Iterator[str]:
        yield "path"
        raise RuntimeError("boom")


def test_a_hostile_mapping_gives_what_was_read_before_it_raised() -> None:
    """Nothing raises out of ``call_paths``: the paths found so far are the answer."""
    assert call_paths("Read", Hostile(), "/p", default_paths) == ["/p/a.py"]


def test_a_path_through_a_link_is_respelled_under_the_project(tmp_path: Path) -> None:
    """The real path of a file reached through a link to the project is spelled under the project root."""
    real = tmp_path / "real"
    (real / "src").mkdir(parents=True)
    (real / "src/a.py").write_text("x\n")
    link = tmp_path / "link"
    link.symlink_to(real)
    real_root, link_root = os.path.realpath(real) + "/", str(link) + "/"
    assert in_project(real_root + "src/a.py", link_root, real_root) == link_root + "src/a.py"
    assert in_project(link_root + "src/a.py", link_root, real_root) == link_root + "src/a.py"
    assert in_project(str(tmp_path / "other.py"), link_root, real_root) == str(tmp_path / "other.py")
