"""codeassist (priority 30): Gemini Code Assist's ``.gemini/styleguide.md`` — code review only.

Gemini Code Assist on GitHub reads ``.gemini/styleguide.md`` at the
repository root as the style guide of its pull-request reviews
(https://developers.google.com/gemini-code-assist/docs/customize-gemini-behavior-github).
No coding agent puts it in a prompt — Gemini CLI reads ``GEMINI.md``, not this
file — so it gives no rule: ``scan`` shows an info line naming it, and
``lint`` reports it as reaching no agent's prompt.

Follows: Gemini Code Assist's docs,
https://developers.google.com/gemini-code-assist/docs/customize-gemini-behavior-github.
"""

from __future__ import annotations

from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import note
from ruleweave.rules import Rule

ID, PRIORITY = "codeassist", 30
STYLE_GUIDE = ".gemini/styleguide.md"
NOTE = ("Gemini Code Assist's code-review style guide: read by its pull-request reviews, "
        "not put in any agent's prompt")
"""The info line ``scan`` shows for the style guide."""


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Note the style guide at the project root; it gives no rule."""
    if ctx.nested:
        return []
    path = under(ctx.config.root, STYLE_GUIDE)
    if ctx.is_file(path, "project"):
        note(ctx, path, NOTE)
    return []


PROVIDER = Provider(ID, PRIORITY, load, ".gemini/styleguide.md (code review only: no rule)")
