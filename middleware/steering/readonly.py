"""Read-only dicts and lists: what decisions made from one template share.

Two inputs whose rules come out the same get the same decision but for the
input, so :func:`ruleweave.steering.decide` hands out copies of one template
whose mappings and lists are shared. They are made read-only here, so that a
caller who changes one decision's ``allow`` gets a ``TypeError`` instead of
changing the next decision. They stay ``dict`` and ``list`` (equal to plain
ones, serialised by ``json`` and pydantic as they are) and copy and pickle as
read-only ones.
"""

from __future__ import annotations

from typing import Any, NoReturn


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError(f"this {type(self).__mro__[1].__name__} belongs to a decision and is read-only")


class ReadOnlyDict(dict[str, Any]):
    """A ``dict`` that refuses every change."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type[ReadOnlyDict], tuple[dict[str, Any]]]:
        return ReadOnlyDict, (dict(self),)


class ReadOnlyList(list[Any]):
    """A ``list`` that refuses every change."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = clear = extend = insert = pop = remove = reverse = sort = _refuse

    def __reduce__(self) -> tuple[type[ReadOnlyList], tuple[list[Any]]]:
        return ReadOnlyList, (list(self),)


def read_only(value: Any) -> Any:
    """``value`` with every dict and list in it (keys aside) made read-only; anything else as is."""
    if isinstance(value, dict):
        return ReadOnlyDict({key: read_only(item) for key, item in value.items()})
    if isinstance(value, list):
        return ReadOnlyList(read_only(item) for item in value)
    return value
