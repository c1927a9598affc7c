"""``ruleweave spec decide`` as a command, and ``decide`` in process.

1. The command (the console script, a fresh process per call) on
   ``examples/specs/web-research.skill.spec.yml``, against ``python -c pass``:
   the first call on a spec (YAML, the checks and the grammar's table, no
   pydantic; it keeps the compiled spec), every later call (the kept spec),
   both ``ruleweave.steering.quick``, and the full way through the parser and
   the pydantic models (``ruleweave.cli.parse_and_run``: what a spec the table
   leaves to the models costs), each round timing the four side by side.
2. ``decide`` in process on every example spec, over generated inputs, in µs
   per decision (docs/steering.md#speed).
3. With ``--reference PATH``: the SkillSpec reference implementation's
   ``decide`` on the same specs and inputs, beside ruleweave's, and the ratio
   (ruleweave / reference, one round of each in turn, so each ratio pairs
   rounds run side by side; issue #30's goal is at most 2x). PATH is a program
   built by hand from modiqo/skillspec; nothing of it is committed. It is run
   as ``PATH SPEC INPUTS --rounds N`` (INPUTS: one input per line); it decides
   every input once to warm up, then times N rounds, and prints one JSON line
   with ``min_us`` and ``median_us`` (µs per decision).

Min and median of the rounds, and the machine's load, are printed.
Run: ``python benchmarks/bench_spec.py [rounds] [--reference PATH]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
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


FULL = "import sys; from ruleweave.cli import parse_and_run; sys.exit(parse_and_run(sys.argv[1:]))"


def command_rounds(rounds: int) -> None:
    bare: list[float] = []
    first: list[float] = []
    warm: list[float] = []
    full: list[float] = []
    arguments = ["spec", "decide", str(SPEC), "--input", INPUT]
    for _ in range(rounds):
        state = tempfile.mkdtemp(prefix="rw-bench-")
        env = {**os.environ, "RULEWEAVE_STATE_DIR": state}
        try:
            bare.append(timed([sys.executable, "-c", "pass"], env))
            first.append(timed([str(SCRIPT), *arguments], env))
            warm.append(timed([str(SCRIPT), *arguments], env))
            full.append(timed([sys.executable, "-c", FULL, *arguments], env))
        finally:
            shutil.rmtree(state, ignore_errors=True)
    print(f"ruleweave spec decide, {rounds} rounds (ms; ratio to python -c pass in the same round)")
    print(f"  {'':28}{'min':>9}{'median':>9}{'ratio min':>11}{'ratio med':>11}")
    rows = (
        ("python -c pass", bare),
        ("first call", first),
        ("later call (kept)", warm),
        ("full way (pydantic)", full),
    )
    for name, samples in rows:
        ratios = [value / base for value, base in zip(samples, bare, strict=True)]
        print(
            f"  {name:28}{min(samples):9.1f}{statistics.median(samples):9.1f}"
            f"{min(ratios):10.1f}x{statistics.median(ratios):10.1f}x"
        )


def inputs(count: int) -> list[str]:
    pairs = itertools.cycle(itertools.product(WORDS, repeat=3))
    return [f"please {a} the {b} and {c}" for (a, b, c), _ in zip(pairs, range(count), strict=False)]


def reference_rounds(program: Path, spec: Path, texts: list[str], rounds: int) -> tuple[float, float]:
    """The reference's min and median µs per decision on ``spec`` over ``texts``."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8") as lines:
        lines.write("\n".join(texts) + "\n")
        lines.flush()
        command = [str(program), str(spec), lines.name, "--rounds", str(rounds)]
        done = subprocess.run(command, check=True, capture_output=True, text=True)
    result = json.loads(done.stdout)
    return float(result["min_us"]), float(result["median_us"])


def in_process(rounds: int, reference: Path | None) -> None:
    from ruleweave.steering import decide, load_spec

    texts = inputs(5_000)
    print(f"\ndecide() in process, {len(texts)} inputs per round, {rounds} rounds (µs per decision)")
    if reference is not None:
        print(f"  beside the reference ({reference}), one round of each in turn;")
        print("  ratio = ruleweave / reference in the same round, goal <= 2x")
    for path in sorted(EXAMPLES.glob("*.skill.spec.yml")):
        spec = load_spec(path)
        for text in texts:  # warm, as the reference warms up before it times
            decide(spec, text)
        samples, theirs = [], []
        for _ in range(rounds):
            start = time.perf_counter()
            for text in texts:
                decide(spec, text)
            samples.append((time.perf_counter() - start) * 1e6 / len(texts))
            if reference is not None:
                theirs.append(reference_rounds(reference, path, texts, 1)[0])
        low, middle = min(samples), statistics.median(samples)
        print(f"  {path.name:40} {len(spec.rules):3} rules  min {low:7.1f}  median {middle:7.1f}")
        if reference is not None:
            ratios = [ours / ref for ours, ref in zip(samples, theirs, strict=True)]
            ref_low, ref_middle = min(theirs), statistics.median(theirs)
            print(
                f"  {'  reference':40} {'':9}  min {ref_low:7.1f}  median {ref_middle:7.1f}"
                f"  ratio min {min(ratios):5.1f}x  median {statistics.median(ratios):5.1f}x"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description="Time ruleweave spec decide and decide() in process.")
    parser.add_argument("rounds", nargs="?", type=int, default=7, help="rounds to time (default 7)")
    parser.add_argument(
        "--reference", type=Path, metavar="PATH", help="the SkillSpec reference's decide benchmark program"
    )
    args = parser.parse_args()
    rounds: int = args.rounds
    reference: Path | None = args.reference
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    command_rounds(rounds)
    in_process(rounds, reference)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
