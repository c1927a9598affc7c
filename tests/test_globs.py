"""The one glob dialect and the glob index."""

from __future__ import annotations

import itertools
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wcmatch import glob as wcglob

from ruleweave.globs import (
    FLAGS,
    GlobIndex,
    PathSpellings,
    compile_glob,
    is_malformed,
    matches,
)


def spell(rel: str, root: str = "/repo") -> PathSpellings:
    return PathSpellings(rel, f"{root}/{rel}", rel.rsplit("/", 1)[-1])


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("src/**/*.rs", "src/lib.rs", True),
        ("src/**/*.rs", "src/a/b/c.rs", True),
        ("a/**/b", "a/b", True),
        ("src/*.{ts,tsx}", "src/app.tsx", True),
        ("src/*.{ts,tsx}", "src/app.js", False),
        ("**/*.md", ".github/notes.md", True),
        (".github/**", ".github/workflows/ci.yml", True),
        ("*.py", "pkg/mod.py", False),
        ("[abc", "[abc", False),
        ("", "x", False),
    ],
)
def test_dialect(pattern: str, path: str, expected: bool) -> None:
    """Globstar matches zero directories, braces expand, dotfiles match, '[' unclosed matches nothing."""
    assert compile_glob(pattern)(path) is expected


def test_three_spellings() -> None:
    """A glob matches the relative path, the absolute path or the bare file name."""
    assert matches("*.py", spell("pkg/mod.py"))
    assert matches("/repo/pkg/*.py", spell("pkg/mod.py"))
    assert matches("pkg/*.py", spell("pkg/mod.py"))
    assert not matches("other/*.py", spell("pkg/mod.py"))


def test_malformed_detection() -> None:
    """Only an unclosed bracket is malformed; escaped or closed brackets are fine."""
    assert is_malformed("src/[abc")
    assert not is_malformed("src/[abc]/x")
    assert not is_malformed("src/\\[abc")


PATTERNS = [
    "**/*.ts", "src/**/*.{ts,tsx}", "*.md", "docs/**", "**/Dockerfile", "Makefile",
    "services/api/**/*.py", "a/**/b", "*.test.ts", ".github/workflows/*.yml", "[bad",
    "/repo/abs/*.txt", "src/*", "**/*", "lib/?.js", "**/{package,tsconfig}.json",
    "src//*.ts", "\\{a,b}.ts", "lit\\eral", "app/\\[slug\\]/*.tsx",
]
PATHS = [
    "src/app.ts", "src/ui/button.tsx", "README.md", "docs/guide/intro.md", "Dockerfile",
    "deploy/Dockerfile", "Makefile", "services/api/handlers.py", "services/api/v1/x.py",
    "a/b", "a/x/y/b", "src/app.test.ts", ".github/workflows/ci.yml", "abs/note.txt",
    "lib/a.js", "lib/ab.js", "package.json", "web/tsconfig.json", "[bad", "x.py",
    "src/x.ts", "{a,b}.ts", "a.ts", "literal", "app/[slug]/page.tsx",
]


def test_index_agrees_with_plain_matching() -> None:
    """The index returns exactly what testing every glob on every spelling returns."""
    index = GlobIndex((f"rule{i}", p) for i, p in enumerate(PATTERNS))
    for rel in PATHS:
        path = spell(rel)
        expected = {f"rule{i}" for i, p in enumerate(PATTERNS) if matches(p, path)}
        assert {key for key, _ in index.lookup(path)} == expected, rel


def test_index_reports_first_matching_glob_once_per_key() -> None:
    """A key with several matching globs appears once, with the glob that matched."""
    index = GlobIndex([("ts", "**/*.ts"), ("ts", "src/**"), ("md", "*.md")])
    found = index.lookup(spell("src/app.ts"))
    assert [key for key, _ in found] == ["ts"]
    assert found[0][1] in {"**/*.ts", "src/**"}


def test_index_handles_brace_explosion() -> None:
    """A brace pattern expanding to thousands of globs matches nothing instead of blowing up."""
    hostile = "".join(itertools.repeat("{a,b}", 12)) + ".ts"
    index = GlobIndex([("h", hostile), ("ok", "*.ts")])
    assert {k for k, _ in index.lookup(spell("x.ts"))} == {"ok"}
    assert {k for k, _ in index.lookup(spell("a" * 12 + ".ts"))} == {"ok"}


_GLOB_TOKENS = ["a", "b", ".", "/", "//", "*", "**", "?", "{a,b}", "[ab]", "x.ts", ".ts", "\\", "-"]
_PATH_PARTS = ["a", "b", "x", ".a", "ab", "a.ts", "x.ts", ".ts", "a.b.ts", "*", "{a,b}"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tokens=st.lists(st.sampled_from(_GLOB_TOKENS), min_size=1, max_size=6),
    parts=st.lists(st.sampled_from(_PATH_PARTS), min_size=1, max_size=4),
)
def test_index_agrees_with_plain_matching_property(tokens: list[str], parts: list[str]) -> None:
    """Any small glob over a fixed alphabet: index, plain matcher and wcmatch globmatch agree."""
    pattern = "".join(tokens)
    path = spell("/".join(parts))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        expected = matches(pattern, path)
        if not is_malformed(pattern):
            spellings = [s for s in (path.relative, path.absolute, path.name) if s is not None]
            assert expected is any(wcglob.globmatch(s, pattern, flags=FLAGS) for s in spellings)
        assert bool(GlobIndex([("k", pattern)]).lookup(path)) is expected, (pattern, path)
