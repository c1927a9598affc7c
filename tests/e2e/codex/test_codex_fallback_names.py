"""Which instruction file Codex takes per directory, with the real Codex CLI 0.171.0: its
``project_doc_fallback_filenames`` (from its user config and a trusted project's ``.codex/config.toml``)
and a blank ``AGENTS.override.md``. The file Codex takes is its own, so ruleweave's hooks leave it out;
what Codex does not load still comes from ruleweave.

Codex reads the setting from its merged config layers (``config_loader::load_config_layers_state``:
the user's ``config.toml``, then each ``.codex/config.toml`` from the project root to the cwd, honoured
only in a trusted project) and tries ``AGENTS.override.md``, ``AGENTS.md``, then those names in each
directory from the root to its cwd (``agents_md.rs``, ``candidate_filenames``). ``codex exec --trust``
trusts the project here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.codex.driving import run_turn
from tests.e2e.mock_responses import reply, text

pytestmark = pytest.mark.e2e

ALWAYS = ".github/copilot-instructions.md"
USER_SETTING = 'project_doc_fallback_filenames = ["TEAM_GUIDE.md"]\n'


def _first_request(tmp: Path, files: dict[str, str]) -> dict[str, Any]:
    turn = run_turn(tmp, {ALWAYS: "COPILOT-ALWAYS: keep commits small.\n", **files},
                    [reply(text("Done."))], "Say done.", user_config=USER_SETTING)
    return turn.mock.loop_requests[0]


def _count(body: dict[str, Any], needle: str) -> int:
    return json.dumps(body).count(needle)


def test_the_users_fallback_name_is_codexs_own_file(tmp_path: Path) -> None:
    """No ``AGENTS.md`` at the root and the user's setting names ``TEAM_GUIDE.md``: Codex loads it, once;
    the hooks add the always-on rule and leave the guide out (before, it arrived twice)."""
    body = _first_request(tmp_path, {"TEAM_GUIDE.md": "TEAM-GUIDE: Codex loads this itself.\n"})
    assert _count(body, "TEAM-GUIDE") == 1
    assert _count(body, "COPILOT-ALWAYS") == 1


def test_a_trusted_projects_setting_replaces_the_users(tmp_path: Path) -> None:
    """The project's ``.codex/config.toml`` names ``PROJECT_GUIDE.md``: in a trusted project that layer
    wins, so Codex loads ``PROJECT_GUIDE.md`` (once, itself) and ``TEAM_GUIDE.md`` reaches nobody; ruleweave
    reads the layers the same way (before, it read the user's setting alone and sent ``TEAM_GUIDE.md``)."""
    body = _first_request(tmp_path, {
        ".codex/config.toml": 'project_doc_fallback_filenames = ["PROJECT_GUIDE.md"]\n',
        "PROJECT_GUIDE.md": "PROJECT-GUIDE: Codex loads this through the project's setting.\n",
        "TEAM_GUIDE.md": "TEAM-GUIDE: named by the user's setting only.\n",
    })
    assert _count(body, "PROJECT-GUIDE") == 1
    assert _count(body, "TEAM-GUIDE") == 0
    assert _count(body, "COPILOT-ALWAYS") == 1


def test_a_blank_override_hides_agents_md_in_the_project_but_not_in_codex_home(tmp_path: Path) -> None:
    """A white-space ``AGENTS.override.md`` wins its project directory and is skipped as empty, so the
    root's ``AGENTS.md`` reaches nobody (ruleweave chooses the same way and sends nothing for it); in
    ``$CODEX_HOME`` Codex passes over a blank override and loads ``AGENTS.md``, once."""
    turn = run_turn(tmp_path, {
        ALWAYS: "COPILOT-ALWAYS: keep commits small.\n",
        "AGENTS.md": "ROOT-AGENTS: hidden by the blank override.\n",
        "AGENTS.override.md": "\n  \n",
        "../codex-home/AGENTS.override.md": "\n",
        "../codex-home/AGENTS.md": "USER-AGENTS: Codex loads this from its home.\n",
    }, [reply(text("Done."))], "Say done.")
    body = turn.mock.loop_requests[0]
    assert _count(body, "ROOT-AGENTS") == 0
    assert _count(body, "USER-AGENTS") == 1
    assert _count(body, "COPILOT-ALWAYS") == 1


def test_what_project_doc_max_bytes_cuts_comes_from_the_hooks(tmp_path: Path) -> None:
    """``project_doc_max_bytes = 40`` and Codex started in ``pkg``: Codex keeps the root AGENTS.md's first
    40 bytes and drops the rest of the chain (``agents_md.rs``); the hooks send the root file from byte 40
    and ``pkg/AGENTS.md`` whole, so every word reaches the model once."""
    head = "ROOT-HEAD " + "a" * 29 + " "  # 40 bytes: Codex's share
    turn = run_turn(tmp_path, {
        "AGENTS.md": head + "ROOT-TAIL: past Codex's budget.\n",
        "pkg/AGENTS.md": "PKG-AGENTS: after the budget was spent.\n",
    }, [reply(text("Done."))], "Say done.", user_config="project_doc_max_bytes = 40\n", cwd="pkg")
    body = turn.mock.loop_requests[0]
    assert _count(body, "ROOT-HEAD") == 1 and _count(body, head.strip()) == 1
    assert _count(body, "ROOT-TAIL") == 1
    assert _count(body, "PKG-AGENTS") == 1


def test_a_project_marked_untrusted_gets_nothing_from_codex_or_the_hooks(tmp_path: Path) -> None:
    """The user's config says ``trust_level = "untrusted"`` for the project and the hooks are installed for
    the user (so they run there): Codex loads no project doc, and ruleweave's hooks give none of the
    project's rules either (before, the always-on rule still arrived)."""
    project = tmp_path / "repo"
    turn = run_turn(tmp_path, {
        ALWAYS: "COPILOT-ALWAYS: keep commits small.\n",
        "AGENTS.md": "ROOT-AGENTS: an untrusted project's file.\n",
    }, [reply(text("Done."))], "Say done.", install=("--user",), trust=False,
        user_config=f'projects."{project}".trust_level = "untrusted"\n')
    body = turn.mock.loop_requests[0]
    assert _count(body, "ROOT-AGENTS") == 0 and _count(body, "COPILOT-ALWAYS") == 0
    assert "hook: SessionStart" in turn.output  # the hook ran, and said nothing
