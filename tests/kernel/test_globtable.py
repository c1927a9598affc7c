"""The glob table's decision (``ruleweave._kernel.globtable``): spellings, places, the lookup over rows."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from ruleweave._kernel.globtable import full_match, in_place, lookup, spell, stand_in, utf8
from ruleweave.globs import GlobIndex, PathSpellings


def test_spellings_of_a_path() -> None:
    """Relative to the root (``None`` outside it, and for the root itself), absolute, name; normalised."""
    assert spell("/repo//src/./a/../b.ts", "/repo/") == ("src/b.ts", "/repo/src/b.ts", "b.ts")
    assert spell("/elsewhere/b.ts", "/repo/") == (None, "/elsewhere/b.ts", "b.ts")
    assert spell("/repo/", "/repo/") == (None, "/repo", "repo")
    assert spell("/", "/repo/") == (None, "/", "")


@pytest.mark.parametrize(
    ("place", "directory", "relative", "parent", "expected"),
    [
        ("anywhere", "", None, "/x/", True),
        ("root", "", "a.py", "/repo/", True),
        ("root", "", "src/a.py", "/repo/src/", False),
        ("root", "", None, "/x/", False),
        ("child", "src/", "src/a.py", "/repo/src/", True),
        ("child", "src/", "src/x/a.py", "/repo/src/x/", False),
        ("under", "src/", "src/x/a.py", "/repo/src/x/", True),
        ("under", "src/", "lib/src/a.py", "/repo/lib/src/", False),
        ("under", "src/", None, "/src/", False),
        ("seg_child", "a/b/", None, "/x/a/b/", True),
        ("seg_child", "a/b/", None, "/x/ya/b/", False),
        ("seg_under", "a/b/", None, "/x/a/b/c/", True),
        ("seg_under", "a/b/", None, "/x/a/bc/", False),
    ],
)
def test_places(place: str, directory: str, relative: str | None, parent: str, expected: bool) -> None:
    """Each place reads the relative path or the absolute path's directory, as its glob's directory part."""
    assert in_place(place, directory, relative, parent) is expected


def rows(*globs: str) -> list[list[Any]]:
    """The rows of an index of ``globs`` (each its own key), in the project-root dialect."""
    return GlobIndex(((i, glob) for i, glob in enumerate(globs)), bare_anywhere=False).table()


def test_rows_answer_what_the_index_answers() -> None:
    """Key, place, affix, basename pattern and whole-glob pattern rows decide as the index does."""
    globs = (
        "**/*.py", "src/*.py", "*.md", "**/test_*.py", "**/*.[jt]s", "s?c/**/*.py", "src/*/a.py",
        "**/a/b/*.py", "src/**",
    )
    table = rows(*globs)
    assert [row[6] for row in table] == ["", "", "", "affix", "name", "any", "rel", "", ""]
    index = GlobIndex(((i, glob) for i, glob in enumerate(globs)), bare_anywhere=False)
    paths = ["src/a.py", "README.md", "docs/README.md", "x/test_a.py", "w/a.js", "sxc/k/a.py", "src/k/a.py",
             "q/a/b/c.py", "q/xa/b/c.py"]
    for relative in paths:
        spelled = PathSpellings.of("/repo/" + relative, "/repo/")
        found = lookup(table, spelled.relative, spelled.absolute, {})
        assert found == index.lookup(spelled), relative
    assert {key for key, _ in lookup(table, "q/a/b/c.py", "/repo/q/a/b/c.py", {}) or []} == {0, 7}


def test_each_key_comes_once_with_its_first_glob() -> None:
    """A key carried by several matching rows is reported once, with the glob of the first."""
    table = GlobIndex([("k", "src/**"), ("k", "**/*.py"), ("j", "**/*.py")], bare_anywhere=False).table()
    assert lookup(table, "src/a.py", "/repo/src/a.py", {}) == [("k", "src/**"), ("j", "**/*.py")]


def test_a_row_without_a_pattern_is_left_to_the_library_only_when_reached() -> None:
    """A row whose glob RE2 cannot express makes the lookup undecided, unless its key rules the path out."""
    table = rows("s?c/**/*.py", "**/*.md")
    table[0][7] = None  # as if RE2 had no form of it
    assert lookup(table, "README.md", "/repo/README.md", {}) == [(1, "**/*.md")]
    assert lookup(table, "src/a.py", "/repo/src/a.py", {}) is None


def test_keyed_rows_never_import_re2() -> None:
    """Rows decided by key, place and literals leave ``re2`` (a few milliseconds to import) unimported."""
    table = rows("**/*.py", "src/*.ts", "**/test_*.py", "docs/**", "Makefile")
    code = (
        "import sys\n"
        "from ruleweave._kernel.globtable import lookup\n"
        f"found = lookup({table!r}, 'tests/test_a.py', '/repo/tests/test_a.py', {{}})\n"
        "assert found == [(0, '**/*.py'), (2, '**/test_*.py')], found\n"
        "assert 're2' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_a_lone_surrogate_is_one_character_of_its_own() -> None:
    """A file name that was not UTF-8 is read with a stand-in per lone surrogate: a wildcard matches it
    as one character, and a glob's own lone surrogate matches that one only."""
    assert utf8("ab") == b"ab" and utf8("a\udcffb").decode("utf-8") == f"a{chr(stand_in(0xDCFF))}b"
    wildcard = full_match(r"^(?s:a[^/]b)$")
    assert wildcard is not None and wildcard("a\udcffb") and not wildcard("a\udcffxb")
    index = GlobIndex([("k", "a\udcff?")])
    assert index.lookup(PathSpellings.of("/r/a\udcffz", "/r/")) == [("k", "a\udcff?")]
    assert index.lookup(PathSpellings.of("/r/a\udcfez", "/r/")) == []
    assert full_match("(unclosed") is None
