"""The index against a plain matcher (``wcmatch.glob.globmatch``) on every glob shape of the benchmark.

``benchmarks/bench_after_tool.py`` times the glob mix of ``tests/glob_mix.py``
against a combined RE2 set; these tests make sure the speed is the speed of the
right answer: the same globs and paths, both dialects, both doors (the index
and the glob table the hook reads), and a real session over the rule files.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from wcmatch import glob as wcglob

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from ruleweave._kernel import globtable
from ruleweave.globs import FLAGS, GlobIndex, PathSpellings
from tests.glob_mix import KINDS, every_shape, make_paths, path_for, rule_globs, write_rules

ROOT = "/work/repo"


def _paths(count: int) -> list[str]:
    """Tool-call paths of the mix, aimed at the shapes' areas and around them (other depths, roots)."""
    rng = random.Random(11)
    out = make_paths(count, KINDS * 2)
    for n in range(count):
        rel = path_for(rng, n % KINDS + 1)
        head, _, name = rel.rpartition("/")
        out.extend([rel, f"{head}/{rng.choice(('x', 'x/y', 'src'))}/{name}", f"vendor/{rel}", name])
    return out


def _spell(rel: str) -> PathSpellings:
    return PathSpellings.of(f"{ROOT}/{rel}", f"{ROOT}/")


def _plain(glob: str, path: PathSpellings, bare_anywhere: bool) -> bool:
    spellings = [path.relative, path.absolute, path.name if bare_anywhere else None]
    return any(wcglob.globmatch(s, glob, flags=FLAGS) for s in spellings if s is not None)


@pytest.mark.parametrize("bare_anywhere", [True, False])
def test_the_index_matches_what_wcmatch_matches_on_every_shape(bare_anywhere: bool) -> None:
    """Each shape of the mix, alone and all together, finds exactly the paths wcmatch's globmatch finds."""
    shapes = every_shape()
    index = GlobIndex(enumerate(shapes), bare_anywhere=bare_anywhere)
    rows = index.table()
    patterns: dict[str | None, globtable.Matcher | None] = {}
    matched_somewhere: set[int] = set()
    for rel in _paths(800):
        path = _spell(rel)
        expected = {i for i, glob in enumerate(shapes) if _plain(glob, path, bare_anywhere)}
        matched_somewhere |= expected
        assert {key for key, _ in index.lookup(path)} == expected, rel
        from_table = globtable.lookup(rows, path.relative, path.absolute, patterns)
        assert from_table is not None and {key for key, _ in from_table} == expected, rel
    # Every shape met a path it matches: the comparison was never only about misses.
    assert matched_somewhere == set(range(len(shapes)))


def test_a_session_over_the_mix_notices_what_wcmatch_and_the_negations_say(tmp_path: Path) -> None:
    """Cursor and Continue rules of the mix: each call notices the rules whose globs match, less the
    rules whose ``!`` globs match (Continue's negation)."""
    rules = 2 * KINDS + 1
    root = tmp_path / "repo"
    write_rules(root, rules)
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False, max_rule_files=1000))
    assert len(ruleset.buckets.scoped) == rules
    noticed_any = 0
    for n, rel in enumerate(make_paths(400, rules // 2 + 1, seed=5)):
        path = PathSpellings.of(f"{root}/{rel}", f"{root}/")
        expected = set()
        for i in range(rules):
            globs, negated = rule_globs(i)
            hit = any(_plain(g, path, False) for g in globs)
            if hit and not any(_plain(g, path, False) for g in negated):
                expected.add(f"rule{i:05d}")
        session = ruleset.session(f"s{n}", store=MemoryStore())
        injection = session.after_tool_call("read_file", {"path": f"{root}/{rel}"})
        got = {item.name for item in injection.items} if injection is not None else set()
        assert got == expected, rel
        noticed_any += bool(got)
    assert noticed_any > 100
