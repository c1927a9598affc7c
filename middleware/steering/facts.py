"""Phrase matching and the task-fact heuristics.

``user_says_any`` phrases match case-insensitively at word boundaries (a
word character is an ASCII letter, digit or ``_``, as in the reference
implementation: ``repo`` matches in ``repoを同期``); a phrase not ending in ``s``
also matches its plural with a trailing ``s`` (``social profile`` matches
``social profiles``). Runs of spaces inside a phrase match any whitespace.

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

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Literal

from ruleweave.errors import ConfigError
from ruleweave.steering.model import TASK_FACTS

Heuristic = Callable[[str], bool]
"""Decides one task fact from the user's text."""

FactSource = Literal["caller", "heuristic"]
"""Where a resolved fact came from."""


_WORD = "(?-i:[0-9A-Za-z_])"
"""A character that continues a word (ASCII only, whatever the case folding)."""


@lru_cache(maxsize=2048)
def _phrase_pattern(phrase: str) -> re.Pattern[str] | None:
    words = phrase.split()
    if not words:
        return None
    body = r"\s+".join(re.escape(word) for word in words)
    plural = "" if words[-1].lower().endswith("s") else "s?"
    return re.compile(rf"(?<!{_WORD}){body}{plural}(?!{_WORD})", re.IGNORECASE)


def says(text: str, phrase: str) -> bool:
    """Whether ``phrase`` appears in ``text`` at word boundaries.

    Args:
        text: The user's text.
        phrase: A word or phrase; a trailing plural ``s`` is also accepted.

    Returns:
        True on a match; an empty phrase never matches.
    """
    pattern = _phrase_pattern(phrase)
    return pattern is not None and pattern.search(text) is not None


def says_any(text: str, phrases: Iterable[str]) -> str | None:
    """The first phrase of ``phrases`` that appears in ``text``.

    Args:
        text: The user's text.
        phrases: Candidate phrases (OR).

    Returns:
        The matching phrase, or None.
    """
    return next((phrase for phrase in phrases if says(text, phrase)), None)


@dataclass(frozen=True, slots=True)
class KeywordHeuristic:
    """A task fact that is true when the text mentions any keyword.

    Attributes:
        keywords: Phrases, matched like ``user_says_any``.
    """

    keywords: tuple[str, ...]

    def __call__(self, text: str) -> bool:
        """Whether ``text`` mentions any keyword.

        Args:
            text: The user's text.

        Returns:
            True when a keyword matches.
        """
        return says_any(text, self.keywords) is not None


DEFAULT_HEURISTICS: Mapping[str, Heuristic] = MappingProxyType(
    {
        "task_recurrence_likely": KeywordHeuristic(
            (
                "daily",
                "weekly",
                "monthly",
                "every morning",
                "every day",
                "every week",
                "every month",
                "again",
                "recurring",
            )
        ),
        "domain_object_task": KeywordHeuristic(
            (
                "alert",
                "ticket",
                "issue",
                "calendar",
                "email",
                "crm",
                "repo",
                "pull request",
                "dashboard",
                "invoice",
                "customer",
                "incident",
            )
        ),
        "interactive_prompt_likely": KeywordHeuristic(
            ("login", "auth", "mfa", "otp", "password", "prompt")
        ),
        "command_likely_long_running": KeywordHeuristic(
            (
                "test",
                "build",
                "release",
                "deploy",
                "server",
                "watch",
                "tail",
                "monitor",
                "background process",
                "tracked background",
                "in the background",
            )
        ),
    }
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

    def __init__(
        self,
        text: str,
        facts: Mapping[str, bool] | None = None,
        heuristics: Mapping[str, Heuristic] | None = None,
    ) -> None:
        self._text = text
        self._heuristics = dict(DEFAULT_HEURISTICS)
        for name, heuristic in (heuristics or {}).items():
            if name not in TASK_FACTS:
                known = ", ".join(TASK_FACTS)
                raise ConfigError(f"Unknown heuristic {name!r}; task facts are {known}.")
            self._heuristics[name] = heuristic
        self._resolved: dict[str, ResolvedFact] = {}
        for name, value in (facts or {}).items():
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
