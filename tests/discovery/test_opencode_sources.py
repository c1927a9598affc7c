"""OpenCode's ``instructions``, read as its loader reads them (issue #28 item 4).

anomalyco/opencode (formerly sst/opencode), ``packages/opencode/src/session/instruction.ts``
(``systemPaths``): a relative entry goes through ``globUp(instruction, Instance.directory,
Instance.worktree)`` — every directory from cwd up to the worktree; ``~/`` is
``os.homedir()``; the global config is ``Global.Path.config`` (``~/.config/opencode``)
``config.json`` / ``opencode.json`` / ``opencode.jsonc`` (``Config.global``).
"""

from __future__ import annotations

from pathlib import Path

from ruleweave.discovery import opencode
from tests.conftest import WriteTree
from tests.discovery.helpers import named, run


def test_a_relative_entry_is_searched_upward_from_cwd(write_tree: WriteTree) -> None:
    """``STYLE.md`` named by the root's config is found in cwd and in the root, both read."""
    root = write_tree(
        {
            "opencode.json": '{"instructions": ["STYLE.md"]}',
            "STYLE.md": "Root style.",
            "services/api/STYLE.md": "API style.",
            "services/api/app.py": "pass\n",
        }
    )
    found = run(root, cwd="services/api", only=opencode.PROVIDER)
    assert {name: rule.content for name, rule in named(found).items()} == {
        "STYLE.md": "Root style.",
        "services/api:STYLE.md": "API style.",
    }


def test_the_global_config_and_home_entries_are_read(write_tree: WriteTree, isolated_home: Path) -> None:
    """``~/.config/opencode/opencode.json`` lists ``~/notes/opencode.md``: a user-tier rule."""
    config_dir = isolated_home / ".config" / "opencode"
    config_dir.mkdir(parents=True)
    (config_dir / "opencode.json").write_text('{"instructions": ["~/notes/opencode.md"]}', encoding="utf-8")
    (isolated_home / "notes").mkdir()
    (isolated_home / "notes" / "opencode.md").write_text("My OpenCode notes.", encoding="utf-8")
    found = run(write_tree({"README.md": "x"}), only=opencode.PROVIDER)
    rule = named(found)["~/notes/opencode.md"]
    assert rule.source.level == "user" and rule.always_apply and rule.content == "My OpenCode notes."
