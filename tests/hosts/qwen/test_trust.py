"""Qwen Code's folder trust, as its hooks read it (``ruleweave.hosts.qwen.trust``).

Qwen Code 0.24.4 (bundle ``chunks/chunk-RIQQLEYE.js``: ``cli/src/config/trustedFolders.ts``;
``chunks/chunk-756HBF3F.js``: ``trust-precedence.ts``; ``chunks/chunk-K22NDLL4.js``: which settings
switch it on; ``chunks/chunk-DPEB6S2R.js``: ``Config.isTrustedFolder`` gating
``loadServerHierarchicalMemory``, and ``processHooksFromConfig`` running the user's hooks regardless).
Real runs with ``ruleweave install qwen --user`` and ``security.folderTrust.enabled`` on: a folder marked
``DO_NOT_TRUST``, or not named, got no ``QWEN.md`` from Qwen but the project's rules from the hooks
(``tests/e2e/qwen/test_qwen_trust.py`` now checks they get neither); ``{parent: TRUST_FOLDER, root:
DO_NOT_TRUST}`` loaded nothing and ``{parent: DO_NOT_TRUST, root/src: TRUST_PARENT}`` loaded
``QWEN.md``, as ``trust_decision`` decides below.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from ruleweave import RuleweaveConfig
from ruleweave.hosts._core import snapshot
from ruleweave.hosts.qwen.trust import ENVIRONMENT, distrusts, folder_trust_enabled, trust_decision
from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import context_of
from tests.hosts.qwen import payloads
from tests.hosts.running import RULEWEAVE, hook

FILES = {
    ".git/HEAD": "",
    ".cursor/rules/ts.mdc": '---\nglobs: "**/*.ts"\n---\nTS-RULE: no `any` in TypeScript.\n',
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nALWAYS-RULE: keep changes small.\n",
    ".ruleweave/rules/no-eval.md": "---\ncondition: 'eval\\('\nscope: 'tool:write'\n---\nNO-EVAL: never.\n",
    "src/a.ts": "export const a = 1;\n",
}


@pytest.fixture
def qwen_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$QWEN_HOME`` in a temp dir, the system settings moved there too (nothing of the machine's read)."""
    home = tmp_path / "qwen-home"
    home.mkdir()
    monkeypatch.setenv("QWEN_HOME", str(home))
    monkeypatch.setenv("QWEN_CODE_SYSTEM_SETTINGS_PATH", str(tmp_path / "etc" / "settings.json"))
    for name in ("QWEN_CODE_TRUSTED_FOLDERS_PATH", "QWEN_CODE_SYSTEM_DEFAULTS_PATH",
                 "QWEN_CODE_IDE_SERVER_PORT", "QWEN_CODE_IDE_WORKSPACE_PATH"):
        monkeypatch.delenv(name, raising=False)
    return home


def _json(path: Path, value: object, comment: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(comment + json.dumps(value), encoding="utf-8")


def _trust_on(home: Path) -> None:
    _json(home / "settings.json", {"security": {"folderTrust": {"enabled": True}}}, "// mine\n")


def _config(cwd: Path) -> RuleweaveConfig:
    return RuleweaveConfig(cwd=cwd)


def test_the_deepest_rule_holding_the_cwd_decides(tmp_path: Path) -> None:
    """Qwen's ``resolveTrustDecision``: the deepest rule path holding the cwd wins; ``DO_NOT_TRUST`` on a
    tie; ``TRUST_PARENT`` trusts the path's parent; no rule holding it: no decision."""
    root, parent = tmp_path / "repo", str(tmp_path)
    (root / "src").mkdir(parents=True)
    here = str(root)
    assert trust_decision([], here) is None
    assert trust_decision([(parent, "TRUST_FOLDER"), (here, "DO_NOT_TRUST")], here) is False
    assert trust_decision([(here, "DO_NOT_TRUST"), (parent, "TRUST_FOLDER")], here) is False
    assert trust_decision([(parent, "DO_NOT_TRUST"), (f"{here}/src", "TRUST_PARENT")], here) is True
    assert trust_decision([(here, "TRUST_FOLDER"), (f"{here}/", "DO_NOT_TRUST")], here) is False  # a tie
    assert trust_decision([(f"{here}/src", "TRUST_FOLDER")], here) is None  # below the cwd holds nothing
    assert trust_decision([(f"{parent}/repo-other", "TRUST_FOLDER")], here) is None  # a prefix, not a parent
    assert trust_decision([(f"{here}/src/..", "TRUST_FOLDER")], f"{here}/src") is True


def test_a_link_to_the_project_is_judged_by_both_spellings(tmp_path: Path) -> None:
    """``getPathComparisonVariants``: a rule or cwd is compared as written and with links resolved."""
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert trust_decision([(str(real), "DO_NOT_TRUST")], str(link)) is False
    assert trust_decision([(str(link), "TRUST_FOLDER")], str(real)) is True


def test_folder_trust_is_switched_by_system_then_user_then_defaults(
    tmp_path: Path, qwen_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """System settings win over the user's, which win over the system defaults; off when none sets it
    (Qwen's own default); a project's ``.qwen/settings.json`` cannot switch it; a v1 file's top-level
    ``folderTrust`` counts; a file that is not JSON counts as absent."""
    config = _config(tmp_path)
    assert not folder_trust_enabled(config)
    _json(tmp_path / ".qwen/settings.json", {"security": {"folderTrust": {"enabled": True}}})
    assert not folder_trust_enabled(config)
    defaults = tmp_path / "etc" / "system-defaults.json"
    _json(defaults, {"security": {"folderTrust": {"enabled": True}}})
    assert folder_trust_enabled(config)
    _json(qwen_home / "settings.json", {"folderTrust": False})  # v1
    assert not folder_trust_enabled(config)
    _json(tmp_path / "etc" / "settings.json", {"security": {"folderTrust": {"enabled": True}}})
    assert folder_trust_enabled(config)
    (tmp_path / "etc" / "settings.json").write_text("{ not json", encoding="utf-8")
    assert not folder_trust_enabled(config)
    monkeypatch.setenv("QWEN_CODE_SYSTEM_DEFAULTS_PATH", str(tmp_path / "nowhere.json"))
    _json(qwen_home / "settings.json", {})
    assert not folder_trust_enabled(config)


def test_distrust_needs_folder_trust_on_and_no_trusting_rule(
    tmp_path: Path, qwen_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Folder trust off: never distrusted. On: distrusted unless a rule trusts the cwd (Qwen's main
    config takes only ``isTrusted === true``); ``$QWEN_CODE_TRUSTED_FOLDERS_PATH`` moves the file; with
    an IDE companion's variables set the IDE may decide, which a hook cannot see: not distrusted."""
    root = tmp_path / "repo"
    root.mkdir()
    config = _config(root)
    folders = qwen_home / "trustedFolders.json"
    _json(folders, {str(root): "DO_NOT_TRUST"})
    assert not distrusts(config)
    _trust_on(qwen_home)
    assert distrusts(config)
    folders.unlink()
    assert distrusts(config)  # not named: not trusted
    _json(folders, {str(root): "TRUST_FOLDER", str(tmp_path): "BOGUS"}, "/* the user's */\n")
    assert not distrusts(config)
    elsewhere = tmp_path / "folders.json"
    _json(elsewhere, {str(tmp_path): "DO_NOT_TRUST"})
    monkeypatch.setenv("QWEN_CODE_TRUSTED_FOLDERS_PATH", str(elsewhere))
    assert distrusts(config)
    monkeypatch.setenv("QWEN_CODE_IDE_WORKSPACE_PATH", str(root))
    assert not distrusts(config)


def test_every_variable_of_the_decision_keys_the_snapshot() -> None:
    """The hook's snapshot is keyed by the environment that shapes its answer: Qwen's trust, and where
    Qwen and Gemini keep their system settings (``context.fileName`` comes from them too)."""
    from ruleweave.hosts._layered_settings import GEMINI, QWEN

    system = {name for paths in (GEMINI, QWEN) for name in (paths.system_variable, paths.defaults_variable)}
    assert set(ENVIRONMENT) | system <= set(snapshot.ENVIRONMENT)


def _backdate(*paths: Path) -> None:
    """A minute back: the hook writes no snapshot while its files change."""
    past = time.time() - 60
    for base in paths:
        for path in [base, *base.rglob("*")]:
            os.utime(path, (past, past), follow_symlinks=False)


def test_the_hooks_answer_nothing_where_qwen_does_not_trust_warm_snapshot_or_not(
    write_tree: WriteTree, tmp_path: Path, qwen_home: Path
) -> None:
    """Trusted: the rules come and a snapshot is written. Then the user marks the project
    ``DO_NOT_TRUST``: the warm path misses (the trust files are the snapshot's dependencies) and no
    event is answered, nor a snapshot written; the hook log says why. Trusted again: answered."""
    root = write_tree(FILES)
    state = tmp_path / "state"
    folders = qwen_home / "trustedFolders.json"
    _trust_on(qwen_home)
    _json(folders, {str(root): "TRUST_FOLDER"})
    _backdate(root, qwen_home)
    ts = {"file_path": str(root / "src/a.ts")}
    first = hook("qwen", payloads.post_tool(root, "read_file", ts, "call_1", session="s1"), state)
    assert "TS-RULE" in context_of(first.stdout.decode())
    written = sorted((state / "snapshots").rglob("*.json"))
    assert written
    _json(folders, {str(root): "DO_NOT_TRUST"})
    write = {**ts, "content": "eval(x)"}
    for payload in (payloads.session_start(root, session="s2"),
                    payloads.post_tool(root, "read_file", ts, "call_2", session="s2"),
                    payloads.pre_tool(root, "write_file", write, "call_3", session="s2")):
        done = hook("qwen", payload, state)
        assert done.returncode == 0 and done.stdout == b"", done.stdout
    log = (state / "qwen-hook.jsonl").read_text(encoding="utf-8")
    assert "hook_skipped" in log and "Qwen Code does not trust this project" in log
    folders.unlink()  # not named, folder trust on: still not trusted
    assert hook("qwen", payloads.session_start(root, session="s3"), state).stdout == b""
    _json(folders, {str(root / "src"): "TRUST_FOLDER"})  # a folder below the cwd: not the cwd
    assert hook("qwen", payloads.session_start(root, session="s4"), state).stdout == b""
    _json(folders, {str(root / "src"): "TRUST_PARENT"})  # trusts src's parent: the project
    start = hook("qwen", payloads.session_start(root, session="s5"), state)
    assert "ALWAYS-RULE" in context_of(start.stdout.decode())


def test_install_says_when_qwen_does_not_trust_the_project(
    write_tree: WriteTree, qwen_home: Path, isolated_home: Path
) -> None:
    """An install in a folder Qwen does not trust works, but its hooks will answer nothing there: the
    installer says so (exit 0), and says nothing once the folder is trusted."""
    root = write_tree(FILES)
    # Plain JSON: the installer rewrites $QWEN_HOME/settings.json, and refuses one with comments.
    _json(qwen_home / "settings.json", {"security": {"folderTrust": {"enabled": True}}})

    def install() -> subprocess.CompletedProcess[str]:
        return subprocess.run([RULEWEAVE, "install", "qwen", "--user"], cwd=root, capture_output=True,
                              text=True, timeout=60, check=False)

    first = install()
    assert first.returncode == 0 and "Qwen Code does not trust this project" in first.stderr
    _json(qwen_home / "trustedFolders.json", {str(root): "TRUST_FOLDER"})
    again = install()
    assert again.returncode == 0 and "already installed" in again.stdout and "trust" not in again.stderr
