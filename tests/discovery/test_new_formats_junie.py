"""junie provider: every file of ``.junie/guidelines/`` is always on, unless Junie reads another source."""

from __future__ import annotations

from ruleweave.discovery import junie
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, messages, named, run

# Junie docs, "Guidelines" (jetbrains.com/help/junie/customize-guidelines.html): "Guidelines allow
# you to provide persistent, reusable context to the agent. Junie adds this context to every task
# it works on." Junie's "Guidelines and memory" page (junie.jetbrains.com/docs/guidelines-and-memory.html)
# gives the lookup order `.junie/AGENTS.md` → `AGENTS.md` → `.junie/guidelines.md` | `.junie/guidelines/`:
# the first that exists wins. ruleweave reads the root AGENTS.md for every agent, so only Junie's own
# files (`.junie/AGENTS.md`, `.junie/guidelines.md`) take the folder's place.


def test_every_guidelines_file_is_always_on(write_tree: WriteTree) -> None:
    """Each ``.md`` in the folder (and its subfolders) is a generic rule named by its path."""
    root = write_tree(
        {
            ".junie/guidelines/01-approval-gate.md": "Ask before large refactors.",
            ".junie/guidelines/java/spring.md": "---\nglobs: '*.java'\n---\nConstructor injection.",
            ".junie/guidelines/readme.txt": "Not a guideline.",
        }
    )
    found = run(root, only=junie.PROVIDER)
    assert buckets(found) == {"01-approval-gate": Bucket.GENERIC, "java/spring": Bucket.GENERIC}
    assert named(found)["java/spring"].globs == ()


def test_folder_is_skipped_when_junie_reads_its_own_file_first(write_tree: WriteTree) -> None:
    """With ``.junie/guidelines.md`` present Junie never reads the folder; a warning names it."""
    root = write_tree(
        {
            ".junie/guidelines.md": "Single file guidelines.",
            ".junie/guidelines/extra.md": "Never read by Junie.",
        }
    )
    found = run(root, only=junie.PROVIDER)
    assert found.rules == ()
    assert any(".junie/guidelines: is not read" in m and "guidelines.md" in m for m in messages(found))
