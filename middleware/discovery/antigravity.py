"""Google Antigravity's rule format, which the ``agents`` provider reads in ``.agents/rules``.

Antigravity writes workspace rules to ``.agents/rules/*.md`` (``.agent/rules``
before 1.19) with Windsurf's ``trigger`` frontmatter: ``always_on`` → always,
``glob`` → ``globs``, ``model_decision`` → ``description``, ``manual`` → manual
(``rule://`` only, never advertised). A file without ``trigger`` keeps the
shared mapping (``globs``, ``alwaysApply``, ``description`` and the TTSR fields)
that the same folders carry for other tools. The folders are read by
``discovery.agents`` (one provider, so a file is never read twice); this module
owns the mapping.

Follows: Google Antigravity's rules docs, https://antigravity.google/docs/rules-workflows.
"""

from __future__ import annotations

from typing import Any

from ruleweave.discovery.rule_file import standard_fields
from ruleweave.discovery.windsurf import trigger_fields


def fields(data: dict[str, Any]) -> dict[str, Any]:
    """Antigravity's ``trigger`` when the file has one, else the shared mapping."""
    return trigger_fields(data) if "trigger" in data else standard_fields(data)
