"""kiro (priority 30): Kiro steering files.

User tier ``~/.kiro/steering`` first, then ``.kiro/steering/*.md`` in each
directory of the root→cwd walk. Name: the stem. ``inclusion``: ``always``
(the default) → always, ``fileMatch`` → ``fileMatchPattern`` as globs,
``auto`` → ``description``, ``manual`` → manual.
"""

from __future__ import annotations

from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "kiro", 30


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    fields = standard_fields(data)
    inclusion = (fm.as_text(data.get("inclusion")) or "always").lower().replace("_", "")
    if inclusion == "filematch":
        fields.update(always_apply=False, globs=fm.as_globs(data.get("file_match_pattern")))
    elif inclusion == "auto":
        fields.update(always_apply=False, globs=())
    elif inclusion == "manual":
        fields.update(always_apply=False, globs=(), description=None)
    else:
        fields["always_apply"] = True
    return fields


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Kiro steering files, user tier first."""
    rules = load_dir(
        ctx, ctx.config.user_home / ".kiro" / "steering", provider=ID, priority=PRIORITY,
        level="user", recursive=False, mapper=_fields,
    )
    for directory in ctx.walk:
        rules += load_dir(
            ctx, directory / ".kiro" / "steering", provider=ID, priority=PRIORITY,
            level="project", recursive=False, mapper=_fields,
        )
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "~/.kiro/steering, .kiro/steering/*.md")
