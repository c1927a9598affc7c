"""Phrase matching and the task-fact keywords, standard library only.

``user_says_any`` matching as :mod:`ruleweave.steering.facts` documents it, and
the keyword lists of its default heuristics. Kept apart from ``facts`` (which
imports the pydantic model) so that ``ruleweave spec decide``'s warm path
(:mod:`ruleweave.steering.quick`) matches phrases without building the models.
"""

from __future__ import annotations

from functools import lru_cache

TYPE_CHECKING = False  # not typing's: the warm path of ``spec decide`` imports this module
if TYPE_CHECKING:
    from collections.abc import Iterable

STANDARD_PREDICATES: tuple[str, ...] = (
    "user_says_any",
    "task_recurrence_likely",
    "domain_object_task",
    "interactive_prompt_likely",
    "command_likely_long_running",
)
"""The five predicates SkillSpec v0 standardises."""

TASK_FACTS: tuple[str, ...] = STANDARD_PREDICATES[1:]
"""The boolean task-fact predicates (everything but ``user_says_any``)."""

EXTENSION_PREFIX = "x-"
"""Predicates starting with this are extensions, evaluated by the caller."""

KEYWORDS: dict[str, tuple[str, ...]] = {
    "task_recurrence_likely": (
        "daily", "weekly", "monthly", "every morning", "every day", "every week", "every month",
        "again", "recurring",
    ),
    "domain_object_task": (
        "alert", "ticket", "issue", "calendar", "email", "crm", "repo", "pull request", "dashboard",
        "invoice", "customer", "incident",
    ),
    "interactive_prompt_likely": ("login", "auth", "mfa", "otp", "password", "prompt"),
    "command_likely_long_running": (
        "test", "build", "release", "deploy", "server", "watch", "tail", "monitor",
        "background process", "tracked background", "in the background",
    ),
}
"""The keywords of each task fact's default heuristic (``facts.DEFAULT_HEURISTICS``)."""

_MORE_SPACE = (0x2028, 0x2029, 0x202F, 0x205F, 0x3000)
_SPACE = "".join(
    chr(c)
    for c in (*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), *_MORE_SPACE)
)
"""Unicode White_Space: what the reference trims from a phrase."""


def _is_word(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


def _bounded(text: str, needle: str) -> bool:
    """Whether ``needle`` occurs in ``text`` with no word character on either side."""
    size = len(needle)
    start = text.find(needle)
    while start != -1:
        end = start + size
        before = text[start - 1] if start else ""
        after = text[end] if end < len(text) else ""
        if not (before and _is_word(before)) and not (after and _is_word(after)):
            return True
        start = text.find(needle, start + 1)
    return False


@lru_cache(maxsize=4096)
def _needle(phrase: str) -> str:
    return phrase.lower().strip(_SPACE)


def says_lowered(lowered: str, phrase: str) -> bool:
    """:func:`says` on text already lowercased with ``str.lower``.

    Args:
        lowered: The user's text, lowercased.
        phrase: A word or phrase.

    Returns:
        True on a match.
    """
    needle = _needle(phrase)
    # Most phrases are not in the text at all: one find says so (and then neither is the plural).
    return bool(needle) and needle in lowered and said(lowered, needle)


def said(lowered: str, needle: str) -> bool:
    """Whether ``needle`` (a phrase as :func:`needles` prepares it), found in ``lowered``, is there
    at word boundaries (or with a plural ``s``)."""
    return _bounded(lowered, needle) or (not needle.endswith("s") and _bounded(lowered, needle + "s"))


def needles(phrases: Iterable[str]) -> list[list[str]]:
    """``[needle, phrase]`` for each phrase: what :func:`first_found` reads (JSON-ready)."""
    return [[_needle(phrase), phrase] for phrase in phrases]


def first_found(lowered: str, pairs: Iterable[list[str]]) -> str | None:
    """The first phrase said in ``lowered`` (text lowercased with ``str.lower``), as :func:`says_any`
    finds it, over phrases prepared by :func:`needles`."""
    for needle, phrase in pairs:
        if needle in lowered and needle and said(lowered, needle):
            return phrase
    return None


def says(text: str, phrase: str) -> bool:
    """Whether ``phrase`` appears in ``text`` at word boundaries (see ``ruleweave.steering.facts``).

    Args:
        text: The user's text.
        phrase: A word or phrase; a trailing plural ``s`` is also accepted.

    Returns:
        True on a match; an empty phrase never matches.
    """
    return says_lowered(text.lower(), phrase)


def says_any(text: str, phrases: Iterable[str]) -> str | None:
    """The first phrase of ``phrases`` that appears in ``text``.

    Args:
        text: The user's text.
        phrases: Candidate phrases (OR).

    Returns:
        The matching phrase, or None.
    """
    lowered = text.lower()
    return next((phrase for phrase in phrases if says_lowered(lowered, phrase)), None)
