"""Discovery speed: the cost follows the rule files, not the size of the repository.

Generates two repositories carrying the same 320 rule files across the
providers, at every depth of a root→cwd walk six levels deep: a small one
with 300 other files and a large one with 24,000 other files in 2,400
directories. For each it reports the medians of ``discover`` and of
``RuleSet.load`` (discovery, buckets, TTSR compilation, the instruction blob
and the glob index), the cost per rule file, and two baselines run in the
same process, interleaved with ruleweave's runs so that a busy machine
slows all of them alike:

* **fair**: reads exactly the places ruleweave reads (each provider's folder
  in each directory of the walk, the user tier, the legacy single files),
  splits each frontmatter and parses it with PyYAML's C loader
  (``CSafeLoader``) — the cost of reading the files, with nothing built;
* **naive**: walks the whole tree, reads every ``.md``/``.mdc`` and parses
  each frontmatter with the pure-Python ``yaml.safe_load`` (flattering: it
  shows what not walking the tree saves, not what ruleweave costs).

Goals: ``RuleSet.load`` on the large repository at most 60 µs per rule file
and within 1.3x of the fair baseline; growth small → large at most 1.25x.

Run: ``python benchmarks/bench_discovery.py`` (``--check`` exits 1 when a
goal is missed; ``--runs N`` sets the number of timed rounds).
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

from ruleweave import RuleSet
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import discover
from ruleweave.frontmatter import split

RULE_FILES = 320
CWD_PARTS = ("services", "billing", "src", "invoices", "pdf", "render")  # six levels down
GOAL_GROWTH = 1.25
GOAL_FAIR = 1.3
GOAL_US_PER_RULE = 60.0

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
    """Write the same 320 rule files into ``root``; return their paths."""
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
    """A repository with the 320 rule files and ``directories × files_per_dir`` others."""
    root = base / label
    (root / ".git").mkdir(parents=True)
    write_rules(root)
    others = write_noise(root, directories, files_per_dir)
    cwd = root.joinpath(*CWD_PARTS)
    cwd.mkdir(parents=True, exist_ok=True)
    total_dirs = sum(1 for _ in os.walk(root))
    return Repo(label, root, cwd, others, total_dirs)


def naive(root: Path) -> int:
    """The naive baseline: walk everything, read every .md/.mdc, YAML-load every frontmatter."""
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


# Where the providers look, relative to a directory of the walk (recursive folders
# and single files), and in the user tier; the fair baseline reads exactly these.
# Keep it in step with the providers (``discovery/``) and the instruction formats.
FAIR_FOLDERS = (
    ".ruleweave/rules", ".agent/rules", ".agents/rules", ".claude/rules", ".cursor/rules",
    ".windsurf/rules", ".trae/rules", ".clinerules", ".roo/rules", ".github/instructions",
    ".continue/rules", ".kiro/steering", ".augment/rules", ".junie/guidelines", ".aiassistant/rules",
)
FAIR_FILES = (
    "RULES.md", ".ruleweave/RULES.md", ".cursorrules", ".windsurfrules", ".github/copilot-instructions.md",
    "opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc",
    *RuleweaveConfig().instruction_files,
)
FAIR_USER = (
    ".ruleweave/rules", ".agent/rules", ".agents/rules", ".claude/rules", ".cursor/rules",
    ".continue/rules", ".kiro/steering", ".roo/rules", ".augment/rules",
)


def _fair_folder(directory: str, out: list[dict[str, object]]) -> None:
    try:
        with os.scandir(directory) as entries:
            items = sorted(entries, key=lambda e: e.name)
    except OSError:
        return
    for entry in items:
        if entry.is_dir():
            _fair_folder(entry.path, out)
        elif entry.name.endswith((".md", ".mdc")):
            _fair_file(entry.path, out)


def _fair_file(path: str, out: list[dict[str, object]]) -> None:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError:
        return
    block, _body = split(text)
    data: object = {}
    if block:
        with contextlib.suppress(yaml.YAMLError):
            data = yaml.load(block, Loader=yaml.CSafeLoader)
    out.append(data if isinstance(data, dict) else {})


def fair(root: Path, cwd: Path, home: Path) -> int:
    """The fair baseline: the places ruleweave reads, each frontmatter parsed by the C loader."""
    out: list[dict[str, object]] = []
    for folder in FAIR_USER:
        _fair_folder(str(home / folder), out)
    walk = [root, *(root.joinpath(*CWD_PARTS[: i + 1]) for i in range(len(CWD_PARTS)))]
    for directory in walk:
        base = str(directory)
        for folder in FAIR_FOLDERS:
            _fair_folder(f"{base}/{folder}", out)
        for name in FAIR_FILES:
            if os.path.isfile(f"{base}/{name}"):
                _fair_file(f"{base}/{name}", out)
    return len(out)


def median_rounds(actions: dict[str, Callable[[], object]], runs: int) -> dict[str, float]:
    """Median wall time of each action over ``runs`` rounds, the actions interleaved in each round."""
    for action in actions.values():
        action()  # warm-up
    samples: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(runs):
        for name, action in actions.items():
            start = time.perf_counter()
            action()
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in samples.items()}


def main(argv: list[str] | None = None) -> int:
    """Generate the repositories, time ruleweave and both baselines, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=15, help="timed rounds per repository")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="rw-bench-") as tmp:
        base = Path(tmp)
        home = base / "home"
        home.mkdir()
        print("generating repositories ...", flush=True)
        repos = [
            make_repo(base, "small", directories=30, files_per_dir=10),
            make_repo(base, "large", directories=2_400, files_per_dir=10),
        ]
        results: dict[str, dict[str, float]] = {}
        for repo in repos:
            config = RuleweaveConfig(
                cwd=repo.cwd, home=home, claude_config_dir=home / ".claude",
                ruleweave_home=home / ".ruleweave", builtin_rules=False,
            )
            found = discover(config)
            discovered = len(found.rules) + len(found.shadowed)
            assert discovered == RULE_FILES, f"{repo.label}: found {discovered} rule files"
            assert fair(repo.root, repo.cwd, home) == RULE_FILES
            results[repo.label] = median_rounds(
                {
                    "discover": partial(discover, config),
                    "load": partial(RuleSet.load, config),
                    "fair": partial(fair, repo.root, repo.cwd, home),
                },
                args.runs,
            )
            results[repo.label]["naive"] = median_rounds(
                {"naive": partial(naive, repo.root)}, max(3, args.runs // 5)
            )["naive"]

    small, large = results["small"], results["large"]
    growth = large["load"] / small["load"]
    versus_fair = large["load"] / large["fair"]
    per_rule = large["load"] / RULE_FILES * 1e6

    print()
    header = f"{'repository':<12}{'other files':>12}{'dirs':>7}{'rule files':>11}"
    header += f"{'discover ms':>13}{'load ms':>9}{'µs/rule':>9}{'fair ms':>9}{'load/fair':>10}"
    header += f"{'naive ms':>10}{'naive/load':>11}"
    print(header)
    print("-" * len(header))
    for repo in repos:
        r = results[repo.label]
        print(
            f"{repo.label:<12}{repo.other_files:>12,}{repo.directories:>7,}{RULE_FILES:>11}"
            f"{r['discover'] * 1e3:>13.2f}{r['load'] * 1e3:>9.2f}{r['load'] / RULE_FILES * 1e6:>9.1f}"
            f"{r['fair'] * 1e3:>9.2f}{r['load'] / r['fair']:>9.2f}x"
            f"{r['naive'] * 1e3:>10.1f}{r['naive'] / r['load']:>10.1f}x"
        )
    print()
    goals = [
        (f"RuleSet.load µs per rule file (large) ≤ {GOAL_US_PER_RULE:.0f}", f"{per_rule:.1f}",
         per_rule <= GOAL_US_PER_RULE),
        (f"RuleSet.load / fair baseline (large) ≤ {GOAL_FAIR}x", f"{versus_fair:.2f}x",
         versus_fair <= GOAL_FAIR),
        (f"growth small → large ≤ {GOAL_GROWTH}x", f"{growth:.2f}x", growth <= GOAL_GROWTH),
    ]
    for label, value, ok in goals:
        print(f"  {'ok  ' if ok else 'MISS'}  {label:<46} {value}")
    fair_per_rule = large["fair"] / RULE_FILES * 1e6
    print(f"\n  the fair baseline itself costs {fair_per_rule:.1f} µs per rule file here; "
          f"{GOAL_FAIR}x of it is {fair_per_rule * GOAL_FAIR:.1f} µs")
    print(f"\nmedian of {args.runs} interleaved rounds (naive: {max(3, args.runs // 5)}), "
          f"python {sys.version.split()[0]}, libyaml C loader: {yaml.__with_libyaml__}")
    return 1 if args.check and not all(ok for _, _, ok in goals) else 0


if __name__ == "__main__":
    sys.exit(main())
