"""Cline's rules, read as its loader reads them (issue #28 items 2 and 8).

cline/cline at 791d238^ (the VS Code extension before its move to ``apps/``):
``src/core/context/instructions/user-instructions/cline-rules.ts``
(``getLocalClineRules``: ``readDirectory`` of ``.clinerules`` without
``workflows``, ``hooks`` and ``skills``; ``getGlobalClineRules``) and
``src/utils/fs.ts`` (``readDirectory``: every file, recursively, but
``OS_GENERATED_FILES``); ``rule-conditionals.ts`` (``evaluatePathsConditional``:
anything but a list of non-empty strings fails open). The SDK's global rules
folder: ``sdk/packages/shared/src/storage/paths.ts`` (``resolveRulesConfigSearchPaths``:
``<CLINE_DIR, default ~/.cline>/rules``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave.discovery import cline
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run


def test_any_extension_is_a_rule_and_skills_are_not(write_tree: WriteTree) -> None:
    """``.clinerules/01-style.txt`` is a rule; ``skills/``, ``workflows/``, ``hooks/``, ``.DS_Store`` not."""
    root = write_tree(
        {
            ".clinerules/01-style.txt": "Two-space indents.",
            ".clinerules/api/errors.md": "Return problem+json.",
            ".clinerules/skills/release/SKILL.md": "---\nname: release\n---\nHow to release.",
            ".clinerules/workflows/deploy.md": "Deploy steps.",
            ".clinerules/hooks/README.md": "Hook docs.",
            ".clinerules/.DS_Store": "finder",
        }
    )
    found = run(root, only=cline.PROVIDER)
    assert buckets(found) == {"01-style": Bucket.GENERIC, "api/errors": Bucket.GENERIC}


def test_paths_that_cline_cannot_read_fail_open(write_tree: WriteTree) -> None:
    """``paths: [""]`` or a non-string in the list: always on; ``paths: ["  "]``: never applies."""
    root = write_tree(
        {
            ".clinerules/empty-string.md": '---\npaths: [""]\n---\nAlways, as Cline reads it.',
            ".clinerules/mixed.md": "---\npaths: ['src/**', 3]\n---\nAlways too.",
            ".clinerules/a-string.md": "---\npaths: 'src/**'\n---\nA string: always.",
            ".clinerules/blank.md": "---\npaths: ['  ']\n---\nNever applies.",
            ".clinerules/scoped.md": "---\npaths: ['src/**']\n---\nScoped.",
        }
    )
    found = run(root, only=cline.PROVIDER)
    assert buckets(found) == {
        "a-string": Bucket.GENERIC,
        "blank": Bucket.MANUAL,
        "empty-string": Bucket.GENERIC,
        "mixed": Bucket.GENERIC,
        "scoped": Bucket.SCOPED,
    }


def test_every_global_rules_folder_is_read(
    write_tree: WriteTree, isolated_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Cline 3.0.65 reads the user's rules from ``$CLINE_DIR/rules`` (default ``~/.cline/rules``),
    ``~/Cline/Rules`` and ``~/Documents/Cline/Rules``, in that order (``@cline/shared``'s
    ``resolveRulesConfigSearchPaths``, ``dist/storage/index.js`` of the 3.0.65 package); with
    ``CLINE_DIR`` set, ``~/.cline/rules`` is not read."""
    for folder, name in (("Documents/Cline/Rules", "docs-rule.md"), (".cline/rules", "sdk-rule.txt"),
                         ("Cline/Rules", "home-rule.md")):
        (isolated_home / folder).mkdir(parents=True)
        (isolated_home / folder / name).write_text(f"From {folder}.", encoding="utf-8")
    project = write_tree({"README.md": "x"})
    found = run(project, only=cline.PROVIDER)
    assert [(name, rule.source.level) for name, rule in named(found).items()] == [
        ("sdk-rule", "user"), ("home-rule", "user"), ("docs-rule", "user"),
    ]
    moved = tmp_path / "cline-dir"
    (moved / "rules").mkdir(parents=True)
    (moved / "rules" / "moved-rule.md").write_text("From $CLINE_DIR.", encoding="utf-8")
    monkeypatch.setenv("CLINE_DIR", f"  {moved}  ")  # Cline trims it
    assert list(named(run(project, only=cline.PROVIDER))) == ["moved-rule", "home-rule", "docs-rule"]
