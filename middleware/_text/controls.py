"""Characters that rewrite or hide text: control codes, bidi overrides, zero-width marks.

A cloned repository can put any of them in a rule's name, description, glob
or path: an ANSI escape retitles or clears a terminal, a bidi override shows
text in another order than it is read, a zero-width character hides a
difference. Two answers, one per audience:

* ``strip_controls`` removes them, for names and one-line fields that go
  into a model's prompt;
* ``escape_controls`` spells them visibly (``\\u001b``, ``\\u202e``), for what
  the CLI prints on a terminal.

"Hidden" means: Unicode categories ``Cc`` (C0, DEL, C1), ``Cf`` (bidi
embeddings, overrides and isolates, zero-width space/joiners, BOM, soft
hyphen, tag characters) and the line/paragraph separators ``Zl``/``Zp``.
Both answers also spell a file name's undecodable bytes (lone surrogates,
``r\udcff.mdc``) as ``r\xff.mdc`` (``_kernel.surrogates``): such text cannot
be encoded for a prompt or a terminal at all.
"""

from __future__ import annotations

from ruleweave._kernel.surrogates import escape_surrogates
from ruleweave._text.lazy_regex import LazyRegex

_KEEP_IN_TEXT = frozenset("\n\t")

# Every code point of categories Cc, Cf, Zl and Zp (Unicode 15), written out so that
# no import scans the whole code space; a test checks it against ``unicodedata``.
_HIDDEN = LazyRegex(
    r"[\x00-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e"
    r"\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd"
    r"\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    r"\U000e0020-\U000e007f]"
)


def strip_controls(text: str) -> str:
    """``text`` without hidden characters; whitespace controls (tab, newline) become spaces.

    Args:
        text: A name, description, glob or path.

    Returns:
        The text as a model should see it.
    """
    if text.isprintable():
        return text
    return _HIDDEN.sub(lambda m: " " if m.group(0).isspace() else "", escape_surrogates(text))


def _escape(char: str) -> str:
    """``\\uXXXX`` (a surrogate pair past the BMP): the same spelling in text and inside JSON strings."""
    data = char.encode("utf-16-be", "surrogatepass")
    return "".join(f"\\u{int.from_bytes(data[i : i + 2], 'big'):04x}" for i in range(0, len(data), 2))


def escape_controls(text: str, *, multiline: bool = True) -> str:
    """``text`` with hidden characters spelled as ``\\uXXXX`` escapes (``\\u001b``, ``\\u202e``).

    The spelling is JSON's, so JSON text passed through keeps its meaning (such
    characters can only stand inside its strings, and JSON writers never put a
    raw newline or tab there).

    Args:
        text: What is about to be printed.
        multiline: Keep newlines and tabs as they are (else they are escaped too).

    Returns:
        Text that cannot move the cursor, recolour, retitle or reorder a terminal.
    """
    if text.isprintable():
        return text
    return _HIDDEN.sub(
        lambda m: m.group(0) if multiline and m.group(0) in _KEEP_IN_TEXT else _escape(m.group(0)),
        escape_surrogates(text),
    )
