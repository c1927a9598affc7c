"""``rule://<name>``: the address a model reads a rule at, and what it returns.

Names are looked up in a session's own rule set, never turned into paths.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ruleweave.errors import ArgumentTypeError, RuleNotFound
from ruleweave.rules import Bucket, Rule

RULE_SCHEME = "rule://"
"""The scheme of a rule address."""


@dataclass(frozen=True, slots=True)
class RuleDocument:
    """A rule as ``rule://name`` returns it.

    Attributes:
        name: The rule's name.
        uri: ``rule://<name>``.
        content: Its full text.
        description: Its description, if any.
        globs: Its globs.
        bucket: The bucket it is in.
        path: The file it came from.
        provider: Its provider.
    """

    name: str
    uri: str
    content: str
    description: str | None
    globs: tuple[str, ...]
    bucket: Bucket
    path: str
    provider: str


def rule_name(uri: str) -> str:
    """The name a ``rule://<name>`` address (or a bare name) asks for, trimmed.

    Raises:
        ArgumentTypeError: ``uri`` is not a string.
    """
    if not isinstance(uri, str):
        raise ArgumentTypeError(f"A rule:// address must be a string, not {uri!r}.")
    return (uri[len(RULE_SCHEME) :] if uri.startswith(RULE_SCHEME) else uri).strip()


def document(
    name: str, rules: Mapping[str, Rule], bucket_of: Callable[[str], Bucket | None]
) -> RuleDocument:
    """The ``RuleDocument`` of the rule called ``name``.

    Args:
        name: The name (from ``rule_name``).
        rules: The rules reachable through ``rule://``, by name.
        bucket_of: The bucket of a rule name.

    Raises:
        RuleNotFound: The name is empty or names no rule; the message lists the available names.
    """
    available = tuple(rules)
    listing = ", ".join(available) if available else "(none)"
    if not name:
        raise RuleNotFound(
            f"rule:// needs a rule name; available rules: {listing}.", name=name, available=available
        )
    rule = rules.get(name)
    if rule is None:
        raise RuleNotFound(
            f"No rule named {name!r}; available rules: {listing}.", name=name, available=available
        )
    return RuleDocument(
        name=rule.name,
        uri=RULE_SCHEME + rule.name,
        content=rule.content,
        description=rule.description,
        globs=rule.globs,
        bucket=bucket_of(rule.name) or Bucket.MANUAL,
        path=rule.path,
        provider=rule.source.provider,
    )
