"""Roo Code's and Kilo Code's rule folders, read as their loaders read them (issue #28 items 1 and 5, Kilo).

Roo: ``src/core/prompts/sections/custom-instructions.ts`` in RooCodeInc/Roo-Code
(commit cb83656): ``readTextFilesFromDirectory`` reads every file below
``.roo/rules`` and ``.roo/rules-<mode>`` whatever its extension, dropping only
``shouldIncludeRuleFile``'s cache and system files; ``loadRuleFiles`` falls back
to ``.roorules`` only when no ``rules`` folder of ``getRooDirectoriesForCwd`` —
``~/.roo`` first — gave a file; ``addCustomInstructions`` falls back to
``.roorules-<mode>``, then ``.clinerules-<mode>``. Kilo Code:
``src/core/prompts/sections/custom-instructions.ts`` in Kilo-Org/kilocode
(``loadRuleFiles``, ``loadEnabledRules``, ``addCustomInstructions``).
"""

from __future__ import annotations

from pathlib import Path

from ruleweave.discovery import kilocode, roo
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run


def test_every_extension_is_a_rule_and_cache_files_are_not(write_tree: WriteTree) -> None:
    """RooCodeInc's own ``.xml`` mode rules are rules; ``*.log``, ``*.swp``, ``.DS_Store`` are skipped."""
    root = write_tree(
        {
            ".roo/rules-code/1_workflow.xml": "<workflow><step>Plan first.</step></workflow>",
            ".roo/rules-code/2_style.md": "Small functions.",
            ".roo/rules/conventions.yaml": "indent: 2",
            ".roo/rules/debug.log": "stale log",
            ".roo/rules/.notes.md.swp": "swap",
            ".roo/rules/.DS_Store": "finder",
            ".roo/rules/Thumbs.db": "thumbs",
        }
    )
    found = run(root, only=roo.PROVIDER, mode="code")
    assert buckets(found) == {
        "conventions.yaml": Bucket.GENERIC,
        "rules-code/1_workflow.xml": Bucket.GENERIC,
        "rules-code/2_style": Bucket.GENERIC,
    }
    assert "<step>Plan first.</step>" in named(found)["rules-code/1_workflow.xml"].content


def test_roorules_is_ignored_when_the_user_rules_folder_has_files(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """``~/.roo/rules`` holding a file is enough for Roo to skip the project's ``.roorules``."""
    root = write_tree({".roorules": "Legacy project rules."})
    assert set(named(run(root, only=roo.PROVIDER))) == {".roorules"}
    (isolated_home / ".roo" / "rules").mkdir(parents=True)
    (isolated_home / ".roo" / "rules" / "mine.md").write_text("My rule.", encoding="utf-8")
    found = run(root, only=roo.PROVIDER)
    assert set(named(found)) == {"mine"}


def test_legacy_clinerules_mode_file_is_the_last_fallback(write_tree: WriteTree) -> None:
    """``.clinerules-<mode>`` is read when there is no ``.roo/rules-<mode>/`` and no ``.roorules-<mode>``."""
    root = write_tree(
        {
            ".clinerules-code": "Cline-era code mode rules.",
            ".clinerules-ask": "Cline-era ask rules.",
            ".roorules-ask": "Roo ask rules.",
        }
    )
    found = run(root, only=roo.PROVIDER, mode="code")
    assert buckets(found) == {".clinerules-code": Bucket.GENERIC, ".roorules-ask": Bucket.MANUAL}
    assert "Cline-era ask rules." not in {r.content for r in found.rules}


def test_kilocode_reads_its_folders_modes_and_legacy_file(write_tree: WriteTree, isolated_home: Path) -> None:
    """``.kilocode/rules`` (any extension) always, ``rules-<mode>`` in its mode, the user tier first."""
    (isolated_home / ".kilocode" / "rules").mkdir(parents=True)
    (isolated_home / ".kilocode" / "rules" / "global.md").write_text("Global Kilo rule.", encoding="utf-8")
    root = write_tree(
        {
            ".kilocode/rules/testing.txt": "Run the tests.",
            ".kilocode/rules-architect/plans.md": "Write a plan.",
            ".kilocoderules": "Legacy Kilo rules.",
            ".kilocoderules-debug": "Legacy debug rules.",
        }
    )
    found = run(root, only=kilocode.PROVIDER, mode="architect")
    assert buckets(found) == {
        "global": Bucket.GENERIC,
        "testing": Bucket.GENERIC,
        "rules-architect/plans": Bucket.GENERIC,
        ".kilocoderules-debug": Bucket.MANUAL,  # another mode's legacy file: rule:// only
    }
    assert named(found)["global"].source.level == "user"
