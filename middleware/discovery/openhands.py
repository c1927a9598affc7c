"""openhands (priority 30): OpenHands microagents in ``.openhands/microagents/``.

User tier ``~/.openhands/microagents`` first, then ``.openhands/microagents/**/*.md``
in each directory of the root→cwd walk (not nested folders: OpenHands reads the
repository's own folder), ``README.md`` files aside. Name: the path in the
folder without ``.md`` (``repo``, ``python/testing``). OpenHands infers a
microagent's kind from its frontmatter, not from ``type``
(``openhands/microagent/microagent.py``: ``BaseMicroagent.load``,
``load_microagents_from_dir``; ``types.py``: ``MicroagentMetadata``):

* ``inputs`` → a task microagent, run by its ``/name`` command → manual
  (``rule://`` only);
* ``triggers`` → a knowledge microagent, added when a message holds one of
  its keywords → a description rule listed for the model, its description
  naming the keywords;
* neither → a repository microagent, always active (``repo.md``) → always.

``type`` is read by nothing but validation: ``type: knowledge`` without
``triggers`` is still always active, as in OpenHands. The ``.cursorrules`` and
``AGENTS.md`` that OpenHands also loads are read by the ``cursor`` provider and
the instruction blob.

Follows: OpenHands' loader, ``openhands/microagent/microagent.py`` in
https://github.com/All-Hands-AI/OpenHands.
"""

from __future__ import annotations

import os
from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_markdown_rule, rule_name_in, standard_fields
from ruleweave.rules import Level, Rule

ID, PRIORITY = "openhands", 30
FOLDER = ".openhands/microagents"


def fields(data: dict[str, Any]) -> dict[str, Any]:
    """A microagent's frontmatter as rule fields (the kind OpenHands infers)."""
    base = standard_fields(data)
    inputs = data.get("inputs")
    triggers = fm.as_strings(data.get("triggers"))
    if isinstance(inputs, list) and inputs:
        return {**base, "globs": (), "always_apply": False, "description": None}
    if triggers:
        words = ", ".join(triggers)
        return {**base, "globs": (), "always_apply": False,
                "description": f"OpenHands knowledge, for a message mentioning: {words}"}
    return {**base, "globs": (), "always_apply": True}


def _load(ctx: DiscoveryContext, folder: str, level: Level) -> list[Rule]:
    if level == "user" and ctx.nested:
        return []
    base = folder.rstrip(os.sep) + os.sep
    rules: list[Rule] = []
    for path in ctx.rule_files(folder, (".md",), level=level):
        if os.path.basename(path) == "README.md":
            continue  # load_microagents_from_dir leaves every README.md out
        rule = load_markdown_rule(
            ctx, path, provider=ID, priority=PRIORITY, level=level, mapper=fields,
            name=rule_name_in(base, path, (".md",)),
        )
        if rule is not None:
            rules.append(rule)
    return rules


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load OpenHands microagents, user tier first."""
    if ctx.nested:
        return []
    rules = _load(ctx, under(ctx.config.user_home, FOLDER), "user")
    for folder in ctx.folders(FOLDER):
        rules += _load(ctx, folder, "project")
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "~/.openhands/microagents, .openhands/microagents/**/*.md",
                    places=True)
