"""junie (priority 30): JetBrains Junie's ``.junie/guidelines/`` folder.

In each directory of the root→cwd walk (not nested folders: Junie reads the
project root's guidelines): every ``.junie/guidelines/**/*.md`` file, named by
its path in the folder, always applied (Junie adds its guidelines to every
task; frontmatter has no meaning to it). Junie takes the first guidelines
source that exists, and ``.junie/AGENTS.md`` and ``.junie/guidelines.md``
(instruction files, read by ``instructions``) come before the folder: when
either exists the folder is not read, with a warning naming it.

Follows: Junie's guidelines docs, https://www.jetbrains.com/help/junie/customize-guidelines.html
and https://junie.jetbrains.com/docs/guidelines-and-memory.html (the lookup order).
"""

from __future__ import annotations

import os
from typing import Any

from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir
from ruleweave.rules import Rule

ID, PRIORITY = "junie", 30
FIRST_CHOICES = ("AGENTS.md", "guidelines.md")
"""Files in ``.junie/`` that Junie reads instead of the ``guidelines/`` folder, in its order."""


def _always(_: dict[str, Any]) -> dict[str, Any]:
    return {"always_apply": True}


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Junie's guidelines folder where Junie would read it."""
    if ctx.nested:
        return []
    rules: list[Rule] = []
    for junie in ctx.folders(".junie"):
        folder = under(junie, "guidelines")
        if not os.path.isdir(folder):
            continue
        chosen = next((name for name in FIRST_CHOICES if os.path.isfile(under(junie, name))), None)
        if chosen is not None:
            ctx.warn(folder, f"is not read: Junie uses .junie/{chosen} instead of the guidelines folder")
            continue
        rules += load_dir(
            ctx, folder, provider=ID, priority=PRIORITY, level="project", mapper=_always,
        )
    return rules


PROVIDER = Provider(ID, PRIORITY, load, ".junie/guidelines/**/*.md", places=True)
