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


_GLOB_TOKENS = [
    "a", "b", ".", "/", "//", "*", "**", "?", "{a,b}", "[ab]", "x.ts", ".ts", "\\", "-",
    # the shapes the index keys beyond `*.ext`: literal prefixes and suffixes, classes, braces
    "test_", "_test", "Controller", "Dockerfile", ".[jt]s", "[!a]", "{ts,js}", "{y}", "{{y},z}", ",", "}",
    "**/", "src/", "/**/",
]
_PATH_PARTS = [
    "a", "b", "x", ".a", "ab", "a.ts", "x.ts", ".ts", "a.b.ts", "*", "{a,b}",
    "src", "test_a.py", "a_test.go", "UserController.java", "Dockerfile", "Dockerfile.dev", "a.js",
    "{y}", "z",
]


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


_PADDING = [(f"pad{i}", f"zz{i}/*.none") for i in range(16)]  # enough alternatives for directory views


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tokens=st.lists(st.sampled_from(_GLOB_TOKENS), min_size=1, max_size=6),
    parts=st.lists(st.sampled_from(_PATH_PARTS), min_size=1, max_size=4),
    sibling=st.sampled_from(_PATH_PARTS),
)
def test_views_agree_with_wcmatch_property(tokens: list[str], parts: list[str], sibling: str) -> None:
    """Any small glob in an index with views: a file, then another of the same directory (its view's
    answer), match exactly what wcmatch matches."""
    pattern = "".join(tokens)
    index = GlobIndex([("k", pattern), *_PADDING])
    for rel in ("/".join(parts), "/".join([*parts[:-1], sibling])):
        path = spell(rel)
        assert bool(index.lookup(path)) is wcmatch_any(pattern, path), (pattern, rel)


def wcmatch_any(pattern: str, path: PathSpellings) -> bool:
    """What wcmatch itself says: any spelling matches (a malformed glob matches nothing)."""
    if not pattern or is_malformed(pattern):
        return False
    spellings = [s for s in (path.relative, path.absolute, path.name) if s is not None]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return any(wcglob.globmatch(s, pattern, flags=FLAGS) for s in spellings)


SHAPES = [
    # literal name, extension, literal prefix, literal suffix, both, class, braces
    "Dockerfile", "**/Makefile", "*.ts", "**/*.py", "test_*", "**/test_*.py", "src/**/test_*.py",
    "*_test.go", "**/*Controller.java", "**/*_{a,b}.ts", "Dockerfile*", "deploy/**/Dockerfile*",
    "*.[jt]s", "web/**/*.[jt]s", "**/[!a]*.ts", "*a*b*", "x?.ts",
    # directory parts: direct child, below, a directory of that name anywhere, wildcards (generic)
    "src/*.ts", "src/**/*.ts", "src/**", "**/a/*.ts", "**/a/b/*.ts", "**/a/**/*.ts", "**/a/**",
    "src/*/index.ts", "*/a/*.ts", "s?c/**/*.ts", "/repo/src/*.ts", "**", "*", "**/*",
    # oddities: nested one-item braces, literal braces, escapes, `//`, `./`, trailing `/`
    "{{y},z}/b", "{y}/b", "a{b}c", "\\*.ts", "src//*.ts", "./src/*.ts", "src/", "a/../a/*.ts", "[/]x",
]
SHAPE_PATHS = [
    "Dockerfile", "deploy/prod/Dockerfile.dev", "src/app.ts", "src/a/b.ts", "a/x.ts", "x/a/b/c.ts",
    "q/a/b/c.ts", "lib/test_models.py", "src/x/test_.py", "pkg/a_test.go", "src/UserController.java",
    "x_a.ts", "y/z_b.ts", "web/src/app.js", "web/app.ts", "b.ts", "src/index.ts", "src/k/index.ts",
    "acb", "aXbYb", "x1.ts", "Makefile", "sub/Makefile", "{y}/b", "z/b", "a{b}c", "*.ts", "README",
    "[/x", "src/deep/er/file.ts",
]


@pytest.mark.parametrize("pattern", SHAPES)
def test_every_shape_agrees_with_wcmatch(pattern: str) -> None:
    """Each shape the index files, alone in an index, matches exactly what wcmatch matches."""
    index = GlobIndex([("k", pattern)])
    for rel in SHAPE_PATHS:
        for root in ("/repo", "/elsewhere/deep"):
            path = spell(rel, root)
            assert bool(index.lookup(path)) is wcmatch_any(pattern, path), (pattern, rel, root)
    outside = PathSpellings(None, "/other/src/app.ts", "app.ts")
    assert bool(index.lookup(outside)) is wcmatch_any(pattern, outside), pattern


def test_all_shapes_in_one_index_agree_with_wcmatch() -> None:
    """Every shape together in one index gives, per path, exactly the globs wcmatch matches, in order."""
    index = GlobIndex((i, p) for i, p in enumerate(SHAPES))
    for rel in SHAPE_PATHS:
        path = spell(rel)
        found = [key for key, _ in index.lookup(path)]
        assert found == [i for i, p in enumerate(SHAPES) if wcmatch_any(p, path)], rel


def test_nested_one_item_braces_match_like_wcmatch() -> None:
    """``{{y},z}/b`` expands once: it matches ``{y}/b`` and ``z/b``, never ``y/b``."""
    index = GlobIndex([("k", "{{y},z}/b")])
    assert index.lookup(spell("{y}/b")) == [("k", "{{y},z}/b")]
    assert index.lookup(spell("z/b")) == [("k", "{{y},z}/b")]
    assert index.lookup(spell("y/b")) == []
    assert matches("{{y},z}/b", spell("{y}/b")) and not matches("{{y},z}/b", spell("y/b"))


@pytest.mark.parametrize(
    "template",
    [
        "**/a{i}*.ts",  # two literals, filed by the suffix: the group's string tests become a set
        "**/*{i}.[jt]s",  # basename regexes sharing the key "s": one combined RE2 set
        "**/*[0-9]{i}*",  # basename regexes with no literal at all
        "s?c/x{i}/**/*.ts",  # generic (wildcard directory): RE2 prefilter, wcmatch confirms
        "**/a/x{i}/**/*.ts",  # a two-directory needle below any directory
        "src/**/t{i}_*.py",  # anchored under one directory, two literals
    ],
)
def test_big_groups_agree_with_wcmatch(template: str) -> None:
    """Hundreds of globs sharing one key and slot (combined matchers) still match exactly like wcmatch."""
    patterns = [template.format(i=i) for i in range(300)]
    index = GlobIndex((i, p) for i, p in enumerate(patterns))
    probes = [
        "src/a17x.ts", "src/c17.js", "q/z17q", "sxc/x17/e/w.ts", "sxc/x17/w.go", "q/a/x17/y/w.ts",
        "src/k/t17_z.py", "src/t17_.py", "a/x17/w.ts", "src/a299.ts", "lib/none.txt", "a3.ts",
    ]
    for rel in probes:
        path = spell(rel)
        expected = [i for i, p in enumerate(patterns) if wcmatch_any(p, path)]
        assert [key for key, _ in index.lookup(path)] == expected, (template, rel)


def test_name_with_a_lone_surrogate_is_matched_without_re2() -> None:
    """A file name that is not valid UTF-8 (a lone surrogate) still matches regex-shaped globs."""
    name = "bad\udcff.js"
    index = GlobIndex([("js", "*.[jt]s"), ("any", "**/*"), ("gen", "s?c/**/*.js")])
    found = {key for key, _ in index.lookup(spell(f"src/{name}"))}
    assert found == {"js", "any", "gen"}


def test_path_spellings_are_normalised() -> None:
    """``//``, ``.`` and ``..`` segments and a trailing ``/`` are normalised before matching."""
    spelled = PathSpellings.of("/repo//src/./a/../b.ts", "/repo/")
    assert spelled == PathSpellings("src/b.ts", "/repo/src/b.ts", "b.ts")
    assert GlobIndex([("k", "src/*.ts")]).lookup(spelled) == [("k", "src/*.ts")]


def test_glob_past_the_expansion_limit_matches_nothing_everywhere() -> None:
    """A glob with more than 1,000 brace alternatives matches nothing, in the index and alone."""
    hostile = "{a,b,c,d,e,f,g,h,i,j}{a,b,c,d,e,f,g,h,i,j}{a,b,c,d,e,f,g,h,i,j}{a,b}.ts"
    assert GlobIndex([("h", hostile)]).lookup(spell("aaaa.ts")) == []
    assert not matches(hostile, spell("aaaa.ts"))


def test_empty_index_and_index_size() -> None:
    """An index counts its distinct brace alternatives; an empty index matches nothing."""
    assert GlobIndex([]).lookup(spell("a.ts")) == []
    index = GlobIndex([("a", "*.{ts,tsx}"), ("b", "*.{ts,tsx}"), ("c", "[bad"), ("d", "")])
    assert index.size == 2
    assert [key for key, _ in index.lookup(spell("x.tsx"))] == ["a", "b"]


VIEW_SHAPES = [
    # every shape a view decides: keys, places, tests, and generic alternatives split at their last `/`
    "Dockerfile", "**/Makefile", "*.ts", "**/*.py", "**/test_*.py", "src/**/test_*.py", "*_test.go",
    "deploy/**/Dockerfile*", "web/**/*.[jt]s", "**/[!a]*.ts", "src/*.ts", "src/**/*.ts", "src/**",
    "**/a/*.ts", "**/a/b/*.ts", "**/a/**/*.ts", "**/a/**", "src/*/index.ts", "*/a/*.ts", "s?c/**/*.ts",
    "/repo/src/*.ts", "**/*", "packages/*/src/area{1,2}/**", "packages/*/src/**/*_{a,b}.ts",
    "src/**/a/*.ts", "**/a*/b.ts", "/re*/src/*.go", "x/*/y/**", "{y}/b", "src//*.ts",
]
VIEW_DIRECTORIES = [
    "", "src", "src/a", "src/a/b", "src/k", "a", "x/a/b", "q/a/b", "deploy/prod", "web/src", "sxc/x",
    "packages/p/src/area1", "packages/p/src/area1/deep", "packages/p/src", "packages/q/src/area3",
    "x/z/y", "x/z/y/w", "ab", "{y}", "lib",
]
VIEW_NAMES = [
    "Dockerfile", "Dockerfile.dev", "Makefile", "app.ts", "b.ts", "index.ts", "test_m.py", "m.py",
    "a_test.go", "w.js", "bad.ts", "x_a.ts", "area1", "b", "README", "main.go",
]


BIG_BATCHES = [
    # dozens of generic globs under one literal prefix: split at their last `/`, one RE2 set per prefix
    *(f"packages/*/src/area{i}/**" for i in range(40)),
    *(f"packages/p/*/x{i}/*.ts" for i in range(40)),
    *(f"x/*/y{i}/*_test.go" for i in range(36)),
    *(f"lib/*/z{i}/a?c*.py" for i in range(34)),
]
ANYWHERE_BATCH = [f"**/deep/*/w{i}/*.go" for i in range(40)]  # no literal prefix: the absolute path counts


@pytest.mark.parametrize(
    "patterns",
    [VIEW_SHAPES, VIEW_SHAPES + BIG_BATCHES, [*ANYWHERE_BATCH, "**/m.*"]],
    ids=["few", "batches", "anywhere"],
)
def test_directory_views_decide_new_names_like_wcmatch(patterns: list[str]) -> None:
    """A directory's view (its candidates, each left with a test of the name) answers every new file
    of it exactly as wcmatch does: each shape, generic ones on the whole path or, in batches of dozens,
    split at their last ``/``; under two roots."""
    index = GlobIndex((i, p) for i, p in enumerate(patterns))
    directories = [*VIEW_DIRECTORIES, "packages/q/src/area7", "packages/p/q/x3", "packages/p/q/x3/r"]
    directories += ["x/w/y5", "lib/k/z4", "q/w3", "deep/q/w3", "q/deep/w3"]
    names = [*VIEW_NAMES, "f_test.go", "abc.py", "axcq.py", "b.py", "m.go"]
    for root in ("/repo", "/elsewhere/deep"):
        for directory in directories:
            for name in names:
                path = spell(f"{directory}/{name}" if directory else name, root)
                expected = [i for i, p in enumerate(patterns) if wcmatch_any(p, path)]
                assert [key for key, _ in index.lookup(path)] == expected, (root, directory, name)
    views = index._views
    assert views is not None  # the views answered, not the index's own lookup
    answered = [view for view in views._memo.values() if view.candidates is not None]
    assert len(answered) == 2 * len(directories)


def test_a_batch_of_the_index_s_own_patterns_reuses_its_set() -> None:
    """Dozens of ``packages/*/src/areaN/**``: the views' batch and the index's group hold the same patterns,
    so one RE2 set serves both, and files below and beside the areas match as wcmatch says."""
    patterns = [f"packages/*/src/area{i}/**" for i in range(40)] + ["docs/*.md", "**/*.py"]
    index = GlobIndex((i, p) for i, p in enumerate(patterns))
    assert index._views is not None
    assert index._views._split["packages/"]._sets is index._rest.under["packages/"]._generic_sets
    for rel in ("packages/q/src/area7/a.ts", "packages/q/src/area7/deep/b.py", "packages/q/src/area70/c.ts",
                "packages/q/src/d.ts", "packages/q/lib/area7/e.ts", "docs/f.md"):
        for _ in range(2):
            path = spell(rel)
            expected = [i for i, p in enumerate(patterns) if wcmatch_any(p, path)]
            assert [key for key, _ in index.lookup(path)] == expected, rel


def test_a_directory_is_viewed_again_under_another_root() -> None:
    """One absolute directory read under two project roots (two relative spellings) is decided for each."""
    others = [(f"o{i}", f"lib{i}/*.py") for i in range(20)]  # enough alternatives for views
    index = GlobIndex([("src", "src/*.ts"), ("top", "*.ts"), *others], bare_anywhere=False)
    as_src = PathSpellings("src/a.ts", "/repo/src/a.ts", "a.ts")
    as_top = PathSpellings("a.ts", "/repo/src/a.ts", "a.ts")
    for _ in range(2):
        assert index.lookup(as_src) == [("src", "src/*.ts")]
        assert index.lookup(as_top) == [("top", "*.ts")]
    assert index._views is not None and index._views._memo["/repo/src/"].directory == ""


def test_small_indexes_hold_no_views() -> None:
    """A rule's exclusions or a streamed rule's scope (a few globs) keep no memo of directories."""
    index = GlobIndex([("k", "src/**/*.ts"), ("j", "**/test_*.py")])
    assert index.lookup(spell("src/a/b.ts")) == [("k", "src/**/*.ts")]
    assert index._views is None


def test_crowded_directories_and_floods_fall_back_to_the_index() -> None:
    """Past ``MAX_CANDIDATES`` alternatives for one directory, or allowed anywhere, the index's own lookup
    answers, with the same result."""
    from ruleweave.globs._views import MAX_CANDIDATES

    crowded = [f"src/**/*.x{i}" for i in range(MAX_CANDIDATES + 5)] + ["lib/*.x3"]
    index = GlobIndex((i, p) for i, p in enumerate(crowded))
    for rel in ("src/a/f.x3", "src/a/g.x7", "lib/f.x3", "lib/f.x7"):
        path = spell(rel)
        expected = [i for i, p in enumerate(crowded) if wcmatch_any(p, path)]
        assert [k for k, _ in index.lookup(path)] == expected
    assert index._views is not None
    assert index._views._memo["/repo/src/a/"].candidates is None  # too many: the index decided
    assert index._views._memo["/repo/lib/"].candidates is not None
    flood = GlobIndex((i, f"**/*.f{i}") for i in range(MAX_CANDIDATES + 1))
    assert flood._views is None
    assert flood.lookup(spell("a/b.f7")) == [(7, "**/*.f7")]
