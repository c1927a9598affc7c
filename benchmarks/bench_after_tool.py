"""after_tool_call speed: 1,000 scoped rules × 3 globs against 3,000 tool-call paths.

Compares ``RuleSession.after_tool_call`` with a naive but sensible baseline
run in the same process: every glob precompiled once with
``wcmatch.glob.compile``, then per call a linear scan of every rule × glob
× the three path spellings. Also reports growth from 100 to 1,000 rules and
``RuleSet.load`` time. Run: ``python benchmarks/bench_after_tool.py``.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from wcmatch import glob as wcglob

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from ruleweave.globs import FLAGS

EXTS = ("ts", "tsx", "py", "go", "rs", "md", "yml", "sh", "java", "rb")


def rule_globs(i: int) -> list[str]:
    """Three realistic globs for rule ``i``: package-scoped, language-wide, special files."""
    ext = EXTS[i % len(EXTS)]
    return [
        f"packages/pkg{i}/**/*.{ext}",
        f"services/svc{i % 300}/src/**/*.{{{ext},json}}",
        f"**/*.gen{i}.{ext}" if i % 7 else f"**/Dockerfile.{i}",
    ]


def make_repo(base: Path, rules: int) -> Path:
    root = base / f"repo{rules}"
    (root / ".git").mkdir(parents=True)
    rule_dir = root / ".cursor" / "rules"
    rule_dir.mkdir(parents=True)
    for i in range(rules):
        globs = ", ".join(rule_globs(i))
        (rule_dir / f"rule{i:04d}.mdc").write_text(
            f"---\ndescription: conventions for area {i}\nglobs: {globs}\n---\n"
            f"Follow the conventions of area {i}.\n",
            encoding="utf-8",
        )
    return root


def make_paths(count: int, rules: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        i = rng.randrange(rules * 2)  # half the calls touch areas no rule covers
        ext = EXTS[i % len(EXTS)]
        kind = rng.randrange(5)
        if kind == 0:
            out.append(f"packages/pkg{i}/src/components/widget{rng.randrange(50)}.{ext}")
        elif kind == 1:
            out.append(f"services/svc{i % 300}/src/api/handler{rng.randrange(20)}.json")
        elif kind == 2:
            out.append(f"docs/area{i}/README.md")
        elif kind == 3:
            out.append(f"tools/scripts/run{i}.sh")
        else:
            out.append(f"apps/web/src/pages/page{i}.tsx")
    return out


def per_call_us(fn: Callable[[str], object], paths: list[str], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for path in paths:
            fn(path)
        samples.append((time.perf_counter() - start) / len(paths) * 1e6)
    return statistics.median(samples)


def measure(base: Path, rules: int, paths: list[str], repeats: int) -> tuple[float, float, float]:
    root = make_repo(base, rules)
    config = RuleweaveConfig(cwd=root, max_rule_files=10_000, builtin_rules=False)
    loads = []
    for _ in range(5):
        start = time.perf_counter()
        ruleset = RuleSet.load(config)
        loads.append(time.perf_counter() - start)
    assert len(ruleset.buckets.scoped) == rules, len(ruleset.buckets.scoped)
    sessions = iter(range(10**9))

    def fresh_session_call() -> Callable[[str], object]:
        session = ruleset.session(f"bench-{next(sessions)}", store=MemoryStore())
        return lambda path: session.after_tool_call("read_file", {"path": path})

    # Warm the lazily compiled index once, as a long-lived agent process would be.
    warm = fresh_session_call()
    for path in paths:
        warm(path)
    us = statistics.median(per_call_us(fresh_session_call(), paths, 1) for _ in range(repeats))
    idle = ruleset.session("idle")
    queries = [f"grep pattern {i}" for i in range(len(paths))]
    nothing = per_call_us(lambda q: idle.after_tool_call("grep", {"query": q}), queries, repeats)
    return us, statistics.median(loads) * 1000, nothing


def precompile_ms(rules: int) -> float:
    """What loading would cost if it compiled every glob up front (the thing we avoid)."""
    start = time.perf_counter()
    for i in range(rules):
        for glob in rule_globs(i):
            wcglob.compile(glob, flags=FLAGS)
    return (time.perf_counter() - start) * 1000


def naive_us(base: Path, rules: int, paths: list[str]) -> float:
    root = base / f"repo{rules}"
    compiled = [
        [wcglob.compile(g, flags=FLAGS) for g in rule_globs(i)] for i in range(rules)
    ]

    def call(rel: str) -> list[int]:
        absolute = f"{root}/{rel}"
        name = rel.rsplit("/", 1)[-1]
        hits = []
        for index, globs in enumerate(compiled):
            if any(m.match(s) for m in globs for s in (rel, absolute, name)):
                hits.append(index)
        return hits

    return per_call_us(call, paths[:300], 1)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        paths_1000 = make_paths(3000, 1000)
        paths_100 = make_paths(3000, 100)
        us_1000, load_1000, idle_1000 = measure(base, 1000, paths_1000, 5)
        us_100, load_100, idle_100 = measure(base, 100, paths_100, 5)
        baseline = naive_us(base, 1000, paths_1000)
        eager = precompile_ms(1000)
        print("after_tool_call, 3 globs per rule, 3,000 tool-call paths")
        print(f"{'':32}{'100 rules':>14}{'1,000 rules':>14}")
        print(f"{'ruleweave µs/call (median)':32}{us_100:14.1f}{us_1000:14.1f}")
        print(f"{'RuleSet.load ms (median)':32}{load_100:14.1f}{load_1000:14.1f}")
        print(f"{'call touching no path µs':32}{idle_100:14.2f}{idle_1000:14.2f}")
        print(f"{'naive baseline µs/call':32}{'':14}{baseline:14.1f}")
        print(f"{'precompiling all globs ms':32}{'':14}{eager:14.1f}  (RuleSet.load skips this)")
        print(f"speed-up vs naive at 1,000 rules: {baseline / us_1000:.0f}x (goal >= 200x)")
        print(f"growth 100 -> 1,000 rules: {us_1000 / us_100:.2f}x (goal <= 2x)")


if __name__ == "__main__":
    main()
