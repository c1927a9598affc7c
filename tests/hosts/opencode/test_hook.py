"""``ruleweave hook opencode`` end to end: a subprocess per event, real files, the real SQLite store.

The events are the ruleweave plugin's (``payloads``); what each answer does in OpenCode is in
docs/hosts/opencode.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import WriteTree
from tests.hosts.opencode import payloads
from tests.hosts.running import hook

FILES = {
    ".cursor/rules/ts.mdc": '---\nglobs: "**/*.ts"\n---\nTS-RULE: no `any` in TypeScript.\n',
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nALWAYS-RULE: keep changes small.\n",
    ".ruleweave/rules/no-eval.md": "---\ncondition: 'eval\\('\nscope: 'tool:write'\n---\n"
    "NO-EVAL: never eval.\n",
    "AGENTS.md": "ROOT-AGENTS: OpenCode loads this itself.\n",
    "CLAUDE.md": "ROOT-CLAUDE: OpenCode skips this one here (AGENTS.md is on its walk).\n",
    "opencode.json": '{"instructions": ["docs/style.md"]}\n',
    "docs/style.md": "STYLE-INSTRUCTION: OpenCode loads this itself.\n",
    "pkg/AGENTS.md": "NESTED-AGENTS: OpenCode loads this itself with a read below it.\n",
    "pkg/b.ts": "export const b = 2;\n",
    "src/a.ts": "export const a = 1;\n",
}


@pytest.fixture
def root(write_tree: WriteTree) -> Path:
    """The project (a git root)."""
    found = write_tree(FILES)
    (found / ".git").mkdir(exist_ok=True)
    return found


def _hook(payload: dict[str, Any] | str, state: Path) -> tuple[int, dict[str, Any]]:
    done = hook("opencode", payload, state)
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {}


def test_a_session_through_the_hook(root: Path, tmp_path: Path) -> None:
    """Start context without what OpenCode loads itself; a notice once; a streamed rule's deny; after a
    compaction the start context comes under the compacted header and the notice comes again."""
    state = tmp_path / "state"
    ts = {"filePath": str(root / "src/a.ts")}
    code, answer = _hook(payloads.session_start(root), state)
    start = answer["context"]
    assert code == 0 and "ALWAYS-RULE" in start and "ROOT-CLAUDE" in start
    assert "ROOT-AGENTS" not in start and "STYLE-INSTRUCTION" not in start
    first = _hook(payloads.after(root, "read", ts, "call_1"), state)[1]["context"]
    assert first.count("TS-RULE") == 1
    assert _hook(payloads.after(root, "read", ts, "call_2"), state) == (0, {})
    nested = _hook(payloads.after(root, "read", {"filePath": str(root / "pkg/b.ts")}, "call_3"), state)[1]
    assert "NESTED-AGENTS" not in json.dumps(nested)  # OpenCode appends it to the read itself
    args = {"filePath": str(root / "src/c.ts"), "content": "const v = eval(raw);\n"}
    code, denied = _hook(payloads.before(root, "write", args, "call_4"), state)
    assert code == 0 and "NO-EVAL" in denied["deny"]
    compact = _hook(payloads.compacting(root), state)[1]["context"]
    assert compact.startswith("[ruleweave: the conversation was compacted.") and "ALWAYS-RULE" in compact
    again = _hook(payloads.after(root, "read", ts, "call_5"), state)[1]["context"]
    assert again.count("TS-RULE") == 1


def test_a_bash_call_in_a_workdir_gets_the_notice(root: Path, tmp_path: Path) -> None:
    """``bash``'s relative words are under its ``workdir``."""
    state = tmp_path / "state"
    args = {"command": "cat a.ts", "workdir": str(root / "src"), "description": "show"}
    answer = _hook(payloads.after(root, "bash", args, "call_1"), state)[1]
    assert answer["context"].count("TS-RULE") == 1


def test_an_event_without_a_session_never_fails_opencode(tmp_path: Path) -> None:
    """The plugin's shape with nothing in it: exit 0 and no deny (the plugin would throw it; garbage of
    any shape: ``tests/hosts/test_hook_input.py``)."""
    code, answer = _hook('{"event": "tool.execute.before"}', tmp_path / "state")
    assert code == 0 and "deny" not in answer
