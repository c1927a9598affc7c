"""Where an agent's own settings name the instruction files it loads (``Host.native_names``), its hooks
leave exactly those out: Gemini CLI's ``context.fileName`` adds to ``GEMINI.md``, Qwen Code's replaces
``QWEN.md`` and ``AGENTS.md``.

Gemini CLI 0.61.0: ``setGeminiMdFilename`` (bundle ``chunk-JDPZ4CE3.js``, from
``packages/core/src/tools/memoryTool.ts``) puts the current names (``GEMINI.md`` at start) after the
setting's, and a real run with ``["AGENTS.md", "CONTEXT.md"]`` loaded the root's ``GEMINI.md``,
``AGENTS.md`` and ``CONTEXT.md``, ``~/.gemini/GEMINI.md`` and ``~/.gemini/CONTEXT.md`` at start, and
``sub/GEMINI.md`` and ``sub/CONTEXT.md`` just in time with a file read below them (docs/hosts/gemini.md).
Qwen Code 0.24.4: ``setMemoryFilename`` (``chunks/chunk-NNN2PKPV.js``, from
``packages/core/src/utils/memory-constants.ts``) replaces its default ``["QWEN.md", "AGENTS.md"]`` with a
non-empty setting, read in ``~/.qwen/`` and on the walk up from the cwd (``chunks/chunk-DPEB6S2R.js``,
``getMemoryFilePathsInternalForEachDir``).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.hosts import host
from ruleweave.hosts._core import snapshot
from ruleweave.hosts._core.native import hook_config
from ruleweave.hosts._options import HookOptions
from tests.conftest import WriteTree
from tests.hosts.gemini import payloads
from tests.hosts.running import hook

PROJECT = {
    ".git/HEAD": "",
    "GEMINI.md": "ROOT-GEMINI\n",
    "AGENTS.md": "ROOT-AGENTS\n",
    "CONTEXT.md": "ROOT-CONTEXT\n",
    "QWEN.md": "ROOT-QWEN\n",
    "CLAUDE.md": "ROOT-CLAUDE\n",
    "sub/GEMINI.md": "SUB-GEMINI\n",
    "sub/CONTEXT.md": "SUB-CONTEXT\n",
    "sub/CLAUDE.md": "SUB-CLAUDE\n",
    "sub/x.txt": "x\n",
}
USER = {
    ".gemini/GEMINI.md": "USER-GEMINI\n",
    ".gemini/CONTEXT.md": "USER-CONTEXT-GEMINI\n",
    ".qwen/QWEN.md": "USER-QWEN\n",
    ".qwen/CONTEXT.md": "USER-CONTEXT-QWEN\n",
}
MARKERS = ("ROOT-GEMINI", "ROOT-AGENTS", "ROOT-CONTEXT", "ROOT-QWEN", "ROOT-CLAUDE", "USER-GEMINI",
           "USER-CONTEXT-GEMINI", "USER-QWEN", "USER-CONTEXT-QWEN")


def _write(base: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / rel).write_text(text, encoding="utf-8")


def _settings(base: Path, folder: str, value: object) -> None:
    (base / folder).mkdir(parents=True, exist_ok=True)
    settings = {"context": {"fileName": value}}
    (base / folder / "settings.json").write_text(json.dumps(settings), encoding="utf-8")


def _delivered(agent: str, root: Path, home: Path) -> tuple[set[str], str]:
    """The markers of the start context ``agent``'s hooks give, and the notice of a file read in ``sub/``."""
    rules = RuleSet.load(hook_config(RuleweaveConfig(cwd=root, home=home), host(agent)))
    text = rules.prompt_parts().text
    notice = rules.session("s1").after_tool_call("read_file", {"file_path": str(root / "sub/x.txt")})
    return {marker for marker in MARKERS if marker in text}, notice.text if notice is not None else ""


@pytest.fixture
def tree(write_tree: WriteTree, tmp_path: Path) -> tuple[Path, Path]:
    """The project and the user's home."""
    root = write_tree(PROJECT)
    home = tmp_path / "home"
    _write(home, USER)
    return root, home


def test_gemini_context_file_names_are_left_out_besides_gemini_md(tree: tuple[Path, Path]) -> None:
    """``context.fileName: ["AGENTS.md", "CONTEXT.md"]``: Gemini loads those and ``GEMINI.md`` (root,
    ``~/.gemini/``, just in time below the root), so none of them comes from the hooks; what Gemini does
    not load (``CLAUDE.md``, Qwen's files) still does."""
    root, home = tree
    _settings(root, ".gemini", ["AGENTS.md", "CONTEXT.md"])
    start, notice = _delivered("gemini", root, home)
    assert start == {"ROOT-QWEN", "ROOT-CLAUDE", "USER-QWEN"}
    assert "SUB-CLAUDE" in notice and "SUB-CONTEXT" not in notice and "SUB-GEMINI" not in notice


def test_gemini_without_the_setting_loads_gemini_md_alone(tree: tuple[Path, Path]) -> None:
    """No ``context.fileName``: only ``GEMINI.md`` (root, nested, ``~/.gemini/GEMINI.md``) is Gemini's own;
    ``AGENTS.md`` comes from the hooks (a real run: a root ``AGENTS.md`` reached no request)."""
    root, home = tree
    start, notice = _delivered("gemini", root, home)
    assert "ROOT-AGENTS" in start and "ROOT-GEMINI" not in start and "USER-GEMINI" not in start
    assert "USER-CONTEXT-GEMINI" not in start  # not a name Gemini reads: ruleweave does not look for it
    assert "SUB-CONTEXT" in notice and "SUB-GEMINI" not in notice


def test_gemini_reads_a_string_setting_from_the_users_settings(tree: tuple[Path, Path]) -> None:
    """The setting may be one string, and the user's settings count where the project's do not set it."""
    root, home = tree
    _settings(home, ".gemini", "CONTEXT.md")
    start, notice = _delivered("gemini", root, home)
    assert not start & {"ROOT-GEMINI", "ROOT-CONTEXT", "USER-GEMINI", "USER-CONTEXT-GEMINI"}
    assert "ROOT-AGENTS" in start and "SUB-CONTEXT" not in notice
    _settings(root, ".gemini", ["AGENTS.md"])  # the project's setting overrides the user's
    start, notice = _delivered("gemini", root, home)
    assert "ROOT-AGENTS" not in start and "ROOT-CONTEXT" in start and "USER-CONTEXT-GEMINI" not in start


def test_qwen_context_file_names_replace_its_defaults(tree: tuple[Path, Path]) -> None:
    """``context.fileName: ["CONTEXT.md"]`` in ``.qwen/settings.json``: Qwen loads ``CONTEXT.md`` (root
    and ``~/.qwen/``) instead of ``QWEN.md`` and ``AGENTS.md``, so the hooks deliver those two and leave
    ``CONTEXT.md`` out of the start; a ``CONTEXT.md`` below the cwd, which Qwen never loads, still comes."""
    root, home = tree
    start, _ = _delivered("qwen", root, home)
    assert "ROOT-QWEN" not in start and "ROOT-AGENTS" not in start and "USER-QWEN" not in start
    _settings(root, ".qwen", ["CONTEXT.md"])
    start, notice = _delivered("qwen", root, home)
    assert {"ROOT-QWEN", "ROOT-AGENTS", "USER-QWEN"} <= start
    assert not start & {"ROOT-CONTEXT", "USER-CONTEXT-QWEN"}
    assert "SUB-CONTEXT" in notice


def test_settings_with_comments_are_read_as_the_agents_read_them(tree: tuple[Path, Path]) -> None:
    """Gemini CLI parses ``settings.json`` through ``strip-json-comments`` (0.61.0 bundle
    ``chunk-2YTYPKEZ.js``, ``loadSettings``) and Qwen Code through ``jsonc-parser`` (0.24.4
    ``chunks/chunk-RIQQLEYE.js``, ``parseJsoncObject``): a commented file's ``context.fileName`` counts."""
    root, home = tree
    (root / ".qwen").mkdir()
    (root / ".qwen/settings.json").write_text(
        '\ufeff{\n  // what Qwen loads\n  "context": {"fileName": ["CONTEXT.md", /* only */]},\n}\n',
        encoding="utf-8",
    )
    start, _ = _delivered("qwen", root, home)
    assert {"ROOT-QWEN", "ROOT-AGENTS"} <= start and "ROOT-CONTEXT" not in start
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, home=home))
    assert not [w for w in ruleset.warnings if "settings.json" in str(w.path)]


def _backdate(root: Path) -> None:
    """A minute back: the hook writes no snapshot while its files change."""
    past = time.time() - 60
    for path in [root, *root.rglob("*")]:
        os.utime(path, (past, past), follow_symlinks=False)


def test_an_edit_of_the_setting_rebuilds_the_snapshot(
    tree: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The settings file is a dependency of the hook's snapshot: once the setting no longer names
    ``CONTEXT.md``, the warm path misses and the nested ``CONTEXT.md`` comes with a file below it."""
    root, _ = tree
    _settings(root, ".gemini", ["CONTEXT.md"])
    _backdate(root)
    state = tmp_path / "state"
    read: dict[str, Any] = {"file_path": str(root / "sub/x.txt")}
    warm = hook("gemini", payloads.after_tool(root, "read_file", read, session="warm-up"), state)
    assert warm.returncode == 0 and b"SUB-CLAUDE" in warm.stdout and b"SUB-CONTEXT" not in warm.stdout
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(state))
    assert snapshot.answer(host("gemini"), payloads.after_tool(root, "read_file", {"file_path": "x.md"}),
                           HookOptions()) is None  # the snapshot answers
    _settings(root, ".gemini", ["AGENTS.md"])
    _backdate(root)
    payload = payloads.after_tool(root, "read_file", read, session="s2")
    assert snapshot.answer(host("gemini"), payload, HookOptions()) is snapshot.MISS
    again = hook("gemini", payload, state)
    assert b"SUB-CONTEXT" in again.stdout


CODEX_PROJECT = {
    ".git/HEAD": "",
    "TEAM_GUIDE.md": "ROOT-TEAM\n",
    "PROJECT_GUIDE.md": "ROOT-PROJECT\n",
    "sub/TEAM_GUIDE.md": "SUB-TEAM\n",
    "sub/x.txt": "x\n",
}


def _codex(root: Path, home: Path, cwd: str = "") -> tuple[str, str]:
    """The start context of Codex's hooks (working in ``root/cwd``), and the notice of a read in ``sub/``."""
    config = RuleweaveConfig(cwd=root / cwd, home=home, codex_home=home / ".codex")
    rules = RuleSet.load(hook_config(config, host("codex")))
    notice = rules.session("s1").after_tool_call("read_file", {"file_path": str(root / "sub/x.txt")})
    return rules.prompt_parts().text, notice.text if notice is not None else ""


def _codex_config(folder: Path, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(text, encoding="utf-8")


def test_codex_fallback_names_from_its_user_config_are_left_out_on_its_walk(
    write_tree: WriteTree, tmp_path: Path
) -> None:
    """The user's ``project_doc_fallback_filenames = ["TEAM_GUIDE.md"]``: Codex loads ``TEAM_GUIDE.md``
    where a directory on its walk has no ``AGENTS.md`` (``agents_md.rs``, ``candidate_filenames``; a real
    run: tests/e2e/codex/test_codex_fallback_names.py), so the start leaves it out; one below the cwd,
    which Codex never loads, still comes with a read there."""
    root, home = write_tree(CODEX_PROJECT), tmp_path / "home"
    start, notice = _codex(root, home)
    assert "ROOT-TEAM" not in start and "SUB-TEAM" not in notice  # no setting: not an instruction file
    # Codex trims each name (``config/mod.rs``) and ignores one with a ``/`` (``candidate_filenames``)
    _codex_config(home / ".codex", 'project_doc_fallback_filenames = [" TEAM_GUIDE.md ", "sub/x.md"]\n')
    start, notice = _codex(root, home)
    assert "ROOT-TEAM" not in start and "SUB-TEAM" in notice
    start, _ = _codex(root, home, "sub")
    assert "ROOT-TEAM" not in start and "SUB-TEAM" not in start


def test_codex_honours_a_project_layer_only_where_its_user_trusts_the_project(
    write_tree: WriteTree, tmp_path: Path
) -> None:
    """A project's ``.codex/config.toml`` naming ``PROJECT_GUIDE.md`` replaces the user's names, for
    ruleweave always and for Codex only in a trusted project (``ProjectTrustContext::decision_for_dir``:
    the layer directory's own entry, else the project root's). Untrusted, Codex loads ``TEAM_GUIDE.md``
    by the user's setting and ruleweave sends ``PROJECT_GUIDE.md``; trusted, Codex loads
    ``PROJECT_GUIDE.md`` and neither is sent."""
    root, home = write_tree(CODEX_PROJECT), tmp_path / "home"
    _codex_config(root / ".codex", 'project_doc_fallback_filenames = ["PROJECT_GUIDE.md"]\n')
    user = 'project_doc_fallback_filenames = ["TEAM_GUIDE.md"]\n'
    _codex_config(home / ".codex", user)
    start, _ = _codex(root, home)
    assert "ROOT-PROJECT" in start and "ROOT-TEAM" not in start
    _codex_config(home / ".codex", f'{user}[projects."{root}"]\ntrust_level = "trusted"\n')
    start, _ = _codex(root, home)
    assert "ROOT-PROJECT" not in start and "ROOT-TEAM" not in start
    _codex_config(home / ".codex", f'{user}[projects."{root}"]\ntrust_level = "untrusted"\n')
    start, _ = _codex(root, home)
    assert "ROOT-PROJECT" in start


def test_a_codex_layers_own_trust_entry_wins_over_the_project_roots(
    write_tree: WriteTree, tmp_path: Path
) -> None:
    """``sub/.codex/config.toml`` in a trusted project, its own directory marked untrusted: Codex leaves
    that layer disabled, so from ``sub`` the root's setting holds for it."""
    root, home = write_tree(CODEX_PROJECT), tmp_path / "home"
    _codex_config(root / ".codex", 'project_doc_fallback_filenames = ["TEAM_GUIDE.md"]\n')
    _codex_config(root / "sub/.codex", 'project_doc_fallback_filenames = ["PROJECT_GUIDE.md"]\n')
    trust = f'[projects."{root}"]\ntrust_level = "trusted"\n'
    _codex_config(home / ".codex", trust)
    start, _ = _codex(root, home, "sub")  # Codex: PROJECT_GUIDE.md; ruleweave reads the same layers
    assert "ROOT-PROJECT" not in start and "ROOT-TEAM" not in start and "SUB-TEAM" not in start
    _codex_config(home / ".codex", f'{trust}[projects."{root / "sub"}"]\ntrust_level = "untrusted"\n')
    start, _ = _codex(root, home, "sub")  # Codex: TEAM_GUIDE.md; ruleweave still reads PROJECT_GUIDE.md
    assert "ROOT-PROJECT" in start and "ROOT-TEAM" not in start and "SUB-TEAM" not in start


def test_an_edit_of_codexs_project_config_rebuilds_the_snapshot(
    write_tree: WriteTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The project's ``.codex/config.toml`` is a dependency of the hook's snapshot: once its setting names
    ``TEAM_GUIDE.md``, the warm path misses and ``sub/TEAM_GUIDE.md`` (below the cwd: Codex never loads
    it) comes with a read in ``sub/``."""
    from tests.hosts.codex import payloads as codex_payloads

    root, home = write_tree(CODEX_PROJECT), tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    _codex_config(root / ".codex", 'project_doc_fallback_filenames = ["PROJECT_GUIDE.md"]\n')
    _backdate(root)
    state = tmp_path / "state"
    first = hook("codex", codex_payloads.bash(root, "cat sub/x.txt", "c1", session="warm-up"), state)
    assert first.returncode == 0 and b"SUB-TEAM" not in first.stdout
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(state))
    read = codex_payloads.bash(root, "cat sub/x.txt", "c2", session="s2")
    assert snapshot.answer(host("codex"), read, HookOptions()) is not snapshot.MISS  # the snapshot answers
    _codex_config(root / ".codex", 'project_doc_fallback_filenames = ["TEAM_GUIDE.md"]\n')
    _backdate(root)
    assert snapshot.answer(host("codex"), read, HookOptions()) is snapshot.MISS
    after = hook("codex", read, state)
    assert b"SUB-TEAM" in after.stdout


def _codex_start(root: Path, home: Path, cwd: str = "") -> str:
    config = RuleweaveConfig(cwd=root / cwd, home=home, codex_home=home / ".codex")
    return RuleSet.load(hook_config(config, host("codex"))).prompt_parts().text


def test_what_codexs_project_doc_max_bytes_cuts_comes_from_the_hooks(
    write_tree: WriteTree, tmp_path: Path
) -> None:
    """Codex reads the walk's files root first within ``project_doc_max_bytes`` (raw bytes; a blank file
    charges nothing), cuts the file that crosses it and drops the rest (``agents_md.rs``; a real run:
    tests/e2e/codex/test_codex_fallback_names.py): the start context holds the cut file from the first
    character Codex did not get, and every later file whole."""
    root = write_tree({
        ".git/HEAD": "",
        "AGENTS.md": "ROOT-HEAD 123456789 ROOT-TAIL é\n",  # 33 bytes: 'é' is bytes 30 and 31
        "a/AGENTS.override.md": "\n \n",  # blank: wins its directory, charges nothing
        "a/b/AGENTS.md": "B-AGENTS\n",
        "x.txt": "",
    })
    home = tmp_path / "home"
    assert "ROOT-" not in _codex_start(root, home, "a/b")  # 32 KiB by default: Codex has it all
    for budget, cut, tail in ((20, 20, "ROOT-TAIL é"), (30, 30, "é"), (31, 30, "é")):  # 31 splits 'é'
        _codex_config(home / ".codex", f"project_doc_max_bytes = {budget}\n")
        start = _codex_start(root, home, "a/b")
        assert f"[file: AGENTS.md, from byte {cut}]\n{tail}\n" in start and "ROOT-HEAD" not in start, budget
        assert "[file: a/b/AGENTS.md]\nB-AGENTS" in start and "a/AGENTS.override.md" not in start
    _codex_config(home / ".codex", "project_doc_max_bytes = 33\n")  # the root file fits exactly
    start = _codex_start(root, home, "a/b")
    assert "ROOT-" not in start and "[file: a/b/AGENTS.md]\nB-AGENTS" in start
    _codex_config(home / ".codex", "project_doc_max_bytes = 0\n")  # Codex loads no project doc
    start = _codex_start(root, home, "a/b")
    assert "[file: AGENTS.md]\nROOT-HEAD 123456789 ROOT-TAIL é" in start and "B-AGENTS" in start


def test_a_trusted_project_layer_sets_codexs_budget(write_tree: WriteTree, tmp_path: Path) -> None:
    """``project_doc_max_bytes`` in the project's ``.codex/config.toml`` counts where the user trusts the
    project, as Codex's other settings there do; a value of the wrong type leaves the default."""
    root = write_tree({".git/HEAD": "", "AGENTS.md": "ROOT-HEAD 123456789 ROOT-TAIL\n"})
    home = tmp_path / "home"
    _codex_config(root / ".codex", "project_doc_max_bytes = 20\n")
    _codex_config(home / ".codex", "")
    assert "ROOT-TAIL" not in _codex_start(root, home)  # untrusted: 32 KiB
    _codex_config(home / ".codex", f'[projects."{root}"]\ntrust_level = "trusted"\n')
    assert "[file: AGENTS.md, from byte 20]\nROOT-TAIL" in _codex_start(root, home)
    _codex_config(root / ".codex", 'project_doc_max_bytes = "20"\n')
    assert "ROOT-TAIL" not in _codex_start(root, home)


def test_a_file_whose_part_within_codexs_budget_is_blank_comes_whole(
    write_tree: WriteTree, tmp_path: Path
) -> None:
    """Codex drops a cut file whose kept part is white space, charging nothing (``agents_md.rs``): none of
    it reaches the model from Codex, so the hooks send it whole, and the next file still fits the budget."""
    root = write_tree({".git/HEAD": "", "AGENTS.md": "\n" * 12 + "ROOT-LATE\n", "a/AGENTS.md": "A-AGENTS\n"})
    home = tmp_path / "home"
    _codex_config(home / ".codex", "project_doc_max_bytes = 10\n")
    start = _codex_start(root, home, "a")
    assert "[file: AGENTS.md]\nROOT-LATE" in start and "A-AGENTS" not in start
