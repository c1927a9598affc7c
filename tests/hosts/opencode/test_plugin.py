"""The plugin the installer writes, run by Node as OpenCode runs it: each hook's input and output objects
(the shapes OpenCode 1.18.33 passes, docs/hosts/opencode.md) against a stand-in hook command that records
the event it got and answers from a table."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ruleweave.hosts.opencode.plugin import render

ANSWERS = {
    "session.start": {"context": "START"},
    "chat.message": {"context": "STEER"},
    "tool.execute.before": {"deny": "REFUSED"},
    "tool.execute.after": {"context": "NOTICE"},
    "experimental.session.compacting": {"context": "AFTER-COMPACT"},
}

FAKE_HOOK = """
import json, sys
event = json.load(sys.stdin)
with open(sys.argv[1], "a") as log:
    log.write(json.dumps(event) + "\\n")
print(json.dumps(json.loads(sys.argv[2]).get(event["event"], {})))
"""

DRIVER = """
const mod = await import(process.argv[2])
const notes = []
const client = { app: { log: async (x) => notes.push(x) } }
const hooks = await mod.RuleweavePlugin({ directory: process.argv[3], client })
const sys1 = { system: ["base"] }
await hooks["chat.message"]({ sessionID: "s1", messageID: "m1", agent: "build" },
  { message: {}, parts: [{ type: "text", text: "do it" }, { type: "text", text: "ctx", synthetic: true }] })
await hooks["experimental.chat.system.transform"]({ sessionID: "s1" }, sys1)
const after = { title: "t", output: "file text", metadata: {} }
const read = { tool: "read", sessionID: "s1", callID: "c1", args: { filePath: "/p/a.ts" } }
await hooks["tool.execute.after"](read, after)
let denied = null
try {
  const write = { tool: "write", sessionID: "s1", callID: "c2" }
  await hooks["tool.execute.before"](write, { args: { filePath: "/p/c.ts" } })
} catch (e) { denied = e.message }
await hooks["experimental.session.compacting"]({ sessionID: "s1" }, { context: [] })
const sys2 = { system: ["base"] }
await hooks["experimental.chat.system.transform"]({ sessionID: "s1" }, sys2)
console.log(JSON.stringify({ sys1: sys1.system, after: after.output, denied, sys2: sys2.system, notes }))
"""


Events = list[dict[str, Any]]


def _run(node: str, tmp_path: Path, answers: Mapping[str, object]) -> tuple[dict[str, Any], Events]:
    log = tmp_path / "events.jsonl"
    (tmp_path / "hook.py").write_text(FAKE_HOOK, encoding="utf-8")
    plugin = tmp_path / "ruleweave.mjs"
    plugin.write_text(render([sys.executable, str(tmp_path / "hook.py"), str(log), json.dumps(answers)]),
                      encoding="utf-8")
    (tmp_path / "driver.mjs").write_text(DRIVER, encoding="utf-8")
    done = subprocess.run([node, str(tmp_path / "driver.mjs"), str(plugin), str(tmp_path)],
                          capture_output=True, text=True, timeout=60, check=True)
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    events = [json.loads(line) for line in lines]
    return json.loads(done.stdout), events


def test_each_answer_lands_where_opencode_shows_it(node: str, tmp_path: Path) -> None:
    """Start context and steering in the system prompt, the notice after the tool's output, the deny thrown,
    and after a compaction its context replaces the start context."""
    seen, events = _run(node, tmp_path, ANSWERS)
    assert seen["sys1"] == ["base", "START", "STEER"]
    assert seen["after"] == "file text\n\nNOTICE"
    assert seen["denied"] == "REFUSED"
    assert seen["sys2"] == ["base", "AFTER-COMPACT", "STEER"]
    names = [e["event"] for e in events]
    assert names == ["session.start", "chat.message", "tool.execute.after", "tool.execute.before",
                     "experimental.session.compacting"]  # one start per session, not one per request
    assert all(e["cwd"] == str(tmp_path) and e["session_id"] == "s1" for e in events)
    assert events[1]["prompt"] == "do it" and events[1]["message_id"] == "m1"
    assert events[2]["args"] == {"filePath": "/p/a.ts"} and events[2]["output"] == "file text"
    assert events[3]["tool"] == "write" and events[3]["call_id"] == "c2"


def test_a_hook_that_cannot_answer_changes_nothing(node: str, tmp_path: Path) -> None:
    """No answer (a command that prints nothing): the session goes on untouched, nothing thrown."""
    seen, _ = _run(node, tmp_path, {})
    assert seen == {"sys1": ["base"], "after": "file text", "denied": None, "sys2": ["base"], "notes": []}


def test_a_note_goes_to_opencodes_log(node: str, tmp_path: Path) -> None:
    seen, _ = _run(node, tmp_path, {"tool.execute.after": {"note": "store trouble"}})
    assert seen["notes"] == [{"body": {"service": "ruleweave", "level": "warn", "message": "store trouble"}}]
