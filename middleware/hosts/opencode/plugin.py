"""The OpenCode plugin ``ruleweave install opencode`` writes: each plugin hook handed to ruleweave.

OpenCode (1.18.33) loads every ``*.js`` file in ``.opencode/plugins/`` (and
``~/.config/opencode/plugins/``) and awaits each hook in turn. The plugin hands
each event (normalised: ``ruleweave.hosts.opencode``) to the hook command, one
process per event with the event on stdin, or, when installed with a server URL
(``ruleweave install opencode --server URL``), to a running ``ruleweave mcp --http
HOST:PORT --host opencode``: MCP over streamable HTTP, ``initialize`` once per
plugin load (its ``Mcp-Session-Id`` on every later request, a new one when the
server forgets it: 404), then one ``tools/call`` of the ``hook`` tool per event,
the answer read from a JSON or an SSE response. A server that cannot be reached,
fails or takes longer than ``SERVER_TIMEOUT_MS`` leaves that event to the command,
and the next ones too for ``RETRY_MS``; OpenCode's log says so once per plugin
load. Either way the answer is the same JSON (the server's tool answers byte for
byte as the command prints) and is applied alike: ``context`` into the system
prompt (the session's start context, the turn's steering) or appended to a
tool's output, ``deny`` thrown as an Error (OpenCode makes its message the
tool's result), ``note`` written to OpenCode's log. It imports only Node
built-ins and ``fetch`` (no ``@opencode-ai/plugin``), bounds every call
(``TIMEOUT_MS``) and never fails the session: a hook that cannot be run, times
out or prints something else counts as no answer.
"""

from __future__ import annotations

import json

from ruleweave.hosts._core.served import EVENT_ARGUMENT, HOOK_TOOL

MARKER = "// ruleweave: written by `ruleweave install opencode`"
"""The first line of the plugin: how the installer knows the file is its own."""

TIMEOUT_MS = 30_000
"""Milliseconds the plugin waits for one hook answer (OpenCode sets no limit of its own)."""

SERVER_TIMEOUT_MS = 5_000
"""Milliseconds the plugin waits for each request to the server: a warm answer takes milliseconds, the
first event of a project loads its rules (well under a second usually). Past it the command answers."""

RETRY_MS = 60_000
"""Milliseconds after a server failure during which events go straight to the command (one slow or
refused request a minute at most), then the server is tried again (a server started after OpenCode)."""

PROTOCOL_VERSION = "2025-11-25"
"""The MCP revision the plugin offers in ``initialize`` (the newest with that handshake); it then sends
the one the server chose."""

_TEMPLATE = r"""__MARKER__; `ruleweave install opencode --uninstall` removes it.
// Each OpenCode hook goes to ruleweave as one JSON event: to the server below when there is one (MCP over
// streamable HTTP, its tool "hook"), else, or when it cannot answer, to the command on stdin.
import { spawn } from "node:child_process"

const COMMAND = __COMMAND__
const SERVER = __SERVER__
const TIMEOUT_MS = __TIMEOUT__
const SERVER_TIMEOUT_MS = __SERVER_TIMEOUT__
const RETRY_MS = __RETRY__
const TOOL = __TOOL__
const ARGUMENT = __ARGUMENT__
const PROTOCOL_VERSION = __PROTOCOL__

function answerOf(text) {
  const answer = text ? JSON.parse(text) : null
  return answer && typeof answer === "object" && !Array.isArray(answer) ? answer : null
}

function run(event) {
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
        finish(answerOf(Buffer.concat(chunks).toString("utf8").trim()))
      } catch (e) {
        finish(null)
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(event))
  })
}

const ACCEPT = "application/json, text/event-stream" // the server answers either
let connection = null // Promise of the headers of this plugin load's MCP session
let nextId = 1

async function post(message, headers) {
  const response = await fetch(SERVER, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", accept: ACCEPT },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(SERVER_TIMEOUT_MS),
  })
  const body = await response.text()
  return { status: response.status, headers: response.headers, body }
}

// The JSON-RPC response to request `id`: the body itself (JSON), or one of its SSE events' data.
function responseTo(id, reply) {
  const type = reply.headers.get("content-type") || ""
  const messages = []
  if (type.includes("text/event-stream")) {
    for (const block of reply.body.split(/\r?\n\r?\n/)) {
      const data = block.split(/\r?\n/).filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, "")).join("\n")
      if (data) { try { messages.push(JSON.parse(data)) } catch (e) {} }
    }
  } else if (reply.body) {
    const parsed = JSON.parse(reply.body)
    messages.push(...(Array.isArray(parsed) ? parsed : [parsed]))
  }
  const found = messages.find((m) => m && m.id === id)
  if (!found) throw new Error(`HTTP ${reply.status} without a response`)
  if (found.error) throw new Error(String(found.error.message))
  return found.result
}

async function connect() {
  const id = nextId++
  const client = { name: "ruleweave-opencode", version: "1" }
  const params = { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: client }
  const reply = await post({ jsonrpc: "2.0", id, method: "initialize", params }, {})
  const result = responseTo(id, reply)
  const headers = { "mcp-protocol-version": result.protocolVersion || PROTOCOL_VERSION }
  const session = reply.headers.get("mcp-session-id")
  if (session) headers["mcp-session-id"] = session
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)
  // A server started for another agent (--host claude-code) has a hook tool of another shape.
  const listed = nextId++
  const tools = responseTo(listed, await post({ jsonrpc: "2.0", id: listed, method: "tools/list" }, headers))
  const tool = (Array.isArray(tools.tools) ? tools.tools : []).find((t) => t && t.name === TOOL)
  const takes = tool && tool.inputSchema && tool.inputSchema.properties
  if (!takes || !(ARGUMENT in takes)) {
    throw new Error(`it has no tool ${TOOL}(${ARGUMENT}): not --host opencode`)
  }
  return headers
}

async function serve(event) {
  for (let attempt = 0; ; attempt++) {
    const current = connection || (connection = connect())
    let headers
    try {
      headers = await current
    } catch (e) {
      if (connection === current) connection = null
      throw e
    }
    const id = nextId++
    const reply = await post(
      { jsonrpc: "2.0", id, method: "tools/call", params: { name: TOOL, arguments: { [ARGUMENT]: event } } },
      headers,
    )
    if (reply.status === 404 && attempt === 0) { // the server forgot the session (idle, or restarted)
      if (connection === current) connection = null
      continue
    }
    const result = responseTo(id, reply)
    const content = Array.isArray(result.content) ? result.content : []
    const text = content.filter((b) => b && b.type === "text").map((b) => b.text).join("").trim()
    if (result.isError) throw new Error(text || "the tool failed")
    return answerOf(text)
  }
}

const text = (answer, key) => (answer && typeof answer[key] === "string" && answer[key] ? answer[key] : "")

export const RuleweavePlugin = async ({ client, directory }) => {
  const started = new Map() // sessionID → Promise of the start context in the system prompt
  const steering = new Map() // sessionID → the steering of the session's current turn
  let serverDown = 0 // until when events go straight to the command
  let told = false
  const log = async (message) => {
    try {
      await client.app.log({ body: { service: "ruleweave", level: "warn", message } })
    } catch (e) {}
  }
  const ask = async (event) => {
    if (SERVER && Date.now() >= serverDown) {
      try {
        return await serve(event)
      } catch (e) {
        serverDown = Date.now() + RETRY_MS
        connection = null
        if (!told) {
          told = true
          await log(`the ruleweave server ${SERVER} did not answer (${e && e.message ? e.message : e}); ` +
            `events go to \`${COMMAND.join(" ")}\` until it does`)
        }
      }
    }
    return run(event)
  }
  const call = async (event) => {
    const answer = await ask({ ...event, cwd: directory })
    const note = text(answer, "note")
    if (note) await log(note)
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


def render(
    command: list[str],
    *,
    server: str | None = None,
    timeout_ms: int = TIMEOUT_MS,
    server_timeout_ms: int = SERVER_TIMEOUT_MS,
) -> str:
    """The plugin's text, asking ``server`` when given, else (and when it cannot answer) running ``command``.

    Args:
        command: The hook command line as its words (``["ruleweave", "hook", "opencode"]``).
        server: The URL of a running ``ruleweave mcp --http HOST:PORT --host opencode``
            (``http://127.0.0.1:8765/mcp``), or ``None``: the command alone.
        timeout_ms: How long the command's answer may take.
        server_timeout_ms: How long each request to the server may take.

    Returns:
        The JavaScript module.
    """
    values = {
        "__MARKER__": MARKER,
        "__COMMAND__": json.dumps(command, ensure_ascii=False),
        "__SERVER__": json.dumps(server, ensure_ascii=False),
        "__TIMEOUT__": str(timeout_ms),
        "__SERVER_TIMEOUT__": str(server_timeout_ms),
        "__RETRY__": str(RETRY_MS),
        "__TOOL__": json.dumps(HOOK_TOOL),
        "__ARGUMENT__": json.dumps(EVENT_ARGUMENT),
        "__PROTOCOL__": json.dumps(PROTOCOL_VERSION),
    }
    text = _TEMPLATE
    for name in sorted(values, key=len, reverse=True):  # __SERVER_TIMEOUT__ before __SERVER__
        text = text.replace(name, values[name])
    return text
