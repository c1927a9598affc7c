"""The one shape every provider's rule is normalised into (pure data).

``typing.NamedTuple`` records rather than pydantic models or dataclasses: a
Claude Code hook is a new process per tool call, and importing pydantic (or
merely the ``dataclasses`` module, which imports ``inspect``) costs that
process more than Python's own start-up (#16). They are immutable; derive
with ``rule._replace(...)``. Their fields come from the providers' own
normalisers (``frontmatter.as_*``); a rule from elsewhere (a plugin) goes
through ``validated``, which names the field a value of the wrong kind is in.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any, Literal, NamedTuple, get_args

Level = Literal["user", "project", "builtin"]
"""Which tier a rule came from."""

Severity = Literal["warning", "info"]
"""A discovery message: ``warning`` (something was lost or refused; ``scan --strict`` fails) or
``info`` (read as the agent reads it, worth knowing: ``scan`` prints it, ``--strict`` ignores it)."""

InterruptMode = Literal["never", "prose-only", "tool-only", "always"]
"""When a streamed-rule (TTSR) match stops the model's stream."""


class Bucket(StrEnum):
    """Where a rule goes in a session (docs/rules.md#buckets)."""

    TTSR = "ttsr"
    GENERIC = "generic"
    SCOPED = "scoped"
    RULEBOOK = "rulebook"
    MANUAL = "manual"
    INSTRUCTIONS = "instructions"


def _strings(owner: str, name: str, value: Iterable[str] | str) -> tuple[str, ...]:
    """``value`` as a tuple of strings (a lone string is refused: it would become its letters)."""
    if isinstance(value, tuple) and all(type(v) is str for v in value):
        return value
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError(f"{owner}.{name} must be a sequence of strings, not {value!r}")
    out = tuple(value)
    if not all(isinstance(v, str) for v in out):
        raise TypeError(f"{owner}.{name} must be a sequence of strings, not {value!r}")
    return out


def _check(owner: str, name: str, value: object, kinds: type | tuple[type, ...]) -> None:
    if not isinstance(value, kinds):
        raise TypeError(f"{owner}.{name} must be {_kind_names(kinds)}, not {value!r}")


def _kind_names(kinds: type | tuple[type, ...]) -> str:
    names = [k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,))]
    return " or ".join("None" if n == "NoneType" else n for n in names)


def _one_of(owner: str, name: str, value: object, allowed: tuple[Any, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{owner}.{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")


class SourceMeta(NamedTuple):
    """Where a rule came from.

    Attributes:
        provider: The provider id (``cursor``, ``claude``, ...).
        priority: The provider's priority; higher wins a name clash.
        level: ``user``, ``project`` or ``builtin``.
        path: The file the rule was read from.
    """

    provider: str
    priority: int
    level: Level
    path: str


class Rule(NamedTuple):
    """A rule, whatever agent format it was written in.

    Attributes:
        name: Identity for precedence and ``rule://`` (docs/rules.md#names-and-precedence).
        path: The file the rule was read from.
        content: The body after the frontmatter, trimmed (and capped).
        globs: File globs; a scoped rule fires when a touched path matches.
        always_apply: Put the body in every prompt.
        description: One line telling the model when to read the rule.
        condition: TTSR regexes watched in the model's stream.
        ast_condition: TTSR ast-grep patterns watched in code a tool writes.
        scope: TTSR scope tokens (``text``, ``tool:edit(*.ts)``, ...).
        interrupt_mode: TTSR interrupt mode; ``None`` takes the config default.
        repeat: TTSR repeat policy (``once`` or ``after-gap N``); ``None`` is once.
        content_regex: Continue's ``regex`` gate on the touched file's content.
        exclude_globs: Globs a touched path must not match (Continue's ``!``-negated globs).
        joins_instructions: Unscoped Claude rules join the instruction blob.
        truncated: The body was cut to the byte cap.
        base: The directory, relative to the project root, whose rule folder holds the
            rule ('' for the root and the user tier); its globs were rebased onto it.
        source: Provider, priority, tier and path.
        shadowed: Same-named rules this one won over, best first.
    """

    name: str
    path: str
    content: str
    source: SourceMeta
    globs: tuple[str, ...] = ()
    always_apply: bool = False
    description: str | None = None
    condition: tuple[str, ...] = ()
    ast_condition: tuple[str, ...] = ()
    scope: tuple[str, ...] = ()
    interrupt_mode: InterruptMode | None = None
    repeat: str | None = None
    content_regex: tuple[str, ...] = ()
    exclude_globs: tuple[str, ...] = ()
    joins_instructions: bool = False
    truncated: bool = False
    base: str = ""
    shadowed: tuple[SourceMeta, ...] = ()


def validated(rule: Rule) -> Rule:
    """``rule`` checked field by field, its sequences as tuples (for rules built outside ruleweave).

    Args:
        rule: A rule a plugin (or any caller) built.

    Returns:
        The rule, with list-valued fields turned into tuples.

    Raises:
        TypeError: A field holds a value of the wrong kind (the message names it).
        ValueError: ``interrupt_mode`` or the source's ``level`` is not one of its values.
    """
    _check("Rule", "rule", rule, Rule)
    for name in ("name", "path", "content", "base"):
        _check("Rule", name, getattr(rule, name), str)
    changes: dict[str, Any] = {}
    for name in _STRING_TUPLES:
        value = getattr(rule, name)
        if type(value) is not tuple or not all(type(v) is str for v in value):
            changes[name] = _strings("Rule", name, value)
    for name in ("always_apply", "joins_instructions", "truncated"):
        _check("Rule", name, getattr(rule, name), bool)
    _check("Rule", "description", rule.description, (str, type(None)))
    _check("Rule", "repeat", rule.repeat, (str, type(None)))
    if rule.interrupt_mode is not None:
        _one_of("Rule", "interrupt_mode", rule.interrupt_mode, _MODES)
    sources = (rule.source, *_sequence("Rule", "shadowed", rule.shadowed))
    for meta in sources:
        _check("Rule", "source", meta, SourceMeta)
        _check("SourceMeta", "provider", meta.provider, str)
        if isinstance(meta.priority, bool) or not isinstance(meta.priority, int):
            raise TypeError(f"SourceMeta.priority must be int, not {meta.priority!r}")
        _one_of("SourceMeta", "level", meta.level, _LEVELS)
        _check("SourceMeta", "path", meta.path, str)
    if type(rule.shadowed) is not tuple:
        changes["shadowed"] = tuple(rule.shadowed)
    return rule._replace(**changes) if changes else rule


def _sequence(owner: str, name: str, value: object) -> tuple[Any, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{owner}.{name} must be a sequence, not {value!r}")
    return tuple(value)


_STRING_TUPLES = ("globs", "condition", "ast_condition", "scope", "content_regex", "exclude_globs")
_LEVELS: tuple[str, ...] = get_args(Level)
_MODES: tuple[str, ...] = get_args(InterruptMode)


class DiscoveryWarning(NamedTuple):
    """Something discovery skipped or repaired, naming the file.

    Attributes:
        path: The file or directory concerned ('' when none).
        message: One sentence saying what happened.
        provider: The provider that reported it, if any.
        line: The 1-based line in ``path``, when known.
        severity: ``warning``, or ``info`` for a note that loses nothing (``Severity``).
    """

    path: str
    message: str
    provider: str | None = None
    line: int | None = None
    severity: Severity = "warning"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}" if where else self.message
