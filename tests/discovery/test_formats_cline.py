"""Issue #12 point 1: Cline's rules as Cline reads them.

https://docs.cline.bot/customization/cline-rules: "Workspace rules go in
.clinerules/ or .cline/rules/ at your project root." and "Global rules go in
your system's Cline Rules directory" (``~/Documents/Cline/Rules``). Workflows
(``.clinerules/workflows/``, run as slash commands) and hooks
(``.clinerules/hooks/``) are documented on their own pages and are not rules.

https://docs.cline.bot/features/cline-rules/conditional-rules: "Currently,
paths is the supported conditional" — a rule with ``paths`` activates only
when the current files match; rules without frontmatter (or without
``paths``) always apply. The docs are silent on ``paths: []`` and on a
``paths`` that is not a list; ruleweave follows Cline's source: an empty list
matches no file (the rule never applies), a non-list is ignored (always on).
"""

from __future__ import annotations

from pathlib import Path

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.rules import Bucket
from tests.conftest import WriteTree


def load(root: Path, cwd: Path | None = None) -> RuleSet:
    return RuleSet.load(RuleweaveConfig(cwd=cwd or root, project_root=root, builtin_rules=False))


def test_workflows_and_hooks_are_not_rules(write_tree: WriteTree) -> None:
    """Cline's own repository layout: workflows and a hooks README never reach the prompt."""
    root = write_tree(
        {
            ".clinerules/general.md": "Use TypeScript strict mode.",
            ".clinerules/workflows/release.md": "1. Bump the version.\n2. Tag.",
            ".clinerules/workflows/pr-review.md": "Review the PR.",
            ".clinerules/hooks/README.md": "# Hooks\n" + "Hook docs. " * 6000,
            ".clinerules/team/style.md": "Prefer small modules.",
        }
    )
    ruleset = load(root)
    assert {r.name for r in ruleset.rules if r.source.provider == "cline"} == {"general", "team/style"}
    text = ruleset.session("s").system_prompt()
    assert "Bump the version" not in text and "Hook docs" not in text
    assert "Use TypeScript strict mode." in text


def test_paths_is_the_only_condition(write_tree: WriteTree) -> None:
    """``paths`` list → scoped; ``paths: []`` → never; description only or non-list → always on."""
    root = write_tree(
        {
            ".clinerules/api.md": "---\npaths:\n  - 'api/**/*.py'\n---\nAPI rule.",
            ".clinerules/described.md": "---\ndescription: Release process\n---\nRelease rule.",
            ".clinerules/never.md": "---\npaths: []\ndescription: unused\n---\nNever rule.",
            ".clinerules/string.md": "---\npaths: 'api/**'\n---\nString rule.",
            ".clinerules/globbed.md": "---\nglobs: '*.ts'\nalwaysApply: false\n---\nGlobs rule.",
        }
    )
    ruleset = load(root)
    assert {name: ruleset.bucket_of(name) for name in ("api", "described", "never", "string", "globbed")} == {
        "api": Bucket.SCOPED,
        "described": Bucket.GENERIC,
        "never": Bucket.MANUAL,
        "string": Bucket.GENERIC,
        "globbed": Bucket.GENERIC,
    }
    session = ruleset.session("s")
    prompt = session.system_prompt()
    assert "Release rule." in prompt and "String rule." in prompt and "Never rule." not in prompt
    injection = session.after_tool_call("read_file", {"path": str(root / "api/app.py")})
    assert injection is not None and [i.name for i in injection.items] == ["api"]
    assert session.resolve("rule://never").content == "Never rule."  # manual: still reachable


def test_cline_rules_folder_and_user_tier(write_tree: WriteTree, isolated_home: Path) -> None:
    """``.cline/rules`` is read beside ``.clinerules``; ``~/Documents/Cline/Rules`` is the user tier."""
    user = isolated_home / "Documents" / "Cline" / "Rules"
    user.mkdir(parents=True)
    (user / "mine.md").write_text("My global Cline rule.", encoding="utf-8")
    (user / "shared.md").write_text("User copy.", encoding="utf-8")
    root = write_tree(
        {
            ".clinerules/a.md": "Rule A.",
            ".cline/rules/b.md": "Rule B.",
            ".cline/rules/shared.md": "Project copy.",
        }
    )
    ruleset = load(root)
    rules = {r.name: r for r in ruleset.rules if r.source.provider == "cline"}
    assert set(rules) == {"mine", "a", "b", "shared"}
    assert rules["mine"].source.level == "user"
    assert rules["shared"].content == "Project copy."  # the project wins inside the provider
    assert [s.level for s in rules["shared"].shadowed] == ["user"]


def test_only_cline_rules_folder(write_tree: WriteTree) -> None:
    """A repository with only ``.cline/rules`` is read too (nearest directory from cwd)."""
    root = write_tree({".cline/rules/only.md": "---\npaths: ['*.md']\n---\nDocs at the top."})
    ruleset = load(root, root / "src")
    assert ruleset.bucket_of("only") is Bucket.SCOPED
    assert ruleset.find_rule("only")[0].globs == ("*.md",)  # type: ignore[index]
