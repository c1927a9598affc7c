"""``ruleweave spec decide`` as a command, and ``decide`` in process.

1. The command (the console script, a fresh process per call) on
   ``examples/specs/web-research.skill.spec.yml``, against ``python -c pass``:
   the first call on a spec (the full command: YAML, pydantic, validation; it
   keeps the compiled spec) and every later call (the warm path,
   ``ruleweave.steering.quick``), each round timing the three side by side.
2. ``decide`` in process on every example spec, over generated inputs, in µs
   per decision (the SkillSpec reference implementation is a Rust program that
   cannot be built here; see docs/steering.md#speed).

Min and median of the rounds, and the machine's load, are printed.
Run: ``python benchmarks/bench_spec.py [rounds]``.
"""

from __future__ import annotations

import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "specs"
SPEC = EXAMPLES / "web-research.skill.spec.yml"
SCRIPT = Path(sys.executable).with_name("ruleweave")
INPUT = "research each committer's social profile every week; browse the dashboard after login"

WORDS = (
    "browse", "research", "repo", "in sync", "release", "notes", "weekly", "again", "login",
    "dashboard", "deploy", "compare", "the", "page", "ticket", "summarise", "changelog", "fix",
)


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def command_rounds(rounds: int) -> None:
    bare, first, warm = [], [], []
    decide = [str(SCRIPT), "spec", "decide", str(SPEC), "--input", INPUT]
    for _ in range(rounds):
        state = tempfile.mkdtemp(prefix="rw-bench-")
        env = {**os.environ, "RULEWEAVE_STATE_DIR": state}
        try:
            bare.append(timed([sys.executable, "-c", "pass"], env))
            first.append(timed(decide, env))
            warm.append(timed(decide, env))
        finally:
            shutil.rmtree(state, ignore_errors=True)
    print(f"ruleweave spec decide, {rounds} rounds (ms; ratio to python -c pass in the same round)")
    print(f"  {'':28}{'min':>9}{'median':>9}{'ratio min':>11}{'ratio med':>11}")
    rows = (("python -c pass", bare), ("first call (full)", first), ("later call (warm)", warm))
    for name, samples in rows:
        ratios = [value / base for value, base in zip(samples, bare, strict=True)]
        print(
            f"  {name:28}{min(samples):9.1f}{statistics.median(samples):9.1f}"
            f"{min(ratios):10.1f}x{statistics.median(ratios):10.1f}x"
        )


def inputs(count: int) -> list[str]:
    pairs = itertools.cycle(itertools.product(WORDS, repeat=3))
    return [f"please {a} the {b} and {c}" for (a, b, c), _ in zip(pairs, range(count), strict=False)]


def in_process(rounds: int) -> None:
    from ruleweave.steering import decide, load_spec

    texts = inputs(5_000)
    print(f"\ndecide() in process, {len(texts)} inputs per round, {rounds} rounds (µs per decision)")
    for path in sorted(EXAMPLES.glob("*.skill.spec.yml")):
        spec = load_spec(path)
        samples = []
        for _ in range(rounds):
            start = time.perf_counter()
            for text in texts:
                decide(spec, text)
            samples.append((time.perf_counter() - start) * 1e6 / len(texts))
        print(
            f"  {path.name:40} {len(spec.rules):3} rules  min {min(samples):7.1f}"
            f"  median {statistics.median(samples):7.1f}"
        )


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    command_rounds(rounds)
    in_process(rounds)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
