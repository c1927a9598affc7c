"""kiro provider: steering files with inclusion modes and fileMatchPattern."""

from __future__ import annotations

from pathlib import Path

from ruleweave.discovery import kiro
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run


def test_inclusion_modes_map_to_buckets(write_tree: WriteTree) -> None:
    """``always`` (or none), ``fileMatch``, ``auto`` and ``manual`` land in their buckets."""
    root = write_tree(
        {
            ".kiro/steering/product.md": "# Product\nWe build invoices.",
            ".kiro/steering/tech.md": "---\ninclusion: always\n---\nStack: Django.",
            ".kiro/steering/api.md": (
                "---\ninclusion: fileMatch\nfileMatchPattern: 'app/api/**/*.py'\n---\nAPI."
            ),
            ".kiro/steering/auto.md": (
                "---\ninclusion: auto\ndescription: Use when writing migrations\n---\nAuto."
            ),
            ".kiro/steering/manual.md": (
                "---\ninclusion: manual\ndescription: By #manual only\n---\nManual."
            ),
        }
    )
    found = run(root, only=kiro.PROVIDER)
    rules = named(found)
    assert buckets(found) == {
        "api": Bucket.SCOPED,
        "auto": Bucket.RULEBOOK,
        "manual": Bucket.MANUAL,
        "product": Bucket.GENERIC,
        "tech": Bucket.GENERIC,
    }
    assert rules["api"].globs == ("app/api/**/*.py",)
    assert rules["auto"].description == "Use when writing migrations"
    assert rules["manual"].description is None


def test_file_match_pattern_list_and_snake_key(write_tree: WriteTree) -> None:
    """``file_match_pattern`` as a list is read like ``fileMatchPattern``."""
    root = write_tree(
        {
            ".kiro/steering/web.md": (
                "---\ninclusion: fileMatch\nfile_match_pattern: ['*.ts', '*.tsx']\n---\nWeb."
            ),
        }
    )
    # Kiro reads a bare fileMatchPattern as "anywhere" (issue #12 point 2).
    assert named(run(root, only=kiro.PROVIDER))["web"].globs == ("**/*.ts", "**/*.tsx")


def test_user_steering_is_read_first_and_project_wins(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """``~/.kiro/steering`` loads first and loses a name clash to the project."""
    user = isolated_home / ".kiro" / "steering"
    user.mkdir(parents=True)
    (user / "tech.md").write_text("User tech.", encoding="utf-8")
    (user / "personal.md").write_text("Personal.", encoding="utf-8")
    root = write_tree({".kiro/steering/tech.md": "Project tech."})
    found = run(root, only=kiro.PROVIDER)
    assert [r.name for r in found.rules] == ["personal", "tech"]
    assert named(found)["tech"].content == "Project tech."
    assert [s.level for s in named(found)["tech"].shadowed] == ["user"]
