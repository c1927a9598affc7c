"""OpenCode's declaration: the plugin's events read as ``HookEvent``s, answers encoded as the plugin reads
them."""

from __future__ import annotations

from pathlib import Path

from ruleweave.config import RuleweaveConfig
from ruleweave.hosts import (
    AFTER_TOOL,
    BEFORE_TOOL,
    BLOCK,
    CONTEXT,
    DENY,
    NOTE,
    SESSION_COMPACT,
    SESSION_START,
    USER_PROMPT,
    host,
)
from ruleweave.hosts.opencode import HOST, encode, read_event
from ruleweave.hosts.opencode.native import claude_md_native, user_files
from tests.hosts.opencode import payloads

ROOT = Path("/p")


def test_registered_under_its_name() -> None:
    assert host("opencode") is HOST and HOST.title == "OpenCode"


def test_each_event_reads_its_keys() -> None:
    start = read_event(payloads.session_start(ROOT))
    assert (start.kind, start.session_id, start.cwd) == (SESSION_START, payloads.SESSION, "/p")
    prompt = read_event(payloads.chat_message(ROOT, "fix it", "msg_1"))
    assert (prompt.kind, prompt.text, prompt.turn_id) == (USER_PROMPT, "fix it", "msg_1")
    pre = read_event(payloads.before(ROOT, "write", {"filePath": "/p/a.ts"}, "call_1"))
    assert (pre.kind, pre.tool, pre.call_id, dict(pre.args)) == (BEFORE_TOOL, "write", "call_1",
                                                                 {"filePath": "/p/a.ts"})
    post = read_event(payloads.after(ROOT, "read", {"filePath": "/p/a.ts"}, "call_2", "text"))
    assert (post.kind, post.result) == (AFTER_TOOL, "text")
    assert read_event(payloads.compacting(ROOT)).kind == SESSION_COMPACT


def test_wrong_types_read_as_absent() -> None:
    """A key of the wrong type never raises: it reads as missing (a cwd the runner then refuses)."""
    event = read_event({"event": "tool.execute.after", "session_id": 3, "cwd": 4, "tool": [], "args": "x",
                        "call_id": 5})
    assert (event.session_id, event.tool, dict(event.args), event.call_id) == ("", "", {}, None)
    assert event.cwd == "<not a string>"
    assert read_event({"event": "session.idle"}).kind is None and read_event({}).name is None


def test_answers_the_plugin_can_deliver() -> None:
    post = read_event(payloads.after(ROOT, "read", {}, "c"))
    pre = read_event(payloads.before(ROOT, "write", {}, "c"))
    assert encode(post, CONTEXT, "rule") == {"context": "rule"}
    assert encode(pre, DENY, "no") == {"deny": "no"}
    assert encode(pre, CONTEXT, "rule") is None  # before a tool the plugin adds nothing
    assert encode(post, DENY, "no") is None
    assert encode(post, BLOCK, "again") is None  # no OpenCode hook can keep the model going
    assert encode(pre, NOTE, "store trouble") == {"note": "store trouble"}


def test_tool_paths() -> None:
    """grep's ``include``, bash's ``workdir`` and apply_patch's ``patchText`` name paths; read/write/edit
    use ``filePath``, which the default extractor reads."""
    assert HOST.extractor_for("read") is None
    grep = HOST.extractor_for("grep")
    assert grep is not None and list(grep("grep", {"pattern": "x", "path": "src", "include": "*.ts"})) == [
        "src", "src/*.ts"]
    bash = HOST.extractor_for("bash")
    assert bash is not None and list(bash("bash", {"command": "cat a.ts", "workdir": "/p/src"})) == [
        "/p/src", "/p/src/a.ts"]
    patch = HOST.extractor_for("apply_patch")
    text = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch"
    assert patch is not None and list(patch("apply_patch", {"patchText": text})) == ["src/a.ts"]


def test_claude_md_is_native_only_without_agents_md_on_the_walk(tmp_path: Path, isolated_home: Path) -> None:
    """OpenCode takes the first name of AGENTS.md, CLAUDE.md found from the cwd up to the root."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "pkg").mkdir()
    config = RuleweaveConfig(cwd=tmp_path / "pkg")
    assert claude_md_native(config)
    (tmp_path / "AGENTS.md").write_text("x\n", encoding="utf-8")
    assert not claude_md_native(config)


def test_user_tier_is_its_own_agents_md_else_claudes(tmp_path: Path, isolated_home: Path) -> None:
    (tmp_path / ".git").mkdir()
    config = RuleweaveConfig(cwd=tmp_path)
    assert user_files(config) == (config.user_home / ".claude" / "CLAUDE.md",)
    own = config.xdg_config_home / "opencode" / "AGENTS.md" if config.xdg_config_home else None
    assert own is not None
    own.parent.mkdir(parents=True)
    own.write_text("x\n", encoding="utf-8")
    assert user_files(config) == (own,)
