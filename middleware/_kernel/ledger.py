"""Notice keys and ledger records: how a session's store names a notice and what it keeps of it.

A notice is given at most once per session because its key is claimed in the
session's store; with a tool call id, the claim also records in the notice
ledger which notice went with which call, so that a summarised or trimmed
history can re-arm exactly those notices. The library (``Notices``) and the
Claude Code hook's warm path (``snapshot``) both build keys and records here.

Standard library only, and no ``typing``: the hook's warm path imports this module.
"""

from __future__ import annotations

from ruleweave._kernel.jsontext import loads, quoted
from ruleweave._kernel.surrogates import escape_surrogates

NOTICE_PREFIX = "inject:"
"""What every notice key starts with: releasing it re-arms every notice of a session."""

REMINDER_PREFIX = "claude-code:reminder:"
"""Store key prefix of a streamed-rule reminder that PreToolUse keeps for the call's PostToolUse."""


def rule_id(path: str, name: str) -> str:
    """A rule notice's identity: its source path and its name (one source may hold several rules).

    A file name that is not valid UTF-8 is spelled escaped: every store encodes its keys.
    """
    return escape_surrogates(f"{path}#{name}")


def rule_key(path: str, name: str) -> str:
    """The store key of a rule's notice."""
    return NOTICE_PREFIX + rule_id(path, name)


def instructions_key(path: str) -> str:
    """The store key of a nested instruction file's notice: its path."""
    return NOTICE_PREFIX + escape_surrogates(path)


def listing_key(directory: str) -> str:
    """The store key of a nested rule folder's listing: its directory."""
    return escape_surrogates(f"{NOTICE_PREFIX}{directory}#rules")


def agent_scope(agent_id: str) -> str:
    """The claim scope of a subagent's notices: a subagent starts with a fresh context, so its own ledger."""
    return f"agent:{agent_id}"


def scoped_key(key: str, scope: str) -> str:
    """``key`` claimed within ``scope`` only (``agent_scope``, or one step of an adapter's thread)."""
    return f"{key}@{scope}"


def reminder_key(call_id: str) -> str:
    """The store key of the streamed-rule reminder kept for tool call ``call_id``."""
    return REMINDER_PREFIX + escape_surrogates(call_id)


def record(kind: str, name: str, path: str, trigger: str, glob: str | None) -> str:
    """The ledger record of one notice: everything but its body, as JSON text.

    Args:
        kind: ``rule``, ``instructions`` or ``listing``.
        name: The rule's name, the instruction file's display path, or the listing's prefix.
        path: The file (or folder) the notice comes from.
        trigger: The touched path that called for it.
        glob: The glob that matched (rules only).

    Returns:
        The record.
    """
    return record_with(record_head(kind, name, path), trigger, glob)


def record_head(kind: str, name: str, path: str) -> str:
    """The part of a record that a notice's source fixes (``record_with`` adds the rest)."""
    return "[" + quoted(kind) + ", " + quoted(name) + ", " + quoted(path) + ", "


def record_with(head: str, trigger: str, glob: str | None) -> str:
    """A record from its head (``record_head``), the touched path and the glob.

    ``json.dumps([...], ensure_ascii=False)`` spelled out: the same text at a fifth of the cost, and
    a rule's head is made once (every notice a call wins needs its record).
    """
    return escape_surrogates(head + quoted(trigger) + ", " + ("null" if glob is None else quoted(glob)) + "]")


def read_record(text: str) -> tuple[str, str, str, str, str | None] | None:
    """The ``(kind, name, path, trigger, glob)`` a ledger record holds, or ``None`` when it is not one.

    Args:
        text: A record, as ``record`` wrote it (or anything else a store held).

    Returns:
        The five fields, or ``None`` for text that is not five JSON values.
    """
    try:
        kind, name, path, trigger, glob = loads(text)
    except (ValueError, TypeError):
        return None
    return kind, name, path, trigger, glob
