"""``render_page``: the map's data as one self-contained HTML page.

The page is the data plus a fixed script and style sheet (``page.js`` and
``page.css`` beside this module); it loads nothing from anywhere. Text from
the repository never becomes markup:

* the data sits in a ``<script type="application/json">`` element, with
  ``<``, ``>`` and ``&`` (and every non-ASCII character, so U+2028/2029 and
  lone surrogates too) written as ``\\uXXXX`` escapes, so no rule text can
  close the element or open a comment;
* the script builds the page with ``textContent`` and DOM calls only, never
  ``innerHTML``, and spells hidden characters (bidi overrides, zero-width
  marks) as visible escapes;
* a Content-Security-Policy meta tag allows exactly the one inline script
  and the one style sheet (by their SHA-256 hashes), images only as
  ``data:`` URLs, and nothing else — no fetch, no form, no frame, no base URL.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def asset(name: str) -> str:
    """The text of ``page.js`` or ``page.css`` (package data, read once)."""
    text = resources.files("ruleweave.rulemap").joinpath(name).read_text(encoding="utf-8")
    closing = "</script" if name.endswith(".js") else "</style"
    if closing in text.lower():  # the element would end early; a test keeps the assets clean
        raise ValueError(f"{name} holds {closing!r}")
    return text


def source_hash(text: str) -> str:
    """The CSP source expression allowing an inline element whose text is ``text``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def policy(script: str, style: str) -> str:
    """The Content-Security-Policy: only this script and this style sheet, images as data: URLs."""
    return (
        f"default-src 'none'; script-src {source_hash(script)}; style-src {source_hash(style)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def embedded_json(data: Any) -> str:
    """``data`` as JSON that is safe as the text of a ``<script type="application/json">`` element.

    Only ASCII comes out (``\\uXXXX`` for the rest: U+2028/2029, lone surrogates from
    undecodable file names), and ``<``, ``>`` and ``&`` are escaped too, so neither
    ``</script>`` nor ``<!--`` can appear.
    """
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_page(data: dict[str, Any]) -> str:
    """The page for ``data`` (``build_map``'s result).

    Args:
        data: The map's data.

    Returns:
        The whole HTML document.
    """
    script, style = asset("page.js"), asset("page.css")
    title = html.escape(f"ruleweave map: {data['project']['name']}", quote=True)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy(script, style)}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{style}</style>\n</head>\n<body>\n"
        "<noscript>This page draws the map with JavaScript; the data is in the element "
        "#map-data.</noscript>\n"
        f'<script type="application/json" id="map-data">{embedded_json(data)}</script>\n'
        f"<script>{script}</script>\n</body>\n</html>\n"
    )
