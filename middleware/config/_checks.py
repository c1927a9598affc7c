"""The checks ``RuleweaveConfig`` runs on each option's value: one sentence naming the option on failure."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ruleweave.errors import ConfigError
from ruleweave.store.base import SessionStore


def fail(option: str, problem: str, value: object) -> ConfigError:
    return ConfigError(f"RuleweaveConfig option {option!r}: {problem}, not {value!r}.")


def as_path(option: str, value: str | os.PathLike[str] | None) -> Path | None:
    if value is None:
        return None
    if isinstance(value, Path):
        return value
    if not isinstance(value, (str, os.PathLike)):
        raise fail(option, "should be a path", value)
    path = os.fspath(value)
    if not isinstance(path, str) or "\x00" in path:
        raise fail(option, "should be a path", value)
    return Path(path)


def as_strings(option: str, value: object) -> tuple[str, ...]:
    if isinstance(value, tuple) and all(type(v) is str for v in value):
        return value
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise fail(option, "should be a list of strings", value)
    out = tuple(value)
    if not all(isinstance(v, str) for v in out):
        raise fail(option, "should be a list of strings", value)
    return out


def as_string_lists(option: str, value: object) -> dict[str, tuple[str, ...]]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise fail(option, "should be a mapping of names to lists of strings", value)
    return {k: as_strings(f"{option}.{k}", v) for k, v in value.items()}


def as_texts(option: str, value: object) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise fail(option, "should be a mapping of names to strings", value)
    return dict(value)


def as_bool(option: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise fail(option, "should be True or False", value)
    return value


def as_int(option: str, value: object, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(option, "should be an integer", value)
    if value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"between {low} and {high}"
        raise fail(option, f"should be {bound}", value)
    return value


def as_optional_int(option: str, value: object, low: int) -> int | None:
    return None if value is None else as_int(option, value, low)


def as_optional_text(option: str, value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise fail(option, "should be a string", value)
    return value


def as_choice(option: str, value: Any, allowed: tuple[str, ...]) -> Any:
    if value not in allowed:
        raise fail(option, f"should be one of {', '.join(map(repr, allowed))}", value)
    return value


def as_store(value: object) -> SessionStore | str | None:
    if value is None or isinstance(value, (str, SessionStore)):
        return value
    raise fail("store", "should be a SessionStore or a store URL", value)


def as_json(value: object) -> Any:
    """An option's value as JSON data (sets sorted: they would dump in hash order)."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)
