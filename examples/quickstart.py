"""The README's snippet, as a script: load the rules, build the prompt, get a notice.

Run: ``python examples/quickstart.py`` (from anywhere; it makes a small project
with one Cursor rule in a temp directory).
"""

import tempfile
from pathlib import Path

from ruleweave import RuleSet, RuleweaveConfig

repo = Path(tempfile.mkdtemp())  # your project; here a new one with a Cursor rule
(repo / ".cursor/rules").mkdir(parents=True)
(repo / ".cursor/rules/typescript.mdc").write_text("---\nglobs: src/**/*.ts\n---\nUse strict TypeScript.\n")
ruleset = RuleSet.load(RuleweaveConfig(cwd=repo))  # once per process; shared by every session
session = ruleset.session("thread-42")  # once per conversation

system_prompt = "You are a careful coding agent.\n\n" + session.system_prompt()
print(f"system prompt: {len(system_prompt.encode())} bytes")
# before a tool runs: steering and streamed rules may refuse it ...
refusal = session.before_tool_call("bash", {"command": "ls"}, call_id="call_1")
print("refused:", refusal.message if refusal else "no")
# ... and after it ran: append the notice to the tool result (each rule once per session)
result = "export const x = 1;"
injection = session.after_tool_call("read_file", {"path": "src/app.ts"}, result, call_id="call_2")
if injection:
    result += "\n\n" + injection.text  # "[rule: typescript]\nUse strict TypeScript."
print(result)
