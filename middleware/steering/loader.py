"""Read a ``skill.spec.yml``: YAML with line marks, shape, cross-references, then its files.

Parsing collects every problem rather than stopping at the first:

1. :mod:`ruleweave.steering.yamldoc` reads the YAML the reference's way
   (YAML 1.2 core, no merge keys) with the line of every key and item, and
   catches duplicate keys, which YAML loaders otherwise keep silently.
2. The pydantic models of :mod:`ruleweave.steering.model` and
   :mod:`ruleweave.steering.sections` check shape: unknown fields (at the top
   level too), unknown predicates, missing fields, wrong types.
3. :mod:`ruleweave.steering.validation` and :mod:`ruleweave.steering.crossrefs`
   check identifiers, duplicates and references between sections.
4. When the spec's folder is known (``load_spec``, ``inspect_spec(...,
   folder=)``), its imports are resolved (:mod:`ruleweave.steering.imports`)
   and the files it names beside it checked (:mod:`ruleweave.steering.sidecars`).

Each problem becomes a :class:`SpecIssue` with file, line and one sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruleweave._files.paths import real_inside, real_path
from ruleweave._files.reading import read_text
from ruleweave.config import RuleweaveConfig
from ruleweave.errors import SpecReadError, SpecValidationError
from ruleweave.rules import DiscoveryWarning
from ruleweave.steering.issue import SpecIssue
from ruleweave.steering.locate import find_spec

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

    from ruleweave.steering.enforce import ToolPattern
    from ruleweave.steering.imports import ImportGraph
    from ruleweave.steering.model import SkillSpec
    from ruleweave.steering.source import SourceMap

# The pydantic models, the source map and the reference checks are imported by
# ``inspect_spec`` when a spec is actually parsed: a rule set without a SkillSpec
# (most of them, and every hook process) does not pay for building them.

MAX_SPEC_BYTES = 1024 * 1024
"""The largest SkillSpec file :func:`load_spec` reads."""

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


@dataclass(frozen=True, slots=True)
class ExtensionUse:
    """An ``x-`` predicate: accepted by ruleweave, unknown to the reference implementation.

    Attributes:
        file: The document.
        line: The line of the predicate.
        rule: The rule using it.
        predicate: The predicate's name.
    """

    file: str
    line: int
    rule: str
    predicate: str

    def to_json(self) -> dict[str, Any]:
        """``{"file", "line", "rule", "predicate", "note"}`` for ``spec validate --json``.

        Returns:
            A JSON-ready dict.
        """
        return {
            "file": self.file,
            "line": self.line,
            "rule": self.rule,
            "predicate": self.predicate,
            "note": "ruleweave extension predicate (decided by the caller); the reference rejects x- keys",
        }


@dataclass(frozen=True, slots=True)
class SpecReport:
    """Everything learnt from reading one SkillSpec.

    Attributes:
        spec: The document when there is no issue, else None.
        issues: Every problem, in line order.
        extensions: The ``x-`` predicates the rules use.
        imports: The resolved imports (None when the folder was not given or
            the document is invalid before its files are looked at).
        source: Lines of the document.
    """

    spec: SkillSpec | None
    issues: tuple[SpecIssue, ...]
    extensions: tuple[ExtensionUse, ...] = ()
    imports: ImportGraph | None = None
    source: SourceMap | None = None


def load_spec(path: str | Path, *, import_root: str | Path | None = None) -> SkillSpec:
    """Read and validate a SkillSpec file, its imports and the files it names.

    Args:
        path: The ``skill.spec.yml`` to read.
        import_root: The folder imports may read from (default: the project root,
            the nearest folder above the spec holding ``.git``, else the spec's folder).

    Returns:
        The validated document.

    Raises:
        SpecReadError: The file cannot be read, is not UTF-8, or is too large.
        SpecValidationError: The document is invalid; every problem is listed.
    """
    file = str(path)
    read = read_text(Path(path), MAX_SPEC_BYTES) if Path(path).is_file() else None
    if read is None or read.text is None or read.oversized:
        detail = "not a file" if read is None else read.problem
        raise SpecReadError(file, f"The SkillSpec cannot be read ({detail}).")
    report = inspect_spec(read.text, file=file, folder=Path(path).parent, import_root=import_root)
    if report.issues or report.spec is None:
        raise SpecValidationError(report.issues)
    return report.spec


def parse_spec(text: str, *, file: str = "<string>") -> SkillSpec:
    """Parse and validate SkillSpec text (no file is looked at: imports are not resolved).

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
    report = inspect_spec(text, file=file)
    return report.spec, report.issues


def inspect_spec(
    text: str,
    *,
    file: str = "<string>",
    folder: str | Path | None = None,
    import_root: str | Path | None = None,
) -> SpecReport:
    """Parse SkillSpec text and report everything about it, without raising.

    Args:
        text: The YAML document.
        file: The name used in issues.
        folder: The folder the document lives in; when given, its imports
            are resolved and the files it names beside it are checked.
        import_root: The folder imports may read from (default: the project root
            above ``folder``, see ``steering.imports.default_import_root``).

    Returns:
        The report.
    """
    from pydantic import ValidationError

    from ruleweave.steering.crossrefs import check_references
    from ruleweave.steering.model import SkillSpec
    from ruleweave.steering.yamldoc import read_yaml

    document = read_yaml(text, file)
    source = document.source
    data = document.data
    if document.issues and data is None:
        return SpecReport(None, document.issues, source=source)
    if not isinstance(data, dict):
        what = "empty" if data is None else f"a {type(data).__name__}"
        reason = f"The document is {what}; a SkillSpec is a mapping starting with schema: skillspec/v0."
        return SpecReport(None, (source.issue((), reason),), source=source)
    issues = list(document.issues)
    spec: SkillSpec | None = None
    try:
        spec = SkillSpec.model_validate(data)
    except ValidationError as exc:
        issues.extend(_translate(error, data, source) for error in exc.errors())
    issues.extend(check_references(data, source))
    extensions: tuple[ExtensionUse, ...] = ()
    graph: ImportGraph | None = None
    if spec is not None:
        extensions = tuple(
            ExtensionUse(file, source.line(("rules", index, "when", name)), rule.id, name)
            for index, rule in enumerate(spec.rules)
            for name in rule.when.extensions
        )
        if folder is not None and not issues:
            from ruleweave.steering.imports import resolve_imports
            from ruleweave.steering.sidecars import check_sidecars

            graph = resolve_imports(spec, Path(folder) / Path(file).name, root=import_root, source=source)
            graph = _named(graph, file)
            issues.extend(graph.issues)
            issues.extend(check_sidecars(spec, Path(folder), source))
    ordered = tuple(sorted(dict.fromkeys(issues), key=lambda issue: issue.line))
    return SpecReport(spec if not ordered else None, ordered, extensions, graph, source)


def _named(graph: ImportGraph, file: str) -> ImportGraph:
    """The graph with the spec shown as the caller named it."""
    from dataclasses import replace

    return replace(graph, spec=file)


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
        if last == "<<":
            return source.issue(
                loc,
                f"YAML merge keys (<<) are not part of SkillSpec (in {where}); write the keys out.",
            )
        if parent and parent[-1] in ("when", "predicate"):
            known = ", ".join(STANDARD_PREDICATES)
            return source.issue(
                loc,
                f"Unknown predicate {last!r} in {where}; use one of {known} "
                f"or an extension whose name starts with {EXTENSION_PREFIX!r}.",
            )
        if last.startswith(EXTENSION_PREFIX):
            return source.issue(
                loc,
                f"Unknown field {last!r} in {where}; x- keys are accepted only as "
                "extension predicates in a rule's when.",
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
        else f"The field {describe(loc, data)}" if loc else "The document"
    )
    expected = _KINDS.get(kind)
    if expected is None and kind == "literal_error":
        expected = f"one of {error.get('ctx', {}).get('expected', '')}"
    got = _kind_of(error.get("input"))
    if expected is not None:
        return source.issue(loc, f"{subject} must be {expected}, not {got}.")
    message = error["msg"].rstrip(".").removeprefix("Value error, ")
    return source.issue(loc, f"{subject} is invalid: {message[:1].lower()}{message[1:]}.")


def _kind_of(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, str):
        return f"the string {value[:60]!r}"
    names = {int: "an integer", float: "a number", list: "a list", dict: "a mapping"}
    kind = next((name for base, name in names.items() if isinstance(value, base)), None)
    return kind or f"a {type(value).__name__}"


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
    real_root = real_path(config.root) or str(config.root)
    if config.skillspec is None and real_inside(path, real_root) is None:
        # A repository's ``.ruleweave`` linking out of the project speaks for no one.
        message = "SkillSpec is reached through a symbolic link leading outside the project; refused"
        return Steering(None, path, tool_map, (DiscoveryWarning(path=str(path), message=message),))
    read = read_text(path, config.max_file_bytes)
    if read.text is None or read.oversized:
        problem = read.problem or "cannot be read"
        message = f"SkillSpec {problem}; steering is off"
        return Steering(None, path, tool_map, (DiscoveryWarning(path=str(path), message=message),))
    from ruleweave.steering.imports import default_import_root

    # Imports may read the whole project (the reference's own fixtures import ../../README.md).
    inside = real_inside(path, real_root) is not None
    import_root = config.root if inside else default_import_root(path, config.root_markers)
    report = inspect_spec(read.text, file=str(path), folder=path.parent, import_root=import_root)
    spec, issues = report.spec, report.issues
    warnings = tuple(
        DiscoveryWarning(
            path=str(path), line=issue.line or None, provider="skillspec",
            message=f"{issue.reason} (steering is off until the SkillSpec is valid)",
        )
        for issue in issues
    )
    return Steering(spec, path, tool_map, warnings)
