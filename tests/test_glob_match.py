"""Combined RE2 matchers and the RE2 form of wcmatch's regexes."""

from __future__ import annotations

import re

import pytest

from ruleweave.globs._match import Re2Sets
from ruleweave.globs._shapes import basename_re2, re2_form, shape_of, translate


def test_sets_report_every_matching_pattern_across_chunks() -> None:
    """600 patterns (three RE2 sets) report the index of each one that matches, whichever set holds it."""
    patterns: list[str | None] = [rf"^(?:f{i}|both)\.ts$" for i in range(600)]
    sets = Re2Sets(patterns)
    assert sets.unsupported == []
    assert sets.match(b"f7.ts") == [7]
    assert sets.match(b"f599.ts") == [599]
    assert sorted(sets.match(b"both.ts")) == list(range(600))
    assert sets.match(b"none.ts") == []


def test_patterns_re2_cannot_take_are_listed_not_lost() -> None:
    """A missing pattern or one RE2 rejects is reported as unsupported; the others still match."""
    sets = Re2Sets([None, r"^a$", r"^(?=b)b$", r"^c$"])
    assert sorted(sets.unsupported) == [0, 2]
    assert sets.match(b"a") == [1]
    assert sets.match(b"c") == [3]


@pytest.mark.parametrize(
    "basename", ["*.[jt]s", "[!a]*.ts", "*a*b*", "x?.ts", "[[:alpha:]]*", "*.{ts}", "test_*.py", ".*"]
)
def test_basename_regex_without_lookarounds_is_exact_on_names(basename: str) -> None:
    """For one segment, dropping wcmatch's lookarounds changes nothing on real file names."""
    pattern = basename_re2(basename)
    regex = translate(basename)
    assert pattern is not None and regex is not None
    names = ["a.ts", "a.js", "b.ts", ".ts", "x1.ts", "ab", "aXbYb", "test_.py", "test_a.py", "Q", ".hidden"]
    exact, relaxed = re.compile(regex), re.compile(pattern)
    for name in names:
        assert (relaxed.fullmatch(name) is None) is (exact.fullmatch(name) is None), (basename, name)


def test_re2_form_widens_and_says_when_it_is_not_exact() -> None:
    """A lookaround that can fail on a name (``(?=[/])`` of ``a/**``) is dropped and flagged."""
    regex = translate("a/**/b")
    assert regex is not None
    pattern, exact = re2_form(regex)
    assert "(?=" not in pattern and "(?!" not in pattern
    assert exact is False
    assert re2_form(r"^(?!)a$") == (r"^\b\Ba$", True)


def test_shapes_of_common_globs() -> None:
    """Common globs get the shapes the index files them by."""
    got = {g: (shape_of(g).key_kind, shape_of(g).key, shape_of(g).base, shape_of(g).dir_mode) for g in [
        "**/*.ts", "src/**/test_*.py", "**/*Controller.java", "deploy/Dockerfile*", "*.[jt]s",
        "**/migrations/*.sql", "src/*/index.ts", "src/**", "**",
    ]}
    assert got == {
        "**/*.ts": ("suffix", ".ts", "suffix", "float"),
        "src/**/test_*.py": ("prefix", "test_", "prefix_suffix", "under"),
        "**/*Controller.java": ("suffix", "Controller.java", "suffix", "float"),
        "deploy/Dockerfile*": ("prefix", "Dockerfile", "prefix", "child"),
        "*.[jt]s": ("suffix", "s", "regex", "float"),
        "**/migrations/*.sql": ("suffix", ".sql", "suffix", "seg_child"),
        "src/*/index.ts": ("name", "index.ts", "none", "generic"),
        "src/**": ("rest", "", "none", "all_under"),
        "**": ("rest", "", "none", "everything"),
    }
