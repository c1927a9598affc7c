"""roo provider: ``.roo/rules/`` always on, ``.roo/rules-<mode>/`` on only in its mode."""

from __future__ import annotations

from pathlib import Path

from ruleweave.discovery import roo
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run

# Roo Code docs, "Custom Instructions" (docs.roocode.com/features/custom-instructions): global rules
# in "~/.roo/rules/ and ~/.roo/rules-{modeSlug}/"; workspace rules "Apply only to the current project
# and take precedence over global rules"; "Roo Code reads files recursively (including
# subdirectories), appending their content to the system prompt in alphabetical order";
# "Mode-Specific Instructions: Apply only to a specific mode (e.g., code) … Directory
# (.roo/rules-{modeSlug}/)".

REPO = {
    ".roo/rules/01-general.md": "Use pnpm.",
    ".roo/rules/02-coding-style.txt": "Two-space indents.",
    ".roo/rules/team/review.md": "---\nglobs: '*.py'\n---\nReview carefully.",
    ".roo/rules-code/style.md": "Prefer small functions.",
    ".roo/rules-architect/diagrams.md": "Draw C4 diagrams.",
    ".roo/rules/image.png": "not text",
}


def test_workspace_rules_always_and_mode_rules_manual_without_a_mode(write_tree: WriteTree) -> None:
    """Without a configured mode every mode folder is manual; ``.roo/rules`` is always on, recursively."""
    found = run(write_tree(REPO), only=roo.PROVIDER)
    assert buckets(found) == {
        "01-general": Bucket.GENERIC,
        "02-coding-style": Bucket.GENERIC,
        "team/review": Bucket.GENERIC,
        "image.png": Bucket.GENERIC,  # any extension (issue #28 item 1; see test_roo_sources.py)
        "rules-architect/diagrams": Bucket.MANUAL,
        "rules-code/style": Bucket.MANUAL,
    }
    assert [r.name for r in found.rules][:4] == ["01-general", "02-coding-style", "image.png", "team/review"]
    assert named(found)["team/review"].globs == ()


def test_the_configured_mode_folder_is_always_on(write_tree: WriteTree) -> None:
    """``RuleweaveConfig(mode="code")`` turns ``.roo/rules-code`` on and leaves other modes manual."""
    found = run(write_tree(REPO), only=roo.PROVIDER, mode="code")
    found_buckets = buckets(found)
    assert found_buckets["rules-code/style"] == Bucket.GENERIC
    assert found_buckets["rules-architect/diagrams"] == Bucket.MANUAL


def test_global_rules_load_first_and_workspace_wins(write_tree: WriteTree, isolated_home: Path) -> None:
    """``~/.roo/rules`` and ``~/.roo/rules-<mode>`` are the user tier; a same-named workspace rule wins."""
    for rel, text in {"rules/01-general.md": "Global.", "rules-code/style.md": "Global code."}.items():
        path = isolated_home / ".roo" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    found = run(write_tree({".roo/rules/01-general.md": "Workspace."}), only=roo.PROVIDER, mode="code")
    rules = named(found)
    assert rules["01-general"].content == "Workspace."
    assert [s.level for s in rules["01-general"].shadowed] == ["user"]
    assert rules["rules-code/style"].source.level == "user"
    assert rules["rules-code/style"].always_apply is True


# Same page: "Fallback Method: Single File (.roorules)" — "If .roo/rules/ doesn't exist or is empty,
# Roo Code looks for a single .roorules file in the workspace root"; mode rules likewise fall back to
# ".roorules-{modeSlug}".
def test_roorules_files_are_the_fallback_of_empty_or_missing_folders(write_tree: WriteTree) -> None:
    """``.roorules`` counts only without ``.roo/rules/`` files; ``.roorules-<mode>`` likewise per mode."""
    legacy = {".roorules": "Legacy workspace rules.", ".roorules-code": "Legacy code.", "pkg/.roorules": "no"}
    found = run(write_tree(legacy), only=roo.PROVIDER, mode="code")
    assert buckets(found) == {".roorules": Bucket.GENERIC, ".roorules-code": Bucket.GENERIC}
    assert named(found)[".roorules"].content.strip() == "Legacy workspace rules."
    root = write_tree({**legacy, ".roo/rules/01-general.md": "Folder.", ".roo/rules-code/style.md": "Small."})
    folders = {"01-general": Bucket.GENERIC, "rules-code/style": Bucket.MANUAL}
    assert buckets(run(root, only=roo.PROVIDER)) == folders
    (root / ".roo/rules/01-general.md").unlink()  # an empty folder falls back again
    assert ".roorules" in buckets(run(root, only=roo.PROVIDER))
