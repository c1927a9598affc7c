"""A SkillSpec document checked against the grammar's table, without pydantic.

:func:`plain_spec` returns what ``SkillSpec.model_validate(data).model_dump(by_alias=True)``
returns, or None. It answers only when it is sure: every value of the exact
type the model takes, every key known, nothing a model's own validator would
have to judge. Anything else (an unknown key, a ``null`` where text belongs,
a recipe step, a ``schema_`` spelled by field name) is None, and the caller
takes the full way through the models, which also explains the problem. So a
None never means the document is invalid, and a dict always means pydantic
accepts it with that dump: a test compares the two over mutated documents.

The table is :data:`ruleweave.steering.shapes.SHAPES`, written from the models
by :mod:`ruleweave.steering.tabulate`.
"""

from __future__ import annotations

from ruleweave.steering.phrases import EXTENSION_PREFIX
from ruleweave.steering.shapes import SHAPES
from ruleweave.steering.yamldoc import scalar_text

TYPE_CHECKING = False  # not typing's: ``spec decide``'s first call imports this module
if TYPE_CHECKING:
    from typing import Any

def plain_spec(data: Any) -> dict[str, Any] | None:
    """The validated document as plain data, or None when the models must judge it.

    Args:
        data: What :func:`ruleweave.steering.yamldoc.read_yaml` read.

    Returns:
        ``SkillSpec.model_validate(data).model_dump(by_alias=True)``: fields in the
        models' order with their defaults, tuples for lists, YAML keys; or None.
    """
    try:
        return _model("SkillSpec", data)
    except ValueError:  # raised wherever the table cannot vouch for a value
        return None


def _model(name: str, value: Any) -> dict[str, Any]:
    if type(value) is not dict or not all(type(key) is str for key in value):
        raise ValueError
    shape = SHAPES[name]
    if shape["opaque"] or (shape["one"] and len(value) != 1):  # RecipeStep: exactly one key
        raise ValueError
    if shape["extensions"]:  # Predicate's ``before`` validator: ``x-`` keys move into ``extensions``
        if "extensions" in value:
            raise ValueError
        extensions = {key: item for key, item in value.items() if key.startswith(EXTENSION_PREFIX)}
        value = {key: item for key, item in value.items() if not key.startswith(EXTENSION_PREFIX)}
        value["extensions"] = extensions
    out: dict[str, Any] = {}
    taken = 0
    for _, key, kind, default in shape["fields"]:
        if key in value:
            out[key] = _value(kind, value[key])
            taken += 1
        elif default[0] == "required":
            raise ValueError
        else:
            out[key] = _default(default)
    if taken != len(value):  # an unknown key (``extra="forbid"``)
        raise ValueError
    return out


def _value(kind: tuple[Any, ...], value: Any) -> Any:
    tag = kind[0]
    if tag == "text":
        text = value if type(value) is str else scalar_text(value)
        if type(text) is not str:
            raise ValueError
        return text
    if tag == "opt":
        return None if value is None else _value(kind[1], value)
    if tag == "tuple":
        if type(value) is not list:
            raise ValueError
        return tuple(_value(kind[1], item) for item in value)
    if tag == "model":
        return _model(kind[1], value)
    if tag == "lit":
        if type(value) is not str or value not in kind[1]:
            raise ValueError
        return value
    if tag == "map":
        if type(value) is not dict or not all(type(key) is str for key in value):
            raise ValueError
        return {key: _value(kind[1], item) for key, item in value.items()}
    if tag == "bool":
        if type(value) is not bool:
            raise ValueError
        return value
    if tag == "int":
        if not isinstance(value, int) or isinstance(value, bool) or not kind[1] <= value <= kind[2]:
            raise ValueError
        return int(value)
    if tag == "any":
        return value
    raise ValueError  # a kind this version does not know: a table newer than this code


def _default(default: tuple[Any, ...]) -> Any:
    if default[0] == "value":
        return default[1]
    if default[0] == "dict":
        return {}
    return _model(default[1], {})
