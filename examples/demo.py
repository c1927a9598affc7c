"""`make demo`: ruleweave on examples/demo-repo — scan, prompt, and a scripted session.

Run: ``python examples/demo.py``. Everything is offline and deterministic.
"""

from __future__ import annotations

from pathlib import Path

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from ruleweave.cli import main as cli

REPO = Path(__file__).resolve().parent / "demo-repo"

# A scripted agent: the tool calls a coding agent might make while fixing an invoice bug.
CALLS: list[tuple[str, dict[str, object]]] = [
    ("list_files", {"pattern": "**/*.py"}),
    ("read_file", {"path": "services/api/handlers.py"}),
    ("read_file", {"path": "services/api/store.py"}),
    ("edit_file", {"path": "src/components/InvoiceRow.tsx", "old": "amount", "new": "cents"}),
    ("read_file", {"path": "src/app.ts"}),
    ("write_file", {"file_path": "db/migrations/0004_drop_legacy.sql",
                    "content": "ALTER TABLE invoices DROP COLUMN legacy_total;"}),
    ("run_tests", {"command": "pytest services/api"}),
]


def heading(text: str) -> None:
    print(f"\n{'=' * 78}\n{text}\n{'=' * 78}")


def main() -> None:
    where = ["--cwd", str(REPO), "--root", str(REPO)]
    heading("1. ruleweave scan — every rule found, its provider and bucket")
    cli(["scan", *where])

    heading("2. ruleweave prompt — what a session adds to the system prompt")
    config = RuleweaveConfig(cwd=REPO, project_root=REPO)
    ruleset = RuleSet.load(config)
    parts = ruleset.prompt_parts()
    print(parts.text)
    print(f"\n-- prompt: {parts.budget.used} of {parts.budget.limit} bytes; cut: "
          f"{', '.join(f'{p} ({n} bytes)' for p, n in parts.budget.cut) or 'nothing'}")
    for block in parts.budget.blocks:
        print(f"-- {block.block}: {block.used} bytes")

    heading("3. a scripted session — which notice fires on which tool call")
    session = ruleset.session("demo", store=MemoryStore())
    for number, (tool, args) in enumerate(CALLS, start=1):
        injection = session.after_tool_call(tool, args)
        target = next(iter(v for k, v in args.items() if "path" in k), args)
        if injection is None:
            print(f"call {number}: {tool} {target} -> nothing new")
            continue
        names = ", ".join(_how(i.kind, i.name, i.glob) for i in injection.items)
        print(f"call {number}: {tool} {target} -> {names}")
        for line in injection.text.splitlines()[:3]:
            print(f"    | {line}")
        listing = [line for line in injection.text.splitlines() if line.startswith("- rule://")]
        for line in listing:
            print(f"    | … {line}")
    print("\nThe second touch of a rule's files fires nothing: each notice comes once per session.")
    for uri in ("rule://release-notes", "rule://services/api:api-errors"):
        print(f"\n{uri} -> {session.resolve(uri).content.splitlines()[0]}")
    print(NEXT)


NEXT = """
What to try next:
  .venv/bin/ruleweave scan --cwd YOUR_PROJECT           the rules your repository already has
  .venv/bin/ruleweave prompt --cwd YOUR_PROJECT         what a session adds to the prompt, and its budget
  .venv/bin/ruleweave explain --cwd YOUR_PROJECT PATH   which rules fire for a file, and why
  .venv/bin/ruleweave lint --cwd YOUR_PROJECT           dead globs, agents' limits, drifted copies
  .venv/bin/ruleweave map --cwd YOUR_PROJECT            one HTML page: which rules apply where, per agent
  .venv/bin/ruleweave install claude-code --project     run in YOUR_PROJECT: ruleweave as Claude Code's hooks
  .venv/bin/ruleweave install codex                     the same for Codex (or gemini, qwen, cline, opencode)
  .venv/bin/python examples/quickstart.py               the README's snippet, to copy into your agent loop
  .venv/bin/python examples/custom_loop.py              a whole hand-written agent loop"""


def _how(kind: str, name: str, glob: str | None) -> str:
    if kind == "listing":
        return f"the rule folder of {name}/ (listed as rule:// addresses)"
    return f"{name} (via {glob or 'directory'})"


if __name__ == "__main__":
    main()
