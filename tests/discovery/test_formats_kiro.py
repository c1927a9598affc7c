"""Issue #12 point 5: Kiro's ``#[[file:relative/path]]`` file references.

https://kiro.dev/docs/steering/ ("File references"): steering files can
reference live workspace files with ``#[[file:<relative_file_name>]]`` (e.g.
``#[[file:api/openapi.yaml]]``), and the file's content is included with the
steering file. The path is relative to the workspace root. The docs are
silent on limits: ruleweave reads a referenced file like an import — inside
the project only (links resolved), within ``max_file_bytes``, at most 16
references per file, not recursively — and warns about one it cannot include.
"""

from __future__ import annotations

import os
from pathlib import Path

from ruleweave import RuleSet, RuleweaveConfig
from tests.conftest import WriteTree


def load(root: Path) -> RuleSet:
    return RuleSet.load(RuleweaveConfig(cwd=root, project_root=root, builtin_rules=False))


def test_reference_pulls_in_the_file(write_tree: WriteTree) -> None:
    """The referenced file's text follows the reference, fenced so it cannot close early."""
    root = write_tree(
        {
            ".kiro/steering/api.md": "# API\nFollow the spec: #[[file:api/openapi.yaml]]\nThen test.",
            "api/openapi.yaml": "openapi: 3.1.0\n```\npaths: {}\n",
        }
    )
    content = load(root).find_rule("api")[0].content  # type: ignore[index]
    head = "# API\nFollow the spec: #[[file:api/openapi.yaml]]\n\nContents of api/openapi.yaml:"
    assert content.startswith(head)
    assert "openapi: 3.1.0\n```\npaths: {}\n````\n" in content  # a four-backtick fence around ``` inside
    assert content.endswith("Then test.")
    assert "openapi: 3.1.0" in load(root).session("s").system_prompt()


def test_references_outside_the_project_or_missing_are_warnings(
    write_tree: WriteTree, tmp_path: Path
) -> None:
    """``../`` out of the project, a link out, or a missing file: left as written, with a warning."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET", encoding="utf-8")
    root = write_tree(
        {
            ".kiro/steering/bad.md": (
                "A #[[file:../secret.txt]]\nB #[[file:link.txt]]\nC #[[file:missing.md]]\nD #[[file:ok.md]]"
            ),
            "ok.md": "fine",
        }
    )
    os.symlink(secret, root / "link.txt")
    ruleset = load(root)
    content = ruleset.find_rule("bad")[0].content  # type: ignore[index]
    assert "TOP SECRET" not in content
    assert "Contents of ok.md:\n```\nfine\n```" in content
    messages = [w.message for w in ruleset.warnings if w.path == str(root / ".kiro/steering/bad.md")]
    assert any("../secret.txt" in m and "outside the project" in m for m in messages)
    assert any("missing.md" in m for m in messages)
    assert any(str(root / "link.txt") == w.path for w in ruleset.warnings)  # the link is refused by name
