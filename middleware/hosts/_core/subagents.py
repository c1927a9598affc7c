"""Subagents: an ``Agent``/``Task`` call's task kept for its SubagentStart, and a subagent's own ledger.

Claude Code (2.1.332) sends PreToolUse for the ``Agent`` call (in the parent,
with ``description``, ``prompt`` and ``subagent_type``), then SubagentStart
(``agent_id``, ``agent_type``; not the task) and then the subagent's tool
calls, each with its ``agent_id``. The hooks may run in separate processes,
so the task waits in the session's store: ``<type>:in`` and ``<type>:out``
count the tasks handed out and taken, ``<type>:<n>`` holds the n-th (first
in, first out, per subagent type; a SubagentStart whose type has none waiting
takes one handed out without a type). A subagent claims its notices in its
own scope (``ruleweave._kernel.ledger.agent_scope``): it starts with a fresh
context, so it gets the rules the parent already had.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleweave._kernel.ledger import agent_scope, scoped_key

if TYPE_CHECKING:
    from ruleweave.hosts import HookEvent
    from ruleweave.session._session import RuleSession
    from ruleweave.session.notices import Match
    from ruleweave.store import SessionStore

DELEGATION = "claude-code:delegation:"
"""Store key prefix of the tasks waiting for their SubagentStart."""


def scope(event: HookEvent) -> str | None:
    """The claim scope of the event's notices: a subagent's own, or the session's (``None``)."""
    return agent_scope(event.agent_id) if event.agent_id is not None else None


def task_of(event: HookEvent) -> tuple[str, str]:
    """An ``Agent``/``Task`` call's subagent type and its task (description and prompt, '' when none)."""
    kind = event.args.get("subagent_type")
    parts = [event.args.get(key) for key in ("description", "prompt")]
    return (kind if isinstance(kind, str) else ""), "\n".join(p for p in parts if isinstance(p, str) and p)


def keep_task(store: SessionStore, session_id: str, event: HookEvent) -> None:
    """Keep the task of an ``Agent``/``Task`` call (PreToolUse) for its SubagentStart.

    Raises:
        StoreError: The store failed (the subagent then starts without its task's notices).
    """
    kind, task = task_of(event)
    if task:
        count = store.incr(session_id, f"{DELEGATION}{kind}:in")
        store.put(session_id, f"{DELEGATION}{kind}:{count}", task)


async def akeep_task(store: SessionStore, session_id: str, event: HookEvent) -> None:
    """Async twin of ``keep_task``."""
    kind, task = task_of(event)
    if task:
        count = await store.aincr(session_id, f"{DELEGATION}{kind}:in")
        await store.aput(session_id, f"{DELEGATION}{kind}:{count}", task)


def take_task(store: SessionStore, session_id: str, event: HookEvent) -> str:
    """The oldest task waiting for a subagent of the SubagentStart's type (then of no type), taken.

    Returns:
        The task, or '' when none waits.
    """
    for kind in dict.fromkeys((event.agent_type or "", "")):
        waiting = _count(store.get(session_id, f"{DELEGATION}{kind}:in"))
        if _count(store.get(session_id, f"{DELEGATION}{kind}:out")) < waiting:
            key = f"{DELEGATION}{kind}:{store.incr(session_id, f'{DELEGATION}{kind}:out')}"
            task = store.get(session_id, key) or ""
            store.put(session_id, key, "")
            return task
    return ""


async def atake_task(store: SessionStore, session_id: str, event: HookEvent) -> str:
    """Async twin of ``take_task``."""
    for kind in dict.fromkeys((event.agent_type or "", "")):
        waiting = _count(await store.aget(session_id, f"{DELEGATION}{kind}:in"))
        if _count(await store.aget(session_id, f"{DELEGATION}{kind}:out")) < waiting:
            key = f"{DELEGATION}{kind}:{await store.aincr(session_id, f'{DELEGATION}{kind}:out')}"
            task = await store.aget(session_id, key) or ""
            await store.aput(session_id, key, "")
            return task
    return ""


def task_matches(session: RuleSession, task: str) -> list[Match]:
    """The notices the paths a delegated task names call for (``paths.task_paths``)."""
    if not task:
        return []
    from ruleweave._kernel.paths import call_paths
    from ruleweave.hosts.claude_code.paths import task_paths

    cwd = str(session.ruleset.config.cwd)
    return session.ruleset.notices.for_paths(call_paths("Agent", {"prompt": task}, cwd, task_paths))


def scoped_keys(matches: list[Match], event: HookEvent) -> list[str]:
    """The store keys of ``matches`` in the event's claim scope (a subagent's own)."""
    within = scope(event)
    return [m.key if within is None else scoped_key(m.key, within) for m in matches]


def _count(value: str | None) -> int:
    return int(value) if value is not None and value.isdigit() else 0
