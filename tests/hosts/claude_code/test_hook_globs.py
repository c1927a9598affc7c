"""The snapshot's glob matching gives what ``Notices.for_paths`` gives, for many glob shapes and paths.

One decision (``ruleweave._kernel.globtable``) through two doors: the glob index inside the library,
and the rows the snapshot stores, scanned by the hook's warm path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.hosts._core import snapshot
from ruleweave.hosts._core.native import hook_config
from ruleweave.hosts._core.snapshot_build import _entries
from ruleweave.hosts.claude_code import HOST
from tests.conftest import WriteTree

GLOBS = [
    "**/*.py", "*.md", "src/**/*.ts", "src/*.{ts,tsx}", "docs/**", "**/test_*.py", "Makefile",
    "**/Dockerfile", "lib/**/index.js", "**/api/**/*.go", "a/**/b/*.c", "*.{json,yaml}", "tests/**",
    "**/__init__.py", "src/[ab]*.py", "[bad", "*", "**", "*.py,*.txt", "**/*.test.ts", ".github/**/*.yml",
    "src/api/*.go", "**/.env", ".github/*.yml", "src/**/Makefile", "*.ts", "src/*", "test_*", "src/**/*",
    "**/*", "src/**/test_*", "tests/**/test_*.py",
]

PATHS = [
    "setup.py", "src/app.py", "src/a.py", "src/c.py", "src/deep/x/mod.py", "README.md", "docs/guide.md",
    "docs/a/b/c.txt", "src/ui.ts", "src/ui.tsx", "src/x/ui.ts", "tests/test_app.py", "tests/unit/t.py",
    "Makefile", "sub/Makefile", "build/Dockerfile", "Dockerfile", "lib/index.js", "lib/a/b/index.js",
    "svc/api/v1/h.go", "api/h.go", "a/b/x.c", "a/x/y/b/z.c", "conf.json", "x/conf.yaml", "pkg/__init__.py",
    "notes.txt", "web/c.test.ts", ".github/workflows/ci.yml", ".hidden/a.py",
    "src/.hidden.ts", "src/api/h.go", "src/api/v1/h.go", ".env", "cfg/.env", ".github/ci.yml", ".ts",
    "src/Makefile", "src/a/b/Makefile", "src/x/.cache/ui.ts",
]


def every_dir(directory: str) -> bool:
    """Every directory is known clean (this project has no nested rules)."""
    return True


def test_snapshot_lookup_matches_the_index(write_tree: WriteTree) -> None:
    """For Cursor (anywhere) and Copilot (root-relative) globs alike, every path gets the same notices."""
    files = {}
    for i, glob in enumerate(GLOBS):
        files[f".cursor/rules/c{i:02}.mdc"] = f"---\nglobs: {glob}\n---\nCursor {i}.\n"
        copilot = f'---\napplyTo: "{glob}"\n---\nCopilot {i}.\n'
        files[f".github/instructions/g{i:02}.instructions.md"] = copilot
    root = write_tree(files)
    config = hook_config(RuleweaveConfig(cwd=root), HOST)
    ruleset = RuleSet.load(config)
    rules, entries = _entries(ruleset)
    prefix = str(root).rstrip("/") + "/"
    data: dict[str, Any] = {
        "rules": rules, "entries": entries, "root_prefix": prefix, "real_root_prefix": prefix,
    }
    absolute = [str(root / p) for p in PATHS] + ["/elsewhere/src/app.py", "/elsewhere/Makefile"]
    for path in absolute:
        expected = [
            (m.key, m.record, ruleset.notices.render([m]), 0) for m in ruleset.notices.for_paths([path])
        ]
        assert snapshot._matches([path], data, every_dir) == expected, path
    together = snapshot._matches(absolute, data, every_dir)
    found = ruleset.notices.for_paths(absolute)
    assert together == [(m.key, m.record, ruleset.notices.render([m]), 0) for m in found]
    assert len(together) > 20


def test_rule_order_follows_the_index_not_the_rule_list(write_tree: WriteTree) -> None:
    """A glob shared by two rules keeps its first position: the notices come in the index's order."""
    root = write_tree({
        ".cursor/rules/a.mdc": "---\nglobs: src/*.py\n---\nA.\n",
        ".cursor/rules/b.mdc": "---\nglobs: lib/*.py, **/*.py\n---\nB.\n",
        ".cursor/rules/c.mdc": "---\nglobs: '**/*.py'\n---\nC.\n",
    })
    ruleset = RuleSet.load(hook_config(RuleweaveConfig(cwd=root), HOST))
    rules, entries = _entries(ruleset)
    prefix = str(root) + "/"
    path = str(Path(root) / "src/x.py")
    data = {"rules": rules, "entries": entries, "root_prefix": prefix, "real_root_prefix": prefix}
    found = snapshot._matches([path], data, every_dir)
    expected = ruleset.notices.for_paths([path])
    assert found == [(m.key, m.record, ruleset.notices.render([m]), 0) for m in expected]
