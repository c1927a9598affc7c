"""cursor provider: the four rule types, legacy .cursorrules, user tier, root→cwd walk."""

from __future__ import annotations

from pathlib import Path

from ruleweave.discovery import cursor
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, messages, named, rel, run


def test_four_rule_types_map_to_buckets(write_tree: WriteTree) -> None:
    """Always, Auto Attached, Agent Requested and Manual rules land in their buckets."""
    root = write_tree(
        {
            ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nAlways on.",
            ".cursor/rules/auto.mdc": "---\nglobs: src/**/*.ts\nalwaysApply: false\n---\nTS.",
            ".cursor/rules/agent.mdc": "---\ndescription: Read for DB work\n---\nDB.",
            ".cursor/rules/manual.mdc": "---\nalwaysApply: false\n---\nBy hand only.",
        }
    )
    found = run(root, only=cursor.PROVIDER)
    rules = named(found)
    assert buckets(found) == {
        "agent": Bucket.RULEBOOK,
        "always": Bucket.GENERIC,
        "auto": Bucket.SCOPED,
        "manual": Bucket.MANUAL,
    }
    assert rules["always"].always_apply is True
    assert rules["auto"].globs == ("src/**/*.ts",)
    assert rules["agent"].description == "Read for DB work"
    assert rules["manual"].content == "By hand only."
    assert {r.source.provider for r in found.rules} == {"cursor"}
    assert {r.source.priority for r in found.rules} == {50}
    assert found.warnings == ()


def test_unquoted_globs_with_braces_give_two_globs(write_tree: WriteTree) -> None:
    """Cursor's unquoted ``globs: **/*.ts, src/**/*.{ts,tsx}`` becomes two globs, silently (issue #12)."""
    root = write_tree(
        {
            ".cursor/rules/ts.mdc": (
                "---\ndescription: TypeScript conventions\n"
                "globs: **/*.ts, src/**/*.{ts,tsx}\n---\nUse strict mode."
            ),
        }
    )
    found = run(root, only=cursor.PROVIDER)
    rule = named(found)["ts"]
    assert rule.globs == ("**/*.ts", "src/**/*.{ts,tsx}")
    assert rule.description == "TypeScript conventions"
    assert buckets(found)["ts"] is Bucket.SCOPED
    assert found.warnings == ()  # the normal Cursor format: a debug event, not a warning


def test_always_apply_yes_is_not_true(write_tree: WriteTree) -> None:
    """YAML 1.2 booleans: ``alwaysApply: yes`` does not make a rule always-on."""
    root = write_tree({".cursor/rules/y.mdc": "---\nalwaysApply: yes\n---\nMaybe."})
    rule = named(run(root, only=cursor.PROVIDER))["y"]
    assert rule.always_apply is False


def test_md_files_and_subdirectories_are_read(write_tree: WriteTree) -> None:
    """``.cursor/rules`` is read recursively and accepts both ``.mdc`` and ``.md``."""
    root = write_tree(
        {
            ".cursor/rules/top.md": "Top level markdown rule.",
            ".cursor/rules/frontend/react.mdc": "---\nglobs: '*.tsx'\n---\nHooks rules.",
            ".cursor/rules/notes.txt": "not a rule",
        }
    )
    rules = named(run(root, only=cursor.PROVIDER))
    assert set(rules) == {"top", "frontend/react"}
    assert rel(rules["frontend/react"], root) == ".cursor/rules/frontend/react.mdc"


def test_legacy_cursorrules_is_an_always_rule(write_tree: WriteTree) -> None:
    """A legacy ``.cursorrules`` file is one always-applied rule named ``cursorrules``."""
    root = write_tree({".cursorrules": "Prefer small functions.\n"})
    found = run(root, only=cursor.PROVIDER)
    rule = named(found)["cursorrules"]
    assert rule.always_apply is True
    assert rule.content == "Prefer small functions."
    assert buckets(found)["cursorrules"] is Bucket.GENERIC


def test_root_to_cwd_walk_reads_each_level_and_nothing_off_the_walk(
    write_tree: WriteTree,
) -> None:
    """Rules on the root→cwd path load root first; siblings and directories below cwd do not;
    ``.cursorrules`` is read at the project root only, where Cursor reads it."""
    root = write_tree(
        {
            ".cursor/rules/root.mdc": "Root rule.",
            "packages/web/.cursor/rules/web.mdc": "Web rule.",
            "packages/web/.cursorrules": "Legacy web rule.",
            "packages/api/.cursor/rules/api.mdc": "Sibling rule.",
            "packages/web/src/deep/.cursor/rules/below.mdc": "Below cwd.",
        }
    )
    found = run(root, cwd="packages/web", only=cursor.PROVIDER)
    assert [r.name for r in found.rules] == ["root", "packages/web:web"]


def test_same_name_in_two_directories_is_two_rules(write_tree: WriteTree) -> None:
    """A folder below the root speaks for its own subtree: no shadowing between directories.

    Cursor scopes a nested ``.cursor/rules`` to its folder
    (https://docs.cursor.com/context/rules, "Nested rules").
    """
    root = write_tree(
        {
            ".cursor/rules/style.mdc": "---\nglobs: '**/*.py'\n---\nRoot style.",
            "app/.cursor/rules/style.mdc": "---\nglobs: '**/*.py'\n---\nApp style.",
        }
    )
    found = run(root, cwd="app", only=cursor.PROVIDER)
    rules = named(found)
    assert rules["style"].content == "Root style." and rules["style"].globs == ("**/*.py",)
    assert rules["app:style"].content == "App style." and rules["app:style"].globs == ("app/**/*.py",)
    assert found.shadowed == () and not rules["style"].shadowed


def test_user_tier_is_read_first_and_loses_to_the_project(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """``~/.cursor/rules`` comes before project rules and loses a name clash to them."""
    user_rules = isolated_home / ".cursor" / "rules"
    user_rules.mkdir(parents=True)
    (user_rules / "personal.mdc").write_text("My habits.", encoding="utf-8")
    (user_rules / "style.mdc").write_text("User style.", encoding="utf-8")
    root = write_tree({".cursor/rules/style.mdc": "Project style."})
    found = run(root, only=cursor.PROVIDER)
    assert [r.name for r in found.rules] == ["personal", "style"]
    rules = named(found)
    assert rules["personal"].source.level == "user"
    assert rules["style"].content == "Project style."
    assert rules["style"].source.level == "project"
    assert [s.level for s in rules["style"].shadowed] == ["user"]


def test_rules_are_sorted_by_path_within_a_directory(write_tree: WriteTree) -> None:
    """Presentation order inside one rule directory is by path, whatever the creation order."""
    root = write_tree(
        {
            ".cursor/rules/zeta.mdc": "z",
            ".cursor/rules/alpha.mdc": "a",
            ".cursor/rules/mid/beta.mdc": "b",
        }
    )
    found = run(root, only=cursor.PROVIDER)
    assert [r.name for r in found.rules] == ["alpha", "mid/beta", "zeta"]
    assert messages(found) == []


def test_a_rules_folder_committed_as_a_file_is_a_warning(write_tree: WriteTree) -> None:
    """A ``.cursor/rules`` that is a file gives a warning saying so, and no rule."""
    root = write_tree({".git/HEAD": "x", ".cursor/rules": "Always use tabs."})
    found = run(root, only=cursor.PROVIDER)
    assert found.rules == ()
    (message,) = messages(found)
    assert ".cursor/rules" in message and "is a file, not a folder" in message
