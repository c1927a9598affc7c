"""JSON text through the ``json`` package's C core (``_json``), without importing the package.

A warm hook answers in about one Python start-up more than ``python -c pass``,
and importing ``json`` took more than half of that: ``json.decoder`` and
``json.encoder`` import ``re``, which imports ``enum`` (~8 ms on the benchmark's
machine, against ~0.3 ms for ``_json``). The package's own work is ``_json``'s
(the scanner, the encoder, the string quoting); ``loads`` and ``dumps`` call it
as ``json.loads`` and ``json.dumps`` do with their defaults, so they give the
same values and the same text (``tests/test_jsontext.py`` compares them). An
interpreter without ``_json`` gets the package itself.

Standard library only, and no ``typing``: the hook's warm path imports this module.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: see above
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

try:
    import _json
except ImportError:  # pragma: no cover - an interpreter without CPython's C accelerator
    _json = None  # type: ignore[assignment]


class _Decoding:
    """What ``_json.make_scanner`` reads from ``json.JSONDecoder()``: its defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


# typeshed types the context as a scanner; _json reads only the attributes above from it.
_scan = _json.make_scanner(_Decoding()) if _json is not None else None  # type: ignore[arg-type]
_SPACE = " \t\n\r"  # json.decoder.WHITESPACE


def _skip(text: str, index: int) -> int:
    """Past the JSON whitespace at ``index``."""
    end = len(text)
    while index < end and text[index] in _SPACE:
        index += 1
    return index


def _encoding(data: bytes | bytearray) -> str:
    """``json.detect_encoding``: what ``json.loads`` decodes bytes as (RFC 8259's BOM-less detection)."""
    if data.startswith((b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00")):
        return "utf-32"
    if data.startswith((b"\xfe\xff", b"\xff\xfe")):
        return "utf-16"
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    if len(data) >= 4:
        if not data[0]:
            return "utf-16-be" if data[1] else "utf-32-be"
        if not data[1]:
            return "utf-16-le" if data[2] or data[3] else "utf-32-le"
    elif len(data) == 2:
        if not data[0]:
            return "utf-16-be"
        if not data[1]:
            return "utf-16-le"
    return "utf-8"


def loads(text: str | bytes | bytearray) -> Any:
    """``json.loads(text)``.

    Raises:
        ValueError: Not one JSON document (``json.JSONDecodeError``), or bytes that do not decode.
        RecursionError: Nested too deeply.
        TypeError: Neither text nor bytes.
    """
    if _scan is None:  # pragma: no cover - see the module docstring
        import json

        return json.loads(text)
    if isinstance(text, (bytes, bytearray)):
        text = text.decode(_encoding(text), "surrogatepass")
    elif not isinstance(text, str):
        raise TypeError(f"the JSON object must be str, bytes or bytearray, not {type(text).__name__}")
    elif text.startswith("\ufeff"):
        return _package_loads(text)  # "Unexpected UTF-8 BOM"
    try:
        value, end = _scan(text, _skip(text, 0))
    except (StopIteration, SystemError):
        # Malformed: the package raises its own error (Python 3.11's _json raises its syntax errors
        # as json.decoder.JSONDecodeError, found in sys.modules without importing it: until something
        # imports json it fails with SystemError).
        return _package_loads(text)
    if _skip(text, end) != len(text):
        return _package_loads(text)  # extra data after the document
    return value


def _package_loads(text: str) -> Any:
    """``json.loads`` itself, for the errors it raises (``json.JSONDecodeError``, a ``ValueError``)."""
    import json

    return json.loads(text)


def _refuse(value: Any) -> Any:
    """``json.JSONEncoder.default``."""
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def dumps(
    value: Any,
    *,
    ensure_ascii: bool = True,
    separators: tuple[str, str] | None = None,
    sort_keys: bool = False,
    default: Callable[[Any], Any] | None = None,
) -> str:
    """``json.dumps(value, ensure_ascii=..., separators=..., sort_keys=..., default=...)``.

    Raises:
        TypeError: A value JSON cannot hold (and ``default`` did not turn into one).
        ValueError: A circular reference.
    """
    if _json is None:  # pragma: no cover - see the module docstring
        import json

        return json.dumps(value, ensure_ascii=ensure_ascii, separators=separators, sort_keys=sort_keys,
                          default=default)
    quote = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
    if isinstance(value, str):
        return quote(value)
    item_separator, key_separator = separators if separators is not None else (", ", ": ")
    encode = _json.make_encoder(
        {}, default or _refuse, quote, None, key_separator, item_separator, sort_keys, False, True
    )
    return "".join(encode(value, 0))


def quoted(text: str) -> str:
    """``text`` as a JSON string, non-ASCII kept (``json.encoder.encode_basestring``)."""
    if _json is None:  # pragma: no cover - see the module docstring
        from json.encoder import encode_basestring

        return encode_basestring(text)
    return _json.encode_basestring(text)
