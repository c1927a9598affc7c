"""Write the SkillSpec grammar's models out as plain data: :data:`ruleweave.steering.shapes.SHAPES`.

``ruleweave spec decide``'s first call on a spec checks the document against
that table (:mod:`ruleweave.steering.plain`) instead of building the pydantic
models, whose import alone costs many times Python's start-up. The models stay
the one definition of the grammar: this module reads them, and a test fails
when ``shapes.py`` is not what :func:`table` returns. After changing a model,
run ``python -m ruleweave.steering.tabulate`` to write ``shapes.py`` again.

Field types become tuples: ``("text",)`` (:data:`~ruleweave.steering.fields.Text`),
``("bool",)``, ``("int", low, high)``, ``("lit", choices)``, ``("tuple", item)``,
``("map", value)``, ``("opt", item)``, ``("any",)`` and ``("model", name)``.
Defaults: ``("required",)``, ``("value", v)``, ``("dict",)`` or ``("model", name)``.
Two model validators are flags the checker
acts on (:data:`KNOWN_VALIDATORS`); a model with any other validator is ``opaque``: the first
call leaves a document using one to the full command. A type or default it
cannot express is a ``TypeError`` here, never a silent difference.
"""

from __future__ import annotations

import pprint
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel, BeforeValidator
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from ruleweave.steering.model import Predicate, SkillSpec
from ruleweave.steering.sections import RecipeStep
from ruleweave.steering.yamldoc import scalar_text

KNOWN_VALIDATORS = {
    (Predicate, "_split_extensions"): "extensions",  # x- keys move into ``extensions``
    (RecipeStep, "_exactly_one"): "one",  # a mapping of exactly one key
}
"""Model validators :mod:`ruleweave.steering.plain` does itself, by the table flag it reads."""

_HEADER = '''"""The SkillSpec grammar as plain data, for ``spec decide``'s first call without pydantic.

Generated from the models by ``python -m ruleweave.steering.tabulate`` (see that
module for the layout); do not edit by hand.
"""

from typing import Any

SHAPES: dict[str, Any] = '''


def table() -> dict[str, Any]:
    """Every model reachable from :class:`~ruleweave.steering.model.SkillSpec`, by class name.

    Returns:
        ``{name: {"fields": ((name, key, type, default), ...), "extensions": bool,
        "one": bool, "opaque": bool}}``, ``key`` being the YAML key (the alias).
    """
    models: dict[str, Any] = {}
    _add(SkillSpec, models)
    return dict(sorted(models.items()))


def _add(model: type[BaseModel], models: dict[str, Any]) -> None:
    name = model.__name__
    if name in models:
        return
    models[name] = None  # taken, before recursing into its fields
    decorators = model.__pydantic_decorators__
    validators = set(decorators.model_validators) | set(decorators.field_validators)
    flags = {flag: False for flag in KNOWN_VALIDATORS.values()}
    for (owner, validator), flag in KNOWN_VALIDATORS.items():
        if owner is model and validator in validators:
            validators.discard(validator)
            flags[flag] = True
    fields = tuple(
        (key, info.alias or key, _type(info.annotation, info.metadata, models), _default(info, models))
        for key, info in model.model_fields.items()
    )
    opaque = bool(validators) or model.model_config.get("extra") != "forbid"
    models[name] = {"fields": fields, **flags, "opaque": opaque}


def _type(annotation: Any, metadata: list[Any], models: dict[str, Any]) -> tuple[Any, ...]:
    if get_origin(annotation) is Annotated:
        base, *more = get_args(annotation)
        return _type(base, [*metadata, *more], models)
    strict = low = high = None
    text = False
    for item in metadata:
        if isinstance(item, FieldInfo):
            metadata = [*metadata, *item.metadata]
    for item in metadata:
        if isinstance(item, FieldInfo):
            continue
        if getattr(item, "strict", None) is True:
            strict = True
        elif isinstance(item, BeforeValidator) and item.func is scalar_text:
            text = True
        elif isinstance(item, annotated_types.Ge):
            low = item.ge
        elif isinstance(item, annotated_types.Le):
            high = item.le
        else:
            raise TypeError(f"the table cannot express {item!r}")
    origin = get_origin(annotation)
    if annotation is str and strict and text:
        return ("text",)
    if annotation is bool and strict:
        return ("bool",)
    if annotation is int and strict and low is not None and high is not None:
        return ("int", low, high)
    if annotation is Any and not metadata:
        return ("any",)
    if origin is Literal and all(isinstance(choice, str) for choice in get_args(annotation)):
        return ("lit", get_args(annotation))
    if origin is tuple and len(get_args(annotation)) == 2 and get_args(annotation)[1] is Ellipsis:
        return ("tuple", _type(get_args(annotation)[0], [], models))
    if origin is Mapping and get_args(annotation)[0] is str:
        return ("map", _type(get_args(annotation)[1], [], models))
    if origin in (Union, types.UnionType):
        kept = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(kept) == 1 and len(get_args(annotation)) == 2:
            return ("opt", _type(kept[0], metadata, models))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel) and not metadata:
        _add(annotation, models)
        return ("model", annotation.__name__)
    raise TypeError(f"the table cannot express {annotation!r} with {metadata!r}")


def _default(info: FieldInfo, models: dict[str, Any]) -> tuple[Any, ...]:
    factory = info.default_factory
    if factory is None:
        value = info.default
        if value is PydanticUndefined:
            return ("required",)
        if value is None or isinstance(value, bool | str) or value == ():
            return ("value", value)
        raise TypeError(f"the table cannot express the default {value!r}")
    if factory is dict:
        return ("dict",)
    if isinstance(factory, type) and issubclass(factory, BaseModel):
        _add(factory, models)
        return ("model", factory.__name__)
    raise TypeError(f"the table cannot express the default factory {factory!r}")


def source() -> str:
    """The text of ``shapes.py`` for the current models."""
    return _HEADER + pprint.pformat(table(), width=108, compact=True, sort_dicts=False) + "\n"


def main() -> None:
    """Write ``shapes.py`` beside this module."""
    Path(__file__).resolve().with_name("shapes.py").write_text(source(), encoding="utf-8")


if __name__ == "__main__":
    main()
