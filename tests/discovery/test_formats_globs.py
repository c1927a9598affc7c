"""Issue #12 point 2: each agent's glob dialect — a bare ``*.md`` at the top only, or anywhere.

Root dialect (a glob without ``/`` matches files in the project root only):

* Claude Code, https://code.claude.com/docs/en/memory ("Organize rules with
  .claude/rules/", path-specific rules): ``paths`` are glob patterns matched
  against paths relative to the project; its table reads ``*.md`` as
  "Markdown files in the project root" and ``**/*.ts`` as "All TypeScript
  files in any directory".
* GitHub Copilot, https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions:
  ``applyTo: "*"`` "will match all files in the current directory";
  ``**/*.py`` "will recursively match all .py files in the current directory
  and all subdirectories"; ``*.py`` matches ``.py`` files in the current
  directory only.
* Cline, https://docs.cline.bot/features/cline-rules/conditional-rules:
  ``paths`` are glob patterns relative to the workspace root
  (``src/components/**``); a bare ``*.md`` names files at the root.
* Continue's ``.continue/rules`` ``globs``: ``minimatch(filePath, glob)`` with no
  ``matchBase`` (``core/llm/rules/getSystemMessageWithRules.ts``: ``matchesGlobs``),
  so a bare ``*.java`` is a file at the top (issue #28 item 3).

Anywhere dialect (a bare glob is a file name at any depth):

* Kiro, https://kiro.dev/docs/steering/: ``fileMatchPattern: "*.tsx"`` — "React
  components and JSX files", wherever they are.
* Cursor (https://cursor.com/docs/context/rules), Windsurf, Antigravity and
  ruleweave's own ``.ruleweave`` rules read ``*.py`` the same way.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wcmatch import glob as wcglob

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.discovery.placement import dialect_glob, rebase_glob
from ruleweave.globs import FLAGS, GlobIndex, PathSpellings, is_malformed, matches
from tests.conftest import WriteTree


def load(root: Path, **options: Any) -> RuleSet:
    options.setdefault("cwd", root)
    return RuleSet.load(RuleweaveConfig(project_root=root, builtin_rules=False, **options))


def fired(ruleset: RuleSet, rel: str) -> set[str]:
    """The rules a read of ``rel`` brings, in a fresh session."""
    session = ruleset.session(f"s-{rel}")
    injection = session.after_tool_call("read_file", {"path": str(ruleset.config.root / rel)})
    return {item.name for item in injection.items if item.kind == "rule"} if injection else set()


REPO = {
    ".claude/rules/md.md": "---\npaths: ['*.md']\n---\nClaude md.",
    ".github/instructions/py.instructions.md": "---\napplyTo: '*.py'\n---\nCopilot py.",
    ".clinerules/toml.md": "---\npaths:\n  - '*.toml'\n---\nCline toml.",
    ".kiro/steering/tsx.md": "---\ninclusion: fileMatch\nfileMatchPattern: '*.tsx'\n---\nKiro tsx.",
    ".cursor/rules/go.mdc": "---\nglobs: '*.go'\n---\nCursor go.",
    ".windsurf/rules/rs.md": "---\ntrigger: glob\nglobs: '*.rs'\n---\nWindsurf rs.",
    ".continue/rules/java.md": "---\nglobs: '*.java'\n---\nContinue java.",
    ".agents/rules/kt.md": "---\ntrigger: glob\nglobs: '*.kt'\n---\nAntigravity kt.",
    ".ruleweave/rules/sql.md": "---\nglobs: '*.sql'\n---\nNative sql.",
}


def test_root_dialect_agents_match_bare_globs_at_the_top_only(write_tree: WriteTree) -> None:
    """Claude ``paths``, Copilot ``applyTo``, Cline ``paths``, Continue ``globs``: ``*.md`` is in the root."""
    ruleset = load(write_tree(REPO))
    assert fired(ruleset, "Main.java") == {"java"}
    assert fired(ruleset, "src/main/java/A.java") == set()
    assert fired(ruleset, "README.md") == {"md"}
    assert fired(ruleset, "docs/guide.md") == set()
    assert fired(ruleset, "setup.py") == {"py"}
    assert fired(ruleset, "pkg/mod.py") == set()
    assert fired(ruleset, "pyproject.toml") == {"toml"}
    assert fired(ruleset, "crates/a/Cargo.toml") == set()


def test_anywhere_dialect_agents_match_bare_globs_at_any_depth(write_tree: WriteTree) -> None:
    """Kiro, Cursor, Windsurf, Antigravity and native: ``*.tsx`` is any ``.tsx``."""
    ruleset = load(write_tree(REPO))
    for rel, rule in [
        ("src/ui/App.tsx", "tsx"), ("App.tsx", "tsx"), ("cmd/x/main.go", "go"), ("lib.rs", "rs"),
        ("app/src/B.kt", "kt"), ("db/migrations/1.sql", "sql"),
    ]:
        assert fired(ruleset, rel) == {rule}, rel
    assert ruleset.find_rule("tsx") is not None
    assert ruleset.find_rule("tsx")[0].globs == ("**/*.tsx",)  # type: ignore[index]


def test_nested_folders_follow_their_dialect_relative_to_their_directory(write_tree: WriteTree) -> None:
    """A folder in ``apps/web`` speaks for its directory: root dialect → its top, anywhere → below it."""
    root = write_tree(
        {
            "apps/web/.claude/rules/md.md": "---\npaths: ['*.md']\n---\nWeb md.",
            "apps/web/.cursor/rules/ts.mdc": "---\nglobs: '*.ts'\n---\nWeb ts.",
        }
    )
    ruleset = load(root, cwd=root / "apps" / "web")
    assert fired(ruleset, "apps/web/README.md") == {"apps/web:md"}
    assert fired(ruleset, "apps/web/docs/x.md") == set()
    assert fired(ruleset, "README.md") == set()
    assert fired(ruleset, "apps/web/src/deep/a.ts") == {"apps/web:ts"}
    assert fired(ruleset, "apps/api/a.ts") == set()
    # Below the walk too (read on first touch): the same readings.
    below = load(write_tree({"libs/ui/.claude/rules/md.md": "---\npaths: ['*.md']\n---\nUi md."}))
    assert fired(below, "libs/ui/docs/x.md") == set()
    assert fired(below, "libs/ui/README.md") == {"libs/ui:md"}


def test_streamed_rule_path_gates_follow_the_dialect(write_tree: WriteTree) -> None:
    """A Claude rule with ``paths: ['*.py']`` and a ``condition`` watches root ``.py`` writes only."""
    root = write_tree({".claude/rules/ev.md": "---\npaths: ['*.py']\ncondition: 'eval\\('\n---\nNo eval."})
    ruleset = load(root)
    for rel, expected in [("a.py", ["ev"]), ("pkg/a.py", [])]:
        session = ruleset.session(f"t-{rel}")
        session.turn_start()
        args = {"path": str(root / rel), "content": "eval(x)"}
        hit = session.watch("tool", json.dumps(args), tool="write_file", call_id="c1", args=args)
        assert ([r.name for r in hit.rules] if hit else []) == expected, rel


def test_dialect_rewrites_are_plain_strings() -> None:
    """``anywhere`` prefixes bare globs with ``**/``; ``./`` means "here" in both; the rest is kept."""
    assert dialect_glob("*.tsx", "anywhere") == "**/*.tsx"
    assert dialect_glob("*.tsx", "root") == "*.tsx"
    assert dialect_glob("./*.tsx", "anywhere") == "*.tsx"
    assert dialect_glob("src/*.ts", "anywhere") == "src/*.ts"
    assert dialect_glob("**", "anywhere") == "**"
    assert rebase_glob("*.md", "apps/web") == "apps/web/*.md"
    assert rebase_glob("**/*.ts", "apps/[x]") == "apps/\\[x\\]/**/*.ts"  # the directory is escaped


_TOKENS = ["a", "b", "*", "**", "?", "{a,b}", "[ab]", ".ts", "/", "**/", "x", "{a/b,c}", "\\*"]
_PARTS = ["a", "b", "x", "a.ts", "x.ts", "ab", "*", "{a,b}", "c"]


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tokens=st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=5),
    parts=st.lists(st.sampled_from(_PARTS), min_size=1, max_size=3),
)
def test_index_without_bare_names_agrees_with_wcmatch_on_relative_and_absolute(
    tokens: list[str], parts: list[str]
) -> None:
    """``bare_anywhere=False``: index, plain matcher and wcmatch on the two full spellings agree."""
    pattern = "".join(tokens)
    rel = "/".join(parts)
    path = PathSpellings(rel, f"/repo/{rel}", parts[-1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        expected = matches(pattern, path, bare_anywhere=False)
        if pattern and not is_malformed(pattern):
            assert expected is any(wcglob.globmatch(s, pattern, flags=FLAGS) for s in (rel, path.absolute))
        assert bool(GlobIndex([("k", pattern)], bare_anywhere=False).lookup(path)) is expected, (pattern, rel)
