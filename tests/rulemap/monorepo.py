"""A generated monorepo for ``ruleweave map``: packages in five languages, rules in six agents' formats.

Shared by the map's tests (small) and ``benchmarks/bench_map.py`` (20,000 files,
300 rules). What it holds, so that every part of the map has something to show:

* ``packages/pkgNNN/{src,src/api,src/ui,src/core/util,tests}/`` files in five languages;
* rules at the root in Cursor, Claude Code, Windsurf, Copilot and Kiro formats
  (a mix of live globs, dead ones — every seventh — and always-on rules), four
  large Python style rules that together overflow one after-tool notice, one
  Windsurf rule past Windsurf's 12,000-character limit, and one rule whose
  body holds ``<script>`` and ``</textarea>`` (``HOSTILE_BODY``) in a file whose
  name holds markup;
* nested Cursor rule folders in some packages, with an always-on rule each;
* ``AGENTS.md`` and a drifted ``CLAUDE.md`` at the root, a nested ``AGENTS.md``
  and ``AGENTS.override.md`` in the first package;
* an ignored ``node_modules/`` tree (``.gitignore``), which the map leaves out.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

EXTENSIONS = ("ts", "py", "go", "rs", "md")
SUBDIRS = ("src", "src/api", "src/ui", "src/core/util", "tests")
BODY = "\n\n".join(f"Convention {i}: keep handlers small and validate input at the edge." for i in range(12))
FORMATS = (
    (".cursor/rules/r{n}.mdc", "---\nglobs: {glob}\ndescription: conventions {n}\n---\n"),
    (".claude/rules/r{n}.md", "---\npaths: ['{glob}']\n---\n"),
    (".windsurf/rules/r{n}.md", "---\ntrigger: glob\nglobs: {glob}\n---\n"),
    (".github/instructions/r{n}.instructions.md", "---\napplyTo: '{glob}'\n---\n"),
    (".kiro/steering/r{n}.md", "---\ninclusion: fileMatch\nfileMatchPattern: '{glob}'\n---\n"),
)
HOSTILE_NAME = "x<img src=y onerror=alert(1)>"
"""The name of the rule whose file name and body try to inject markup."""

HOSTILE_BODY = (
    "Never do this: </script><script>document.body.dataset.pwned = '1'</script>\n"
    "Nor this: </textarea><img src=x onerror=\"document.body.dataset.pwned = '2'\"> & <!-- a comment\n"
    "Line separators\u2028and\u2029too."
)
"""A rule body that would run script if the page ever treated rule text as markup."""

PARAGRAPHS = (
    "Run the tests before you push.",
    "Keep functions short and name them for what they do.",
    "Write commit messages in the imperative mood.",
    "Document every public function.",
)


def glob_for(n: int, packages: int) -> str:
    """A live glob most of the time, a dead one every seventh rule."""
    if n % 7 == 0:
        return f"legacy/mod{n}/**/*.java"
    return f"packages/pkg{(n * 13) % packages:03d}/src/**/*.{EXTENSIONS[n % len(EXTENSIONS)]}"


def write(root: Path, relative: str, text: str) -> None:
    """Write ``text`` at ``root/relative``, making directories."""
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def build_monorepo(
    root: Path, *, packages: int = 400, files_per_package: int = 50, rules: int = 300, git: bool = True
) -> Path:
    """Write the monorepo under ``root`` (a new directory) and return ``root``.

    Args:
        root: Where to build it.
        packages: Packages under ``packages/``.
        files_per_package: Source files in each package.
        rules: Rules in all (about two thirds at the root, the rest in nested folders; at least 16).
        git: Make it a git repository (files untracked: git lists them all the same).

    Returns:
        ``root``.
    """
    for p in range(packages):
        for f in range(files_per_package):
            ext = EXTENSIONS[f % len(EXTENSIONS)]
            sub = SUBDIRS[(f // len(EXTENSIONS)) % len(SUBDIRS)]
            write(root, f"packages/pkg{p:03d}/{sub}/mod{f}.{ext}", "x\n")
    write(root, ".gitignore", "node_modules/\n")
    for f in range(30):
        write(root, f"node_modules/left-pad/lib/f{f}.js", "x\n")
    write(root, "AGENTS.md", "# Project\n\n" + "\n\n".join(PARAGRAPHS) + "\n")
    drifted = (*PARAGRAPHS[:3], "Document every public function and class.")
    write(root, "CLAUDE.md", "# Project\n\n" + "\n\n".join(drifted) + "\n")
    write(root, "packages/pkg000/AGENTS.md", "# Package 0\n\nUse the package's own fixtures.\n")
    write(root, "packages/pkg000/AGENTS.override.md", "# Package 0 (Codex)\n\nRun `make check` first.\n")
    special = 8
    nested_folders = max((rules - special) // 3 // 4, 1)
    root_rules = rules - special - nested_folders * 4
    n = 0
    for _ in range(root_rules):
        pattern, head = FORMATS[n % len(FORMATS)]
        write(root, pattern.format(n=n), head.format(n=n, glob=glob_for(n, packages)) + BODY)
        n += 1
    style = "\n\n".join(f"Python rule {i}: prefer explicit names over clever ones; " * 3 for i in range(20))
    for k in range(4):  # together over notice_max_bytes: a touch of one .py file fires all four
        write(root, f".cursor/rules/py-style-{k}.mdc", "---\nglobs: '**/*.py'\n---\n" + style)
    write(root, ".cursor/rules/always.mdc", "---\nalwaysApply: true\n---\nBe kind to reviewers.\n")
    huge = "Windsurf stops reading. " * 600  # 14,400 characters
    write(root, ".windsurf/rules/huge.md", "---\ntrigger: always_on\n---\n" + huge)
    write(root, f".cursor/rules/{HOSTILE_NAME}.mdc", "---\nglobs: '**/*.ts'\n---\n" + HOSTILE_BODY)
    write(root, ".cursor/rules/old.md", "---\nalwaysApply: true\n---\nAn .md file Cursor never reads.\n")
    step = max(packages // nested_folders, 1)
    for index in range(nested_folders):
        p = (index * step) % packages
        folder = f"packages/pkg{p:03d}/.cursor/rules"
        for k in range(3):
            ext = EXTENSIONS[(n + k) % len(EXTENSIONS)]
            glob = "**/*.java" if (n + k) % 7 == 0 else f"**/*.{ext}"
            write(root, f"{folder}/n{n + k}.mdc", f"---\nglobs: '{glob}'\n---\n" + BODY)
        write(root, f"{folder}/local.mdc", "---\nalwaysApply: true\n---\nThis package ships on Fridays.\n")
        n += 3
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root
