"""Phrase matching and the task-fact heuristics.

``user_says_any`` phrases match exactly as in the SkillSpec reference
implementation:

- the text and the phrase are lowercased with the Unicode lowercase mapping
  (Rust's ``to_lowercase``, Python's ``str.lower``), nothing more: no case
  folding, so ``ſ`` is not ``s``, ``ı`` is not ``i`` (but ``İ`` becomes
  ``i̇`` and the Kelvin sign ``k``, as lowercasing does);
- the phrase is trimmed and its inner spaces are literal: ``in sync`` does
  not match ``in  sync``, ``in\tsync`` or ``in\u00a0sync``;
- a match must not touch a word character (an ASCII letter, digit or ``_``)
  on either side, checked on the lowercased text: ``build`` does not match
  in ``BUILDİNG`` (``buildi̇ng``), but ``repo`` matches in ``repoを同期``;
- a phrase not ending in ``s`` also matches its plural with a trailing ``s``.

One deliberate difference: every occurrence of the phrase is tried. The
reference resumes its search after a failed occurrence, so ``ha ha`` is
missed in ``xha ha ha``; ruleweave matches it. ruleweave therefore matches
everything the reference matches, and only that plus such overlaps.

Task facts (``task_recurrence_likely``, ``domain_object_task``,
``interactive_prompt_likely``, ``command_likely_long_running``) come from the
caller when given; otherwise from :data:`DEFAULT_HEURISTICS`, keyword lists
matched like ``user_says_any`` and chosen to agree with the SkillSpec
reference implementation; a fact is true when the input mentions any of:

- ``task_recurrence_likely``: daily, weekly, monthly, every morning,
  every day, every week, every month, again, recurring;
- ``domain_object_task``: alert, ticket, issue, calendar, email, crm, repo,
  pull request, dashboard, invoice, customer, incident;
- ``interactive_prompt_likely``: login, auth, mfa, otp, password, prompt;
- ``command_likely_long_running``: test, build, release, deploy, server,
  watch, tail, monitor, background process, tracked background, in the
  background.

Replace any of them by passing ``heuristics={name: callable}`` to
:func:`ruleweave.steering.decide`; a :class:`KeywordHeuristic` is the easy way
to build one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from ruleweave.errors import ConfigError
from ruleweave.steering.phrases import (
    KEYWORDS,
    TASK_FACTS,
    first_found,
    needles,
    says,
    says_any,
    says_lowered,
)

__all__ = [
    "DEFAULT_HEURISTICS",
    "FactBook",
    "FactSource",
    "Heuristic",
    "KeywordHeuristic",
    "ResolvedFact",
    "resolve_facts",
    "says",
    "says_any",
    "says_lowered",
]

Heuristic = Callable[[str], bool]
"""Decides one task fact from the user's text."""

FactSource = Literal["caller", "heuristic"]
"""Where a resolved fact came from."""


@dataclass(frozen=True, slots=True)
class KeywordHeuristic:
    """A task fact that is true when the text mentions any keyword.

    Attributes:
        keywords: Phrases, matched like ``user_says_any``.
    """

    keywords: tuple[str, ...]
    _needles: list[list[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_needles", needles(self.keywords))  # prepared once, read per turn

    def __call__(self, text: str) -> bool:
        """Whether ``text`` mentions any keyword.

        Args:
            text: The user's text.

        Returns:
            True when a keyword matches.
        """
        return first_found(text.lower(), self._needles) is not None


DEFAULT_HEURISTICS: Mapping[str, Heuristic] = MappingProxyType(
    {name: KeywordHeuristic(words) for name, words in KEYWORDS.items()}
)
"""The documented keyword heuristics, one per task fact (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class ResolvedFact:
    """A task fact's value and where it came from.

    Attributes:
        value: The fact.
        source: ``caller`` or ``heuristic``.
    """

    value: bool
    source: FactSource


class FactBook:
    """Task facts for one input, each resolved once and only when a rule asks.

    Caller facts win; otherwise the fact's heuristic runs on first use, so an
    expensive replacement heuristic is never called for a fact no rule reads.

    Args:
        text: The user's text.
        facts: Facts the caller knows; ``x-`` names are kept for ``x-``
            predicates.
        heuristics: Replacements for some or all of :data:`DEFAULT_HEURISTICS`.

    Raises:
        ConfigError: A fact or heuristic name is not a task fact (nor ``x-``),
            or a fact value is not a boolean.
    """

    __slots__ = ("_heuristics", "_resolved", "_text")

    def __init__(
        self,
        text: str,
        facts: Mapping[str, bool] | None = None,
        heuristics: Mapping[str, Heuristic] | None = None,
    ) -> None:
        self._text = text
        self._heuristics: Mapping[str, Heuristic] = DEFAULT_HEURISTICS  # read, never changed
        if heuristics:
            for name in heuristics:
                if name not in TASK_FACTS:
                    known = ", ".join(TASK_FACTS)
                    raise ConfigError(f"Unknown heuristic {name!r}; task facts are {known}.")
            self._heuristics = {**DEFAULT_HEURISTICS, **heuristics}
        self._resolved: dict[str, ResolvedFact] = {}
        if not facts:
            return
        for name, value in facts.items():
            if name not in TASK_FACTS and not name.startswith("x-"):
                known = ", ".join(TASK_FACTS)
                raise ConfigError(f"Unknown fact {name!r}; task facts are {known} (or an x- name).")
            if not isinstance(value, bool):
                raise ConfigError(f"The fact {name!r} must be true or false, not {value!r}.")
            self._resolved[name] = ResolvedFact(value, "caller")

    def get(self, name: str) -> ResolvedFact | None:
        """A fact, resolving a task fact through its heuristic on first use.

        Args:
            name: A task fact or an ``x-`` name.

        Returns:
            The fact; None for an ``x-`` name the caller did not give.
        """
        found = self._resolved.get(name)
        if found is None and name in self._heuristics:
            found = ResolvedFact(bool(self._heuristics[name](self._text)), "heuristic")
            self._resolved[name] = found
        return found

    def pair(self, name: str) -> tuple[bool, FactSource] | None:
        """:meth:`get` as ``(value, source)``, the form ``ruleweave.steering.algebra`` reads."""
        found = self.get(name)
        return (found.value, found.source) if found is not None else None

    def key(self) -> tuple[tuple[str, bool, FactSource], ...]:
        """Every fact resolved so far as ``(name, value, source)``, in resolution order."""
        resolved = self._resolved
        return tuple([(name, item.value, item.source) for name, item in resolved.items()]) if resolved else ()

    def resolved(self) -> dict[str, ResolvedFact]:
        """Every fact resolved so far (caller facts and those rules asked for).

        Returns:
            Facts by name, in resolution order.
        """
        return dict(self._resolved)


def resolve_facts(
    text: str,
    facts: Mapping[str, bool] | None = None,
    heuristics: Mapping[str, Heuristic] | None = None,
) -> dict[str, ResolvedFact]:
    """All four task facts for ``text`` (plus any ``x-`` facts given).

    Args:
        text: The user's text.
        facts: Facts the caller knows.
        heuristics: Replacements for some or all of :data:`DEFAULT_HEURISTICS`.

    Returns:
        Facts by name.

    Raises:
        ConfigError: A fact or heuristic name is unknown, or a value is not a boolean.
    """
    book = FactBook(text, facts, heuristics)
    for name in TASK_FACTS:
        book.get(name)
    return book.resolved()
