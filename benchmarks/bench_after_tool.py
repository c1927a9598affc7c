"""after_tool_call speed against the floor: a combined RE2 set of the same globs, 1,000 and 10,000 rules.

Three glob mixes, each at 1,000 and 10,000 rules, 3,000 tool-call paths:

* **monorepo** (issue #30): ``tests/glob_mix.py`` — ``**/test_*.py``-like names,
  ``*_test.go``, braces, ``packages/*/src/…``, ``[Mm]akefile``, deep literal
  directories, Continue rules whose ``!`` globs exclude (negations);
* **classic**: every glob ends in ``*.ext`` or a literal name;
* **mixed shapes**: two rules in three use shapes an extension index cannot key.

Per round (≥ 5; every case once per round, so machine load hits all alike), in one process:

* ``after_tool_call`` (with a call id, as adapters pass) in a warm process, a fresh
  session each round: on paths touched before (a rule set remembers what each path
  calls for), and on new files in directories touched before — the steady state;
* the floor: every glob of every rule in one combined RE2 set (``re2.Set``, memory
  enough for its DFA to stay warm), matched once against the relative path, the
  hits mapped to rules, the negated globs' set subtracted — what a C globset gives
  a Python caller, with no session, store or notice around it — on the same paths
  (RE2 builds DFA states lazily: a path the set has not seen costs it far more);
* the glob index alone (``GlobIndex.lookup`` on the path's spellings), like with like;
* matching alone (``Notices.for_paths``: the index, exclusions, nested lookups);
* first touch: calls in directories never touched, then the same calls in a fresh
  session (first touch against repeat), and the two system calls each new directory
  needs (``listdir``, ``lstat``) timed alone on the same directories: the part of a
  first touch no code can skip;
* a competent precompiled scan: every glob's regex compiled once (``re``), each
  tried on the relative path (30 paths a round: it is slow).

Where the set's DFA does not fit in memory (the mixed shapes at 10,000 rules), RE2
falls back to its NFA and the set costs tens of ms a call: it is measured on 30
paths a round then, and the ratio says how far below it a call stays.

Reported: min and median over rounds (µs per call), the ratios per round (min,
median), and the machine's load average. Then a hostile repository (100 rules ×
1,000 globs): what the per-rule cap keeps, the load time and the costliest call.

Goals (issue #30): after_tool_call ≤ 3× the RE2 set at 1,000 and 10,000 rules;
first touch ≤ 3× a repeat; 10,000 legitimate rules load with no glob dropped;
hostile repository: no call over 5 ms of CPU.

Run: ``python benchmarks/bench_after_tool.py`` (``--runs N`` rounds, ``--sizes 1000,10000``).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import re2

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from ruleweave.globs import PathSpellings
from ruleweave.globs._re2 import re2_pattern
from ruleweave.globs._shapes import alternatives, translate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests import glob_mix

EXTS = ("ts", "tsx", "py", "go", "rs", "md", "yml", "sh", "java", "rb")
GOAL_FLOOR = 3.0
GOAL_FIRST = 3.0
GOAL_HOSTILE_MS = 5.0

RuleGlobs = Callable[[int], tuple[list[str], list[str]]]
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
        return [f"packages/pkg{i}/**/test_*.py", f"**/*_{area}_test.go", f"**/Area{i}*Controller.java"]
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
    pick = (
        f"packages/pkg{i}/tests/unit/test_models{rng.randrange(9)}.py",
        f"cmd/tools/sync_area{i}_test.go",
        f"src/main/java/com/acme/Area{i}User{rng.randrange(9)}Controller.java",
        f"services/svc{i % 300}/src/api/orders_{('handler', 'service', 'model')[rng.randrange(3)]}.ts",
        f"deploy/area{i}/docker/Dockerfile.{('prod', 'dev')[rng.randrange(2)]}",
        f"web/w{i}/src/widget.area{i}.{('js', 'ts', 'css')[rng.randrange(3)]}",
        f"lib/misc/file{i}.txt",
    )
    return pick[kind - 1]


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


def write_files(root: Path, paths: Sequence[str]) -> None:
    """Create the touched files, so that a first touch meets real directories."""
    for rel in paths:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()


def make_repo(base: Path, rules: int, globs_for: Callable[[int], list[str]] = classic_globs,
              label: str = "") -> Path:
    """A repository with ``rules`` Cursor rules, three globs each (``bench_store`` uses it too)."""
    root = base / (label or f"repo{rules}")
    (root / ".git").mkdir(parents=True)
    rule_dir = root / ".cursor" / "rules"
    rule_dir.mkdir(parents=True)
    for i in range(rules):
        (rule_dir / f"rule{i:05d}.mdc").write_text(
            f"---\ndescription: conventions for area {i}\nglobs: {', '.join(globs_for(i))}\n---\n"
            f"Follow the conventions of area {i}.\n",
            encoding="utf-8",
        )
    return root


class Mix:
    """A glob mix: each rule's globs and negated globs, a path generator, and how to write the rules."""

    def __init__(self, label: str, rule_globs: RuleGlobs, path_for: PathFor,
                 write: Callable[[Path, int], None]) -> None:
        self.label, self.rule_globs, self.path_for, self.write = label, rule_globs, path_for, write


def _cursor_only(globs_for: Callable[[int], list[str]]) -> Mix:
    def write(root: Path, rules: int) -> None:
        make_repo(root.parent, rules, globs_for, root.name)

    return Mix("", lambda i: (globs_for(i), []), classic_path, write)


def _mixes() -> list[Mix]:
    classic, mixed = _cursor_only(classic_globs), _cursor_only(mixed_globs)
    classic.label, mixed.label, mixed.path_for = "classic", "mixed shapes", mixed_path
    monorepo = Mix("monorepo (issue #30)", glob_mix.rule_globs, glob_mix.path_for, glob_mix.write_rules)
    return [monorepo, classic, mixed]


class Floor:
    """Every glob in one combined RE2 set (and the negated ones in another): the fair baseline."""

    def __init__(self, mix: Mix, rules: int) -> None:
        self.owner: list[int] = []
        self.excluder: list[int] = []
        self.set = self._compile(mix, rules, 0, self.owner)
        self.negated = self._compile(mix, rules, 1, self.excluder)

    @staticmethod
    def _compile(mix: Mix, rules: int, which: int, owner: list[int]) -> re2.Set:
        options = re2.Options()
        options.max_mem = 1 << 30  # enough for the DFA to stay warm at 10,000 rules
        compiled = re2.Set.FullMatchSet(options)
        for i in range(rules):
            for glob in mix.rule_globs(i)[which]:
                for alternative in alternatives(glob) or ():
                    pattern = re2_pattern(alternative)
                    if pattern is not None:
                        compiled.Add(pattern)
                        owner.append(i)
        if owner:
            compiled.Compile()
        return compiled

    def __call__(self, rel: str) -> list[int]:
        data = rel.encode()
        hits = self.set.Match(data)
        if not hits:
            return []
        owner = self.owner
        found = {owner[h] for h in hits}
        if self.excluder:
            gone = self.negated.Match(data)
            if gone:
                found.difference_update(self.excluder[h] for h in gone)
        return sorted(found)


class Scan:
    """Every glob's regex compiled once with ``re``, all tried on each call: a competent scan."""

    def __init__(self, mix: Mix, rules: int) -> None:
        self.rules = [
            ([re.compile(r) for g in inc for a in alternatives(g) or () if (r := translate(a))],
             [re.compile(r) for g in neg for a in alternatives(g) or () if (r := translate(a))])
            for inc, neg in (mix.rule_globs(i) for i in range(rules))
        ]

    def __call__(self, rel: str) -> list[int]:
        return [
            i for i, (inc, neg) in enumerate(self.rules)
            if any(r.fullmatch(rel) for r in inc) and not any(r.fullmatch(rel) for r in neg)
        ]


def _fresh(rel: str, directory: str) -> str:
    """``rel`` moved into a new directory ``directory`` below its own."""
    head, _, name = rel.rpartition("/")
    return f"{head}/{directory}/{name}" if head else f"{directory}/{name}"


def _list_directory(path: str) -> None:
    """The system calls a first touch of ``path``'s new directory makes (``ProjectTree._dir``)."""
    directory = path.rpartition("/")[0]
    os.listdir(directory)
    os.path.islink(directory)


def per_call_us(fn: Callable[[str], object], paths: Sequence[str]) -> float:
    """Mean µs of ``fn`` over ``paths``."""
    start = time.perf_counter()
    for path in paths:
        fn(path)
    return (time.perf_counter() - start) / len(paths) * 1e6


class Case:
    """One mix at one size: the repository, the loaded rule set, its baselines and its samples."""

    def __init__(self, base: Path, mix: Mix, rules: int, runs: int) -> None:
        self.mix, self.rules = mix, rules
        self.root = base / f"{mix.label.split()[0]}-{rules}"
        mix.write(self.root, rules)
        self.paths = make_paths(3000, rules, mix.path_for)
        # First touches: each call in a directory of its own, just below one the warm calls touched.
        self.fresh = [
            [_fresh(rel, f"new{r}x{n}") for n, rel in enumerate(self.paths[:600])] for r in range(runs)
        ]
        # New paths: files the warm process never touched, in the directories it did (a rule set
        # remembers each path's matches, so the warm calls above are repeats of a path).
        touched, directories = set(self.paths), {rel.rpartition("/")[0] for rel in self.paths}
        self.novel = [
            [rel for rel in dict.fromkeys(make_paths(20_000, rules, mix.path_for, seed=1000 + r))
             if rel not in touched and rel.rpartition("/")[0] in directories][:1000]
            for r in range(runs)
        ]
        write_files(self.root, self.paths)
        for more in (*self.fresh, *self.novel):
            write_files(self.root, more)
        config = RuleweaveConfig(cwd=self.root, max_rule_files=100_000, builtin_rules=False)
        start = time.perf_counter()
        self.ruleset = RuleSet.load(config)
        self.load_ms = (time.perf_counter() - start) * 1000
        self.dropped = sum(1 for w in self.ruleset.warnings if "globs were dropped" in w.message)
        assert len(self.ruleset.buckets.scoped) == rules, len(self.ruleset.buckets.scoped)
        self.floor, self.scan = Floor(mix, rules), Scan(mix, rules)
        self._sessions = iter(range(10**9))
        warm = self.caller()
        for rel in self.paths:  # a long-lived process: every directory touched once already
            warm(rel)
        # A set whose DFA does not fit falls back to RE2's NFA (tens of ms a call for the mixed
        # shapes at 10,000 rules): then 30 paths a round tell as much as 3,000.
        self.floor_paths = self.paths if per_call_us(self.floor, self.paths[:30]) < 1000 else self.paths[:30]
        for rel in self.floor_paths:
            self.floor(rel)
        self.samples: dict[str, list[float]] = {}

    def caller(self) -> Callable[[str], object]:
        """``after_tool_call`` reading one path, in a new session (no notice claimed yet)."""
        session = self.ruleset.session(f"bench-{next(self._sessions)}", store=MemoryStore())
        root = self.root
        calls = iter(range(10**9))
        return lambda rel: session.after_tool_call(
            "read_file", {"path": f"{root}/{rel}"}, call_id=f"c{next(calls)}"
        )

    def run(self, round_: int) -> None:
        """One round of every measurement."""
        root, notices = self.root, self.ruleset.notices
        index, prefix = notices._index, f"{root}/"

        def lookup(rel: str) -> object:
            return index.lookup(PathSpellings.of(prefix + rel, prefix))

        got = {
            "lookup": per_call_us(lookup, self.paths),
            "steady": per_call_us(self.caller(), self.paths),
            "floor": per_call_us(self.floor, self.floor_paths),
            "new": per_call_us(self.caller(), self.novel[round_]),  # paths never touched before
            "new floor": per_call_us(self.floor, self.novel[round_][: len(self.floor_paths)]),
            "match": per_call_us(lambda rel: notices.for_paths((f"{root}/{rel}",)), self.paths),
            "first": per_call_us(self.caller(), self.fresh[round_]),  # directories never touched
            "repeat": per_call_us(self.caller(), self.fresh[round_]),  # the same calls again
            # What no first touch can skip: listing the new directory and asking whether it is a
            # link (the two system calls ``ProjectTree`` makes), on those same directories.
            "listing": per_call_us(_list_directory, [f"{root}/{rel}" for rel in self.fresh[round_]]),
            "scan": per_call_us(self.scan, self.paths[:30]),
        }
        got["steady/floor"] = got["steady"] / got["floor"]
        got["new/floor"] = got["new"] / got["new floor"]
        got["match/floor"] = got["match"] / got["floor"]
        got["lookup/floor"] = got["lookup"] / got["floor"]
        got["first/repeat"] = got["first"] / got["repeat"]
        got["beyond/repeat"] = (got["first"] - got["listing"]) / got["repeat"]
        got["listing/repeat"] = got["listing"] / got["repeat"]
        got["scan/steady"] = got["scan"] / got["steady"]
        for key, value in got.items():
            self.samples.setdefault(key, []).append(value)

    def stat(self, key: str) -> tuple[float, float]:
        """Min and median of one measurement over the rounds."""
        values = self.samples[key]
        return min(values), statistics.median(values)


ROWS = (
    ("after_tool_call, a path touched before, µs", "steady", "{:9.1f}"),
    ("combined RE2 set (floor), µs", "floor", "{:9.2f}"),
    ("  after_tool_call / set", "steady/floor", "{:8.3g}x"),
    ("after_tool_call, a new file in a touched dir, µs", "new", "{:9.1f}"),
    ("combined RE2 set on those paths, µs", "new floor", "{:9.2f}"),
    ("  after_tool_call / set", "new/floor", "{:8.3g}x"),
    ("the glob index alone (GlobIndex.lookup), µs", "lookup", "{:9.1f}"),
    ("  index / set", "lookup/floor", "{:8.3g}x"),
    ("matching alone (Notices.for_paths), µs", "match", "{:9.1f}"),
    ("  matching / set", "match/floor", "{:8.3g}x"),
    ("first touch of a directory, µs", "first", "{:9.1f}"),
    ("  the same calls repeated, µs", "repeat", "{:9.1f}"),
    ("  first / repeat", "first/repeat", "{:8.2f}x"),
    ("  listing the new directory alone, µs", "listing", "{:9.1f}"),
    ("  listing / repeat (the floor of the above)", "listing/repeat", "{:8.2f}x"),
    ("  (first − listing) / repeat", "beyond/repeat", "{:8.2f}x"),
    ("precompiled regex scan, µs", "scan", "{:9.0f}"),
    ("  scan / after_tool_call", "scan/steady", "{:8.0f}x"),
)


def load_average() -> str:
    """The machine's 1-, 5- and 15-minute load averages, and its CPU count."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def report(mix: Mix, cases: Sequence[Case], goals: list[tuple[str, str, bool]]) -> None:
    """One mix's table (min / median over rounds per size) and its goal lines."""
    runs = len(cases[0].samples["steady"])
    print(f"\nafter_tool_call, {mix.label}: 3,000 paths, {runs} rounds; {load_average()}")
    print(f"{'':42}" + "".join(f"{f'{c.rules:,} rules (min / median)':>26}" for c in cases))
    for label, key, fmt in ROWS:
        cells = "".join(f"{fmt.format(min_)} /{fmt.format(median)}".rjust(26)
                        for min_, median in (c.stat(key) for c in cases))
        print(f"{label:42}{cells}")
    print(f"{'RuleSet.load, ms (once)':42}" + "".join(f"{c.load_ms:26.0f}" for c in cases))
    print(f"{'globs dropped (cap warnings)':42}" + "".join(f"{c.dropped:26d}" for c in cases))
    for case in cases:
        floor, first = case.stat("steady/floor")[1], case.stat("first/repeat")[1]
        novel = case.stat("new/floor")[1]
        name = f"{mix.label}, {case.rules:,} rules"
        goals += [
            (f"{name}: after_tool_call ≤ {GOAL_FLOOR:.0f}x the RE2 set (path seen)", f"{floor:.3g}x",
             floor <= GOAL_FLOOR),
            (f"{name}: after_tool_call ≤ {GOAL_FLOOR:.0f}x the RE2 set (new path)", f"{novel:.3g}x",
             novel <= GOAL_FLOOR),
            (f"{name}: first touch ≤ {GOAL_FIRST:.0f}x a repeat", f"{first:.2f}x", first <= GOAL_FIRST),
            (f"{name}: no glob dropped", f"{case.dropped} warnings", case.dropped == 0),
        ]


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
    """Load a repository of 100 rules × 1,000 globs; time ``calls`` calls one by one (wall and CPU)."""
    root = base / "hostile"
    make_repo(base, 100, hostile_globs, "hostile")
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
    """Run every measurement and print the tables and the goals."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="rounds per measurement (≥ 5 for the goals)")
    parser.add_argument("--sizes", default="1000,10000", help="rule counts, comma-separated")
    parser.add_argument("--mixes", default="", help="only the mixes whose label starts with one of these")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    wanted = [m for m in args.mixes.split(",") if m]
    goals: list[tuple[str, str, bool]] = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        for mix in _mixes():
            if wanted and not any(mix.label.startswith(w) for w in wanted):
                continue
            cases = [Case(base, mix, rules, args.runs) for rules in sizes]
            for round_ in range(args.runs):
                for case in cases:
                    case.run(round_)
            report(mix, cases, goals)
            del cases
        load_ms, capped, kept, wall, cpu = hostile(base, 2000)
        worst = cpu[-1] / 1000
        print(f"\nhostile repository: 100 rules × 1,000 globs (100,000 globs), 2,000 calls; {load_average()}")
        print(f"RuleSet.load {load_ms:.0f} ms; {capped} cap warnings; {kept:,} globs kept")
        for what, samples in (("wall", wall), ("CPU", cpu)):
            print(f"per call, {what:4} µs: median {statistics.median(samples):8.1f}, "
                  f"p99 {samples[int(len(samples) * 0.99)]:8.1f}, max {samples[-1]:8.1f}")
        goals.append((f"hostile: costliest call (CPU) ≤ {GOAL_HOSTILE_MS:.0f} ms", f"{worst:.2f} ms",
                      worst <= GOAL_HOSTILE_MS))
    print()
    for label, value, ok in goals:
        print(f"  {'ok  ' if ok else 'MISS'}  {label:<62} {value}")


if __name__ == "__main__":
    main()
