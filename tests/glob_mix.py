"""A monorepo's glob mix (issue #30): the rules, the tool-call paths, and every glob shape they use.

Shared by ``tests/test_glob_mix.py`` (the index against a plain matcher, on every
shape, in both dialects) and ``benchmarks/bench_after_tool.py`` (the speed of a
tool call against a combined RE2 set of the same globs). Rule ``i`` writes one
of eight kinds of scoping, each area's literals its own, so that a path calls
for a few rules, not hundreds:

* ``**/test_*.py``-like names under a package, ``*_test.go`` suffixes;
* braces (``apps/appN/**/*.{ts,tsx}``), a wildcard directory
  (``packages/*/src/areaN/**``), a character class (``tools/tN/[Mm]akefile``);
* deep literal directories (``src/main/java/com/acme/areaN/service/**/*.java``);
* negations: Continue rules (``.continue/rules``) whose ``!`` globs exclude tests;
* and, one rule in 1,000, the repository-wide ``**/test_*.py``, ``**/*_test.go``,
  ``**/[Mm]akefile``.
"""

from __future__ import annotations

import random
from pathlib import Path

WIDE = ("**/test_*.py", "**/*_test.go", "**/[Mm]akefile")
"""The repository-wide globs, held by one rule in ``WIDE_EVERY``."""

WIDE_EVERY = 1000

KINDS = 8


def rule_globs(i: int) -> tuple[list[str], list[str]]:
    """Rule ``i``'s globs and its negated (``!``) globs (only Continue rules, kind 7, have those)."""
    if i % WIDE_EVERY == 0:
        return list(WIDE), []
    kind = i % KINDS
    if kind == 0:
        return [f"packages/pkg{i}/**/test_*.py", f"packages/pkg{i}/**/*.py"], []
    if kind == 1:
        return [f"services/svc{i}/**/*_test.go", f"services/svc{i}/internal/**/*.go"], []
    if kind == 2:
        return [f"apps/app{i}/**/*.{{ts,tsx}}", f"apps/app{i}/**/*.{{css,scss}}"], []
    if kind == 3:
        return [f"packages/*/src/area{i}/**"], []
    if kind == 4:
        return [f"tools/t{i}/[Mm]akefile", f"tools/t{i}/**/*.mk"], []
    if kind == 5:
        return [f"src/main/java/com/acme/area{i}/service/**/*.java"], []
    if kind == 6:
        return [f"docs/d{i}/**/*.md", f"config/c{i}/*.{{yml,yaml}}"], []
    return [f"lib/l{i}/**/*.py"], [f"lib/l{i}/**/test_*.py"]


def path_for(rng: random.Random, i: int) -> str:
    """A tool-call path, relative to the project root, in area ``i`` (half the areas have no rule)."""
    kind = rng.randrange(KINDS + 1)
    n = rng.randrange(40)
    if kind == 0:
        return f"packages/pkg{i}/tests/unit/test_model{n}.py"
    if kind == 1:
        return f"services/svc{i}/internal/store/db{n}_test.go"
    if kind == 2:
        return f"apps/app{i}/src/components/Widget{n}.{('ts', 'tsx', 'css')[n % 3]}"
    if kind == 3:
        return f"packages/pkg{n}/src/area{i}/handlers/h{n}.ts"
    if kind == 4:
        return f"tools/t{i}/{('Makefile', 'makefile', 'rules.mk')[n % 3]}"
    if kind == 5:
        return f"src/main/java/com/acme/area{i}/service/impl/Svc{n}.java"
    if kind == 6:
        return f"docs/d{i}/guide/page{n}.md" if n % 2 else f"config/c{i}/app.yml"
    if kind == 7:
        return f"lib/l{i}/pkg/{'test_' if n % 2 else ''}mod{n}.py"
    return f"misc/area{i}/notes{n}.txt"


def make_paths(count: int, rules: int, seed: int = 7, fresh: str = "") -> list[str]:
    """``count`` paths over ``2 × rules`` areas; with ``fresh``, each in a directory of its own."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        rel = path_for(rng, rng.randrange(rules * 2))
        if fresh:
            head, _, name = rel.rpartition("/")
            rel = f"{head}/{fresh}{n}/{name}"
        out.append(rel)
    return out


def write_rules(root: Path, rules: int) -> None:
    """Write ``rules`` rules under ``root``: Cursor rules, and Continue rules for the negated ones."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    cursor = root / ".cursor" / "rules"
    continue_ = root / ".continue" / "rules"
    cursor.mkdir(parents=True, exist_ok=True)
    continue_.mkdir(parents=True, exist_ok=True)
    for i in range(rules):
        globs, negated = rule_globs(i)
        if negated:
            listed = "".join(f"  - '{g}'\n" for g in [*globs, *(f"!{g}" for g in negated)])
            (continue_ / f"rule{i:05d}.md").write_text(
                f"---\nname: rule{i:05d}\nalwaysApply: false\nglobs:\n{listed}---\n"
                f"Follow the conventions of area {i}.\n",
                encoding="utf-8",
            )
            continue
        (cursor / f"rule{i:05d}.mdc").write_text(
            f"---\ndescription: conventions for area {i}\nglobs: {', '.join(globs)}\n---\n"
            f"Follow the conventions of area {i}.\n",
            encoding="utf-8",
        )


def every_shape() -> list[str]:
    """One glob of each shape the mix writes (every kind, the negations and the wide ones)."""
    out: list[str] = list(WIDE)
    for kind in range(1, KINDS + 1):
        globs, negated = rule_globs(kind)
        out.extend([*globs, *negated])
    return out
