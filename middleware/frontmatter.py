"""Frontmatter: split, parse as YAML 1.2, repair, and never raise (docs/rules.md#frontmatter).

1. ``\\r\\n`` becomes ``\\n``; a leading BOM is ignored.
2. There is frontmatter only when the text starts with ``---`` and a later
   line is ``---``; the body after it is trimmed.
3. The block is YAML with YAML 1.2 booleans (``yes``/``on`` stay strings); a
   non-mapping is ``{}``; keys are folded to snake case, so ``always-apply``,
   ``alwaysApply`` and ``always_apply`` are one key.
4. On a YAML error the block is retried once with plain values containing
   ``": "`` quoted (when there are any), then parsed key by key: each key's
   value (with its indented continuation lines) is parsed alone, and kept as
   the raw trimmed string when that fails too. A repair that keeps every line
   (the unquoted Cursor globs ``globs: *.py, **/*.py`` everybody writes) is
   recorded in ``repairs`` — a debug event, not a warning; only a line the
   fallback cannot read (so its setting is lost) is a problem naming it.

Most blocks are flat ``key: value`` lines; ``simple_mapping`` reads those
without building a YAML parser (PyYAML's C loader still costs tens of µs
a block), giving exactly what the loader gives — values are resolved with
the loader's own implicit-resolver table — and declines anything else, which
then goes to the loader.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, NamedTuple

from ruleweave._text.lazy_regex import LazyRegex

# Which plain scalars the YAML loader could resolve to something other than a string: its
# implicit resolvers (numbers, dates, ``null``, ``<<``, ``=``, and with YAML 1.2 booleans only
# ``true``/``false``) all start with one of these. A test pins this against PyYAML's own table, so
# the flat-line reader needs no YAML import (a hook process pays ~10 ms for one).
_RESOLVABLE_START = frozenset("+-.0123456789<=~")
_BOOLEANS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NULLS = frozenset({"null", "Null", "NULL", "~"})
# A flat line: an ASCII key, a colon, and nothing or blanks and a value.
_SIMPLE_LINE = LazyRegex(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?")
# Characters a plain scalar may not start with (YAML indicators), or any blank.
_PLAIN_START = frozenset("-?:,[]{}#&*!|>'\"%@` \t")
_SINGLE_QUOTED = LazyRegex(r"'((?:[^']|'')*)' *")
_DOUBLE_QUOTED = LazyRegex(r'"([^"\\]*)" *')
_QUOTED_ITEM = r"""(?:'(?:[^']|'')*'|"[^"\\]*")"""
_FLOW_LIST = LazyRegex(rf"\[ *(?:{_QUOTED_ITEM}(?: *, *{_QUOTED_ITEM})* *,? *)?\] *")
_FLOW_ITEM = LazyRegex(_QUOTED_ITEM)
# What PyYAML's reader refuses outright (in ASCII text: the C0 controls but tab and newlines, DEL).
_NON_PRINTABLE_ASCII = LazyRegex("[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]")
_NON_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]"
"""Compiled on first use (``re``'s cache keeps it): compiling it costs ~5 ms, and most blocks are ASCII."""
_UNRESOLVED = object()
# Tabs, and what PyYAML reads as line breaks: a one-line value holding one is left to YAML.
_AWKWARD = LazyRegex("[\t\n\r\x85\u2028\u2029]")

_KEY_LINE = LazyRegex(r"^([\w-]+):\s*(.*)$")
_CRLF = LazyRegex(r"\r+\n")  # ``\r\r\n`` (a CRLF file saved through CRLF conversion again) is one break
_CAMEL = LazyRegex(r"(?<=[a-z0-9])([A-Z])")
# A plain scalar value holding ": " breaks YAML; quoting it is the cheap repair.
_PLAIN_WITH_COLON = LazyRegex(r"^([\w-]+):[ \t]+([^'\"\[{|>&*!#\s][^\n]*:\s[^\n]*)$")


class Frontmatter(NamedTuple):
    """A parsed document.

    NamedTuple, not dataclass: the class is ~5× cheaper to create in a hook process (one per tool call).

    Attributes:
        data: The frontmatter mapping, keys in snake case.
        body: The text after the frontmatter, trimmed.
        present: Whether the document had a frontmatter block.
        problems: ``(line, message)`` pairs for what was lost (a warning each).
        repairs: ``(line, message)`` pairs for repairs that lost nothing (a debug event each).
    """

    data: dict[str, Any]
    body: str
    present: bool
    problems: tuple[tuple[int, str], ...] = ()
    repairs: tuple[tuple[int, str], ...] = ()


def snake_key(key: object) -> str:
    """``alwaysApply`` / ``always-apply`` / ``always_apply`` → ``always_apply``."""
    return _snake(key) if isinstance(key, str) else _snake(str(key))


@lru_cache(maxsize=1024)
def _snake(key: str) -> str:
    # A bounded per-process cache: frontmatter repeats a handful of keys in every file.
    return _CAMEL.sub(r"_\1", key.strip()).replace("-", "_").lower()


@lru_cache(maxsize=1)
def yaml12_loader() -> Any:
    """PyYAML's C safe loader (its Python one without libyaml) with YAML 1.2 booleans: only
    ``true``/``false`` are booleans (imported on first use: the flat-line reader does without)."""
    import yaml

    base: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader: Any = type("Yaml12Loader", (base,), {})
    loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
        for first, resolvers in base.yaml_implicit_resolvers.items()
    }
    loader.add_implicit_resolver(
        "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
    )
    return loader


def yaml_load(text: str) -> Any:
    """Parse YAML with YAML 1.2 booleans; raises ``yaml.YAMLError`` (or ValueError)."""
    import yaml

    return yaml.load(text, Loader=yaml12_loader())


def _resolved(value: str) -> Any:
    """A one-line value as the YAML loader reads it, or ``_UNRESOLVED`` when unsure.

    Plain text resolves through the loader's implicit-resolver table (so a number,
    a date or ``null`` is left to the loader); quoted strings and flow lists of
    quoted strings are read directly.
    """
    if not value:
        return None
    first = value[0]
    if first == "'":
        match = _SINGLE_QUOTED.fullmatch(value)
        return _UNRESOLVED if match is None else match.group(1).replace("''", "'")
    if first == '"':
        match = _DOUBLE_QUOTED.fullmatch(value)
        return _UNRESOLVED if match is None else match.group(1)
    if first == "[":
        if _FLOW_LIST.fullmatch(value) is None:
            return _UNRESOLVED
        return [
            item[1:-1].replace("''", "'") if item[0] == "'" else item[1:-1]
            for item in _FLOW_ITEM.findall(value)
        ]
    if first in _PLAIN_START or _AWKWARD.search(value) is not None or ": " in value or " #" in value:
        return _UNRESOLVED
    text = value.rstrip(" ")
    if text.endswith(":") or first in _RESOLVABLE_START:
        return _UNRESOLVED
    if text in _NULLS:
        return None
    return _BOOLEANS.get(text, text)


def simple_mapping(block: str) -> dict[str, Any] | None:
    """A block of flat ``key: value`` lines, read as the YAML loader would, or ``None``.

    Only lines the loader reads unambiguously are taken: an ASCII key that is not
    itself a YAML keyword, then a plain, single- or double-quoted (no escapes)
    value or a flow list of quoted strings; blank lines and comment lines are
    skipped. Anything else (indentation, anchors, block scalars, numbers, dates,
    a ``": "`` or ``" #"`` inside a value) gives ``None``: parse with YAML.

    Args:
        block: The frontmatter block (``\\n`` line endings).

    Returns:
        The mapping, keys as written; or ``None`` when the block is not that simple.
    """
    if block.isascii():
        if _NON_PRINTABLE_ASCII.search(block) is not None:
            return None
    elif re.search(_NON_PRINTABLE, block) is not None:
        return None
    data: dict[str, Any] = {}
    for line in block.split("\n"):
        if not line or line[0] == "#":
            continue
        match = _SIMPLE_LINE.fullmatch(line)
        if match is None:
            return None
        key, raw = match.groups()
        if key in _BOOLEANS or key in _NULLS:
            return None  # a key the loader reads as a boolean or null
        value = _resolved(raw) if raw else None
        if value is _UNRESOLVED:
            return None
        data[key] = value
    return data


def _as_mapping(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        return {}
    return {snake_key(k): v for k, v in value.items() if k is not None}


def _error_line(exc: BaseException) -> int | None:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return None if mark is None else int(mark.line)


def _quote_colon_values(block: str) -> str:
    def quote(match: re.Match[str]) -> str:
        value = match.group(2).rstrip()
        return f"{match.group(1)}: '{value.replace(chr(39), chr(39) * 2)}'"

    return "\n".join(_PLAIN_WITH_COLON.sub(quote, line) for line in block.split("\n"))


def _parse_value(raw: str) -> Any:
    value = _resolved(raw)
    if value is not _UNRESOLVED:
        return value
    if raw.startswith("*"):
        return None  # an alias, and a value parsed alone defines no anchors: an error
    try:
        return yaml_load(raw)
    except Exception:
        return None


def _scalar(raw: str) -> Any:
    """One value parsed alone as YAML, or the raw text when it is not a plain scalar."""
    parsed = _parse_value(raw)
    return raw if parsed is None or isinstance(parsed, (dict, list)) else parsed


def _line_parse(block: str) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """Parse ``key: value`` lines one key at a time, keeping indented continuations.

    Returns:
        The mapping, and ``(index in the block, text)`` of each line that was neither a
        ``key: value`` line, a continuation, a blank nor a comment (its setting is lost).
    """
    data: dict[str, Any] = {}
    lost: list[tuple[int, str]] = []
    lines = block.split("\n")
    index = 0
    while index < len(lines):
        match = _KEY_LINE.match(lines[index])
        index += 1
        if match is None:
            text = lines[index - 1].strip()
            if text and not text.startswith("#"):
                lost.append((index, text[:80]))
            continue
        key, first = match.group(1), match.group(2).strip()
        continuation: list[str] = []
        while index < len(lines) and (
            lines[index].startswith((" ", "\t", "- ")) or lines[index].strip() in ("", "-")
        ):
            if lines[index].strip():
                continuation.append(lines[index])
            index += 1
        value: Any
        if continuation:
            head = f"{key}: {first}" if first else f"{key}:"
            parsed = _parse_value(head + "\n" + "\n".join(continuation))
            value = parsed.get(key) if isinstance(parsed, dict) else None
            items = [c.strip() for c in continuation]
            if value is None and not first and all(item.startswith("-") for item in items):
                # A block list with a bad item (`- *.ts` is an alias to YAML): keep the items.
                value = [_scalar(item[1:].strip()) for item in items if item[1:].strip()]
            elif value is None:
                value = (first + " " + " ".join(items)).strip()
        elif first == "":
            value = None
        else:
            parsed = _parse_value(first)
            value = first if parsed is None or isinstance(parsed, dict) else parsed
        data[snake_key(key)] = value
    return data, lost


def split(text: str) -> tuple[str | None, str]:
    """Split normalised text into the frontmatter block (or ``None``) and the body."""
    if not text.startswith("---"):
        return None, text.strip()
    first_break = text.find("\n")
    if first_break == -1 or text[:first_break].rstrip() != "---":
        return None, text.strip()
    # The closing fence: a line of ``---`` and blanks (str.find, not a regex scan of the text).
    at = first_break
    while True:
        at = text.find("\n---", at)
        if at == -1:
            return None, text.strip()
        end = text.find("\n", at + 4)
        end = len(text) if end == -1 else end
        if not text[at + 4 : end].strip(" \t"):
            break
        at += 1
    return text[first_break + 1 : at + 1].rstrip("\n"), text[end:].strip()


def parse(text: str) -> Frontmatter:
    """Parse a document's frontmatter; never raises.

    Args:
        text: The whole file's text.

    Returns:
        The mapping (snake-case keys), the trimmed body and any repairs made.
    """
    if "\r" in text:  # a scan for the rare CR is far cheaper than a regex pass over every file
        text = _CRLF.sub("\n", text)
    text = text.removeprefix("\ufeff")
    block, body = split(text)
    if block is None:
        return Frontmatter({}, body, False)
    if not block.strip():
        return Frontmatter({}, body, True)
    simple = simple_mapping(block)
    if simple is not None:
        return Frontmatter(_as_mapping(simple), body, True)
    try:
        return Frontmatter(_as_mapping(yaml_load(block)), body, True)
    except Exception as exc:
        line = _error_line(exc)
        # +2: the opening '---' line, and YAML marks are 0-based.
        file_line = 1 if line is None else line + 2
        reason = str(getattr(exc, "problem", None) or exc.__class__.__name__)
    repaired = None
    quoted = _quote_colon_values(block)
    if quoted != block:  # the same block would fail the same way
        try:
            repaired = _as_mapping(yaml_load(quoted))
        except Exception:
            repaired = None
    if repaired is not None:
        note = f"frontmatter is not valid YAML ({reason}); values containing ': ' were quoted"
        return Frontmatter(repaired, body, True, repairs=((file_line, note),))
    note = f"frontmatter is not valid YAML ({reason}); it was read line by line"
    data, lost = _line_parse(block)
    problems = tuple(
        (line + 1, f"frontmatter line is not 'key: value' and was ignored: {shown!r}")
        for line, shown in lost
    )
    return Frontmatter(data, body, True, problems, ((file_line, note),))


def split_globs(value: str) -> list[str]:
    """Split a glob string on commas outside braces and brackets.

    ``src/**/*.{ts,tsx}, *.md`` → ``["src/**/*.{ts,tsx}", "*.md"]``.
    """
    if "," not in value:  # one glob: most values
        item = value.strip().strip("'\"").strip()
        return [item] if item else []
    return list(_split_listed(value))


@lru_cache(maxsize=1024)
def _split_listed(value: str) -> tuple[str, ...]:
    # A bounded per-process cache: a repository repeats a handful of glob lists in many files.
    out: list[str] = []
    depth = 0
    current: list[str] = []
    for char in value:
        if char in "{[":
            depth += 1
        elif char in "}]" and depth:
            depth -= 1
        if char == "," and depth == 0:
            out.append("".join(current))
            current = []
        else:
            current.append(char)
    out.append("".join(current))
    return tuple(item.strip().strip("'\"").strip() for item in out if item.strip().strip("'\"").strip())


def as_text(value: Any) -> str | None:
    """A scalar as a trimmed string; lists and mappings are not text."""
    if value is None or isinstance(value, (dict, list, tuple, set)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value).strip()
    return text or None


def as_bool(value: Any) -> bool:
    """Frontmatter truthiness: ``true`` (any case) or a real True."""
    if isinstance(value, bool):
        return value
    return isinstance(value, str) and value.strip().lower() == "true"


def _flat(items: Iterable[Any]) -> Iterable[Any]:
    for item in items:
        if isinstance(item, (list, tuple)):
            # One level only: a self-referencing YAML alias must not recurse forever.
            yield from (sub for sub in item if not isinstance(sub, (list, tuple, dict)))
        else:
            yield item


def as_globs(value: Any) -> tuple[str, ...]:
    """Globs from a YAML list or a comma-separated string (commas in braces kept)."""
    if value is None:
        return ()
    if isinstance(value, str):  # the common case, without the list machinery
        return tuple(dict.fromkeys(split_globs(value.strip())))
    items = value if isinstance(value, (list, tuple)) else [value]
    out: list[str] = []
    for item in _flat(items):
        text = as_text(item)
        if text:
            out.extend(split_globs(text))
    return tuple(dict.fromkeys(out))


def as_strings(value: Any) -> tuple[str, ...]:
    """A string or a list of strings, each trimmed; nothing is split."""
    if value is None:
        return ()
    if isinstance(value, str):  # the common case, without the list machinery
        text = value.strip()
        return (text,) if text else ()
    items = value if isinstance(value, (list, tuple)) else [value]
    out = [text for text in (as_text(item) for item in _flat(items)) if text]
    return tuple(out)
