"""windsurf provider: the four triggers, legacy .windsurfrules, global rules."""

from __future__ import annotations

from pathlib import Path

from ruleweave.discovery import windsurf
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run


def test_all_four_triggers_map_to_buckets(write_tree: WriteTree) -> None:
    """``always_on``/``glob``/``model_decision``/``manual`` → generic/scoped/rulebook/manual."""
    root = write_tree(
        {
            ".windsurf/rules/on.md": "---\ntrigger: always_on\n---\nAlways.",
            ".windsurf/rules/glob.md": (
                "---\ntrigger: glob\nglobs: '*.py, tests/**/*.py'\ndescription: ignored\n---\nPy."
            ),
            ".windsurf/rules/decide.md": (
                "---\ntrigger: model_decision\ndescription: Use for migrations\n"
                "globs: '*.sql'\n---\nMigrations."
            ),
            ".windsurf/rules/manual.md": (
                "---\ntrigger: manual\ndescription: by mention\nalwaysApply: true\n---\nManual."
            ),
        }
    )
    found = run(root, only=windsurf.PROVIDER)
    rules = named(found)
    assert buckets(found) == {
        "on": Bucket.GENERIC,
        "glob": Bucket.SCOPED,
        "decide": Bucket.RULEBOOK,
        "manual": Bucket.MANUAL,
    }
    assert rules["glob"].globs == ("**/*.py", "tests/**/*.py")  # Windsurf: a bare glob matches anywhere
    assert rules["glob"].description is None
    assert rules["decide"].globs == ()
    assert rules["decide"].description == "Use for migrations"
    assert rules["manual"].always_apply is False
    assert rules["manual"].description is None


def test_trigger_spelled_with_dashes_is_accepted(write_tree: WriteTree) -> None:
    """``trigger: always-on`` is read like ``always_on``."""
    root = write_tree({".windsurf/rules/on.md": "---\ntrigger: Always-On\n---\nAlways."})
    assert named(run(root, only=windsurf.PROVIDER))["on"].always_apply is True


def test_legacy_windsurfrules_is_an_always_rule(write_tree: WriteTree) -> None:
    """The legacy ``.windsurfrules`` file is one always rule named ``windsurfrules``."""
    root = write_tree({".windsurfrules": "Write tests first."})
    rule = named(run(root, only=windsurf.PROVIDER))["windsurfrules"]
    assert rule.always_apply is True
    assert rule.content == "Write tests first."


def test_global_rules_are_the_user_tier_and_come_first(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """``~/.codeium/windsurf/memories/global_rules.md`` loads first, always applied."""
    memories = isolated_home / ".codeium" / "windsurf" / "memories"
    memories.mkdir(parents=True)
    (memories / "global_rules.md").write_text("Answer in British English.", encoding="utf-8")
    root = write_tree({".windsurf/rules/local.md": "---\ntrigger: always_on\n---\nLocal."})
    found = run(root, only=windsurf.PROVIDER)
    assert [r.name for r in found.rules] == ["global_rules", "local"]
    first = found.rules[0]
    assert first.always_apply is True
    assert first.source.level == "user"


def test_rules_directory_is_not_recursive(write_tree: WriteTree) -> None:
    """Only ``.windsurf/rules/*.md`` is read, not files in its subdirectories."""
    root = write_tree(
        {
            ".windsurf/rules/top.md": "Top.",
            ".windsurf/rules/archive/old.md": "Old.",
        }
    )
    assert set(named(run(root, only=windsurf.PROVIDER))) == {"top"}


def test_each_directory_of_the_walk_is_read(write_tree: WriteTree) -> None:
    """Windsurf rules in the root and in cwd both load, root first."""
    root = write_tree(
        {
            ".windsurf/rules/a.md": "Root.",
            "svc/.windsurf/rules/b.md": "Service.",
            "svc/.windsurfrules": "Legacy service.",
        }
    )
    found = run(root, cwd="svc", only=windsurf.PROVIDER)
    assert [r.name for r in found.rules] == ["a", "svc:b", "svc:windsurfrules"]
