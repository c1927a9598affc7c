"""copilot (priority 30): GitHub Copilot instructions.

In each directory of the root→cwd walk: ``.github/copilot-instructions.md``
(always applied, named ``copilot-instructions``) and
``.github/instructions/**/*.instructions.md`` (named by the stem without
``.instructions``). ``applyTo`` is a comma list of globs in the root
dialect (``*.py`` is a file at the top, ``**/*.py`` one anywhere); ``**`` or
``**/*`` means always. ``excludeAgent: coding-agent`` (or its newer name
``cloud-agent``) keeps the file from the coding agent, so it gives no rule (an
info line in ``scan``); ``excludeAgent: code-review`` keeps it for agents.

Follows: GitHub's custom-instructions docs,
https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions.
"""

from __future__ import annotations

from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import Skipped, load_dir, load_file, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "copilot", 30
_EVERYTHING = {"**", "**/*"}
_NOT_FOR_AGENTS = {"coding-agent", "cloud-agent"}


def _fields(data: dict[str, Any]) -> dict[str, Any] | Skipped:
    excluded = {agent.lower() for agent in fm.as_globs(data.get("exclude_agent"))}
    if excluded & _NOT_FOR_AGENTS:
        which = ", ".join(sorted(excluded & _NOT_FOR_AGENTS))
        return Skipped(
            f"has excludeAgent: {which}: Copilot keeps it from its coding agent, so it is not read"
        )
    fields = standard_fields(data)
    apply_to = fm.as_globs(data.get("apply_to"))
    if apply_to and any(glob in _EVERYTHING for glob in apply_to):
        fields.update(always_apply=True, globs=())
    elif apply_to:
        fields["globs"] = apply_to
    return fields


def _always(data: dict[str, Any]) -> dict[str, Any]:
    return {**standard_fields(data), "always_apply": True}


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Copilot instructions."""
    rules: list[Rule] = []
    for directory in ctx.walk_spelled:
        rules += load_file(
            ctx, under(directory, ".github/copilot-instructions.md"), provider=ID, priority=PRIORITY,
            level="project", name="copilot-instructions", mapper=_always,
        )
        rules += load_dir(
            ctx, under(directory, ".github/instructions"), provider=ID, priority=PRIORITY, level="project",
            suffixes=(".instructions.md",), mapper=_fields,
            stem_suffixes=(".instructions.md",),
        )
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load, ".github/copilot-instructions.md, .github/instructions/", dialect="root",
    places=True,
)
