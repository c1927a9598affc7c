"""Context economy: the bytes of rule text ruleweave adds to a session, against two baselines.

Builds a repository with 60 rules of realistic size (bodies 1–12 KB, drawn
with a fixed seed) and a 3 KB ``AGENTS.md``:

* 4 always-on rules (``<generic-rules>``), 2 unscoped Claude rules (the blob);
* 16 description-only rules (``<domain-rules>``), 6 manual rules;
* 30 path-scoped rules: 2 per area for 12 areas (``src/<area>/**``), and 6 by
  file type (``**/*.test.ts``, ``**/*.sql``, ``**/*.md``, …), half of them
  with a description (also listed in ``<domain-rules>``);
* 2 streamed (TTSR) rules.

Then logs a session of 200 tool calls (reads, edits and writes) the way a
task goes: most calls in three areas, a few in two more, test and SQL files
among them — once as the issue describes it, and once more with a
``compacted()`` half-way (history summarised: every notice is re-armed and
given again, the costliest realistic case). ``ruleweave.replay.economy`` replays the
log (what ``ruleweave replay LOG --economy`` prints) and reports what
ruleweave delivered — the prompt once plus every notice — against
*all in prompt* (every rule whole in the system prompt) and *re-inject
every call* (every matching rule whole on every matching call).

Goals with the default options, on the session without a compaction:
delivered ≤ 0.35 × all-in-prompt and ≤ 0.05 × re-inject-every-call; the
session with one is reported beside it.

Run: ``python benchmarks/bench_context.py`` (``--check`` exits 1 when a goal
is missed; ``--json`` prints the report as JSON).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from ruleweave.replay.economy import economy, to_json

SEED = 20261130
AREAS = ("auth", "billing", "search", "ui", "api", "db", "jobs", "mail", "cache", "export", "admin", "cli")
TYPES = (
    ("tests", "**/*.test.ts"), ("sql", "**/*.sql"), ("docs", "**/*.md"),
    ("styles", "**/*.css"), ("config", "**/*.{yml,yaml}"), ("scripts", "scripts/**"),
)
PROSE = (
    "always check the error path before merging, prefer small pure functions, name things for "
    "what they do, keep public interfaces stable, log with context, never swallow exceptions, "
    "document every flag, measure before you optimise, write the test that fails first"
)
WORDS = tuple(PROSE.split())
GOAL_PROMPT = 0.35
GOAL_REINJECT = 0.05


def body(rng: random.Random, name: str) -> str:
    """A rule body of 1–12 KB: a title, then bullet lines of prose."""
    size = rng.randint(1024, 12 * 1024)
    lines = [f"# {name}", ""]
    total = 0
    while total < size:
        line = f"- {' '.join(rng.choice(WORDS) for _ in range(rng.randint(8, 18)))}."
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)


def build(root: Path, rng: random.Random) -> int:
    """Write the repository; returns the number of rules written."""
    files: dict[str, str] = {".git/HEAD": "ref: refs/heads/main\n", "AGENTS.md": body(rng, "agents")[:3072]}
    rules = 0

    def rule(path: str, front: str, name: str) -> None:
        nonlocal rules
        files[path] = f"---\n{front}---\n{body(rng, name)}" if front else body(rng, name)
        rules += 1

    for i in range(4):
        rule(f".cursor/rules/always-{i}.mdc", "alwaysApply: true\n", f"always-{i}")
    for i in range(2):
        files[f".claude/rules/house-{i}.md"] = body(rng, f"house-{i}")
        rules += 1
    for i in range(16):
        rule(f".cursor/rules/topic-{i}.mdc", f"description: How we handle topic {i}\n", f"topic-{i}")
    for i in range(6):
        rule(f".cursor/rules/manual-{i}.mdc", "", f"manual-{i}")
    for n, area in enumerate(AREAS):
        for k in range(2):
            described = f"description: {area} conventions, part {k}\n" if (n + k) % 2 else ""
            rule(f".cursor/rules/{area}-{k}.mdc", f"{described}globs: src/{area}/**\n", f"{area}-{k}")
    for n, (name, glob) in enumerate(TYPES):
        described = f"description: {name} conventions\n" if n % 2 else ""
        rule(f".cursor/rules/{name}.mdc", f"{described}globs: {glob}\n", name)
    for i in range(2):
        rule(f".cursor/rules/stream-{i}.mdc", f"condition: forbidden_call_{i}\\(\n", f"stream-{i}")
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return rules


def calls(rng: random.Random) -> list[tuple[str, dict[str, str]]]:
    """200 tool calls: most in three areas, some in two more, tests, SQL and docs among them."""
    main, side = AREAS[:3], AREAS[3:5]
    out: list[tuple[str, dict[str, str]]] = []
    for _ in range(200):
        area = rng.choice(main) if rng.random() < 0.85 else rng.choice(side)
        kind = rng.random()
        if kind < 0.6:
            path = f"src/{area}/{rng.choice(('index', 'model', 'service', 'handler', 'util'))}.ts"
        elif kind < 0.85:
            path = f"src/{area}/{rng.choice(('index', 'model', 'service'))}.test.ts"
        elif kind < 0.95:
            path = f"src/{area}/schema.sql"
        else:
            path = "docs/guide.md"
        tool = rng.choice(("read_file", "read_file", "edit_file", "write_file"))
        out.append((tool, {"path": path}))
    return out


def session_report(compact: bool) -> tuple[int, Any]:
    """Build the repository and log the 200-call session; ``(rules, economy report)``."""
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        home = Path(tmp) / "home"
        home.mkdir()
        rules = build(root, rng)
        log = Path(tmp) / "events.jsonl"
        config = RuleweaveConfig(cwd=root, home=home, claude_config_dir=home / ".claude",
                                 ruleweave_home=home / ".ruleweave", event_log=log)
        session = RuleSet.load(config).session("bench", store=MemoryStore())
        session.prompt_parts()
        for number, (tool, arguments) in enumerate(calls(rng)):
            if compact and number == 100:
                session.compacted()
            session.after_tool_call(tool, arguments)
        (report,) = economy(log)
    return rules, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()
    rules, report = session_report(compact=False)
    _, compacted = session_report(compact=True)
    ratio_prompt = report.ratio(report.all_in_prompt)
    ratio_reinject = report.ratio(report.reinject_every_call)
    if args.json:
        print(json.dumps({"session": to_json((report,)), "with_compaction": to_json((compacted,))},
                         indent=2))
    else:
        print(f"{rules} rules, {report.calls} tool calls (defaults: prompt_max_bytes 48 KiB, "
              "notice_max_bytes 8 KiB)")
        print(report.format())
        print(f"\nruleweave / all-in-prompt        = {ratio_prompt:.3f}  (goal <= {GOAL_PROMPT})")
        print(f"ruleweave / re-inject-every-call = {ratio_reinject:.3f}  (goal <= {GOAL_REINJECT})")
        print(f"with a compaction half-way: {compacted.ratio(compacted.all_in_prompt):.3f} of all-in-prompt, "
              f"{compacted.ratio(compacted.reinject_every_call):.3f} of re-inject-every-call")
    met = ratio_prompt <= GOAL_PROMPT and ratio_reinject <= GOAL_REINJECT
    if not met:
        sys.stdout.flush()
        print("goal missed", file=sys.stderr)
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
