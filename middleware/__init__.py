"""ruleweave: a repository's coding-agent rules, woven into agent sessions.

Load once, open a session per conversation::

    from ruleweave import RuleSet, RuleweaveConfig

    ruleset = RuleSet.load(RuleweaveConfig(cwd="."))
    session = ruleset.session("thread-1")
    system = session.system_prompt()
    notice = session.after_tool_call("read_file", {"path": "src/app.ts"}, call_id="call-1")

``__all__`` is the contract: the entry points, the data they return, the
stores and the errors. Everything else (``ruleweave.steering``,
``ruleweave.replay``, ``ruleweave.discovery``, ``ruleweave.testing`` …) is
imported from its module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import Discovery
from ruleweave.errors import (
    ArgumentTypeError,
    ConfigError,
    MissingDependencyError,
    ReplayError,
    RuleNotFound,
    RuleweaveError,
    SpecError,
    StoreError,
)
from ruleweave.lazy import lazy_exports
from ruleweave.notices import Injection, InjectionItem
from ruleweave.pool import SessionPool
from ruleweave.prompt_parts import BudgetReport, PromptParts
from ruleweave.rule_uri import RuleDocument
from ruleweave.rules import Bucket, DiscoveryWarning, Rule, SourceMeta
from ruleweave.ruleset import RuleSet
from ruleweave.session import RuleSession
from ruleweave.store import MemoryStore, SessionStore, open_store
from ruleweave.ttsr import TtsrHit
from ruleweave.ttsr.route import TtsrAction, TtsrRoute

if TYPE_CHECKING:
    from ruleweave.steering import Decision, Refusal
    from ruleweave.store import RedisStore, SQLiteStore

# Steering and the SQLite/Redis stores load on first use, so a hook process
# that needs none of them does not pay for their imports.
_LAZY: dict[str, str] = {
    "Decision": "ruleweave.steering",
    "Refusal": "ruleweave.steering",
    "RedisStore": "ruleweave.store",
    "SQLiteStore": "ruleweave.store",
}

__all__ = [
    "ArgumentTypeError",
    "Bucket",
    "BudgetReport",
    "ConfigError",
    "Decision",
    "Discovery",
    "DiscoveryWarning",
    "Injection",
    "InjectionItem",
    "MemoryStore",
    "MissingDependencyError",
    "PromptParts",
    "RedisStore",
    "Refusal",
    "ReplayError",
    "Rule",
    "RuleDocument",
    "RuleNotFound",
    "RuleSession",
    "RuleSet",
    "RuleweaveConfig",
    "RuleweaveError",
    "SQLiteStore",
    "SessionPool",
    "SessionStore",
    "SourceMeta",
    "SpecError",
    "StoreError",
    "TtsrAction",
    "TtsrHit",
    "TtsrRoute",
    "open_store",
]

__getattr__ = lazy_exports(__name__, _LAZY)
