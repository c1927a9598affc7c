"""What a touched path calls for is remembered per path (``Notices``), except where content decides.

Agents touch the same files again and again, and every session of a rule set
asks the same question of a path: its candidate notices are worked out once
(``MATCHED_PATHS`` paths at most). A rule gated on content (Continue's
``regex``) depends on the text a call writes and on the file on disk, so a path
it weighed is never remembered.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.session import notices
from ruleweave.session.notices import MATCHED_PATHS
from tests import glob_mix
from tests.conftest import WriteTree


def load(root: Path) -> RuleSet:
    config = RuleweaveConfig(cwd=root, project_root=root, builtin_rules=False, max_rule_files=1000)
    return RuleSet.load(config)


def fired(ruleset: RuleSet, session: str, path: Path, args: dict[str, str] | None = None) -> list[str]:
    injection = ruleset.session(session).after_tool_call("write_file", {"path": str(path), **(args or {})})
    return sorted(i.name for i in injection.items) if injection else []


GATED = {
    "top-level": (
        {
            ".continue/rules/react.md": "---\nname: react\nregex: 'from .react.'\n---\nREACT rule.",
            ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.tsx\n---\nTSX rule.",
            "src/App.tsx": "export const x = 1;\n",
        },
        "src/App.tsx", ["ts"], "import React from 'react';\n", ["react", "ts"],
    ),
    "nested folder": (
        {
            ".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nPY rule.",
            "pkg/.continue/rules/sql.md": "---\nname: sql\nregex: 'SELECT'\n---\nSQL rule.",
            "pkg/q.py": "q = 1\n",
        },
        "pkg/q.py", ["py"], "q = 'SELECT 1'\n", ["pkg:sql", "py"],
    ),
}


@pytest.mark.parametrize(("files", "rel", "before", "content", "after"), GATED.values(), ids=list(GATED))
def test_a_content_gate_is_weighed_again_at_every_call(
    write_tree: WriteTree, files: dict[str, str], rel: str, before: list[str], content: str, after: list[str]
) -> None:
    """A Continue ``regex`` rule (top-level, or in a nested ``.continue/rules`` folder): a path that
    did not match it does once the text a call writes, or the file on disk, does — in later sessions
    of the same rule set, which remembered the path's other notices."""
    root = write_tree(files)
    ruleset = load(root)
    path = root / rel
    assert fired(ruleset, "s1", path) == before
    assert fired(ruleset, "s2", path, {"content": content}) == after
    path.write_text(content, encoding="utf-8")
    assert fired(ruleset, "s3", path) == after


def test_remembered_answers_are_the_answers(tmp_path: Path) -> None:
    """On the issue-#30 glob mix (every shape, negations included), each call of paths touched
    before — alone, in pairs, in any order — gets what a rule set that never saw them gives."""
    root = tmp_path / "repo"
    glob_mix.write_rules(root, 300)
    rng = random.Random(30)
    paths = [str(root / glob_mix.path_for(rng, rng.randrange(600))) for _ in range(400)]
    warm = load(root).notices
    for path in paths:
        warm.for_paths([path])
    fresh = load(root).notices
    for first, second in zip(paths, reversed(paths), strict=True):
        assert warm.for_paths([first, second]) == fresh.for_paths([first, second])
        both = {"paths": [second, first]}
        assert warm.for_call("edit", both) == fresh.for_call("edit", both)


def test_what_is_remembered_is_bounded(write_tree: WriteTree) -> None:
    """Invented paths past ``MATCHED_PATHS`` push the oldest out; a notice still comes once per session."""
    root = write_tree({".cursor/rules/ts.mdc": "---\nglobs: '**/*.ts'\n---\nTS rule."})
    ruleset = load(root)
    session = ruleset.session("s")
    given = [
        session.after_tool_call("read", {"path": str(root / f"d{n}/f.ts")}) for n in range(MATCHED_PATHS + 50)
    ]
    assert sum(1 for injection in given if injection is not None) == 1
    assert len(ruleset.notices._matched) == MATCHED_PATHS
    assert ruleset.notices.for_paths([str(root / "d0/f.ts")])[0].name == "ts"


def test_what_is_remembered_is_bounded_by_notices_too(
    write_tree: WriteTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past ``MATCHED_NOTICES`` notices in all, the least recently touched paths go first; a path
    that alone calls for more is worked out at each call; notices still come once per session."""
    monkeypatch.setattr(notices, "MATCHED_NOTICES", 20)
    files = {f".cursor/rules/ts{n:02d}.mdc": f"---\nglobs: '**/*.ts'\n---\nTS {n}." for n in range(12)}
    files |= {f".cursor/rules/md{n:02d}.mdc": f"---\nglobs: '**/*.md'\n---\nMD {n}." for n in range(25)}
    root = write_tree({**files, ".cursor/rules/one.mdc": "---\nglobs: 'one/*.py'\n---\nOne."})
    ruleset = load(root)
    session = ruleset.session("s")
    remembered = ruleset.notices._matched

    def touch(rel: str) -> int:
        injection = session.after_tool_call("read", {"path": str(root / rel)})
        return len(injection.items) if injection else 0

    given = [touch("a.ts"), touch("x.md"), touch("one/a.py"), touch("b.ts"), touch("y.md")]
    assert given == [12, 25, 1, 0, 0]
    assert [str(root / rel) in remembered for rel in ("a.ts", "x.md", "one/a.py", "b.ts")] == [
        False, False, True, True
    ]
    assert remembered.weight == 13
