"""Frontmatter: split, parse as YAML 1.2, repair, and never raise (DESIGN §3).

1. ``\\r\\n`` becomes ``\\n``; a leading BOM is ignored.
2. There is frontmatter only when the text starts with ``---`` and a later
   line is ``---``; the body after it is trimmed.
3. The block is YAML with YAML 1.2 booleans (``yes``/``on`` stay strings); a
   non-mapping is ``{}``; keys are folded to snake case, so ``always-apply``,
   ``alwaysApply`` and ``always_apply`` are one key.
4. On a YAML error the block is retried once with plain values containing
   ``": "`` quoted, then parsed key by key: each key's value (with its
   indented continuation lines) is parsed alone, and kept as the raw trimmed
   string when that fails too. A warning names the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

_BaseLoader: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Yaml12Loader(_BaseLoader):  # type: ignore[misc]
    """The C safe loader with YAML 1.2 booleans: only true/false are booleans."""


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)

_KEY_LINE = re.compile(r"^([\w-]+):\s*(.*)$")
_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")
# A plain scalar value holding ": " breaks YAML; quoting it is the cheap repair.
_PLAIN_WITH_COLON = re.compile(r"^([\w-]+):[ \t]+([^'\"\[{|>&*!#\s][^\n]*:\s[^\n]*)$")


@dataclass(frozen=True, slots=True)
class Frontmatter:
    """A parsed document.

    Attributes:
        data: The frontmatter mapping, keys in snake case.
        body: The text after the frontmatter, trimmed.
        present: Whether the document had a frontmatter block.
        problems: ``(line, message)`` pairs for every repair made.
    """

    data: dict[str, Any]
    body: str
    present: bool
    problems: tuple[tuple[int, str], ...] = field(default=())


def snake_key(key: object) -> str:
    """``alwaysApply`` / ``always-apply`` / ``always_apply`` → ``always_apply``."""
    text = str(key).strip()
    return _CAMEL.sub(r"_\1", text).replace("-", "_").lower()


def yaml_load(text: str) -> Any:
    """Parse YAML with YAML 1.2 booleans; raises ``yaml.YAMLError`` (or ValueError)."""
    return yaml.load(text, Loader=_Yaml12Loader)


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
    try:
        return yaml_load(raw)
    except Exception:
        return None


def _scalar(raw: str) -> Any:
    """One value parsed alone as YAML, or the raw text when it is not a plain scalar."""
    parsed = _parse_value(raw)
    return raw if parsed is None or isinstance(parsed, (dict, list)) else parsed


def _line_parse(block: str) -> dict[str, Any]:
    """Parse ``key: value`` lines one key at a time, keeping indented continuations."""
    data: dict[str, Any] = {}
    lines = block.split("\n")
    index = 0
    while index < len(lines):
        match = _KEY_LINE.match(lines[index])
        index += 1
        if match is None:
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
    return data


def split(text: str) -> tuple[str | None, str]:
    """Split normalised text into the frontmatter block (or ``None``) and the body."""
    if not text.startswith("---"):
        return None, text.strip()
    first_break = text.find("\n")
    if first_break == -1 or text[:first_break].rstrip() != "---":
        return None, text.strip()
    close = re.search(r"^---[ \t]*$", text[first_break + 1 :], flags=re.MULTILINE)
    if close is None:
        return None, text.strip()
    block = text[first_break + 1 : first_break + 1 + close.start()]
    body = text[first_break + 1 + close.end() :]
    return block.rstrip("\n"), body.strip()


def parse(text: str) -> Frontmatter:
    """Parse a document's frontmatter; never raises.

    Args:
        text: The whole file's text.

    Returns:
        The mapping (snake-case keys), the trimmed body and any repairs made.
    """
    text = text.replace("\r\n", "\n").removeprefix("\ufeff")
    block, body = split(text)
    if block is None:
        return Frontmatter({}, body, False)
    if not block.strip():
        return Frontmatter({}, body, True)
    try:
        return Frontmatter(_as_mapping(yaml_load(block)), body, True)
    except Exception as exc:
        line = _error_line(exc)
        # +2: the opening '---' line, and YAML marks are 0-based.
        file_line = 1 if line is None else line + 2
        reason = str(getattr(exc, "problem", None) or exc.__class__.__name__)
    try:
        repaired = _as_mapping(yaml_load(_quote_colon_values(block)))
    except Exception:
        repaired = None
    if repaired is not None:
        note = f"frontmatter is not valid YAML ({reason}); values containing ': ' were quoted"
        return Frontmatter(repaired, body, True, ((file_line, note),))
    note = f"frontmatter is not valid YAML ({reason}); it was read line by line"
    return Frontmatter(_line_parse(block), body, True, ((file_line, note),))


def split_globs(value: str) -> list[str]:
    """Split a glob string on commas outside braces and brackets.

    ``src/**/*.{ts,tsx}, *.md`` → ``["src/**/*.{ts,tsx}", "*.md"]``.
    """
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
    return [item.strip().strip("'\"").strip() for item in out if item.strip().strip("'\"").strip()]


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
    items = value if isinstance(value, (list, tuple)) else [value]
    out = [text for text in (as_text(item) for item in _flat(items)) if text]
    return tuple(out)
