"""ruleweave as an MCP server: what a host sees when it starts ``ruleweave mcp``.

Run: ``python examples/mcp_client.py`` (offline). It starts
``ruleweave mcp --cwd examples/demo-repo`` as a subprocess over stdio — as
Cursor, Claude Desktop, Codex, Gemini CLI, Zed or VS Code would (see
``examples/mcp_config.md``) — and talks to it with the ``mcp`` SDK's
``Client``: the server's instructions, the ``rule://`` resources, and the
tools a model calls (``rules_for_paths`` gives each rule once per MCP
session). ``--event-log PATH`` makes the server write its event log for
``ruleweave replay``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parent / "demo-repo"
SERVE = "import sys; from ruleweave.cli import main; sys.exit(main())"
"""``python -c SERVE mcp …`` is ``ruleweave mcp …``, whichever scripts directory is on PATH."""


def text_of(result: Any) -> str:
    """The text of a tool result."""
    return "".join(getattr(block, "text", "") for block in result.content)


def indent(text: str, prefix: str = "    | ") -> str:
    """``text`` with every line prefixed."""
    return "\n".join(prefix + line for line in text.splitlines())


async def run(args: argparse.Namespace) -> None:
    """Connect to ``ruleweave mcp`` over stdio and show what it offers."""
    command = ["-c", SERVE, "mcp", "--cwd", str(REPO), "--root", str(REPO)]
    if args.event_log is not None:
        command += ["--event-log", str(args.event_log)]
    async with Client(StdioServerParameters(command=sys.executable, args=command)) as client:
        instructions = client.instructions or ""
        print(f"== instructions ({len(instructions.encode())} bytes), as the host puts them in context")
        print(indent("\n".join(instructions.splitlines()[:6])) + "\n    | …")

        resources = (await client.list_resources()).resources
        print(f"\n== {len(resources)} resources, one per rule")
        for resource in resources[:6]:
            print(f"{resource.uri}  {resource.description or ''}".rstrip())
        print("…")

        print("\n== tools")
        for path in ("services/api/handlers.py", "services/api/store.py", "src/app.ts"):
            given = text_of(await client.call_tool("rules_for_paths", {"paths": [path]}))
            headers = [line for line in given.splitlines() if line.startswith(("[rule: ", "[file: "))]
            print(f"rules_for_paths([{path}]) -> {', '.join(headers) or given}")
        explained = await client.call_tool("explain", {"paths": ["src/components/InvoiceRow.tsx"]})
        print(f"explain([src/components/InvoiceRow.tsx]) -> {explained.structured_content}")
        rule = text_of(await client.call_tool("read_rule", {"name": "no-float-money"}))
        print(f"read_rule(no-float-money) ->\n{indent(rule)}")
    if args.event_log is not None:
        print(f"\nevent log: {args.event_log}; check it against today's rules with")
        print(f"  ruleweave replay {args.event_log} --cwd {REPO}")


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and run the client."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--event-log", type=Path, help="the server writes its event log here")
    args = parser.parse_args(argv)
    if args.event_log is not None:
        args.event_log.unlink(missing_ok=True)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
