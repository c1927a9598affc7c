"""Codex's installer: ruleweave's hooks merged into ``hooks.json`` files, and taken out again.

Codex 0.171.0 reads ``<root>/.codex/hooks.json`` and ``$CODEX_HOME/hooks.json`` (beside ``[hooks]`` in
``config.toml``); the file's root holds only ``description`` and ``hooks`` (docs/hosts/codex.md).
Merging, idempotence and uninstall are the shared installer's (``tests/hosts/test_hooks_json.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleweave.config import RuleweaveConfig
from ruleweave.hosts.claude_code.settings import SettingsError
from ruleweave.hosts.codex import install
from tests.conftest import WriteTree
from tests.hosts.running import apply

EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "SubagentStart", "Stop"]


@pytest.fixture
def repo(write_tree: WriteTree) -> Path:
    return write_tree({"src/a.ts": "export const a = 1;\n"})


def ours(data: dict[str, Any]) -> dict[str, list[str]]:
    """Per event, the commands of ruleweave's entries."""
    return {event: [h["command"] for g in groups for h in g["hooks"] if install.is_ours(h)]
            for event, groups in data.get("hooks", {}).items()}


def test_scopes_name_the_project_and_codex_home_files(repo: Path, tmp_path: Path) -> None:
    """project → <root>/.codex/hooks.json; user → $CODEX_HOME/hooks.json."""
    config = RuleweaveConfig(cwd=repo / "src", codex_home=tmp_path / "codex-home")
    assert install.files("project", config) == [repo / ".codex/hooks.json"]
    assert install.files("user", config) == [tmp_path / "codex-home/hooks.json"]


def test_install_into_a_new_file(repo: Path) -> None:
    """A missing file is created with one matcher-less group per event (every tool) and a timeout."""
    path = repo / ".codex/hooks.json"
    changes = apply(install.change, path, command=install.COMMAND)
    data = json.loads(path.read_text())
    assert ours(data) == {event: ["ruleweave hook codex"] for event in EVENTS}
    group = data["hooks"]["PostToolUse"][0]
    entry = {"type": "command", "command": "ruleweave hook codex", "timeout": install.TIMEOUT}
    assert group == {"hooks": [entry]} and set(data) == {"hooks"}
    assert changes == [f"{event}: added 'ruleweave hook codex'" for event in EVENTS]


def test_uninstall_leaves_the_description_alone(repo: Path) -> None:
    """A file whose description stays keeps only it: Codex 0.171.0 loads a ``hooks.json`` without
    ``hooks`` with no warning (observed with ``codex exec``; ``$schema`` there draws ``unknown field``)."""
    path = repo / ".codex/hooks.json"
    path.parent.mkdir()
    path.write_text('{"description": "team hooks"}', encoding="utf-8")
    apply(install.change, path, command=install.COMMAND)
    apply(install.change, path, command=install.COMMAND, uninstall=True)
    assert json.loads(path.read_text()) == {"description": "team hooks"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1]", "not an object"),
        ('{"$schema": "x", "hooks": {}}', "Codex refuses a hooks.json whose root holds"),
        ('{"hooks": []}', '"hooks" is not an object'),
        ('{"hooks": {"Stop": {}}}', "not a list of matcher groups"),
        ('{"hooks": {"Stop": [{"hooks": 1}]}}', '"hooks" that is not a list'),
        ("{", "is not plain JSON"),
    ],
)
def test_a_file_codex_would_not_read_is_refused(repo: Path, text: str, message: str) -> None:
    """A file of the wrong shape raises SettingsError (a RuleweaveError) and is left alone."""
    with pytest.raises(SettingsError, match=message):
        install.change(repo / ".codex/hooks.json", text, command=install.COMMAND, uninstall=False)


def test_hooks_off_reads_the_codex_hooks_feature_from_the_deciding_layer(repo: Path, tmp_path: Path) -> None:
    """``features.codex_hooks = false`` turns Codex's hooks off (0.171.0: a real run with it in the user's
    config or a trusted project's ``.codex/config.toml`` ran none, ``tests/e2e/codex/test_codex_settings.py``
    pins one); the nearest layer Codex honours decides, and an untrusted project's layer counts for
    nothing."""
    from ruleweave.hosts.codex import HOST

    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    config = RuleweaveConfig(cwd=repo, codex_home=codex_home)
    assert HOST.hooks_off is not None and HOST.hooks_off(config) is None
    (codex_home / "config.toml").write_text("[features]\ncodex_hooks = false\n")
    assert HOST.hooks_off(config) == f"features.codex_hooks is false in {codex_home / 'config.toml'}"
    (repo / ".codex").mkdir()
    (repo / ".codex/config.toml").write_text("features.codex_hooks = true\n")
    assert HOST.hooks_off(config) is not None  # the project is not trusted: its layer is not read
    (codex_home / "config.toml").write_text(
        f'[features]\ncodex_hooks = false\n[projects."{repo}"]\ntrust_level = "trusted"\n'
    )
    assert HOST.hooks_off(config) is None


def test_hooks_off_reads_the_system_layer_below_the_user_and_the_managed_one_above_all(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex 0.171.0, run for real with ``/etc/codex/config.toml`` and ``/etc/codex/managed_config.toml``
    (root, once: a test must not write to ``/etc``): the system file's ``features.codex_hooks = false``
    turned the hooks off unless the user's config set it ``true``; the managed file's decided over the
    user's and a trusted project's, either way. Here the two paths point into the test's folder."""
    from ruleweave.hosts.codex import HOST
    from ruleweave.instructions import agent_settings

    system, managed = tmp_path / "etc-config.toml", tmp_path / "etc-managed.toml"
    monkeypatch.setattr(agent_settings, "CODEX_SYSTEM_CONFIG", system)
    monkeypatch.setattr(agent_settings, "CODEX_MANAGED_CONFIG", managed)
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    config = RuleweaveConfig(cwd=repo, codex_home=codex_home)
    assert HOST.hooks_off is not None
    system.write_text("[features]\ncodex_hooks = false\n")
    assert HOST.hooks_off(config) == f"features.codex_hooks is false in {system}"
    (codex_home / "config.toml").write_text(
        f'[features]\ncodex_hooks = true\n[projects."{repo}"]\ntrust_level = "trusted"\n'
    )
    assert HOST.hooks_off(config) is None  # the user's layer is above the system's
    managed.write_text("features.codex_hooks = false\n")
    assert HOST.hooks_off(config) == f"features.codex_hooks is false in {managed}"
    (repo / ".codex").mkdir()
    (repo / ".codex/config.toml").write_text("features.codex_hooks = true\n")
    assert HOST.hooks_off(config) == f"features.codex_hooks is false in {managed}"  # above the project's
    managed.write_text("features.codex_hooks = true\n")
    (repo / ".codex/config.toml").write_text("features.codex_hooks = false\n")
    assert HOST.hooks_off(config) is None
    managed.write_text("not = [toml\n")  # unreadable: counts for nothing, as an absent file
    assert HOST.hooks_off(config) == f"features.codex_hooks is false in {repo / '.codex/config.toml'}"
