"""Read a ``skill.spec.yml``: YAML with line marks, shape, then cross-references.

Parsing runs in three passes and collects every problem rather than stopping
at the first:

1. YAML 1.2 (``yes``/``on`` stay strings); the same text is composed once
   more to learn the line of every key and list item, and to catch duplicate
   keys, which YAML loaders otherwise keep silently (last one wins).
2. The pydantic models of :mod:`ruleweave.steering.model` check shape:
   unknown fields, unknown predicates, missing fields, wrong types.
3. :mod:`ruleweave.steering.validation` checks identifiers, duplicate ids and
   references between sections.

Each problem becomes a :class:`SpecIssue` with file, line and one sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ruleweave.config import RuleweaveConfig
from ruleweave.errors import SpecIssue, SpecReadError, SpecValidationError
from ruleweave.frontmatter import yaml_load
from ruleweave.reading import read_text
from ruleweave.rules import DiscoveryWarning

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

    from ruleweave.steering.enforce import ToolPattern
    from ruleweave.steering.model import SkillSpec
    from ruleweave.steering.source import SourceMap

# The pydantic models, the source map and the reference checks are imported by
# ``check_spec`` when a spec is actually parsed: a rule set without a SkillSpec
# (most of them, and every hook process) does not pay for building them.

SPEC_NAME = ".ruleweave/skill.spec.yml"
"""Where discovery looks for a SkillSpec in each directory of the walk (nearest cwd wins)."""

_MarkLoader: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_NODES = 100_000
"""The most values a SkillSpec may hold once its YAML aliases are expanded."""

_KINDS = {
    "string_type": "a string",
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "bool_type": "true or false",
    "tuple_type": "a list",
    "list_type": "a list",
    "dict_type": "a mapping",
    "mapping_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}


def load_spec(path: str | Path) -> SkillSpec:
    """Read and validate a SkillSpec file.

    Args:
        path: The ``skill.spec.yml`` to read.

    Returns:
        The validated document.

    Raises:
        SpecReadError: The file cannot be read or is not UTF-8.
        SpecValidationError: The document is invalid; every problem is listed.
    """
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        detail = getattr(exc, "strerror", None) or "not UTF-8 text"
        raise SpecReadError(file, f"The SkillSpec cannot be read ({detail}).") from exc
    return parse_spec(text, file=file)


def parse_spec(text: str, *, file: str = "<string>") -> SkillSpec:
    """Parse and validate SkillSpec text.

    Args:
        text: The YAML document.
        file: The name used in issues.

    Returns:
        The validated document.

    Raises:
        SpecValidationError: The document is invalid; every problem is listed.
    """
    spec, issues = check_spec(text, file=file)
    if issues or spec is None:
        raise SpecValidationError(issues)
    return spec


def check_spec(
    text: str, *, file: str = "<string>"
) -> tuple[SkillSpec | None, tuple[SpecIssue, ...]]:
    """Parse SkillSpec text and list every problem, without raising.

    Args:
        text: The YAML document.
        file: The name used in issues.

    Returns:
        ``(spec, issues)``: the document when there is no issue (else None),
        and every issue in line order.
    """
    from pydantic import ValidationError

    from ruleweave.steering.model import SkillSpec
    from ruleweave.steering.source import SourceMap
    from ruleweave.steering.validation import check_references

    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    try:
        node = yaml.compose(text, Loader=_MarkLoader)
        data = yaml_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        problem = exc.problem or exc.context or "malformed YAML"
        return None, (SpecIssue(file, line, f"The YAML cannot be parsed: {problem}."),)
    except (yaml.YAMLError, ValueError) as exc:
        return None, (SpecIssue(file, 0, f"The YAML cannot be parsed: {exc}."),)
    if node is not None and _expanded_size(node, {}) > MAX_NODES:
        reason = (
            f"The YAML expands to more than {MAX_NODES:,} values through its aliases (*name); "
            "a SkillSpec that large is refused."
        )
        return None, (SpecIssue(file, node.start_mark.line + 1, reason),)
    lines: dict[tuple[str | int, ...], int] = {}
    issues: list[SpecIssue] = []
    if node is not None:
        _index(node, (), lines, issues, file, set())
    source = SourceMap(file, lines)
    if not isinstance(data, dict):
        what = "empty" if data is None else f"a {type(data).__name__}"
        reason = (
            f"The document is {what}; a SkillSpec is a mapping starting with schema: skillspec/v0."
        )
        return None, (source.issue((), reason),)
    spec: SkillSpec | None = None
    try:
        spec = SkillSpec.model_validate(data)
    except ValidationError as exc:
        issues.extend(_translate(error, data, source) for error in exc.errors())
    issues.extend(check_references(data, source))
    ordered = tuple(sorted(dict.fromkeys(issues), key=lambda issue: issue.line))
    return (spec if not ordered else None), ordered


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


def _index(
    node: yaml.Node,
    path: tuple[str | int, ...],
    lines: dict[tuple[str | int, ...], int],
    issues: list[SpecIssue],
    file: str,
    active: set[int],
) -> None:
    """Record the line of every key and item under ``node``; flag duplicate keys."""
    from ruleweave.steering.source import describe_path

    if not path:
        lines[()] = node.start_mark.line + 1
    if id(node) in active:  # a recursive alias
        return
    active.add(id(node))
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else "?"
            line = key_node.start_mark.line + 1
            if key in seen:
                where = describe_path(path)
                issues.append(
                    SpecIssue(
                        file, line, f"Duplicate key {key!r} in {where} (first on line {seen[key]})."
                    )
                )
            else:
                seen[key] = line
            lines.setdefault((*path, key), line)
            _index(value_node, (*path, key), lines, issues, file, active)
    elif isinstance(node, yaml.SequenceNode):
        for position, item in enumerate(node.value):
            lines[(*path, position)] = item.start_mark.line + 1
            _index(item, (*path, position), lines, issues, file, active)
    active.discard(id(node))


def _translate(error: ErrorDetails, data: Any, source: SourceMap) -> SpecIssue:
    """One pydantic error as one issue with a line and a sentence."""
    from ruleweave.steering.model import EXTENSION_PREFIX, STANDARD_PREDICATES
    from ruleweave.steering.source import YamlPath, describe

    loc: YamlPath = tuple(p for p in error["loc"] if isinstance(p, int | str))
    loc = tuple("schema" if p == "schema_" else p for p in loc)
    kind = error["type"]
    parent, last = loc[:-1], (loc[-1] if loc else None)
    where = describe(parent, data)
    if kind == "extra_forbidden" and isinstance(last, str):
        if parent and parent[-1] in ("when", "predicate"):
            known = ", ".join(STANDARD_PREDICATES)
            return source.issue(
                loc,
                f"Unknown predicate {last!r} in {where}; use one of {known} "
                f"or an extension whose name starts with {EXTENSION_PREFIX!r}.",
            )
        return source.issue(loc, f"Unknown field {last!r} in {where}.")
    if kind == "missing":
        owner = "The document" if not parent else f"The entry {where}"
        return source.issue(parent, f"{owner} is missing the required field {last!r}.")
    if loc == ("schema",) and kind == "literal_error":
        got = error.get("input")
        return source.issue(loc, f"Unsupported schema {got!r}; expected 'skillspec/v0'.")
    subject = (
        f"Item {last + 1} of {where}"
        if isinstance(last, int)
        else f"The field {describe(loc, data)}"
    )
    expected = _KINDS.get(kind)
    if expected is None and kind == "literal_error":
        expected = f"one of {error.get('ctx', {}).get('expected', '')}"
    got = _kind_of(error.get("input"))
    if expected is not None:
        return source.issue(loc, f"{subject} must be {expected}, not {got}.")
    message = error["msg"].rstrip(".")
    return source.issue(loc, f"{subject} is invalid: {message[:1].lower()}{message[1:]}.")


def _kind_of(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, str):
        return f"the string {value[:60]!r}"
    names = {int: "an integer", float: "a number", list: "a list", dict: "a mapping"}
    return names.get(type(value), f"a {type(value).__name__}")


# -- a rule set's SkillSpec --------------------------------------------------------


@dataclass(frozen=True)
class Steering:
    """A rule set's SkillSpec, ready for sessions.

    Attributes:
        spec: The validated document, or ``None`` when there is none or it is invalid.
        path: The file it was read from.
        tool_map: Forbid id → tool patterns, from ``config.steering_tools``.
        warnings: Why the spec could not be used, each naming the file and line.
    """

    spec: SkillSpec | None = None
    path: Path | None = None
    tool_map: dict[str, ToolPattern] = field(default_factory=dict)
    warnings: tuple[DiscoveryWarning, ...] = ()


def find_spec(config: RuleweaveConfig, walk: list[Path]) -> Path | None:
    """``config.skillspec``, else the nearest ``.ruleweave/skill.spec.yml`` on the walk."""
    if config.skillspec is not None:
        path = config.skillspec
        return path if path.is_absolute() else config.cwd / path
    for directory in reversed(walk):
        candidate = directory / SPEC_NAME
        if candidate.is_file():
            return candidate
    return None


def load_steering(config: RuleweaveConfig, walk: list[Path]) -> Steering:
    """Load the session SkillSpec; an unreadable or invalid one is a warning and no steering.

    Args:
        config: The configuration (``skillspec``, ``steering_tools``).
        walk: Directories from the project root down to cwd.

    Returns:
        The ``Steering`` (its ``spec`` is ``None`` when nothing usable was found).
    """
    path = find_spec(config, walk)
    if path is None:
        return Steering()
    from ruleweave.steering.enforce import ToolPattern

    tool_map = {key: ToolPattern.parse(items) for key, items in config.steering_tools.items()}
    read = read_text(path, config.max_file_bytes)
    if read.text is None or read.oversized:
        problem = read.problem or "cannot be read"
        message = f"SkillSpec {problem}; steering is off"
        return Steering(None, path, tool_map, (DiscoveryWarning(path=str(path), message=message),))
    spec, issues = check_spec(read.text, file=str(path))
    warnings = tuple(
        DiscoveryWarning(
            path=str(path), line=issue.line or None, provider="skillspec",
            message=f"{issue.reason} (steering is off until the SkillSpec is valid)",
        )
        for issue in issues
    )
    return Steering(spec, path, tool_map, warnings)
