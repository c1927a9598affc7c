"""Continue's rules, read as its loader reads them (issue #28 item 3).

continuedev/continue (commit d0a3c0b): ``core/config/markdown/loadMarkdownRules.ts``
loads the ``.md`` files of ``.continue/rules`` and ``.continue/prompts`` and drops
those with ``invokable: true`` (slash prompts); ``core/llm/rules/getSystemMessageWithRules.ts``
matches ``globs`` with ``minimatch(filePath, glob)`` (no ``matchBase``) and treats
only ``.continue/`` files as root level; ``packages/config-yaml/src/markdown/markdownToRule.ts``
(``getGlobPattern``) scopes a colocated ``rules.md`` to its directory.
"""

from __future__ import annotations

from ruleweave.discovery import continue_
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, messages, named, run


def test_invokable_files_are_prompts_and_other_prompt_files_are_rules(write_tree: WriteTree) -> None:
    """``invokable: true`` is a slash prompt (an info line); a plain ``.continue/prompts`` file is a rule."""
    root = write_tree(
        {
            ".continue/prompts/review.md": "---\nname: review\ninvokable: true\n---\nReview this diff.",
            ".continue/prompts/house-style.md": "---\nname: house-style\n---\nUse the house style.",
            ".continue/rules/slash.md": "---\nname: slash\ninvokable: true\n---\nA slash command.",
            ".continue/prompts/sql.md": "---\nname: sql\nglobs: 'db/**/*.sql'\n---\nSQL style.",
        }
    )
    found = run(root, only=continue_.PROVIDER)
    assert buckets(found) == {"house-style": Bucket.GENERIC, "sql": Bucket.SCOPED}
    notes = [w for w in found.warnings if w.severity == "info"]
    assert {w.path.rsplit("/", 1)[1] for w in notes} == {"review.md", "slash.md"}
    assert all("slash prompt" in w.message for w in notes)


def test_a_bare_glob_is_a_file_at_the_top(write_tree: WriteTree) -> None:
    """Continue's ``globs: '*.ts'`` stays ``*.ts``: minimatch without match-anywhere."""
    root = write_tree({".continue/rules/ts.md": "---\nname: ts\nglobs: '*.ts'\n---\nTS."})
    assert named(run(root, only=continue_.PROVIDER))["ts"].globs == ("*.ts",)


def test_a_colocated_rules_md_is_scoped_to_its_directory(write_tree: WriteTree) -> None:
    """The root ``rules.md`` scopes to every file (``**``), its bare globs to any depth below it."""
    root = write_tree(
        {
            "rules.md": "Root colocated rule.",
            "pkg/rules.md": "---\nglobs: '*.py'\n---\nPackage Python rule.",
        }
    )
    found = run(root, only=continue_.PROVIDER)
    assert named(found)["rules"].globs == ("**",)
    assert buckets(found) == {"rules": Bucket.SCOPED}
    assert messages(found) == []
    nested = run(root, cwd="pkg", only=continue_.PROVIDER)
    assert named(nested)["pkg:rules"].globs == ("pkg/**/*.py",)
