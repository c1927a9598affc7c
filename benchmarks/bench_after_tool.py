"""after_tool_call speed: scoped rules × 3 globs against 3,000 tool-call paths, in two glob mixes.

* **classic**: every rule's globs end in ``*.ext`` or a literal name
  (``packages/pkg7/**/*.ts``, ``services/svc7/src/**/*.{ts,json}``,
  ``**/*.gen7.ts``, ``**/Dockerfile.7``) — the shapes an extension index keys.
* **mixed shapes**: two rules in three use the shapes such an index cannot
  key: a literal prefix and suffix (``packages/pkg7/**/test_*.py``,
  ``**/Area7*Controller.java``), a literal suffix that is not an extension
  (``**/*_area7_test.go``), braces over such suffixes
  (``services/svc7/**/*_{handler,service}.ts``), a literal prefix
  (``deploy/area7/**/Dockerfile*``) and a character class
  (``**/*.area7.[jt]s``, ``web/w7/**/*.[jt]s``).

For each mix, in one process: the cost of a call in a warm process (every
directory touched before; median of fresh sessions), the cost of a call
touching a directory never touched before and of repeating exactly those
calls in a fresh session (first touch against repeat), growth from 100 to
1,000 rules, ``RuleSet.load``, and a naive baseline run in the same process:
every glob precompiled with ``wcmatch.glob.compile``, then per call a
linear scan of every rule × glob × the three path spellings.

Last, a hostile repository whose rules write 100,000 globs: load time, the
cap warnings, and the slowest of 2,000 calls (first touches included).

Goals: mixed shapes at 1,000 rules ≥ 200x faster than the naive scan;
100 → 1,000 rules ≤ 2x the time; first touch of a directory ≤ 3x a repeat;
hostile repository: no call over 5 ms.

Run: ``python benchmarks/bench_after_tool.py`` (``--runs N`` timed runs).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from wcmatch import glob as wcglob

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from ruleweave.globs import FLAGS

EXTS = ("ts", "tsx", "py", "go", "rs", "md", "yml", "sh", "java", "rb")
GOAL_SPEEDUP = 200.0
GOAL_GROWTH = 2.0
GOAL_FIRST = 3.0
GOAL_HOSTILE_MS = 5.0

GlobsFor = Callable[[int], list[str]]
PathFor = Callable[[random.Random, int], str]


def classic_globs(i: int) -> list[str]:
    """Three globs for rule ``i`` ending in ``*.ext`` or a literal name."""
    ext = EXTS[i % len(EXTS)]
    return [
        f"packages/pkg{i}/**/*.{ext}",
        f"services/svc{i % 300}/src/**/*.{{{ext},json}}",
        f"**/*.gen{i}.{ext}" if i % 7 else f"**/Dockerfile.{i}",
    ]


def mixed_globs(i: int) -> list[str]:
    """Rule ``i``'s globs: one in three classic, the others in shapes an extension index cannot key."""
    kind = i % 3
    if kind == 0:
        return classic_globs(i)
    area = f"area{i}"
    if kind == 1:
        return [
            f"packages/pkg{i}/**/test_*.py",
            f"**/*_{area}_test.go",
            f"**/Area{i}*Controller.java",
        ]
    return [
        f"services/svc{i % 300}/**/*_{{handler,service}}.ts",
        f"deploy/{area}/**/Dockerfile*",
        f"**/*.{area}.[jt]s" if i % 4 else f"web/w{i}/**/*.[jt]s",
    ]


def classic_path(rng: random.Random, i: int) -> str:
    """A path for area ``i`` (half the areas have no rule): ``dir/name``."""
    ext = EXTS[i % len(EXTS)]
    kind = rng.randrange(5)
    if kind == 0:
        return f"packages/pkg{i}/src/components/widget{rng.randrange(50)}.{ext}"
    if kind == 1:
        return f"services/svc{i % 300}/src/api/handler{rng.randrange(20)}.json"
    if kind == 2:
        return f"docs/area{i}/README.md"
    if kind == 3:
        return f"tools/scripts/run{i}.sh"
    return f"apps/web/src/pages/page{i}.tsx"


def mixed_path(rng: random.Random, i: int) -> str:
    """A path for area ``i`` in the mixed repository: classic paths, and the unusual shapes."""
    kind = rng.randrange(8)
    if kind == 0:
        return classic_path(rng, i)
    if kind == 1:
        return f"packages/pkg{i}/tests/unit/test_models{rng.randrange(9)}.py"
    if kind == 2:
        return f"cmd/tools/sync_area{i}_test.go"
    if kind == 3:
        return f"src/main/java/com/acme/Area{i}User{rng.randrange(9)}Controller.java"
    if kind == 4:
        return f"services/svc{i % 300}/src/api/orders_{('handler', 'service', 'model')[rng.randrange(3)]}.ts"
    if kind == 5:
        return f"deploy/area{i}/docker/Dockerfile.{('prod', 'dev')[rng.randrange(2)]}"
    if kind == 6:
        return f"web/w{i}/src/widget.area{i}.{('js', 'ts', 'css')[rng.randrange(3)]}"
    return f"lib/misc/file{i}.txt"


def make_paths(
    count: int, rules: int, path_for: PathFor = classic_path, seed: int = 7, fresh: str = ""
) -> list[str]:
    """``count`` paths over ``2 × rules`` areas; with ``fresh``, each in a directory of its own."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        rel = path_for(rng, rng.randrange(rules * 2))
        if fresh:
            head, _, name = rel.rpartition("/")
            rel = f"{head}/{fresh}{n}/{name}"
        out.append(rel)
    return out


def write_files(root: Path, paths: list[str]) -> None:
    """Create the touched files, so that a first touch meets real directories."""
    for rel in paths:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()


def make_repo(base: Path, rules: int, globs_for: GlobsFor = classic_globs, label: str = "") -> Path:
    """A repository with ``rules`` Cursor rules, three globs each (``bench_store`` uses it too)."""
    root = base / (label or f"repo{rules}")
    (root / ".git").mkdir(parents=True)
    rule_dir = root / ".cursor" / "rules"
    rule_dir.mkdir(parents=True)
    for i in range(rules):
        globs = ", ".join(globs_for(i))
        (rule_dir / f"rule{i:04d}.mdc").write_text(
            f"---\ndescription: conventions for area {i}\nglobs: {globs}\n---\n"
            f"Follow the conventions of area {i}.\n",
            encoding="utf-8",
        )
    return root


def per_call_us(fn: Callable[[str], object], paths: list[str]) -> float:
    """Mean µs of ``fn`` over ``paths``."""
    start = time.perf_counter()
    for path in paths:
        fn(path)
    return (time.perf_counter() - start) / len(paths) * 1e6


@dataclass(frozen=True)
class Result:
    """One repository's numbers (µs per call, ms per load)."""

    repeat_us: float
    first_us: float
    first_repeat_us: float
    load_ms: float
    idle_us: float


class Bench:
    """One generated repository, loaded, with its paths and a way to call it."""

    def __init__(self, base: Path, label: str, rules: int, globs_for: GlobsFor, path_for: PathFor,
                 runs: int) -> None:
        self.root = make_repo(base, rules, globs_for, label)
        self.paths = make_paths(3000, rules, path_for)
        self.fresh_sets = [
            make_paths(600, rules, path_for, seed=100 + r, fresh=f"new{r}x") for r in range(runs)
        ]
        write_files(self.root, self.paths)
        for fresh in self.fresh_sets:
            write_files(self.root, fresh)
        config = RuleweaveConfig(cwd=self.root, max_rule_files=10_000, builtin_rules=False)
        loads = []
        for _ in range(5):
            start = time.perf_counter()
            self.ruleset = RuleSet.load(config)
            loads.append(time.perf_counter() - start)
        self.load_ms = statistics.median(loads) * 1000
        assert len(self.ruleset.buckets.scoped) == rules, len(self.ruleset.buckets.scoped)
        self._sessions = iter(range(10**9))
        # A long-lived agent process: every directory of `paths` touched once already.
        warm = self.call_in_fresh_session()
        for rel in self.paths:
            warm(rel)
        self.repeat: list[float] = []
        self.first: list[float] = []
        self.first_repeat: list[float] = []
        self.idle: list[float] = []

    def call_in_fresh_session(self) -> Callable[[str], object]:
        """``after_tool_call`` reading one path, in a new session (no notice claimed yet)."""
        session = self.ruleset.session(f"bench-{next(self._sessions)}", store=MemoryStore())
        root = self.root
        return lambda rel: session.after_tool_call("read_file", {"path": f"{root}/{rel}"})

    def run(self, round_: int) -> None:
        """One round: warm calls, first touches and their repeat, calls touching nothing."""
        self.repeat.append(per_call_us(self.call_in_fresh_session(), self.paths))
        fresh = self.fresh_sets[round_]
        self.first.append(per_call_us(self.call_in_fresh_session(), fresh))  # directories never touched
        self.first_repeat.append(per_call_us(self.call_in_fresh_session(), fresh))  # the same calls again
        idle = self.ruleset.session(f"idle-{round_}")
        queries = [f"grep pattern {i}" for i in range(len(self.paths))]
        self.idle.append(per_call_us(lambda q: idle.after_tool_call("grep", {"query": q}), queries))

    def result(self) -> Result:
        """Medians over the rounds."""
        med = statistics.median
        return Result(med(self.repeat), med(self.first), med(self.first_repeat), self.load_ms, med(self.idle))


def measure(
    base: Path, slug: str, globs_for: GlobsFor, path_for: PathFor, runs: int
) -> tuple[Result, Result]:
    """100 and 1,000 rules, measured in interleaved rounds so that machine load hits both alike."""
    benches = [Bench(base, f"{slug}-{rules}", rules, globs_for, path_for, runs) for rules in (100, 1000)]
    for round_ in range(runs):
        for bench in benches:
            bench.run(round_)
    return benches[0].result(), benches[1].result()


def naive_us(root: Path, rules: int, globs_for: GlobsFor, paths: list[str]) -> float:
    """Precompiled wcmatch globs, a linear scan of rules × globs × spellings per call."""
    compiled = [[wcglob.compile(g, flags=FLAGS) for g in globs_for(i)] for i in range(rules)]

    def call(rel: str) -> list[int]:
        absolute = f"{root}/{rel}"
        name = rel.rsplit("/", 1)[-1]
        hits = []
        for index, globs in enumerate(compiled):
            if any(m.match(s) for m in globs for s in (rel, absolute, name)):
                hits.append(index)
        return hits

    return per_call_us(call, paths[:300])


def hostile_globs(f: int) -> list[str]:
    """1,000 globs for hostile rule ``f``, every one different, in every shape."""
    shapes = (
        "**/*.h{f}x{j}.[jt]s", "src/**/t{f}_{j}_*.py", "s?c/m{f}/**/*.go", "**/Dockerfile.{f}.{j}*",
        "**/*_{f}_{j}_test.go", "lib{f}/**/[ab]{j}?.js", "**/*{f}x{j}*", "**/m{f}/n{j}/*.{{ts,tsx}}",
    )
    return [shapes[j % len(shapes)].format(f=f, j=j) for j in range(1000)]


def hostile_path(rng: random.Random, _i: int) -> str:
    """A path aimed at the hostile globs (most of them match one glob or none)."""
    f, j = rng.randrange(100), rng.randrange(1000)
    return rng.choice((
        f"app/x.h{f}x{j}.ts", f"src/a/t{f}_{j}_z.py", f"src/m{f}/q/a.go", f"ops/Dockerfile.{f}.{j}prod",
        f"cmd/a_{f}_{j}_test.go", f"lib{f}/k/a{j}q.js", f"misc/q{f}x{j}q.md", f"w/m{f}/n{j}/a.tsx",
        f"plain/dir/file{j}.txt",
    ))


def hostile(base: Path, calls: int) -> tuple[float, int, int, list[float], list[float]]:
    """Load a repository of 100 rules × 1,000 globs; time ``calls`` calls one by one.

    Each call is timed twice over: wall time, and the CPU time of this thread
    (which a busy machine's scheduler does not inflate: what the call costs).
    """
    root = base / "hostile"
    (root / ".git").mkdir(parents=True)
    rule_dir = root / ".cursor" / "rules"
    rule_dir.mkdir(parents=True)
    for f in range(100):
        (rule_dir / f"hostile{f:03d}.mdc").write_text(
            f"---\ndescription: hostile {f}\nglobs: {', '.join(hostile_globs(f))}\n---\nRule {f}.\n",
            encoding="utf-8",
        )
    paths = make_paths(calls, 50, hostile_path, seed=3)
    write_files(root, paths)
    config = RuleweaveConfig(cwd=root, max_rule_files=10_000, builtin_rules=False)
    start = time.perf_counter()
    ruleset = RuleSet.load(config)
    load_ms = (time.perf_counter() - start) * 1000
    capped = sum(1 for w in ruleset.warnings if "globs were dropped" in w.message)
    kept = sum(len(rule.globs) for rule in ruleset.rules)
    session = ruleset.session("hostile", store=MemoryStore())
    wall, cpu = [], []
    for rel in paths:
        start, start_cpu = time.perf_counter(), time.thread_time()
        session.after_tool_call("read_file", {"path": f"{root}/{rel}"})
        cpu.append((time.thread_time() - start_cpu) * 1e6)
        wall.append((time.perf_counter() - start) * 1e6)
    return load_ms, capped, kept, sorted(wall), sorted(cpu)


def main(argv: list[str] | None = None) -> None:
    """Run every measurement and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="timed runs per measurement")
    args = parser.parse_args(argv)
    mixes: dict[str, tuple[GlobsFor, PathFor]] = {
        "classic": (classic_globs, classic_path),
        "mixed shapes": (mixed_globs, mixed_path),
    }
    goals: list[tuple[str, str, bool]] = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        for label, (globs_for, path_for) in mixes.items():
            slug = label.replace(" ", "-")
            small, big = measure(base, slug, globs_for, path_for, args.runs)
            baseline = naive_us(base / f"{slug}-1000", 1000, globs_for, make_paths(3000, 1000, path_for))
            print(f"\nafter_tool_call, {label}, 3 globs per rule, 3,000 tool-call paths")
            print(f"{'':44}{'100 rules':>12}{'1,000 rules':>13}")
            print(f"{'warm process, µs/call (median)':44}{small.repeat_us:12.1f}{big.repeat_us:13.1f}")
            print(f"{'first touch of a directory, µs/call':44}{small.first_us:12.1f}{big.first_us:13.1f}")
            print(f"{'  the same calls repeated, µs/call':44}{small.first_repeat_us:12.1f}"
                  f"{big.first_repeat_us:13.1f}")
            print(f"{'  first / repeat':44}{small.first_us / small.first_repeat_us:11.2f}x"
                  f"{big.first_us / big.first_repeat_us:12.2f}x")
            print(f"{'call touching no path, µs':44}{small.idle_us:12.2f}{big.idle_us:13.2f}")
            print(f"{'RuleSet.load, ms (median)':44}{small.load_ms:12.1f}{big.load_ms:13.1f}")
            print(f"{'naive precompiled scan, µs/call':44}{'':12}{baseline:13.1f}")
            speedup = baseline / big.repeat_us
            growth = big.repeat_us / small.repeat_us
            first = big.first_us / big.first_repeat_us
            print(f"speed-up vs naive at 1,000 rules: {speedup:.0f}x; growth 100 -> 1,000: {growth:.2f}x")
            goals += [
                (f"{label}: speed-up vs naive ≥ {GOAL_SPEEDUP:.0f}x", f"{speedup:.0f}x",
                 speedup >= GOAL_SPEEDUP),
                (f"{label}: growth 100 → 1,000 rules ≤ {GOAL_GROWTH}x", f"{growth:.2f}x",
                 growth <= GOAL_GROWTH),
                (f"{label}: first touch / repeat ≤ {GOAL_FIRST}x", f"{first:.2f}x", first <= GOAL_FIRST),
            ]
        load_ms, capped, kept, wall, cpu = hostile(base, 2000)
        worst = cpu[-1] / 1000
        print("\nhostile repository: 100 rules × 1,000 globs (100,000 globs), 2,000 calls")
        print(f"RuleSet.load {load_ms:.0f} ms; {capped} cap warnings; {kept:,} globs kept")
        for what, samples in (("wall", wall), ("CPU", cpu)):
            print(f"per call, {what:4} µs: median {statistics.median(samples):8.1f}, "
                  f"p99 {samples[int(len(samples) * 0.99)]:8.1f}, max {samples[-1]:8.1f}")
        goals.append((f"hostile: costliest call (CPU) ≤ {GOAL_HOSTILE_MS:.0f} ms", f"{worst:.2f} ms",
                      worst <= GOAL_HOSTILE_MS))
    print()
    for label, value, ok in goals:
        print(f"  {'ok  ' if ok else 'MISS'}  {label:<44} {value}")


if __name__ == "__main__":
    main()
