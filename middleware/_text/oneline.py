"""One line of text nobody vetted, safe inside a prompt block.

Kept out of :mod:`ruleweave.prompt` (which imports the rule model) so that
``ruleweave spec decide``'s warm path renders a ``<steering>`` block with the
standard library only.
"""

from __future__ import annotations

import re

from ruleweave._text.controls import strip_controls

_SPACE = re.compile(r"\s+")


def one_line_escaped(text: str | None) -> str:
    """Fold whitespace (newlines included) to single spaces, drop control, bidi and
    zero-width characters, and escape angle brackets.

    Args:
        text: Any text, or None.

    Returns:
        The line (empty for None or empty text).
    """
    if not text:
        return ""
    folded = _SPACE.sub(" ", strip_controls(text)).strip()
    return folded.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
