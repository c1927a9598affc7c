"""TTSR watcher speed: 100 conditions over a 200 KB stream in 20-character deltas.

Reports microseconds per delta in the first and the last tenth of the
stream (goal: last/first ≤ 1.5 — the cost of a delta must not grow with
the buffer) and the total overhead against a baseline run in the same
process that does no matching (an adapter loop that only accumulates the
deltas). For contrast it also times the naive approach — every condition
re-run over the whole buffer at every delta — on the first 20 KB only.
Run: ``python benchmarks/bench_ttsr.py``.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import re2

from ruleweave.buckets import assign
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import discover
from ruleweave.store import MemoryStore
from ruleweave.ttsr import TtsrIndex, TtsrWatcher

STREAM_CHARS = 200_000
DELTA = 20
CONDITIONS = 100
WORDS = (
    "the", "model", "writes", "a", "function", "that", "returns", "value", "and", "then",
    "calls", "import", "module", "class", "def", "self", "data", "list", "for", "in", "if",
    "else", "return", "print", "config", "path", "file", "open", "read", "write", "test",
)


def condition(i: int) -> str:
    """Condition ``i``: words, flags, classes, alternations and multiline anchors."""
    kind = i % 5
    if kind == 0:
        return rf"\bforbidden{i}\b"
    if kind == 1:
        return rf"(?i)deprecated_api_{i}\("
    if kind == 2:
        return rf"secret_key_{i}\s*=\s*[\"'][A-Za-z0-9]{{16,}}"
    if kind == 3:
        return rf"(?:eval|exec)_{i}\s*\("
    return rf"(?m)^\s*import\s+legacy{i}\b"


def trigger(i: int) -> str:
    """Text that fires condition ``i``."""
    kind = i % 5
    return [
        f" forbidden{i} ", f" DEPRECATED_API_{i}(", f" secret_key_{i} = 'abcdefghABCDEFGH12'",
        f" exec_{i}(", f"\n  import legacy{i}\n",
    ][kind]


def make_repo(base: Path) -> Path:
    """A repo with one rule file per condition (reminders, so no hit clears the buffers)."""
    root = base / "repo"
    (root / ".git").mkdir(parents=True)
    rules = root / ".ruleweave" / "rules"
    rules.mkdir(parents=True)
    for i in range(CONDITIONS):
        pattern = condition(i).replace("'", "''")
        (rules / f"rule{i:03d}.md").write_text(
            f"---\ncondition: '{pattern}'\nscope: text\ninterruptMode: never\n---\nRule {i}.\n",
            encoding="utf-8",
        )
    return root


def make_stream(seed: int = 11) -> str:
    """200 KB of code-like prose; five conditions fire in the last tenth."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < STREAM_CHARS:
        word = rng.choice(WORDS)
        sep = "\n" if rng.random() < 0.08 else " "
        parts.append(word + sep)
        size += len(word) + 1
    text = "".join(parts)
    late = "".join(trigger(i) for i in (3, 24, 45, 66, 97))
    cut = int(len(text) * 0.95)
    return (text[:cut] + late + text[cut:])[:STREAM_CHARS]


def timed(fn: Callable[[str], object], deltas: list[str]) -> list[int]:
    """Nanoseconds spent in ``fn`` for each delta."""
    clock = time.perf_counter_ns
    out = []
    for delta in deltas:
        start = clock()
        fn(delta)
        out.append(clock() - start)
    return out


def tenths(samples: list[int]) -> tuple[float, float, float]:
    """Mean µs per delta in the first and last tenth, and the total in ms."""
    tenth = len(samples) // 10
    first = statistics.fmean(samples[:tenth]) / 1000
    last = statistics.fmean(samples[-tenth:]) / 1000
    return first, last, sum(samples) / 1e6


def main() -> None:
    """Build the rules, run each contender three times, print the medians."""
    with tempfile.TemporaryDirectory() as tmp:
        root = make_repo(Path(tmp))
        config = RuleweaveConfig(cwd=root, builtin_rules=False, max_rule_files=1000)
        buckets = assign(discover(config).rules)
        index = TtsrIndex.from_compiled(buckets.ttsr_compiled, config)
        assert len(index.compiled) == CONDITIONS, len(index.compiled)
        stream = make_stream()
        deltas = [stream[i : i + DELTA] for i in range(0, len(stream), DELTA)]

        def baseline_run() -> list[int]:
            buffer: list[str] = []
            return timed(buffer.append, deltas)

        fired: list[str] = []

        def watcher_run() -> list[int]:
            watcher = TtsrWatcher(index, MemoryStore(), "bench")
            fired.clear()

            def step(delta: str) -> None:
                hit = watcher.watch("text", delta)
                if hit is not None:
                    fired.extend(r.name for r in hit.rules)

            return timed(step, deltas)

        regexes = [re2.compile(condition(i)) for i in range(CONDITIONS)]
        naive_deltas = deltas[: 20_000 // DELTA]

        def naive_run() -> list[int]:
            buffer = ""

            def step(delta: str) -> None:
                nonlocal buffer
                buffer += delta
                for regex in regexes:
                    regex.search(buffer)

            return timed(step, naive_deltas)

        results = {}
        for name, run in (("baseline", baseline_run), ("watcher", watcher_run),
                          ("naive", naive_run)):
            runs = [tenths(run()) for _ in range(3)]
            results[name] = tuple(statistics.median(r[k] for r in runs) for k in range(3))

    base_first, base_last, base_total = results["baseline"]
    first, last, total = results["watcher"]
    naive_first, naive_last, naive_total = results["naive"]
    print(f"TTSR watcher: {CONDITIONS} conditions, {len(stream) // 1000} KB stream, "
          f"{len(deltas):,} deltas of {DELTA} chars, look-back W = {index.window}")
    print(f"{'':40}{'first 10%':>12}{'last 10%':>12}{'ratio':>8}{'total ms':>11}")
    print(f"{'':40}{'µs/delta':>12}{'µs/delta':>12}")
    rows = (
        ("baseline: no matching", base_first, base_last, base_total),
        ("ruleweave TtsrWatcher.watch", first, last, total),
        ("naive: whole buffer, first 20 KB only", naive_first, naive_last, naive_total),
    )
    for label, a, b, t in rows:
        print(f"{label:40}{a:12.2f}{b:12.2f}{b / a:8.2f}{t:11.1f}")
    overhead = total - base_total
    print(f"overhead vs baseline: {overhead:.1f} ms total, "
          f"{overhead * 1000 / len(deltas):.2f} µs/delta")
    print(f"last/first tenth: {last / first:.2f} (goal <= 1.5); rules fired: {len(fired)}")


if __name__ == "__main__":
    main()
