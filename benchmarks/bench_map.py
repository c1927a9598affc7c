"""``ruleweave map`` on a 20,000-file repository with 300 rules: the data, the page, and the page's size.

Builds the generated monorepo the map's tests use (``tests/rulemap/monorepo.py``:
400 packages × 50 files in five languages, 300 rules in six agents' formats,
nested rule folders, a drifted ``CLAUDE.md``, an ignored ``node_modules/``) as a
git repository, then times, over several rounds in one process:

* ``build_map(config)`` — one load, lint with the default agents' views, the
  glob pass that places every rule on the tree (goal with the page: under 2 s);
* ``render_page(data)`` — the HTML page;
* the whole ``ruleweave map --out FILE`` as a user runs it, in a new process
  (interpreter start-up and imports included).

Prints the minimum and the median of each, the page's size (goal: under
about 2 MB) and the machine's load average beside the numbers, since a
loaded machine is slower.

Run: ``python benchmarks/bench_map.py [--rounds N] [--packages N] [--rules N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the generator lives with the tests

from ruleweave import RuleweaveConfig
from ruleweave.rulemap import build_map, render_page
from tests.rulemap.monorepo import build_monorepo

RULEWEAVE = str(Path(sys.executable).parent / "ruleweave")
GOAL_SECONDS = 2.0
GOAL_BYTES = 2 * 1024 * 1024


def timed(fn: Callable[[], object], rounds: int) -> tuple[float, float]:
    """Minimum and median seconds of ``rounds`` calls."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def load() -> str:
    """The machine's 1, 5 and 15 minute load averages and its CPU count."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--packages", type=int, default=400)
    parser.add_argument("--rules", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = build_monorepo(Path(tmp) / "repo", packages=args.packages, rules=args.rules)
        config = RuleweaveConfig(cwd=root)
        data = build_map(config)
        page = render_page(data)
        size = len(page.encode("utf-8"))
        print(f"repository: {data['project']['files']:,} files, {len(data['rules'])} rules, "
              f"{data['project']['directories']:,} directories ({data['project']['shown']:,} shown), "
              f"{len(data['agents'])} agents, {data['summary']['findings']} findings")
        print(load())
        data_min, data_median = timed(lambda: build_map(config), args.rounds)
        page_min, page_median = timed(lambda: render_page(data), args.rounds)
        out = Path(tmp) / "map.html"
        command = [RULEWEAVE, "map", "--cwd", str(root), "--out", str(out)]
        cli_min, cli_median = timed(
            lambda: subprocess.run(command, check=True, capture_output=True), args.rounds
        )
        print(f"{'':34}{'min':>10}{'median':>10}   ({args.rounds} rounds)")
        print(f"{'build_map (load, lint, glob pass)':34}{data_min * 1000:8.0f}ms{data_median * 1000:8.0f}ms")
        print(f"{'render_page':34}{page_min * 1000:8.0f}ms{page_median * 1000:8.0f}ms")
        print(f"{'ruleweave map --out (new process)':34}{cli_min * 1000:8.0f}ms{cli_median * 1000:8.0f}ms"
              f"   (goal < {GOAL_SECONDS * 1000:.0f} ms)")
        print(f"page: {size:,} bytes (goal < {GOAL_BYTES:,})")
        print(load())


if __name__ == "__main__":
    main()
