"""File names that are not valid UTF-8, spelled so that they can be stored, encoded and shown.

Python lists a file named with the byte ``0xff`` (``r\\xff.mdc``) as a ``str``
holding the lone surrogate ``\\udcff`` (PEP 383). Such a string opens the file
again, but ``str.encode("utf-8")`` refuses it: a store key, a JSON document, a
prompt or a terminal line holding it would raise. ``escape_surrogates`` spells
each such byte ``\\xff`` (as the issue tracker, ``ls -b`` and Python's
``backslashreplace`` do) and any other lone surrogate (from a tool argument's
JSON) ``\\ud800``; text without one is returned as it is, at the cost of one
check.

Standard library only, and no ``typing``: the hook's warm path imports this module.
"""

from __future__ import annotations


def escape_surrogates(text: str) -> str:
    """``text`` with every lone surrogate spelled as a visible escape.

    Args:
        text: A name, path or any text that may hold a file name's undecodable bytes.

    Returns:
        Text that encodes as UTF-8: ``r\\udcff.mdc`` becomes ``r\\xff.mdc``.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(_escape(char) if "\ud800" <= char <= "\udfff" else char for char in text)
    return text


def _escape(char: str) -> str:
    if char >= "\udc80" and char <= "\udcff":
        return f"\\x{ord(char) - 0xDC00:02x}"  # a byte surrogateescape decoding kept
    return f"\\u{ord(char):04x}"


def has_surrogates(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (and so cannot be encoded as UTF-8).

    Args:
        text: Any text.

    Returns:
        True when ``escape_surrogates`` would change it.
    """
    return not text.isascii() and escape_surrogates(text) != text
