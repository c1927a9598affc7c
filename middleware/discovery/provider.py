"""A provider is data plus one loader: ``Provider(id, priority, load)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.placement import GlobDialect
from ruleweave.rules import Rule

Loader = Callable[[DiscoveryContext], list[Rule]]
"""Reads one provider's rules; problems go to ``ctx.warn`` instead of raising."""


class Provider(NamedTuple):
    """A source of rules.

    NamedTuple, not dataclass: the class is ~5× cheaper to create in a hook process (one per tool call).

    Attributes:
        id: Short name (``cursor``); used to switch it off and in ``SourceMeta``.
        priority: Higher wins a name clash; ties keep registration order.
        load: The loader.
        summary: One line naming the paths it reads.
        dialect: How its agent reads a glob without ``/`` (``placement.dialect_glob``):
            ``anywhere`` (a file name at any depth, ruleweave's own reading) or ``root``
            (files at the top of the project, or of the rule folder's directory).
        places: Its loader builds every rule through ``rule_file``, which writes the globs in
            the matcher's reading and places the rule (``placement``) as it builds it, one
            ``Rule`` each; other loaders' rules are rewritten after they return.
    """

    id: str
    priority: int
    load: Loader
    summary: str = ""
    dialect: GlobDialect = "anywhere"
    places: bool = False

    def __repr__(self) -> str:
        # Without the loader: a function's repr names its memory address.
        return (
            f"Provider(id={self.id!r}, priority={self.priority!r}, summary={self.summary!r}, "
            f"dialect={self.dialect!r}, places={self.places!r})"
        )
