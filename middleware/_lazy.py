"""Lazy re-exports: a package names its exports and imports each module on first access."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: a hook process answering from its snapshot never imports typing
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``exports[name]`` when ``name`` is first read.

    Args:
        package: The package's ``__name__``.
        exports: Exported name → the module that defines it.

    Returns:
        The ``__getattr__`` to assign in the package; it caches each value in the
        package's namespace, so later reads cost nothing.
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        __import__(module)  # not importlib: a hook's fast path imports ruleweave without it
        value = getattr(sys.modules[module], name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
