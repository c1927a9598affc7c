"""``ruleweave hook gemini`` end to end: a subprocess per event, real files, the real SQLite store.

The payloads are Gemini CLI's own shapes (``payloads``); what each answer does in
Gemini CLI is in docs/hosts/gemini.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import context_of
from tests.hosts.gemini import payloads
from tests.hosts.running import hook

FILES = {
    ".cursor/rules/ts.mdc": '---\nglobs: "**/*.ts"\n---\nTS-RULE: no `any` in TypeScript.\n',
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nALWAYS-RULE: keep changes small.\n",
    ".ruleweave/rules/no-eval.md": "---\ncondition: 'eval\\('\nscope: 'tool:write'\n---\n"
    "NO-EVAL: never eval.\n",
    ".ruleweave/rules/no-hacks.md": "---\ncondition: '(?i)\\bquick hack\\b'\nscope: text\n---\n"
    "NO-HACKS: say what the proper fix is.\n",
    "AGENTS.md": "ROOT-AGENTS: Gemini does not load this.\n",
    "GEMINI.md": "ROOT-GEMINI: Gemini loads this itself.\n",
    "lib/AGENTS.md": "NESTED-AGENTS: lib code is generated.\n",
    "lib/GEMINI.md": "NESTED-GEMINI: Gemini loads this just in time.\n",
    "lib/b.py": "x = 1\n",
    "src/a.ts": "export const a = 1;\n",
}


@pytest.fixture
def root(write_tree: WriteTree) -> Path:
    """The project (a git root)."""
    found = write_tree(FILES)
    (found / ".git").mkdir(exist_ok=True)
    return found


def _hook(payload: dict[str, Any] | str, state: Path) -> tuple[int, str]:
    done = hook("gemini", payload, state)
    return done.returncode, done.stdout.decode()


def test_a_session_through_the_hook(root: Path, tmp_path: Path) -> None:
    """Start context without what Gemini loads itself; a notice once; a nested AGENTS.md's notice without
    the nested GEMINI.md; a streamed rule's refusal before a write; after ``/compress`` the notice again,
    and not after Gemini's automatic PreCompress (which fires before every request)."""
    state = tmp_path / "state"
    code, out = _hook(payloads.session_start(root), state)
    start = context_of(out)
    assert code == 0 and "ALWAYS-RULE" in start and "ROOT-AGENTS" in start and "ROOT-GEMINI" not in start
    ts = {"file_path": "src/a.ts"}  # relative, as the model may send it
    first = context_of(_hook(payloads.after_tool(root, "read_file", ts), state)[1])
    assert first.count("TS-RULE") == 1
    assert _hook(payloads.pre_compress(root, "auto"), state) == (0, "")
    assert _hook(payloads.after_tool(root, "read_file", ts), state) == (0, "")
    nested = context_of(_hook(payloads.after_tool(root, "read_file", {"file_path": str(root / "lib/b.py")}),
                            state)[1])
    assert "NESTED-AGENTS" in nested and "NESTED-GEMINI" not in nested
    args = {"file_path": str(root / "src/c.ts"), "content": "const v = eval(raw);\n"}
    denied = json.loads(_hook(payloads.before_tool(root, "write_file", args), state)[1])
    assert denied["decision"] == "deny" and "NO-EVAL" in denied["reason"]
    assert _hook(payloads.pre_compress(root, "manual"), state) == (0, "")
    again = context_of(_hook(payloads.after_tool(root, "read_file", ts), state)[1])
    assert again.count("TS-RULE") == 1


def test_a_chunk_with_a_streamed_rule_stops_the_reply(root: Path, tmp_path: Path) -> None:
    """A chunk matching an interrupting streamed rule is denied (Gemini stops the reply and drops it
    from the history); a chunk without one, or a call-only chunk, gets nothing."""
    state = tmp_path / "state"
    _hook(payloads.before_agent(root, "Fix the parser"), state)
    request = payloads.request("Fix the parser")
    assert _hook(payloads.after_model(root, "Looking at it.", request), state) == (0, "")
    assert _hook(payloads.after_model(root, "", request), state) == (0, "")
    denied = json.loads(_hook(payloads.after_model(root, "A quick hack will do.", request), state)[1])
    assert denied["decision"] == "deny" and "NO-HACKS" in denied["reason"]


def test_a_streamed_rule_across_chunks_reaches_the_model_at_after_agent(root: Path, tmp_path: Path) -> None:
    """A rule matched across two chunks stops the reply; AfterAgent then denies with the rule, which Gemini
    sends to the model as its next prompt (AfterModel's reason is shown to the user only)."""
    state = tmp_path / "state"
    _hook(payloads.before_agent(root, "Fix the parser"), state)
    request = payloads.request("Fix the parser")
    assert _hook(payloads.after_model(root, "This is a quick ", request), state) == (0, "")
    denied = json.loads(_hook(payloads.after_model(root, "hack.", request), state)[1])
    assert denied["decision"] == "deny"
    stop = json.loads(_hook(payloads.after_agent(root, "Fix the parser", "This is a quick hack."), state)[1])
    assert stop["decision"] == "deny" and "NO-HACKS" in stop["reason"]


@pytest.mark.parametrize("stdin", ['{"hook_event_name": "AfterTool"}',
                                   '{"hook_event_name": "AfterModel", "llm_response": 7}'])
def test_the_hook_never_fails_gemini(stdin: str, tmp_path: Path) -> None:
    """Gemini's own shapes with wrong fields: exit 0 and nothing Gemini would act on (exit 2 would block
    the tool or turn; garbage of any shape: ``tests/hosts/test_hook_input.py``)."""
    code, out = _hook(stdin, tmp_path / "state")
    assert code == 0 and '"deny"' not in out


def test_chunks_are_answered_warm_when_no_streamed_rule_watches_the_text(
    write_tree: WriteTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every streamed chunk is a hook process: with streamed rules on tool calls only, the snapshot
    answers a chunk (nothing), as the full path does; a rule on the text sends chunks to the full path."""
    from ruleweave.hosts._core import snapshot
    from ruleweave.hosts._options import HookOptions
    from ruleweave.hosts.gemini import HOST
    from tests.hosts.claude_code.test_hook_snapshot import backdate

    tools_only = {rel: text for rel, text in FILES.items() if rel != ".ruleweave/rules/no-hacks.md"}
    root = write_tree(tools_only)
    backdate(root)
    state = tmp_path / "state"
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(state))
    request = payloads.request("Fix the parser")
    chunk = payloads.after_model(root, "A quick hack will do: eval(x).", request)
    assert _hook(payloads.after_tool(root, "read_file", {"file_path": "src/a.ts"}), state)[0] == 0  # warms
    assert snapshot.answer(HOST, chunk, HookOptions()) is None
    assert _hook(chunk, state) == (0, "")
    (root / ".ruleweave/rules/no-hacks.md").write_text(FILES[".ruleweave/rules/no-hacks.md"])
    backdate(root)
    assert _hook(payloads.after_tool(root, "read_file", {"file_path": "src/a.ts"}), state)[0] == 0
    assert snapshot.answer(HOST, chunk, HookOptions()) is snapshot.MISS
    assert json.loads(_hook(chunk, state)[1])["decision"] == "deny"
