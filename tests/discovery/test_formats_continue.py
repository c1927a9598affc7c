"""Issue #12 point 4: Continue's ``regex``, ``alwaysApply``, negated globs and colocated ``rules.md``.

https://docs.continue.dev/customize/deep-dives/rules: a rule's ``globs``
(string or list) attach it to matching files, and patterns starting with
``!`` exclude; ``regex`` attaches it when a file's content matches;
``alwaysApply: true`` includes it always, ``false`` only when its globs or
regex match (or the agent picks it by description), and unset "included if
no globs exist OR globs match". ``rules.md`` files placed in a directory of
the project apply to the files in that directory.
"""

from __future__ import annotations

from pathlib import Path

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.rules import Bucket
from tests.conftest import WriteTree


def load(root: Path) -> RuleSet:
    return RuleSet.load(RuleweaveConfig(cwd=root, project_root=root, builtin_rules=False))


def fired(ruleset: RuleSet, root: Path, rel: str) -> list[str]:
    injection = ruleset.session(f"s-{rel}").after_tool_call("read_file", {"path": str(root / rel)})
    return sorted(i.name for i in injection.items) if injection else []


REPO = {
    ".continue/rules/react.md": "---\nname: react\nregex: 'from .react.'\n---\nREACT rule.",
    ".continue/rules/sql.md": "---\nname: sql\nalwaysApply: false\nregex: 'SELECT'\n---\nSQL rule.",
    ".continue/rules/ts.md": "---\nname: ts\nglobs: ['**/*.ts', '!**/*.test.ts']\n---\nTS rule.",
    ".continue/rules/notests.md": "---\nname: notests\nglobs: '!**/*.test.*'\nalwaysApply: false\n---\nNT.",
    "src/App.tsx": "import React from 'react';\n",
    "src/plain.tsx": "export const x = 1;\n",
    "db/q.py": "q = 'SELECT 1'\n",
    "src/a.ts": "export {};\n",
    "src/a.test.ts": "test();\n",
}


def test_regex_without_globs_waits_for_matching_content(write_tree: WriteTree) -> None:
    """``regex`` + no globs (``alwaysApply`` unset or ``false``): fires on content, not always on."""
    root = write_tree(REPO)
    ruleset = load(root)
    assert ruleset.bucket_of("react") is Bucket.SCOPED and ruleset.bucket_of("sql") is Bucket.SCOPED
    assert "REACT rule." not in ruleset.session("s").system_prompt()
    assert "react" in fired(ruleset, root, "src/App.tsx")
    assert "react" not in fired(ruleset, root, "src/plain.tsx")
    assert "sql" in fired(ruleset, root, "db/q.py")
    assert "sql" not in fired(ruleset, root, "src/a.ts")


def test_negated_globs_exclude(write_tree: WriteTree) -> None:
    """``!**/*.test.ts`` keeps the rule off test files; exclusions alone mean every other file."""
    root = write_tree(REPO)
    ruleset = load(root)
    assert fired(ruleset, root, "src/a.ts") == ["notests", "ts"]
    assert fired(ruleset, root, "src/a.test.ts") == []
    assert fired(ruleset, root, "README.md") == ["notests"]


def test_colocated_rules_md_applies_to_its_directory(write_tree: WriteTree) -> None:
    """``src/api/rules.md`` arrives on the first touch under ``src/api``, not elsewhere; the root's
    ``rules.md`` is conditional too: it comes with the first touch of any file, not in the prompt.

    Continue gives a colocated ``rules.md`` the globs ``<dir>/**/*`` (``markdownToRule.ts``:
    ``getGlobPattern``) and never treats it as a root-level rule (``getSystemMessageWithRules.ts``:
    ``isRootLevelRule`` is true only for ``.continue/`` files), so it applies when a file of its
    directory is in the context (issue #28 item 3).
    """
    root = write_tree(
        {
            "rules.md": "ROOT colocated rule.",
            "src/api/rules.md": "API colocated rule.",
            "src/api/handlers.py": "pass\n",
            "src/web/app.py": "pass\n",
        }
    )
    ruleset = load(root)
    session = ruleset.session("s")
    assert "ROOT colocated rule." not in session.system_prompt()
    first = session.after_tool_call("read_file", {"path": str(root / "src/web/app.py")})
    assert first is not None and [i.name for i in first.items] == ["rules"]
    injection = session.after_tool_call("read_file", {"path": str(root / "src/api/handlers.py")})
    assert injection is not None and [i.name for i in injection.items] == ["src/api:rules"]
    assert "API colocated rule." in injection.text
