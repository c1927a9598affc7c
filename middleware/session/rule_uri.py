"""``rule://<name>``: the address a model reads a rule at, and what it returns.

Names are looked up in a session's own rule set, never turned into paths.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ruleweave._text.echo import shown
from ruleweave.errors import ArgumentTypeError, RuleNotFoundError
from ruleweave.rules import Bucket, Rule

RULE_SCHEME = "rule://"
"""The scheme of a rule address."""

READ_RULE_TOOL = "read_rule"
"""The name every adapter gives its tool serving ``rule://`` (``RuleSession.read_rule``)."""

READ_RULE_DESCRIPTION = (
    "Read a project rule in full by its name (as listed in <domain-rules> or a notice, "
    "e.g. 'backend/testing' or 'rule://apps/web:deploy'). Read a rule before working on what it covers."
)
"""The description every adapter gives its ``read_rule`` tool."""


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

    @property
    def as_read(self) -> str:
        """What a ``read_rule`` tool answers: ``[rule: name]`` and the rule's full text."""
        return f"[rule: {self.name}]\n{self.content}"


def rule_name(uri: str) -> str:
    """The name a ``rule://<name>`` address (or a bare name) asks for, trimmed.

    Raises:
        ArgumentTypeError: ``uri`` is not a string.
    """
    if not isinstance(uri, str):
        raise ArgumentTypeError(f"A rule:// address must be a string, not {shown(uri)}.")
    return (uri[len(RULE_SCHEME) :] if uri.startswith(RULE_SCHEME) else uri).strip()


def document(
    name: str,
    find: Callable[[str], tuple[Rule, Bucket] | None],
    available: Callable[[], tuple[str, ...]],
) -> RuleDocument:
    """The ``RuleDocument`` of the rule called ``name``.

    Args:
        name: The name (from ``rule_name``).
        find: The rule of a name and its bucket (``RuleSet.find_rule``).
        available: The names to list when there is none (``RuleSet.rule_names``).

    Raises:
        RuleNotFoundError: The name is empty or names no rule; the message lists the available names.
    """
    found = find(name) if name else None
    if found is None:
        names = available()
        listing = ", ".join(names) if names else "(none)"
        shown = name if len(name) <= 200 else name[:200] + "…"
        what = "rule:// needs a rule name" if not name else f"No rule named {shown!r}"
        raise RuleNotFoundError(f"{what}; available rules: {listing}.", name=name, available=names)
    rule, bucket = found
    return RuleDocument(
        name=rule.name,
        uri=RULE_SCHEME + rule.name,
        content=rule.content,
        description=rule.description,
        globs=rule.globs,
        bucket=bucket,
        path=rule.path,
        provider=rule.source.provider,
    )
