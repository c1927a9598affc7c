"""Claude Agent SDK streamed replies, watched for streamed rules (TTSR): interrupt-and-correct.

The SDK cannot drop or restart a reply the way the other adapters do: the CLI
owns the conversation, and what it streamed stays in its history. So
``watched_replies`` feeds the ``StreamEvent`` text and thinking deltas of the
main agent's replies to the session; on a hit the session routes to ``retry``
it calls ``client.interrupt()``, lets the interrupted turn finish, and sends
the rule as a corrective follow-up message, whose reply it watches too. A hit
routed to ``append`` stays with the session, whose ``PostToolUse`` handler adds
it to the next tool result (so the session must be the hooks' own). Tool
input deltas are not watched here: the ``PreToolUse`` hook checks each complete
call before it runs and refuses it with the rule, which keeps the call from
running at all (an interrupt could race the tool's start).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from ruleweave.adapters.seams import MissingDependencyError, RuleSession, Source, TtsrAction

try:
    from claude_agent_sdk import ClaudeSDKClient, Message, ResultMessage, StreamEvent
except ImportError as exc:  # pragma: no cover - exercised by re-importing without the SDK
    raise MissingDependencyError("claude-agent-sdk", "claude-agent") from exc

__all__ = ["watched_replies"]

_DELTA_SOURCES: Mapping[str, tuple[Source, str]] = {
    "text_delta": ("text", "text"),
    "thinking_delta": ("thinking", "thinking"),
}
"""Anthropic stream delta type → the watched source and the key holding its text."""


def stream_delta(event: Mapping[str, Any]) -> tuple[Source, str] | None:
    """The watched source and text of one raw Anthropic stream event, if it carries prose.

    Args:
        event: ``StreamEvent.event``.

    Returns:
        ``(source, text)`` for text and thinking deltas, else ``None``.
    """
    if event.get("type") != "content_block_delta":
        return None
    delta = event.get("delta")
    if not isinstance(delta, Mapping):
        return None
    found = _DELTA_SOURCES.get(str(delta.get("type")))
    if found is None:
        return None
    value = delta.get(found[1])
    return (found[0], value) if isinstance(value, str) and value else None


async def watched_replies(
    client: ClaudeSDKClient, session: RuleSession, on_correction: Callable[[str], None]
) -> AsyncIterator[Message]:
    """The client's messages up to the turn's ``ResultMessage``, with interrupt-and-correct on a hit.

    Args:
        client: A connected client whose options have ``include_partial_messages=True``
            (without stream events nothing is watched).
        session: The conversation's session, the one the hook callbacks use: a hit
            routed to ``append`` waits there for the next tool result's notice.
        on_correction: Told each corrective follow-up before it is sent (so the
            ``UserPromptSubmit`` hook does not take it for a new user turn).

    Yields:
        Every message, as ``receive_response`` does; after an interrupt, the
        interrupted turn's messages (its ``ResultMessage`` included), then the
        follow-up's, up to the last ``ResultMessage``.
    """
    correction: str | None = None
    async for message in client.receive_messages():
        yield message
        if isinstance(message, StreamEvent):
            if message.parent_tool_use_id is not None or correction is not None:
                continue  # a subagent's stream, or a reply already being stopped
            found = stream_delta(message.event)
            if found is None:
                continue
            hit = await session.awatch(found[0], found[1])
            if hit is None:
                continue
            decided = await session.aroute(hit)
            if decided.action is TtsrAction.RETRY:
                correction = decided.text
                await client.interrupt()
        elif isinstance(message, ResultMessage):
            if correction is None:
                return
            on_correction(correction)
            await client.query(correction, session_id=message.session_id)
            correction = None
