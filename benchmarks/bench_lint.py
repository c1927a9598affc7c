"""``ruleweave lint`` on a 20,000-file repository with 300 rules: one pass, not one walk per rule.

Builds a git repository of 20,000 files (400 packages × 50 files in five
languages) with 300 rules: 40 in each of five root rule folders (Cursor,
Claude, Windsurf, Copilot, Kiro) and 100 in 25 nested Cursor folders, their
globs a mix of live and dead ones. Reports, in one process:

* ``lint(config)`` end to end — load, ``git ls-files``, every check
  (goal: under 2 s);
* the dead-glob check alone: one pass over the listing with every glob in
  one ``GlobIndex``, against the baseline written the obvious way — for each
  rule, walk the tree and test every file against that rule's globs (each
  compiled once). The baseline is timed on a sample of rules and scaled to
  all 300 (it walks 20,000 files per rule); the ratio is baseline / one pass.

Run: ``python benchmarks/bench_lint.py``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ruleweave import RuleweaveConfig
from ruleweave.globs import compile_glob
from ruleweave.lint import lint
from ruleweave.lint.dead_globs import check_dead_globs
from ruleweave.lint.sources import LintSources

PACKAGES = 400
FILES_PER_PACKAGE = 50
EXTENSIONS = ("ts", "py", "go", "rs", "md")
BODY = "\n\n".join(f"Convention {i}: keep handlers small and validate input at the edge." for i in range(12))
FOLDERS = (
    (".cursor/rules/r{n}.mdc", "---\nglobs: {glob}\ndescription: conventions {n}\n---\n"),
    (".claude/rules/r{n}.md", "---\npaths: ['{glob}']\n---\n"),
    (".windsurf/rules/r{n}.md", "---\ntrigger: glob\nglobs: {glob}\n---\n"),
    (".github/instructions/r{n}.instructions.md", "---\napplyTo: '{glob}'\n---\n"),
    (".kiro/steering/r{n}.md", "---\ninclusion: fileMatch\nfileMatchPattern: '{glob}'\n---\n"),
)
SAMPLE = 15


def glob_for(n: int) -> str:
    """A live glob most of the time, a dead one every seventh rule."""
    if n % 7 == 0:
        return f"legacy/mod{n}/**/*.java"
    return f"packages/pkg{(n * 13) % PACKAGES:03d}/src/**/*.{EXTENSIONS[n % len(EXTENSIONS)]}"


def build(base: Path) -> Path:
    root = base / "repo"
    for p in range(PACKAGES):
        pkg = root / "packages" / f"pkg{p:03d}" / "src"
        pkg.mkdir(parents=True)
        for f in range(FILES_PER_PACKAGE):
            (pkg / f"mod{f}.{EXTENSIONS[f % len(EXTENSIONS)]}").write_text("x\n", encoding="utf-8")
    n = 0
    for pattern, head in FOLDERS:
        for _ in range(40):
            path = root / pattern.format(n=n)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(head.format(n=n, glob=glob_for(n)) + BODY, encoding="utf-8")
            n += 1
    for p in range(0, PACKAGES, PACKAGES // 25):
        for _ in range(4):
            path = root / "packages" / f"pkg{p:03d}" / ".cursor" / "rules" / f"r{n}.mdc"
            path.parent.mkdir(parents=True, exist_ok=True)
            glob = "**/*.java" if n % 7 == 0 else f"**/*.{EXTENSIONS[n % len(EXTENSIONS)]}"
            path.write_text(f"---\nglobs: '{glob}'\n---\n" + BODY, encoding="utf-8")
            n += 1
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    return root


def best(fn: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) if runs < 3 else statistics.median(times)


def per_rule_walk(root: Path, globs: list[tuple[str, ...]]) -> int:
    """The baseline: for each rule, walk the tree and test each file against its globs."""
    dead = 0
    prefix = len(str(root)) + 1
    for rule_globs in globs:
        tests = [compile_glob(g) for g in rule_globs]
        alive = False
        for directory, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d != ".git"]
            rel_dir = directory[prefix:].replace(os.sep, "/")
            for name in files:
                rel = f"{rel_dir}/{name}" if rel_dir else name
                if any(test(rel) or test(name) for test in tests):
                    alive = True
        dead += not alive
    return dead


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = build(Path(tmp))
        config = RuleweaveConfig(cwd=root)
        report = lint(config)
        whole = best(lambda: lint(config))
        sources = LintSources.load(config)
        rules = [r for r in sources.rules if r.globs]
        one_pass = best(lambda: check_dead_globs(sources))
        sample = [r.globs for r in rules[:: max(len(rules) // SAMPLE, 1)][:SAMPLE]]
        walk_sample = best(lambda: per_rule_walk(root, sample), runs=1)
        baseline = walk_sample / len(sample) * len(rules)
        dead = sum(1 for f in report.findings if f.code == "dead-rule")
        print(f"repository: {report.files:,} files (listed by {report.listing}), {report.rules} rules, "
              f"{dead} dead rules found")
        print(f"lint end to end:               {whole * 1000:8.1f} ms   (goal < 2000 ms)")
        print(f"dead globs, one pass:          {one_pass * 1000:8.1f} ms")
        print(f"dead globs, a walk per rule:   {baseline * 1000:8.1f} ms   "
              f"({len(sample)} rules timed, scaled to {len(rules)})")
        print(f"ratio walk-per-rule / one pass: {baseline / one_pass:7.1f}x")


if __name__ == "__main__":
    main()
