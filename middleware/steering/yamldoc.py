"""SkillSpec YAML as data, with the line of every key and item, read the reference's way.

The text is composed once (PyYAML's C composer) and the node tree is turned
into plain data here, so that it reads like the SkillSpec reference
implementation (serde_yaml 0.9) reads it:

- YAML 1.2 core scalars: only ``true``/``false`` (any case spelling the core
  schema allows) are booleans, ``yes``/``on`` stay strings, there are no
  timestamps; ``0x1F`` and ``0o17`` are integers;
- a plain scalar that resolves to a number keeps its source text
  (:class:`YamlInt`, :class:`YamlFloat`), so a field that expects a string
  receives ``"1.50"`` where the file says ``1.50``;
- ``<<`` is an ordinary key, not a merge: the reference has no merge keys, so
  a document using them is reported rather than silently expanded;
- duplicate keys, non-scalar keys and aliases that refer to themselves are
  problems; aliases expanding past :data:`MAX_NODES` values are refused before
  anything is built.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import yaml

from ruleweave.steering.issue import SpecIssue
from ruleweave.steering.source import SourceMap, YamlPath, describe_path

MAX_NODES = 100_000
"""The most values a SkillSpec may hold once its YAML aliases are expanded."""

_Composer: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVER: Any = yaml.resolver.Resolver()
_STR = "tag:yaml.org,2002:str"
_NULL = re.compile(r"~|null|Null|NULL|")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+")
_OCT = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?\.(?:inf|Inf|INF)")
_NAN = re.compile(r"\.(?:nan|NaN|NAN)")


class YamlInt(int):
    """An integer scalar that remembers how the file spelled it.

    Attributes:
        raw: The scalar's text (``0x1F``, ``007``).
    """

    raw: str

    def __new__(cls, value: int, raw: str) -> YamlInt:
        made = super().__new__(cls, value)
        made.raw = raw
        return made

    def __reduce__(self) -> tuple[type[YamlInt], tuple[int, str]]:
        # copy, deepcopy and pickle (a decision's ``allow`` may hold one) rebuild it with its text.
        return YamlInt, (int(self), self.raw)


class YamlFloat(float):
    """A float scalar that remembers how the file spelled it.

    Attributes:
        raw: The scalar's text (``1.50``, ``.inf``).
    """

    raw: str

    def __new__(cls, value: float, raw: str) -> YamlFloat:
        made = super().__new__(cls, value)
        made.raw = raw
        return made

    def __reduce__(self) -> tuple[type[YamlFloat], tuple[float, str]]:
        # copy, deepcopy and pickle (a decision's ``allow`` may hold one) rebuild it with its text.
        return YamlFloat, (float(self), self.raw)


def scalar_text(value: Any) -> Any:
    """A scalar where a string is expected, as the reference reads it (else ``value`` unchanged).

    Numbers become their source text and booleans ``true``/``false``; the
    reference's YAML reader accepts any scalar as a string.

    Args:
        value: A value built by :func:`read_yaml`.

    Returns:
        The text for a number or boolean; anything else as given.
    """
    if isinstance(value, YamlInt | YamlFloat):
        return value.raw
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return value


class YamlDocument(NamedTuple):
    """A parsed document (a NamedTuple, as :class:`~ruleweave.steering.source.SourceMap`).

    Attributes:
        data: The value the document holds (``None`` when it is empty or broken).
        source: Where each key and item starts.
        issues: Problems found while reading (parse errors, duplicate keys, ...).
        merge_keys: Positions of ``<<`` keys, kept as ordinary keys.
    """

    data: Any
    source: SourceMap
    issues: tuple[SpecIssue, ...]
    merge_keys: tuple[YamlPath, ...] = ()


def read_yaml(text: str, file: str) -> YamlDocument:
    """Parse SkillSpec text into data and line marks, listing every reading problem.

    Args:
        text: The YAML text (a leading BOM and CRLF line ends are accepted).
        file: The name used in issues.

    Returns:
        The document; ``data`` is ``None`` when the text cannot be parsed.
    """
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    empty = SourceMap(file, {})
    try:
        node = yaml.compose(text, Loader=_Composer)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        problem = exc.problem or exc.context or "malformed YAML"
        return YamlDocument(None, empty, (SpecIssue(file, line, f"The YAML cannot be parsed: {problem}."),))
    except (yaml.YAMLError, ValueError) as exc:
        return YamlDocument(None, empty, (SpecIssue(file, 0, f"The YAML cannot be parsed: {exc}."),))
    if node is None:
        return YamlDocument(None, empty, ())
    if _expanded_size(node, {}) > MAX_NODES:
        reason = (
            f"The YAML expands to more than {MAX_NODES:,} values through its aliases (*name); "
            "a SkillSpec that large is refused."
        )
        return YamlDocument(None, empty, (SpecIssue(file, node.start_mark.line + 1, reason),))
    builder = _Builder(file)
    data = builder.build(node, ())
    source = SourceMap(file, builder.lines)
    return YamlDocument(data, source, tuple(builder.issues), tuple(builder.merge_keys))


def _expanded_size(node: yaml.Node, sizes: dict[int, int]) -> int:
    """How many values ``node`` stands for once every alias is expanded (capped past ``MAX_NODES``).

    Each node is sized once, so a document of nested aliases ("billion laughs")
    costs its own length here, not its expansion; a recursive alias counts once.
    """
    known = sizes.get(id(node))
    if known is not None:
        return known
    sizes[id(node)] = 1
    total = 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            total += _expanded_size(key_node, sizes) + _expanded_size(value_node, sizes)
            if total > MAX_NODES:
                break
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            total += _expanded_size(item, sizes)
            if total > MAX_NODES:
                break
    sizes[id(node)] = total
    return total


class _Builder:
    """Turns composed nodes into data, recording lines and problems."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.lines: dict[YamlPath, int] = {}
        self.issues: list[SpecIssue] = []
        self.merge_keys: list[YamlPath] = []
        self.active: set[int] = set()

    def build(self, node: yaml.Node, path: YamlPath) -> Any:
        if not path:
            self.lines[()] = node.start_mark.line + 1
        if isinstance(node, yaml.ScalarNode):
            return _scalar(node)
        if id(node) in self.active:
            where = describe_path(path)
            self.issues.append(
                SpecIssue(
                    self.file,
                    node.start_mark.line + 1,
                    f"The value of {where} contains itself through an alias; a SkillSpec must be a tree.",
                )
            )
            return None
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                items = []
                for position, item in enumerate(node.value):
                    self.lines.setdefault((*path, position), item.start_mark.line + 1)
                    items.append(self.build(item, (*path, position)))
                return items
            if isinstance(node, yaml.MappingNode):
                return self.mapping(node, path)
            return None
        finally:
            self.active.discard(id(node))

    def mapping(self, node: yaml.MappingNode, path: YamlPath) -> dict[str, Any]:
        out: dict[str, Any] = {}
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                where = describe_path(path)
                self.issues.append(
                    SpecIssue(self.file, line, f"A key in {where} is not a plain value; keys must be text.")
                )
                continue
            key = str(key_node.value)
            if key in seen:
                where = describe_path(path)
                self.issues.append(
                    SpecIssue(
                        self.file, line, f"Duplicate key {key!r} in {where} (first on line {seen[key]})."
                    )
                )
                continue
            seen[key] = line
            if key == "<<" and not key_node.style:
                self.merge_keys.append((*path, key))
            self.lines.setdefault((*path, key), line)
            out[key] = self.build(value_node, (*path, key))
        return out


def _scalar(node: yaml.ScalarNode) -> Any:
    """A scalar as the YAML 1.2 core schema reads it, keeping number spellings."""
    value = str(node.value)
    if node.style:  # quoted or block: always text
        return value
    if node.tag == _STR and _implicit_tag(value) != _STR:
        return value  # an explicit !!str
    if _NULL.fullmatch(value):
        return None
    if value in _BOOL:
        return _BOOL[value]
    if _INT.fullmatch(value):
        return YamlInt(int(value, 10), value)
    if _HEX.fullmatch(value):
        return YamlInt(int(value[2:], 16), value)
    if _OCT.fullmatch(value):
        return YamlInt(int(value[2:], 8), value)
    if _FLOAT.fullmatch(value) or _INF.fullmatch(value) or _NAN.fullmatch(value):
        lowered = value.lower().replace(".inf", "inf").replace(".nan", "nan")
        return YamlFloat(float(lowered), value)
    return value


def _implicit_tag(value: str) -> str:
    """The tag the composer gives a plain scalar without an explicit tag."""
    return str(_RESOLVER.resolve(yaml.ScalarNode, value, (True, False)))
