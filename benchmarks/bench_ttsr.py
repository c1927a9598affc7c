"""Streamed rules (TTSR) per delta against the floor: one RE2 set scanning the same window.

100 and 1,000 conditions (words, flags, classes, alternations, multiline
anchors), each rule watching prose and every tool call (no ``scope``). Two
streams, in 20-character deltas:

* **text**: 200 KB of code-like prose; five conditions fire in its last tenth;
* **tool arguments**: 20 ``write_file`` calls, each ``{"path": …, "content": …}``
  with 10 KB of Python source JSON-encoded (newlines and quotes escaped), fed
  as adapters feed them (``args`` not passed while streaming); conditions fire
  in the last call.

Per round (≥ 5), in one process, the contenders take turns on each fiftieth
of a stream (each keeping its own stream state), so that machine load hits
them alike:

* **floor**: the same conditions in one ``re2.Set`` (the options the watcher uses),
  the stream's last ``W + 1`` characters kept as a tail and the set matched on
  ``tail + delta`` at every delta — the same window the watcher searches, with
  nothing else: no decoding of tool JSON, no paths, no repeat state, no hit;
* **RuleSession.watch**: what an adapter calls (argument checks, the lock, fail-open);
* **TtsrWatcher.watch**: the matching core alone;
* **accumulate only**: an adapter loop that only appends the deltas (the loop's own cost).

Reported: min and median over rounds of µs per delta, and of the ratio to the
floor (per round); the first and last tenth of the text stream (the cost of a
delta must not grow with the buffer); the machine's load average. Goals (issue
#30): ``RuleSession.watch`` ≤ 3× the floor for both streams at 100 and 1,000
conditions; last/first tenth ≤ 1.5.

Run: ``python benchmarks/bench_ttsr.py`` (``--runs N`` rounds, ``--sizes 100,1000``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import re2

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from ruleweave.ttsr import TtsrWatcher
from ruleweave.ttsr.conditions import options

STREAM_CHARS = 200_000
DELTA = 20
CALLS = 20
BLOCKS = 50  # contenders take turns on each fiftieth of a stream, so a load spike hits them alike
GOAL_FLOOR = 3.0
GOAL_FLAT = 1.5
WORDS = (
    "the", "model", "writes", "a", "function", "that", "returns", "value", "and", "then",
    "calls", "import", "module", "class", "def", "self", "data", "list", "for", "in", "if",
    "else", "return", "print", "config", "path", "file", "open", "read", "write", "test",
)
CODE = (
    "def {w}_{n}(self, data):\n", '    """Return the {w} of data."""\n', "    for item in data:\n",
    "        if item.{w}:\n", '            print("{w}", item)\n', "    return {{'{w}': {n}}}\n", "\n",
    "class {W}{n}:\n", "    value = \"{w}\\t{n}\"\n",
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
    return [
        f" forbidden{i} ", f" DEPRECATED_API_{i}(", f" secret_key_{i} = 'abcdefghABCDEFGH12'",
        f" exec_{i}(", f"\n  import legacy{i}\n",
    ][i % 5]


def make_repo(base: Path, conditions: int) -> Path:
    """A repo with one rule per condition (reminders, so no hit clears the buffers)."""
    root = base / f"repo{conditions}"
    (root / ".git").mkdir(parents=True)
    rules = root / ".ruleweave" / "rules"
    rules.mkdir(parents=True)
    for i in range(conditions):
        pattern = condition(i).replace("'", "''")
        (rules / f"rule{i:04d}.md").write_text(
            f"---\ncondition: '{pattern}'\ninterruptMode: never\n---\nRule {i}.\n", encoding="utf-8",
        )
    return root


def _late(conditions: int) -> str:
    return "".join(trigger(i) for i in (3, 24, 45, 66, 97) if i < conditions)


def make_text(conditions: int, seed: int = 11) -> str:
    """200 KB of code-like prose; five conditions fire in the last tenth."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < STREAM_CHARS:
        word = rng.choice(WORDS)
        parts.append(word + ("\n" if rng.random() < 0.08 else " "))
        size += len(word) + 1
    text = "".join(parts)
    cut = int(len(text) * 0.95)
    return (text[:cut] + _late(conditions) + text[cut:])[:STREAM_CHARS]


def make_calls(conditions: int, seed: int = 13) -> list[str]:
    """``CALLS`` write_file argument texts (JSON), 10 KB of source each; the last one fires rules."""
    rng = random.Random(seed)
    calls = []
    for c in range(CALLS):
        lines: list[str] = []
        size = 0
        while size < STREAM_CHARS // CALLS:
            word = rng.choice(WORDS)
            line = rng.choice(CODE).format(w=word, W=word.title(), n=rng.randrange(1000))
            lines.append(line)
            size += len(line)
        if c == CALLS - 1:
            lines.insert(len(lines) // 2, _late(conditions) + "\n")
        args = {"path": f"src/pkg{c}/module{c}.py", "content": "".join(lines)}
        calls.append(json.dumps(args))
    return calls


def deltas_of(text: str) -> list[str]:
    """``text`` in ``DELTA``-character pieces."""
    return [text[i : i + DELTA] for i in range(0, len(text), DELTA)]


Feed = Callable[[str, str | None, str], object]
"""One delta: ``(source, call id or None, delta)``."""


class Floor:
    """The conditions in one ``re2.Set``, matched on the stream's tail plus each delta."""

    def __init__(self, conditions: int, window: int) -> None:
        opts = options()
        opts.max_mem = 64 << 20
        self.set = re2.Set.SearchSet(opts)
        for i in range(conditions):
            self.set.Add(condition(i))
        self.set.Compile()
        self.keep = window + 1

    def feeder(self) -> Feed:
        """A fresh stream state: one tail per stream."""
        tails: dict[str | None, str] = {}
        match, keep = self.set.Match, self.keep

        def feed(_source: str, call_id: str | None, delta: str) -> object:
            window = tails.get(call_id, "") + delta
            found = match(window)
            tails[call_id] = window[-keep:]
            return found

        return feed


class Case:
    """One size: the loaded rule set, the floor and the two streams' deltas."""

    def __init__(self, base: Path, conditions: int) -> None:
        self.conditions = conditions
        config = RuleweaveConfig(cwd=make_repo(base, conditions), builtin_rules=False,
                                 max_rule_files=10_000)
        self.ruleset = RuleSet.load(config)
        self.window = self.ruleset.ttsr.window
        assert len(self.ruleset.ttsr.compiled) == conditions, len(self.ruleset.ttsr.compiled)
        self.floor = Floor(conditions, self.window)
        text = make_text(conditions)
        self.streams: dict[str, list[tuple[str, str | None, str]]] = {
            "text": [("text", None, d) for d in deltas_of(text)],
            "tool": [("tool", f"call{c}", d) for c, args in enumerate(make_calls(conditions))
                     for d in deltas_of(args)],
        }
        self.samples: dict[str, list[float]] = {}
        self.fired: dict[str, int] = {}
        self._ids = iter(range(10**9))

    def session_feeder(self) -> Feed:
        """``RuleSession.watch`` of a new session."""
        session = self.ruleset.session(f"bench-{next(self._ids)}", store=MemoryStore())
        watch = session.watch

        def feed(source: str, call_id: str | None, delta: str) -> object:
            if source == "tool":
                return watch("tool", delta, tool="write_file", call_id=call_id)
            return watch("text", delta)

        return feed

    def watcher_feeder(self) -> Feed:
        """``TtsrWatcher.watch`` of a new watcher (the core alone)."""
        watch = TtsrWatcher(self.ruleset.ttsr, MemoryStore(), f"core-{next(self._ids)}").watch

        def feed(source: str, call_id: str | None, delta: str) -> object:
            if source == "tool":
                return watch("tool", delta, tool="write_file", call_id=call_id)
            return watch("text", delta)

        return feed

    @staticmethod
    def append_feeder() -> Feed:
        """An adapter loop that only keeps the deltas."""
        kept: list[str] = []
        append = kept.append

        def feed(_source: str, _call_id: str | None, delta: str) -> object:
            append(delta)
            return None

        return feed

    def run(self) -> None:
        """One round: every contender on both streams, block by block in turn (paired in time)."""
        contenders = (("floor", self.floor.feeder), ("session", self.session_feeder),
                      ("watcher", self.watcher_feeder), ("append", self.append_feeder))
        clock = time.perf_counter_ns
        for stream, deltas in self.streams.items():
            feeds = [(name, make()) for name, make in contenders]
            spent = {name: [0] * BLOCKS for name, _ in feeds}
            fired = 0
            size = -(-len(deltas) // BLOCKS)
            for block in range(BLOCKS):
                piece = deltas[block * size : (block + 1) * size]
                for name, feed in feeds:
                    hits: list[Any] = []
                    start = clock()
                    for source, call_id, delta in piece:
                        hit = feed(source, call_id, delta)
                        if hit is not None:
                            hits.append(hit)
                    spent[name][block] = clock() - start
                    if name == "session":
                        fired += sum(len(hit.rules) for hit in hits)
            self.fired[stream] = fired
            for name, blocks in spent.items():
                self._add(f"{stream}:{name}", sum(blocks) / len(deltas) / 1000)
            tenth = BLOCKS // 10
            session = spent["session"]
            if stream == "text":
                self._add("text:flat", sum(session[-tenth:]) / sum(session[:tenth]))
            for name in ("session", "watcher"):
                self._add(f"{stream}:{name}/floor",
                          self.samples[f"{stream}:{name}"][-1] / self.samples[f"{stream}:floor"][-1])

    def _add(self, key: str, value: float) -> None:
        self.samples.setdefault(key, []).append(value)

    def stat(self, key: str) -> tuple[float, float]:
        """Min and median of one measurement over the rounds."""
        values = self.samples[key]
        return min(values), statistics.median(values)


ROWS = (
    ("floor: one RE2 set, same window, µs", "floor", "{:9.2f}"),
    ("RuleSession.watch, µs", "session", "{:9.2f}"),
    ("  session / floor", "session/floor", "{:8.2f}x"),
    ("TtsrWatcher.watch (core alone), µs", "watcher", "{:9.2f}"),
    ("  watcher / floor", "watcher/floor", "{:8.2f}x"),
    ("accumulate only (the loop), µs", "append", "{:9.2f}"),
)


def load_average() -> str:
    """The machine's 1-, 5- and 15-minute load averages, and its CPU count."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def main(argv: list[str] | None = None) -> None:
    """Run the rounds and print the tables and the goals."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="rounds (≥ 5 for the goals)")
    parser.add_argument("--sizes", default="100,1000", help="condition counts, comma-separated")
    args = parser.parse_args(argv)
    goals: list[tuple[str, str, bool]] = []
    with tempfile.TemporaryDirectory() as tmp:
        cases = [Case(Path(tmp), int(size)) for size in args.sizes.split(",")]
        print(f"before: {load_average()}")
        for _ in range(args.runs):
            for case in cases:
                case.run()
        print(f"after:  {load_average()}")
    first = cases[0]
    for stream, what in (("text", f"{STREAM_CHARS // 1000} KB of prose"),
                         ("tool", f"{CALLS} write_file calls, {STREAM_CHARS // 1000} KB of JSON")):
        print(f"\nTTSR, {stream} stream: {what} in {len(first.streams[stream]):,} deltas of {DELTA} "
              f"chars, look-back W = {first.window}, {args.runs} rounds; µs per delta (min / median)")
        print(f"{'':40}" + "".join(f"{f'{c.conditions:,} conditions':>24}" for c in cases))
        for label, key, fmt in ROWS:
            cells = "".join(f"{fmt.format(lo)} /{fmt.format(mid)}".rjust(24)
                            for lo, mid in (c.stat(f"{stream}:{key}") for c in cases))
            print(f"{label:40}{cells}")
        print(f"{'rules fired':40}" + "".join(f"{c.fired[stream]:24d}" for c in cases))
        for case in cases:
            ratio = case.stat(f"{stream}:session/floor")[1]
            goals.append((f"{stream}, {case.conditions:,} conditions: watch ≤ {GOAL_FLOOR:.0f}x the set",
                          f"{ratio:.2f}x", ratio <= GOAL_FLOOR))
    for case in cases:
        flat = case.stat("text:flat")[1]
        goals.append((f"text, {case.conditions:,} conditions: last/first tenth ≤ {GOAL_FLAT}",
                      f"{flat:.2f}", flat <= GOAL_FLAT))
    print()
    for label, value, ok in goals:
        print(f"  {'ok  ' if ok else 'MISS'}  {label:<52} {value}")


if __name__ == "__main__":
    main()
