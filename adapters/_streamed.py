"""Streamed rules where the framework keeps no middleware state (OpenAI Agents SDK, pydantic-ai; private).

``first_retry`` feeds a reply's deltas to the session and returns the first
hit the session routes to ``retry``. The call then runs again with the rule's
text in its system instructions; neither framework keeps state of its own for
a middleware, so those texts are kept in the session's store under
``KEPT_KEY``: every later model call of the conversation — in this process or
another sharing the store — carries them too, as LangChain's adapter does with
its thread state. A store that fails is reported as a ``store_error`` event and
read as empty (fail-open, like the session itself).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ruleweave.adapters.seams import RuleSession, Source, TtsrAction, TtsrRoute

KEPT_KEY = "adapter:ttsr_texts"
"""Store key of the JSON list of streamed-rule texts kept in a conversation's system instructions."""

Delta = tuple[Source, str, str | None, str | None, Any]
"""One ``watch`` call: source, delta, tool name, call id, complete arguments (for whole calls only)."""


async def first_retry(session: RuleSession, deltas: Iterator[Delta]) -> TtsrRoute | None:
    """Feed ``deltas`` to the session; the first hit it routes to ``retry``, if any.

    Args:
        session: The conversation's session.
        deltas: The watch calls of a stream event or a whole reply.

    Returns:
        The ``retry`` route, or ``None`` (other hits are routed too: ``append`` ones wait
        for the next tool result).
    """
    for source, delta, tool, call_id, args in deltas:
        hit = await session.awatch(source, delta, tool=tool, call_id=call_id, args=args)
        if hit is not None:
            decided = await session.aroute(hit)
            if decided.action is TtsrAction.RETRY:
                return decided
    return None


def joined(*parts: str | None) -> str:
    """The non-empty ``parts``, separated by blank lines."""
    return "\n\n".join(part for part in parts if part)


def appended(text: str, notice: str) -> str:
    """``text`` with ``notice`` after it (a blank line between them)."""
    if not text:
        return notice
    separator = "\n" if text.endswith("\n") else "\n\n"
    return f"{text}{separator}{notice}"


def _store_error(session: RuleSession, operation: str, exc: Exception) -> None:
    session.ruleset.events.emit(
        "store_error", session=session.session_id, operation=operation, error=f"{type(exc).__name__}: {exc}"
    )


def _decoded(raw: str | None) -> list[str]:
    try:
        texts = json.loads(raw) if raw else []
    except ValueError:
        return []
    return [t for t in texts if isinstance(t, str)] if isinstance(texts, list) else []


async def kept_texts(session: RuleSession) -> list[str]:
    """The streamed-rule texts the conversation keeps in its system instructions, oldest first.

    Args:
        session: The conversation's session.

    Returns:
        The texts (empty when none, or when the store fails).
    """
    try:
        raw = await session.store.aget(session.session_id, KEPT_KEY)
    except Exception as exc:  # fail-open, as sessions do
        _store_error(session, "get", exc)
        return []
    return _decoded(raw)


async def keep_text(session: RuleSession, text: str) -> None:
    """Keep ``text`` in the conversation's system instructions from now on (once).

    Args:
        session: The conversation's session.
        text: The streamed rule's retry text.
    """
    try:
        texts = _decoded(await session.store.aget(session.session_id, KEPT_KEY))
        if text not in texts:
            await session.store.aput(session.session_id, KEPT_KEY, json.dumps([*texts, text]))
    except Exception as exc:  # fail-open, as sessions do
        _store_error(session, "put", exc)
