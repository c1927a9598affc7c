"""Discovery speed: the cost follows the rule files, not the size of the repository.

Generates two repositories carrying the same 300 rule files across the
providers, at every depth of a root→cwd walk six levels deep: a small one
with about 300 other files and a large one with 20,000 other files in 2,000
directories. For each it reports the median of several ``discover`` runs,
the growth from small to large, the cost per rule file, and the ratio
against a naive baseline run in the same process (walk the whole tree, read
every ``.md``/``.mdc``, ``yaml.safe_load`` each frontmatter).

Goals: growth at most 1.25x, at least 4x faster than the naive baseline on
the large repository, under 100 µs per rule file.

Run: ``python benchmarks/bench_discovery.py`` (``--check`` exits 1 when a
goal is missed; ``--runs N`` sets the number of timed runs).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import yaml

from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import discover

RULE_FILES = 300
CWD_PARTS = ("services", "billing", "src", "invoices", "pdf", "render")  # six levels down
GOAL_GROWTH = 1.25
GOAL_SPEEDUP = 4.0
GOAL_US_PER_RULE = 100.0

BODY = (
    "Keep functions small and named for what they do. Prefer explicit types at module\n"
    "boundaries, return early on errors, and never swallow an exception without logging\n"
    "it. Tests sit next to the code they cover and run in under a second each.\n\n"
    "- Use the project's logger, not print.\n"
    "- Validate input at the edge; trust it inside.\n"
    "- Document every public function with one sentence saying what it returns.\n"
)


def _rule_text(provider: str, index: int) -> tuple[str, str]:
    """A realistic rule file for ``provider``: (file name, text)."""
    topic = f"topic{index:03d}"
    body = f"# {topic}\n\n{BODY}"
    if provider == "cursor":
        kind = index % 4
        if kind == 0:  # unquoted globs: invalid YAML, repaired by the fallback
            head = f"description: {topic} conventions\nglobs: src/**/*.ts, src/**/*.{{ts,tsx}}"
        elif kind == 1:
            head = "alwaysApply: true"
        elif kind == 2:
            head = f'description: Read for {topic}\nglobs: "lib/{topic}/**"\nalwaysApply: false'
        else:
            head = f"description: Agent-requested rule about {topic}"
        return f"{topic}.mdc", f"---\n{head}\n---\n{body}"
    if provider == "windsurf":
        trigger = ("always_on", "glob", "model_decision", "manual")[index % 4]
        return f"{topic}.md", (
            f"---\ntrigger: {trigger}\nglobs: '**/*.py'\ndescription: {topic} rule\n---\n{body}"
        )
    if provider == "copilot":
        return f"{topic}.instructions.md", f"---\napplyTo: '**/*.ts,**/*.tsx'\n---\n{body}"
    if provider == "kiro":
        inclusion = ("always", "fileMatch", "auto", "manual")[index % 4]
        return f"{topic}.md", (
            f"---\ninclusion: {inclusion}\nfileMatchPattern: 'app/**/*.py'\n"
            f"description: {topic}\n---\n{body}"
        )
    if provider == "claude":
        if index % 2:
            return f"{topic}.md", f"---\npaths:\n  - 'src/{topic}/**/*.ts'\n---\n{body}"
        return f"{topic}.md", body
    if provider == "continue":
        return f"{topic}.md", f"---\nname: {topic}\nglobs: ['**/*.go']\nregex: 'func '\n---\n{body}"
    if provider == "native":
        return f"{topic}.md", (
            f"---\nname: {topic}\ndescription: {topic} policy\nglobs: ['**/*.rs']\n"
            f"condition: 'unsafe\\s*\\{{'\nscope: text\n---\n{body}"
        )
    return f"{topic}.md", f"---\ndescription: {topic} guidance\n---\n{body}"


# provider → its rule directory relative to a directory of the walk
LOCATIONS: dict[str, str] = {
    "native": ".ruleweave/rules",
    "agents": ".agents/rules",
    "claude": ".claude/rules",
    "cursor": ".cursor/rules",
    "windsurf": ".windsurf/rules",
    "copilot": ".github/instructions",
    "continue": ".continue/rules",
    "kiro": ".kiro/steering",
}
CLINE_RULES = 12  # the nearest .clinerules directory, three levels down


def write_rules(root: Path) -> list[Path]:
    """Write the same 300 rule files into ``root``; return their paths."""
    walk = [root]
    for part in CWD_PARTS:
        walk.append(walk[-1] / part)
    written: list[Path] = []
    for index in range(CLINE_RULES):
        path = walk[3] / ".clinerules" / f"cline{index:02d}.md"
        written.append(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\npaths: ['src/**']\n---\n{BODY}", encoding="utf-8")
    providers = list(LOCATIONS)
    index = 0
    while len(written) < RULE_FILES:
        provider = providers[index % len(providers)]
        directory = walk[(index // len(providers)) % len(walk)] / LOCATIONS[provider]
        name, text = _rule_text(provider, index)
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
        index += 1
    return written


SOURCE_FILES = (
    ("index.ts", "export function main(): number {\n  return 42;\n}\n"),
    ("util.py", "def helper(value: int) -> int:\n    return value * 2\n"),
    ("package.json", '{"name": "pkg", "version": "1.0.0"}\n'),
    ("README.md", "---\ntitle: Package notes\ntags: [docs]\n---\nHow this package works.\n"),
    ("CHANGELOG.md", "# Changelog\n\n## 1.0.0\n- First release.\n"),
    ("view.tsx", "export const View = () => null;\n"),
    ("schema.sql", "CREATE TABLE t (id INTEGER PRIMARY KEY);\n"),
    ("run.sh", "#!/usr/bin/env bash\nset -euo pipefail\necho ok\n"),
    ("config.yaml", "debug: false\nworkers: 4\n"),
    ("main.go", "package main\n\nfunc main() {}\n"),
)


def write_noise(root: Path, directories: int, files_per_dir: int) -> int:
    """Fill ``root`` with unrelated source and docs files; return how many were written."""
    count = 0
    for number in range(directories):
        top = ("packages", "apps", "node_modules", "docs", "vendor")[number % 5]
        directory = root / top / f"group{number % 40:02d}" / f"module{number:04d}"
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in SOURCE_FILES[:files_per_dir]:
            (directory / name).write_text(text, encoding="utf-8")
            count += 1
    return count


@dataclass(frozen=True)
class Repo:
    """A generated repository."""

    label: str
    root: Path
    cwd: Path
    other_files: int
    directories: int


def make_repo(base: Path, label: str, directories: int, files_per_dir: int) -> Repo:
    """A repository with the 300 rule files and ``directories × files_per_dir`` others."""
    root = base / label
    (root / ".git").mkdir(parents=True)
    write_rules(root)
    others = write_noise(root, directories, files_per_dir)
    cwd = root.joinpath(*CWD_PARTS)
    cwd.mkdir(parents=True, exist_ok=True)
    total_dirs = sum(1 for _ in os.walk(root))
    return Repo(label, root, cwd, others, total_dirs)


def naive(root: Path) -> int:
    """The baseline: walk everything, read every .md/.mdc, YAML-load every frontmatter."""
    loaded = 0
    for directory, _dirs, files in os.walk(root):
        for name in files:
            if not name.endswith((".md", ".mdc")):
                continue
            text = Path(directory, name).read_text(encoding="utf-8", errors="replace")
            if text.startswith("---\n"):
                end = text.find("\n---", 4)
                if end != -1:
                    with contextlib.suppress(yaml.YAMLError):
                        yaml.safe_load(text[4:end])
            loaded += 1
    return loaded


def median_seconds(action: Callable[[], object], runs: int) -> float:
    """Median wall time of ``runs`` calls after one warm-up call."""
    action()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    """Generate the repositories, time both approaches, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=9, help="timed runs per measurement")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="rw-bench-") as tmp:
        base = Path(tmp)
        home = base / "home"
        home.mkdir()
        print("generating repositories ...", flush=True)
        repos = [
            make_repo(base, "small", directories=30, files_per_dir=10),
            make_repo(base, "large", directories=2_000, files_per_dir=10),
        ]
        results: dict[str, tuple[float, float, int]] = {}
        for repo in repos:
            config = RuleweaveConfig(
                cwd=repo.cwd, home=home, claude_config_dir=home / ".claude",
                ruleweave_home=home / ".ruleweave", builtin_rules=False,
            )
            found = discover(config)
            discovered = len(found.rules) + len(found.shadowed)
            assert discovered == RULE_FILES, f"{repo.label}: found {discovered} rule files"
            fast = median_seconds(partial(discover, config), args.runs)
            slow = median_seconds(partial(naive, repo.root), max(3, args.runs // 3))
            results[repo.label] = (fast, slow, discovered)

    small_fast, _, _ = results["small"]
    large_fast, large_slow, _ = results["large"]
    growth = large_fast / small_fast
    speedup = large_slow / large_fast
    per_rule = large_fast / RULE_FILES * 1e6

    print()
    header = f"{'repository':<12}{'other files':>12}{'dirs':>7}{'rule files':>11}"
    header += f"{'discover ms':>13}{'µs/rule':>9}{'naive ms':>10}{'speedup':>9}"
    print(header)
    print("-" * len(header))
    for repo in repos:
        fast, slow, count = results[repo.label]
        print(
            f"{repo.label:<12}{repo.other_files:>12,}{repo.directories:>7,}{count:>11}"
            f"{fast * 1e3:>13.2f}{fast / count * 1e6:>9.1f}{slow * 1e3:>10.1f}"
            f"{slow / fast:>8.1f}x"
        )
    print()
    goals = [
        (f"growth small → large ≤ {GOAL_GROWTH}x", f"{growth:.2f}x", growth <= GOAL_GROWTH),
        (f"speedup vs naive (large) ≥ {GOAL_SPEEDUP:.0f}x", f"{speedup:.1f}x",
         speedup >= GOAL_SPEEDUP),
        (f"µs per rule file (large) < {GOAL_US_PER_RULE:.0f}", f"{per_rule:.1f}",
         per_rule < GOAL_US_PER_RULE),
    ]
    for label, value, ok in goals:
        print(f"  {'ok  ' if ok else 'MISS'}  {label:<34} {value}")
    print(f"\nmedian of {args.runs} runs (naive: {max(3, args.runs // 3)}), "
          f"python {sys.version.split()[0]}, libyaml C loader: {yaml.__with_libyaml__}")
    return 1 if args.check and not all(ok for _, _, ok in goals) else 0


if __name__ == "__main__":
    sys.exit(main())
