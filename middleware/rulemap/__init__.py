"""``ruleweave map``: one self-contained HTML page showing which rules apply where, for which agent,
what they cost and what is wrong with them.

``inventory`` is the rule set as data (what ``scan --json`` prints);
``build_map`` joins it with what ``lint`` and ``prompt`` report into one JSON
document (``data``); ``render_page`` turns it into the page (``page``), whose
script only draws that document.
"""

from __future__ import annotations

from ruleweave._lazy import lazy_exports

TYPE_CHECKING = False  # not typing's: ``scan`` imports ``inventory`` without the page machinery
if TYPE_CHECKING:
    from ruleweave.rulemap.data import build_map
    from ruleweave.rulemap.page import render_page

__all__ = ["build_map", "render_page"]

__getattr__ = lazy_exports(
    __name__, {"build_map": "ruleweave.rulemap.data", "render_page": "ruleweave.rulemap.page"}
)
