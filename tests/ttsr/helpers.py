"""Helpers shared by the TTSR tests: load a repo's streamed rules, feed a stream."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleweave.buckets import Buckets, assign
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import discover
from ruleweave.store import MemoryStore, SessionStore
from ruleweave.ttsr import Source, TtsrHit, TtsrIndex, TtsrWatcher


@dataclass(frozen=True)
class Loaded:
    """A repo's rules, bucketed and compiled into a TTSR index."""

    config: RuleweaveConfig
    buckets: Buckets
    index: TtsrIndex

    def watcher(self, session: str = "s1", store: SessionStore | None = None) -> TtsrWatcher:
        """A watcher for ``session`` over a fresh (or the given) store."""
        return TtsrWatcher(self.index, store if store is not None else MemoryStore(), session)

    def messages(self) -> list[str]:
        """Every bucket and index warning as text."""
        return [w.message for w in (*self.buckets.warnings, *self.index.template_warnings)]


def load(root: Path, **options: Any) -> Loaded:
    """Discover ``root`` (builtins off unless asked for), bucket, and build the index."""
    options.setdefault("builtin_rules", False)
    config = RuleweaveConfig(cwd=root, **options)
    buckets = assign(discover(config).rules)
    return Loaded(config, buckets, TtsrIndex.build(buckets.ttsr, config))


def rule(body: str = "Follow the rule.", **fields: str) -> str:
    """A native rule file: each field written verbatim as ``key: value`` frontmatter."""
    lines = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\n{lines}---\n{body}\n"


def chunks(text: str, size: int) -> list[str]:
    """``text`` cut into deltas of ``size`` characters."""
    return [text[i : i + size] for i in range(0, len(text), size)]


def feed(
    watcher: TtsrWatcher, source: Source, text: str, size: int = 7, **kwargs: Any
) -> list[TtsrHit]:
    """Stream ``text`` in deltas of ``size``; return every hit."""
    hits = []
    for delta in chunks(text, size):
        hit = watcher.watch(source, delta, **kwargs)
        if hit is not None:
            hits.append(hit)
    return hits


def feed_call(
    watcher: TtsrWatcher, tool: str, args: dict[str, Any], call_id: str = "call-1", size: int = 9
) -> list[TtsrHit]:
    """Stream a tool call's arguments as JSON deltas (args passed along), then complete it."""
    hits = feed(watcher, "tool", json.dumps(args), size, tool=tool, call_id=call_id, args=args)
    final = watcher.watch("tool", "", tool=tool, call_id=call_id, args=args)
    return hits + ([final] if final is not None else [])


def names(hits: list[TtsrHit]) -> list[str]:
    """The names of every rule fired, hit by hit."""
    return [r.name for hit in hits for r in hit.rules]
