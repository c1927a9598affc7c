"""Combined RE2 matchers and the RE2 form of wcmatch's regexes."""

from __future__ import annotations

import re
import time
import warnings

import pytest
import re2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wcmatch import glob as wcglob

from ruleweave._kernel.globtable import full_match
from ruleweave.globs._match import Re2Sets
from ruleweave.globs._re2 import re2_pattern, rewrite
from ruleweave.globs._shapes import ALTERNATIVE_FLAGS, alternatives, is_malformed, shape_of, translate


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
def test_basename_patterns_are_exact_on_names(basename: str) -> None:
    """For one segment, the RE2 form matches exactly the file names wcmatch's regex matches."""
    pattern = re2_pattern(basename)
    regex = translate(basename)
    assert pattern is not None and regex is not None
    names = ["a.ts", "a.js", "b.ts", ".ts", "x1.ts", "ab", "aXbYb", "test_.py", "test_a.py", "Q", ".hidden"]
    exact, relaxed = re.compile(regex), re2.compile(pattern)
    for name in names:
        assert (relaxed.fullmatch(name) is None) is (exact.fullmatch(name) is None), (basename, name)


def test_the_forms_have_no_lookarounds_and_keep_what_they_guard() -> None:
    """``a/**/b`` needs a '/' after ``a`` (not ``ab/b``), ``*/a`` a non-empty first segment (not ``/a``)."""
    for glob, yes, no in [
        ("a/**/b", ["a/b", "a/x/y/b"], ["ab/b", "a/xb"]),
        ("*/a", ["x/a"], ["/a", "a"]),
        ("a/**", ["a/x", "a/x/y"], ["a", "ab/x"]),
        ("*", ["x", ".x"], ["", "/"]),
        ("[[:punct:]]x", ["-x", "+x"], ["/x", "ax"]),
    ]:
        pattern = re2_pattern(glob)
        assert pattern is not None and "(?=" not in pattern and "(?!" not in pattern and "(?<" not in pattern
        assert [p for p in yes if not re2.fullmatch(pattern, p)] == [], glob
        assert [p for p in no if re2.fullmatch(pattern, p)] == [], glob
    assert rewrite(r"^(?s:(?!)a)$") == r"^(?s:\b\Ba)$"


def test_what_the_rewrite_does_not_know_is_left_to_wcmatch() -> None:
    """A construct wcmatch does not emit for the dialect (a lookbehind on a letter) has no RE2 form."""
    assert rewrite(r"^(?s:(?<=x)a)$") is None
    assert rewrite(r"^(?s:a\d)$") is None
    assert rewrite("not a wcmatch regex") is None


_GLOB_TOKENS = [
    "a", "b", ".", "..", "/", "//", "*", "**", "?", "[ab]", "[!a]", "[a-c]", "[!z-a]", "[z-a]", "[]a]",
    "[[:alpha:]]", "[[:punct:]]", "[+-0]", "[!/]", "\\", "\\*", "\\/", "**/", "/**/", "/**", "x.ts",
    "test_", "-", " ", "é", "#", "\udcff", "[\ud7ff-\ue000]", "[!\udcff]",
]
_PATH_PARTS = [
    "a", "b", "x", ".a", "ab", "a.ts", "x.ts", "...", "a..b", "-", "+", "é", " ", "#", "]", "test_a",
    "x\udcffy", "\udcfe", "\ue000",  # a lone surrogate: a file name that was not UTF-8
]


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tokens=st.lists(st.sampled_from(_GLOB_TOKENS), min_size=1, max_size=6),
    parts=st.lists(st.sampled_from(_PATH_PARTS), min_size=1, max_size=4),
)
def test_re2_forms_match_like_wcmatch_on_normalised_paths(tokens: list[str], parts: list[str]) -> None:
    """Any small glob: its RE2 form matches a normalised relative, absolute or bare spelling (and ``/``)
    exactly when wcmatch's ``globmatch`` does, lone surrogates included."""
    pattern = "".join(tokens)
    if is_malformed(pattern):
        return
    relative = "/".join(parts)
    for alternative in alternatives(pattern) or ():
        form = re2_pattern(alternative)
        match = None if form is None else full_match(form)
        assert match is not None, (alternative, form)
        for spelling in (relative, "/repo/" + relative, "/" + relative, parts[-1], "/"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                expected = wcglob.globmatch(spelling, alternative, flags=ALTERNATIVE_FLAGS)
            assert match(spelling) is expected, (alternative, spelling, form)


def test_the_catastrophic_glob_is_linear() -> None:
    """The glob that makes wcmatch's regex backtrack for minutes in ``re`` answers at once in RE2."""
    form = re2_pattern("**/a/**/a/**/a/**/a/**/a/**/a/**/c/**/b")
    assert form is not None
    path = "/".join(["a"] * 60) + "/b"
    start = time.perf_counter()
    assert re2.fullmatch(form, path) is None
    assert re2.fullmatch(form, "a/a/a/a/a/a/c/b") is not None
    assert time.perf_counter() - start < 0.1


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
