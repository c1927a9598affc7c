"""The OpenCode plugin ``ruleweave install opencode`` writes: each plugin hook handed to the hook command.

OpenCode (1.18.33) loads every ``*.js`` file in ``.opencode/plugins/`` (and
``~/.config/opencode/plugins/``) and awaits each hook in turn. The plugin spawns
the hook command once per event with the normalised event (``ruleweave.hosts.opencode``)
on stdin and applies the JSON it prints: ``context`` into the system prompt (the
session's start context, the turn's steering) or appended to a tool's output,
``deny`` thrown as an Error (OpenCode makes its message the tool's result), ``note``
written to OpenCode's log. It imports only Node built-ins (no ``@opencode-ai/plugin``),
bounds every call (``TIMEOUT_MS``) and never fails the session: a hook that cannot
be run, times out or prints something else counts as no answer.
"""

from __future__ import annotations

import json

MARKER = "// ruleweave: written by `ruleweave install opencode`"
"""The first line of the plugin: how the installer knows the file is its own."""

TIMEOUT_MS = 30_000
"""Milliseconds the plugin waits for one hook answer (OpenCode sets no limit of its own)."""

_TEMPLATE = r"""__MARKER__; `ruleweave install opencode --uninstall` removes it.
// Each OpenCode hook goes to the command below as one JSON event on stdin; its JSON answer is applied.
import { spawn } from "node:child_process"

const COMMAND = __COMMAND__
const TIMEOUT_MS = __TIMEOUT__

function ask(event) {
  return new Promise((resolve) => {
    let done = false
    const finish = (value) => { if (!done) { done = true; clearTimeout(timer); resolve(value) } }
    let child
    try {
      child = spawn(COMMAND[0], COMMAND.slice(1), { cwd: event.cwd, stdio: ["pipe", "pipe", "ignore"] })
    } catch (e) {
      return resolve(null)
    }
    const timer = setTimeout(() => { try { child.kill("SIGKILL") } catch (e) {} finish(null) }, TIMEOUT_MS)
    const chunks = []
    child.stdout.on("data", (chunk) => chunks.push(chunk))
    child.on("error", () => finish(null))
    child.on("close", () => {
      try {
        const text = Buffer.concat(chunks).toString("utf8").trim()
        const answer = text ? JSON.parse(text) : null
        finish(answer && typeof answer === "object" && !Array.isArray(answer) ? answer : null)
      } catch (e) {
        finish(null)
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(event))
  })
}

const text = (answer, key) => (answer && typeof answer[key] === "string" && answer[key] ? answer[key] : "")

export const RuleweavePlugin = async ({ client, directory }) => {
  const started = new Map() // sessionID → Promise of the start context in the system prompt
  const steering = new Map() // sessionID → the steering of the session's current turn
  const call = async (event) => {
    const answer = await ask({ ...event, cwd: directory })
    const note = text(answer, "note")
    if (note) {
      try {
        await client.app.log({ body: { service: "ruleweave", level: "warn", message: note } })
      } catch (e) {}
    }
    return answer
  }
  const start = (sessionID) => {
    if (!started.has(sessionID)) {
      const answer = call({ event: "session.start", session_id: sessionID })
      started.set(sessionID, answer.then((a) => text(a, "context")))
    }
    return started.get(sessionID)
  }
  return {
    "experimental.chat.system.transform": async (input, output) => {
      if (!input || typeof input.sessionID !== "string" || !Array.isArray(output.system)) return
      const context = await start(input.sessionID)
      if (context) output.system.push(context)
      const turn = steering.get(input.sessionID)
      if (turn) output.system.push(turn)
    },
    "chat.message": async (input, output) => {
      const parts = Array.isArray(output.parts) ? output.parts : []
      const prompt = parts.filter((p) => p && p.type === "text" && !p.synthetic && typeof p.text === "string")
        .map((p) => p.text).join("\n")
      await start(input.sessionID)
      const answer = await call({
        event: "chat.message", session_id: input.sessionID, message_id: input.messageID,
        agent: input.agent, prompt,
      })
      const context = text(answer, "context")
      if (context) steering.set(input.sessionID, context)
      else steering.delete(input.sessionID)
    },
    "tool.execute.before": async (input, output) => {
      const answer = await call({
        event: "tool.execute.before", session_id: input.sessionID, tool: input.tool, call_id: input.callID,
        args: output.args,
      })
      const reason = text(answer, "deny")
      if (reason) throw new Error(reason)
    },
    "tool.execute.after": async (input, output) => {
      if (!output || typeof output !== "object") return
      const answer = await call({
        event: "tool.execute.after", session_id: input.sessionID, tool: input.tool, call_id: input.callID,
        args: input.args, output: typeof output.output === "string" ? output.output : undefined,
      })
      const context = text(answer, "context")
      if (!context) return
      if (typeof output.output === "string") output.output = output.output + "\n\n" + context
      else if (Array.isArray(output.content)) output.content.push({ type: "text", text: context })
    },
    "experimental.session.compacting": async (input) => {
      const answer = await call({ event: "experimental.session.compacting", session_id: input.sessionID })
      const context = text(answer, "context")
      if (context) started.set(input.sessionID, Promise.resolve(context))
    },
  }
}
"""


def render(command: list[str], *, timeout_ms: int = TIMEOUT_MS) -> str:
    """The plugin's text, running ``command`` (the hook command line, as its words).

    Args:
        command: The program and its arguments (``["ruleweave", "hook", "opencode"]``).
        timeout_ms: How long one answer may take.

    Returns:
        The JavaScript module.
    """
    return (
        _TEMPLATE.replace("__MARKER__", MARKER)
        .replace("__COMMAND__", json.dumps(command, ensure_ascii=False))
        .replace("__TIMEOUT__", str(timeout_ms))
    )
