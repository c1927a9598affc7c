"""How Claude Code's hooks name the tool that reads a whole rule: the registered MCP server's ``read_rule``.

Plain constants, kept apart from ``served`` (the ``mcp_tool`` hook server) so that a command hook's
cold start, which renders notices naming the tool, does not import the server.
"""

from __future__ import annotations

MCP_SERVER = "ruleweave"
"""The name ``ruleweave install claude-code`` registers the MCP server under."""

READ_RULE = f"mcp__{MCP_SERVER}__read_rule"
"""The server's ``read_rule`` tool as Claude Code names it to the model (``mcp__<server>__<tool>``)."""

READ_RULE_TEMPLATES: dict[str, str] = {
    "rule_address": READ_RULE + ' name="{name}"',
    "rule_protocol": (
        f"Each rule listed in <domain-rules> can be read in full with the tool {READ_RULE} (its name as "
        "the argument `name`). Before you work on files a rule covers, or on the task its description "
        "names, read that rule first and follow it."
    ),
    "custom_rules": (
        "<rules>\n"
        f"You MUST read a rule below with the tool {READ_RULE} (its name as the argument `name`) before "
        "working on anything it covers.\n"
        "{rules}\n"
        "</rules>"
    ),
}
"""How the hooks tell the model to read a whole rule: the registered server's ``read_rule`` tool (Claude
Code has no ``rule://`` reader); cut notices and listings name it with the rule's name."""
