"""qwen provider: Qwen Code's ``.qwen/rules``, read as Qwen Code 0.24.4 reads them.

From its bundle (``chunks/chunk-DPEB6S2R.js``, built from ``packages/core/src/config/rulesDiscovery.ts``):
``loadRules`` reads ``$QWEN_HOME/rules`` (``Storage.getGlobalQwenDir``: ``QWEN_HOME``, else
``~/.qwen``), then ``<project root>/.qwen/rules``; ``collectMdFiles`` walks each folder for
``*.md`` and the paths are sorted; ``parseRuleFile`` takes ``paths`` (a list mapped through
``String`` with empty items dropped, or one string) and ``description``, strips HTML comments
(``stripHtmlComments``, ``chunks/chunk-5R36APDE.js``) and trims the body, and drops an empty
rule. A rule with ``paths`` is conditional (``ConditionalRulesRegistry``: picomatch against the
path relative to the project root, each rule once); one without is in the system prompt.
``loadServerHierarchicalMemory`` adds ``<project root>/.qwen/QWEN.local.md`` to the memory files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.discovery import qwen
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run

REACT = """\
---
description: React components
paths:
  - "src/components/**/*.tsx"
  - src/**/*.css
  - ""
---
<!-- maintainers: keep this short -->
Components are function components with typed props.
<!-- a comment
over lines -->
Co-locate styles.
"""

PROJECT = {
    ".git/HEAD": "",
    ".qwen/rules/frontend/react.md": REACT,
    ".qwen/rules/backend/api.md": (
        "---\npaths: services/api/**/*.py,services/gateway/**\n---\nValidate input.\n"
    ),
    ".qwen/rules/general.md": "Write small commits.\n",
    ".qwen/rules/globs-only.md": "---\nglobs: docs/**\nalwaysApply: false\n---\nQwen reads no globs key.\n",
    ".qwen/rules/empty.md": "---\npaths: ['*.py']\n---\n<!-- nothing but a comment -->\n",
    ".qwen/rules/notes.txt": "Not a rule: Qwen reads *.md only.\n",
    ".qwen/QWEN.local.md": "Personal Qwen notes.\n",
    "packages/web/.qwen/rules/nested.md": "---\npaths: ['**']\n---\nQwen reads the root's rules only.\n",
    "src/components/Button.tsx": "export {}\n",
    "src/theme.css": "\n",
    "services/api/app.py": "\n",
}


def test_rules_are_read_as_qwen_code_reads_them(write_tree: WriteTree) -> None:
    """paths (a list, items as text, empty ones dropped; a string unsplit), no paths → the prompt,
    HTML comments gone, *.md only, recursive, the root's folder only, an empty rule skipped."""
    root = write_tree(PROJECT)
    found = run(root, only=qwen.PROVIDER)
    rules = named(found)
    assert set(rules) == {"frontend/react", "backend/api", "general", "globs-only"}
    react = rules["frontend/react"]
    assert react.globs == ("src/components/**/*.tsx", "src/**/*.css")
    assert react.description == "React components"
    assert react.content == "Components are function components with typed props.\n\nCo-locate styles."
    # one string is one glob, commas and all: it matches no file in Qwen, nor here
    assert rules["backend/api"].globs == ("services/api/**/*.py,services/gateway/**",)
    assert buckets(found) == {
        "frontend/react": Bucket.SCOPED, "backend/api": Bucket.SCOPED,
        "general": Bucket.INSTRUCTIONS, "globs-only": Bucket.INSTRUCTIONS,
    }
    assert any("empty.md" in w.path and "no rule text" in w.message for w in found.warnings)


def test_a_rule_fires_once_on_the_paths_qwen_matches(write_tree: WriteTree) -> None:
    """A session's notice after a read of a matching file, relative to the project root; the
    unconditional rules and QWEN.local.md are in the prompt."""
    root = write_tree(PROJECT)
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root))
    session = ruleset.session("s")
    prompt = session.system_prompt()
    assert "Write small commits." in prompt and "Qwen reads no globs key." in prompt
    assert "Personal Qwen notes." in prompt
    assert "Qwen reads the root's rules only." not in prompt
    hit = session.after_tool_call("read_file", {"file_path": str(root / "src/components/Button.tsx")})
    assert hit is not None and "Co-locate styles." in hit.text
    assert session.after_tool_call("read_file", {"file_path": str(root / "src/theme.css")}) is None  # once
    assert session.after_tool_call("read_file", {"file_path": str(root / "services/api/app.py")}) is None
    nested = session.after_tool_call("read_file", {"file_path": str(root / "packages/web/index.ts")})
    assert nested is None or "Qwen reads the root's rules only." not in nested.text


def test_user_tier_is_qwen_home(
    write_tree: WriteTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``$QWEN_HOME/rules`` is the user tier, read first; its QWEN.md is the user's instruction file."""
    home = tmp_path / "qwen-home"
    (home / "rules").mkdir(parents=True)
    (home / "rules" / "mine.md").write_text("---\npaths: ['**/*.go']\n---\nMine.\n", encoding="utf-8")
    (home / "QWEN.md").write_text("User QWEN.\n", encoding="utf-8")
    monkeypatch.setenv("QWEN_HOME", str(home))
    root = write_tree({".git/HEAD": "", ".qwen/rules/team.md": "Team.\n"})
    found = run(root, only=qwen.PROVIDER)
    assert [(r.name, r.source.level) for r in found.rules] == [("mine", "user"), ("team", "project")]
    assert "User QWEN." in RuleSet.load(RuleweaveConfig(cwd=root)).session("s").system_prompt()


def test_default_user_tier_is_dot_qwen(write_tree: WriteTree, isolated_home: Path) -> None:
    """Without ``QWEN_HOME`` the user tier is ``~/.qwen/rules``."""
    (isolated_home / ".qwen" / "rules").mkdir(parents=True)
    (isolated_home / ".qwen" / "rules" / "me.md").write_text("Personal.\n", encoding="utf-8")
    root = write_tree({".git/HEAD": ""})
    assert named(run(root, only=qwen.PROVIDER))["me"].source.level == "user"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a <!-- x --> b", "a  b"),
        ("a <!-- x", "a  x"),  # an unclosed opener is dropped, its text kept
        ("a <!-<!-- x -->- y --> b", "a  b"),  # removal joins a second comment, removed in turn
        ("```\n<!-- in a fence -->\n```", "```\n\n```"),  # Qwen's strip knows no code fences
    ],
)
def test_html_comments_go_as_qwen_strips_them(text: str, expected: str) -> None:
    """``stripHtmlComments``: remove ``<!--…-->`` until none is left, then every ``<!--``."""
    assert qwen.strip_html_comments(text) == expected


@pytest.mark.parametrize(
    ("value", "globs"),
    [
        (["a/**", 7, True, None, 1.0, 2.5, "", ["x", "y"]], ("a/**", "7", "true", "null", "1", "2.5", "x,y")),
        ("src/**, lib/**", ("src/**, lib/**",)),
        ("", ()),
        (3, ()),
        ({"a": 1}, ()),
        ([], ()),
    ],
)
def test_paths_values_as_javascript_maps_them(value: object, globs: tuple[str, ...]) -> None:
    """``pathsRaw.map(String).filter(Boolean)`` for a list, ``[pathsRaw]`` for a non-empty string."""
    assert qwen.qwen_paths(value) == globs
