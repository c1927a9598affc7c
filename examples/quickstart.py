"""The README's first snippet, as a script: load the rules, build the prompt, get a notice.

Run: ``python examples/quickstart.py`` (from anywhere; it works on examples/demo-repo).
"""

from pathlib import Path

from ruleweave import RuleSet, RuleweaveConfig

repo = Path(__file__).resolve().parent / "demo-repo"  # your project; here, the demo repository
ruleset = RuleSet.load(RuleweaveConfig(cwd=repo, project_root=repo))  # once per process; shared
session = ruleset.session("thread-42")  # once per conversation

my_prompt = "You are a careful coding agent."
system_prompt = my_prompt + "\n\n" + session.system_prompt()
print(f"system prompt: {len(system_prompt.encode())} bytes")

# before a tool runs: steering and streamed rules may refuse it ...
refusal = session.before_tool_call("bash", {"command": "ls"}, call_id="call_1")
print("refused:", refusal.message if refusal else "no")
# ... and after it ran: append the notice to the tool result
result = (repo / "src/app.ts").read_text()
injection = session.after_tool_call("read_file", {"path": "src/app.ts"}, result, call_id="call_2")
if injection:
    result += "\n\n" + injection.text  # "[rule: typescript]\n..."
    print(injection.text.splitlines()[0])

print(session.resolve("rule://release-notes").content.splitlines()[0])  # the model reads a rule on demand
