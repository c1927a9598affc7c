"""What an adapter does about a TTSR hit: one decision, made here for every adapter.

Three actions exist, and an adapter only performs the one it is given:

* ``retry`` — abort the model call (or drop a whole reply) and call the
  model again with ``text`` added to the system message. Only while the
  turn has retries left (``RuleweaveConfig.ttsr_retries``, counted per turn
  in the session's store, so a restarted worker does not start over);
* ``append`` — the rule does not interrupt, or retries are spent: ``text``
  goes onto a tool result. The session keeps it and ``after_tool_call``
  appends it to the result of ``call_id`` (or, for prose, of the next tool
  call), so the adapter does nothing more;
* ``refuse`` — a complete tool call matched an interrupting rule before it
  ran: the call does not run and its result is ``text``, so the model writes
  it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ruleweave.ttsr.watcher import TtsrHit


class TtsrAction(StrEnum):
    """What an adapter does about a hit."""

    RETRY = "retry"
    APPEND = "append"
    REFUSE = "refuse"


@dataclass(frozen=True, slots=True)
class TtsrRoute:
    """A hit and what to do about it.

    Attributes:
        action: ``retry``, ``append`` or ``refuse``.
        text: The text to add to the system message (retry), to append to a tool
            result (append), or to answer the refused call with (refuse).
        call_id: The tool call concerned (``None`` for prose: the next tool result).
        hit: The hit itself.
        attempt: For ``retry``, the number of this retry within the turn (1-based).
    """

    action: TtsrAction
    text: str
    call_id: str | None
    hit: TtsrHit
    attempt: int = 0


def route(hit: TtsrHit, *, complete_call: bool, attempts_used: int, retries: int) -> TtsrRoute:
    """Decide what to do about ``hit``.

    Args:
        hit: The hit.
        complete_call: The hit came from a whole tool call checked before it runs
            (not from a stream that can still be aborted).
        attempts_used: Retries already spent in this turn.
        retries: Retries allowed per turn.

    Returns:
        The route.
    """
    call_id = hit.call_id if hit.source == "tool" else None
    if hit.interrupt and complete_call:
        return TtsrRoute(TtsrAction.REFUSE, hit.text, call_id, hit)
    if hit.interrupt and attempts_used < retries:
        return TtsrRoute(TtsrAction.RETRY, hit.text, call_id, hit, attempts_used + 1)
    return TtsrRoute(TtsrAction.APPEND, hit.reminder, call_id, hit)
