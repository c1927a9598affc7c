"""Which logged options a replay takes: only those ``replayable_options()`` writes, each vetted.

A replay log may come from anywhere (committed to a repository, attached to an
issue), so its ``session_start`` ``options`` are input, not configuration.
``vet_options`` keeps an option only when all of these hold:

* ``RuleweaveConfig.replayable_options()`` writes it: machine-specific options
  (``event_log``, ``skillspec``, ``home``, ``store``, ``cwd`` …) and names this
  version does not know are ignored, with a note;
* its value has the logged option's type and lies in a sane range (a bad value
  is a ``ReplayError`` naming the option: the log is malformed);
* it does not widen what ruleweave reads: ``allow_outside_imports: true`` and
  ``symlinks: follow`` are ignored with a note (the safe default is used), and a
  template is kept only when its fields are plain names, never attribute or
  index access nor format specs (``{name.__class__}``, ``{body:>999999999}``).

A value equal to today's default needs no vetting and makes no note.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any, get_args

from ruleweave._text.echo import shown
from ruleweave.errors import RuleweaveError
from ruleweave.prompt._templates import check_templates
from ruleweave.rules import InterruptMode

MAX_REPLAYED_BYTES = 64 * 1024 * 1024
"""Largest byte limit (``max_file_bytes`` …) a log may set."""

_MAX_ITEMS = 1000
_MAX_TEXT = 1024 * 1024
_MAX_TEMPLATE = 64 * 1024


class OptionError(RuleweaveError, ValueError):
    """A logged option's value cannot be used (the message says why); ``replay`` turns it into a
    ``ReplayError`` naming the option."""


def _integer(low: int, high: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"is {shown(value)}, not an integer")
        if not low <= value <= high:
            raise OptionError(f"is {value}, outside {low}..{high}")
        return value

    return check


def _optional(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def optional(value: Any) -> Any:
        return None if value is None else check(value)

    return optional


def _boolean(value: Any) -> Any:
    if not isinstance(value, bool):
        raise OptionError(f"is {shown(value)}, not true or false")
    return value


def _names(*, relative: bool) -> Callable[[Any], Any]:
    """A list of strings; ``relative``: each a relative path with no ``..`` (file and directory names)."""

    def check(value: Any) -> Any:
        if not isinstance(value, list) or len(value) > _MAX_ITEMS:
            raise OptionError(f"is {shown(value)}, not a list of at most {_MAX_ITEMS} strings")
        for item in value:
            if not isinstance(item, str) or not item or len(item) > 4096 or "\x00" in item:
                raise OptionError(f"holds {shown(item)}, not a usable name")
            if relative and (item.startswith(("/", "~", "\\")) or ".." in item.replace("\\", "/").split("/")):
                raise OptionError(f"holds {shown(item)}, which leaves its directory")
        return value

    return check


def _text(value: Any) -> Any:
    if value is not None and (not isinstance(value, str) or len(value) > _MAX_TEXT):
        raise OptionError(f"is {shown(value)}, not a string of at most {_MAX_TEXT} characters")
    return value


def _one_of(*choices: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value not in choices:
            raise OptionError(f"is {shown(value)}, not one of {', '.join(choices)}")
        return value

    return check


def _builtin_rules(value: Any) -> Any:
    return value if isinstance(value, bool) else _names(relative=False)(value)


def _steering_tools(value: Any) -> Any:
    if not isinstance(value, dict) or len(value) > _MAX_ITEMS:
        raise OptionError(f"is {shown(value)}, not a mapping of forbidden ids to tool patterns")
    for key, patterns in value.items():
        _names(relative=False)([key])
        _names(relative=False)(patterns)
    return value


def plain_template(text: str) -> str | None:
    """Why a template is not plain (attribute or index access, format spec, conversion), or ``None``."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        return f"is not a valid format string ({exc})"
    for _, field, spec, conversion in parsed:
        if field is None:
            continue
        if not field.isidentifier():
            return f"uses {{{shown(field, 60)[1:-1]}}}: only plain fields such as {{name}} are replayed"
        if spec or conversion:
            return f"formats {{{field}}} with a spec or conversion: only plain fields are replayed"
    return None


_VALIDATORS: Mapping[str, Callable[[Any], Any]] = {
    "root_markers": _names(relative=True),
    "disabled_providers": _names(relative=False),
    "disabled_rules": _names(relative=False),
    "builtin_rules": _builtin_rules,
    "ignored_dirs": _names(relative=True),
    "max_rule_bytes": _integer(1, MAX_REPLAYED_BYTES),
    "max_rule_files": _integer(1, 100_000),
    "max_file_bytes": _integer(1, MAX_REPLAYED_BYTES),
    "symlinks": _one_of("within", "ignore", "follow"),
    "instruction_files": _names(relative=True),
    "parent_instructions": _boolean,
    "instructions_max_bytes": _integer(1, MAX_REPLAYED_BYTES),
    "generic_max_bytes": _optional(_integer(1, MAX_REPLAYED_BYTES)),
    "domain_max_bytes": _optional(_integer(1, MAX_REPLAYED_BYTES)),
    "prompt_max_bytes": _integer(1, MAX_REPLAYED_BYTES),
    "notice_max_bytes": _integer(1, MAX_REPLAYED_BYTES),
    "import_max_depth": _integer(0, 32),
    "allow_outside_imports": _boolean,
    "custom_system_prompt": _text,
    "custom_template": _boolean,
    "interrupt_mode": _one_of(*get_args(InterruptMode)),
    "ttsr_window": _integer(16, 1 << 20),
    "steering_tools": _steering_tools,
    "ttsr_retries": _integer(0, 100),
    "max_globs_per_rule": _integer(1, 100_000),
    "max_globs_per_file": _integer(1, 1_000_000),
    # Same shape as steering_tools: names → lists of plain names.
    "tool_aliases": _steering_tools,
}


def _templates(value: Any, notes: list[str]) -> dict[str, str]:
    if not isinstance(value, dict) or len(value) > _MAX_ITEMS:
        raise OptionError(f"is {shown(value)}, not a mapping of template names to text")
    kept: dict[str, str] = {}
    for name, text in value.items():
        if not isinstance(text, str) or len(text) > _MAX_TEMPLATE:
            raise OptionError(f"sets {shown(name)} to {shown(text)}, not a text of at most {_MAX_TEMPLATE}")
        problem = plain_template(text)
        if problem is None:
            try:
                check_templates({name: text})
            except ValueError as exc:
                problem = str(exc)
        if problem is not None:
            notes.append(f"template {shown(name)} {problem}; ignored (the default is used)")
            continue
        kept[name] = text
    return kept


def vet_options(logged: object, defaults: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The logged options a replay may use, and a note for each one it ignores.

    Args:
        logged: The ``options`` of a ``session_start`` event, as logged.
        defaults: ``replayable_options()`` of today's default configuration: the names
            a replay takes, with the values that need no vetting.

    Returns:
        ``(options, notes)``: keyword arguments for ``RuleweaveConfig``, and one
        sentence per option ignored.

    Raises:
        OptionError: A replayable option's value has the wrong type or is out of
            range; the message names the option.
    """
    notes: list[str] = []
    if logged is None:
        return {}, notes
    if not isinstance(logged, dict):
        return {}, [f"the logged options are {shown(logged)}, not a mapping; ignored"]
    options: dict[str, Any] = {}
    for key, value in logged.items():
        if not isinstance(key, str) or key not in defaults:
            notes.append(f"option {shown(key)} is not one a replay takes; ignored")
            continue
        if value == defaults[key]:
            continue
        try:
            if key == "templates":
                value = _templates(value, notes)
            else:
                validator = _VALIDATORS.get(key)
                if validator is None:
                    notes.append(f"option {key!r} cannot be checked by this version; ignored")
                    continue
                value = validator(value)
        except OptionError as exc:
            raise OptionError(f"option {key!r} {exc}") from exc
        if key == "allow_outside_imports" and value is True:
            notes.append("option 'allow_outside_imports' true would let @imports read outside the "
                         "project; ignored")
            continue
        if key == "symlinks" and value == "follow":
            notes.append("option 'symlinks' 'follow' would follow links out of the project; "
                         "ignored ('within' is used)")
            continue
        options[key] = value
    return options, notes
