"""Nested rule folders: loading does not grow with them, and a first touch stays cheap.

Builds a 20,000-file monorepo (400 packages × 50 files) with 50 nested rule
folders spread through it (Cursor, Claude, Windsurf, Copilot and Kiro
folders, 4 rules each with realistic bodies) and one root ``.cursor/rules``.
Reports, in one process:

* ``RuleSet.load`` on that repository against the same repository without
  the nested folders (goal: the ratio stays ≤ 1.25 — nested folders are read
  on touch, not at load);
* the first ``after_tool_call`` touching a package that holds a nested folder
  (goal ≤ 2 ms: one listing per new directory, the folder's files parsed
  once), a first touch in a package without one, and a repeat touch;
* in a warm session, a touch in a package directory not seen before against
  a repeat (the steady cost of an agent wandering a monorepo);
* the same touches through a naive baseline written the obvious way: for each
  call, walk up from the file to the root and ``discover`` every directory.

Run: ``python benchmarks/bench_nested.py``.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.discovery import discover_directory

PACKAGES = 400
FILES_PER_PACKAGE = 50
NESTED = 50
BODY = "\n".join(
    f"- Convention {i}: keep handlers small, validate input at the edge, log with the project logger."
    for i in range(40)
)
FOLDERS = (
    (".cursor/rules/{n}.mdc", "---\nglobs: '**/*.ts'\ndescription: conventions {n}\n---\n"),
    (".claude/rules/{n}.md", "---\npaths: ['**/*.py']\n---\n"),
    (".windsurf/rules/{n}.md", "---\ntrigger: glob\nglobs: '**/*.go'\n---\n"),
    (".github/instructions/{n}.instructions.md", "---\napplyTo: '**/*.rs'\n---\n"),
    (".kiro/steering/{n}.md", "---\ninclusion: fileMatch\nfileMatchPattern: '**/*.java'\n---\n"),
)


def build(base: Path, nested: bool) -> Path:
    root = base / ("nested" if nested else "plain")
    (root / ".git").mkdir(parents=True)
    (root / ".cursor/rules").mkdir(parents=True)
    (root / ".cursor/rules/root.mdc").write_text(f"---\nglobs: '**/*.md'\n---\n{BODY}", encoding="utf-8")
    for p in range(PACKAGES):
        pkg = root / "packages" / f"pkg{p:03d}" / "src"
        pkg.mkdir(parents=True)
        for f in range(FILES_PER_PACKAGE):
            (pkg / f"mod{f}.ts").write_text("export {}\n", encoding="utf-8")
        if nested and p % (PACKAGES // NESTED) == 0:
            pattern, head = FOLDERS[p % len(FOLDERS)]
            for r in range(4):
                path = root / "packages" / f"pkg{p:03d}" / pattern.format(n=f"rule{r}")
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(head.format(n=r) + BODY, encoding="utf-8")
    return root


def median_ms(fn: Callable[[], object], runs: int = 7) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def first_touch_ms(root: Path, path: str, runs: int = 7) -> tuple[float, float]:
    """Median first and repeat touch of ``path`` in a freshly loaded rule set."""
    first: list[float] = []
    repeat: list[float] = []
    for _ in range(runs):
        ruleset = RuleSet.load(RuleweaveConfig(cwd=root))
        session = ruleset.session("bench")
        start = time.perf_counter()
        session.after_tool_call("read", {"path": path})
        first.append((time.perf_counter() - start) * 1e3)
        other = path.replace("mod1.", "mod2.")
        start = time.perf_counter()
        session.after_tool_call("read", {"path": other})
        repeat.append((time.perf_counter() - start) * 1e3)
    return statistics.median(first), statistics.median(repeat)


def warm_new_directory_us(root: Path) -> tuple[float, float]:
    """In a warm session: mean cost of touching a package directory not seen before, and a repeat."""
    session = RuleSet.load(RuleweaveConfig(cwd=root)).session("warm")
    session.after_tool_call("read", {"path": "packages/pkg000/src/mod0.ts"})
    fresh = [f"packages/pkg{p:03d}/src/mod1.ts" for p in range(1, PACKAGES) if p % (PACKAGES // NESTED)]
    start = time.perf_counter()
    for path in fresh:
        session.after_tool_call("read", {"path": path})
    first = (time.perf_counter() - start) / len(fresh) * 1e6
    again = [p.replace("mod1.", "mod3.") for p in fresh]
    start = time.perf_counter()
    for path in again:
        session.after_tool_call("read", {"path": path})
    return first, (time.perf_counter() - start) / len(again) * 1e6


def naive_touch_ms(root: Path, path: str, runs: int = 7) -> float:
    """What a straightforward implementation does per call: discover every directory up to the root."""
    config = RuleweaveConfig(cwd=root)

    def once() -> None:
        directory = (root / path).parent
        while directory != root:
            discover_directory(config, directory)
            directory = directory.parent

    return median_ms(once, runs)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        plain, nested = build(base, False), build(base, True)
        load_plain = median_ms(lambda: RuleSet.load(RuleweaveConfig(cwd=plain)))
        load_nested = median_ms(lambda: RuleSet.load(RuleweaveConfig(cwd=nested)))
        with_folder = "packages/pkg000/src/mod1.ts"
        without = "packages/pkg001/src/mod1.ts"
        first, repeat = first_touch_ms(nested, with_folder)
        first_plain, repeat_plain = first_touch_ms(nested, without)
        naive = naive_touch_ms(nested, with_folder)
        warm_first, warm_repeat = warm_new_directory_us(nested)
        print(f"monorepo: {PACKAGES * FILES_PER_PACKAGE:,} files, {NESTED} nested rule folders")
        print(f"RuleSet.load      without nested folders {load_plain:7.2f} ms   with {load_nested:7.2f} ms"
              f"   ratio {load_nested / load_plain:4.2f}x  (goal ≤ 1.25x)")
        print(f"after_tool_call   first touch, package with a nested folder   {first:6.3f} ms  (goal ≤ 2 ms)")
        print(f"                  repeat touch in that package                {repeat:6.3f} ms"
              f"   first/repeat {first / repeat:5.1f}x")
        print(f"                  first touch, package without one            {first_plain:6.3f} ms"
              f"   first/repeat {first_plain / repeat_plain:5.1f}x")
        print(f"warm session      new package directory (no nested folder)    {warm_first / 1e3:6.3f} ms"
              f"   repeat {warm_repeat / 1e3:6.3f} ms   first/repeat {warm_first / warm_repeat:4.1f}x"
              "  (issue 14 goal ≤ 3x)")
        print(f"naive baseline    discover each directory up to the root, per call {naive:6.3f} ms"
              f"   ({naive / repeat:,.0f}x a repeat touch)")


if __name__ == "__main__":
    main()
