"""Time-travelling streamed rules (TTSR, docs/streamed-rules.md).

A rule with a ``condition`` (regex) or ``astCondition`` (ast-grep pattern)
costs no prompt space: it watches what the model streams, and when the
stream matches, the adapter stops the stream and retries it with the rule
injected (or appends a reminder to the tool result).

* ``compile_rule`` decides whether a rule registers; ``buckets.assign`` calls
  it once per rule, so a rule is in the ``ttsr`` bucket exactly when the
  watcher can watch it;
* ``TtsrIndex.from_compiled(...)`` (or ``build(rules, config)``) indexes a
  rule set's streamed rules (immutable, shared by every session);
* ``TtsrWatcher(index, store, session_id)`` is the per-session watcher with
  ``watch(source, delta, *, tool, call_id, args) -> TtsrHit | None`` and
  ``turn_start()`` (async twins ``awatch``/``aturn_start``);
* ``route`` decides what an adapter does about a hit (retry, append, refuse).
"""

from __future__ import annotations

from ruleweave._lazy import lazy_exports

TYPE_CHECKING = False  # not typing's: see ``ruleweave._lazy``
if TYPE_CHECKING:
    from ruleweave.ttsr.compile import CompiledRule, RepeatPolicy, compile_rule, describe
    from ruleweave.ttsr.index import TtsrIndex
    from ruleweave.ttsr.render import TEMPLATES
    from ruleweave.ttsr.scope import DEFAULT_SCOPE, ScopeEntry, Source, parse_scope
    from ruleweave.ttsr.watcher import TtsrHit, TtsrMatch, TtsrWatcher, interrupts

# Each export loads on first use: a rule set without streamed rules (a Claude Code hook
# process, most often) never pays for re2, the compiler or the watcher.
_LAZY: dict[str, str] = {
    "CompiledRule": "ruleweave.ttsr.compile",
    "DEFAULT_SCOPE": "ruleweave.ttsr.scope",
    "RepeatPolicy": "ruleweave.ttsr.compile",
    "ScopeEntry": "ruleweave.ttsr.scope",
    "Source": "ruleweave.ttsr.scope",
    "TEMPLATES": "ruleweave.ttsr.render",
    "TtsrHit": "ruleweave.ttsr.watcher",
    "TtsrIndex": "ruleweave.ttsr.index",
    "TtsrMatch": "ruleweave.ttsr.watcher",
    "TtsrWatcher": "ruleweave.ttsr.watcher",
    "compile_rule": "ruleweave.ttsr.compile",
    "describe": "ruleweave.ttsr.compile",
    "interrupts": "ruleweave.ttsr.watcher",
    "parse_scope": "ruleweave.ttsr.scope",
}

__all__ = [
    "DEFAULT_SCOPE",
    "TEMPLATES",
    "CompiledRule",
    "RepeatPolicy",
    "ScopeEntry",
    "Source",
    "TtsrHit",
    "TtsrIndex",
    "TtsrMatch",
    "TtsrWatcher",
    "compile_rule",
    "describe",
    "interrupts",
    "parse_scope",
]

__getattr__ = lazy_exports(__name__, _LAZY)
