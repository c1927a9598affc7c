"""augment provider: ``.augment/rules`` with ``type: always_apply | manual | agent_requested``."""

from __future__ import annotations

from pathlib import Path

from ruleweave.discovery import augment
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run

# Augment docs, "Rules & Guidelines" (docs.augmentcode.com/cli/rules): "Workspace rules folder:
# <workspace_root>/.augment/rules/ - Recursively searches .md files"; frontmatter "type | Controls
# when the rule is applied | always_apply, agent_requested | default always_apply";
# "agent_requested: Rule is automatically detected and attached based on the description field";
# "The manual type only works in the IDE extensions where you can use @ mentions"; "User rules are
# always treated as always_apply type … regardless of any frontmatter configuration."
# (docs.augmentcode.com/setup-augment/guidelines: "Manual: needs to be tagged through @ attaching".)


def test_types_map_to_buckets_like_windsurf_triggers(write_tree: WriteTree) -> None:
    """``always_apply`` (and no type) → generic, ``agent_requested`` → rulebook, ``manual`` → manual."""
    root = write_tree(
        {
            ".augment/rules/always.md": "---\ntype: always_apply\n---\nUse pnpm.",
            ".augment/rules/default.md": "# No frontmatter\nPin versions.",
            ".augment/rules/db.md": (
                "---\ntype: agent_requested\ndescription: Database schema changes\n---\nMigrate."
            ),
            ".augment/rules/release.md": "---\ntype: manual\ndescription: Release steps\n---\nTag.",
            ".augment/rules/backend/api.md": "---\ntype: always_apply\n---\nREST.",
        }
    )
    found = run(root, only=augment.PROVIDER)
    assert buckets(found) == {
        "always": Bucket.GENERIC,
        "default": Bucket.GENERIC,
        "db": Bucket.RULEBOOK,
        "release": Bucket.MANUAL,
        "backend/api": Bucket.GENERIC,
    }
    assert named(found)["db"].description == "Database schema changes"
    assert named(found)["release"].description is None


def test_agent_requested_without_description_is_manual(write_tree: WriteTree) -> None:
    """With no description there is nothing for the model to decide on: manual."""
    root = write_tree({".augment/rules/vague.md": "---\ntype: agent_requested\n---\nSomething."})
    assert buckets(run(root, only=augment.PROVIDER)) == {"vague": Bucket.MANUAL}


def test_user_rules_are_always_applied_and_project_wins(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """``~/.augment/rules`` loads first and always applies; a same-named project rule wins."""
    user = isolated_home / ".augment" / "rules"
    user.mkdir(parents=True)
    (user / "mine.md").write_text("---\ntype: manual\n---\nMine.", encoding="utf-8")
    (user / "shared.md").write_text("User copy.", encoding="utf-8")
    root = write_tree({".augment/rules/shared.md": "---\ntype: manual\n---\nProject copy."})
    found = run(root, only=augment.PROVIDER)
    rules = named(found)
    assert rules["mine"].always_apply is True
    assert rules["mine"].source.level == "user"
    assert rules["shared"].content == "Project copy."
    assert [s.level for s in rules["shared"].shadowed] == ["user"]
