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

from ruleweave._lazy import lazy_exports

TYPE_CHECKING = False  # not typing's: the hook's fast path must not pay for importing typing
if TYPE_CHECKING:
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
    from ruleweave.prompt.parts import BudgetReport, PromptParts
    from ruleweave.rules import Bucket, DiscoveryWarning, Rule, SourceMeta
    from ruleweave.ruleset import RuleSet
    from ruleweave.session._session import RuleSession
    from ruleweave.session.notices import Injection, InjectionItem
    from ruleweave.session.pool import SessionPool
    from ruleweave.session.rule_uri import RuleDocument
    from ruleweave.steering import Decision, Refusal
    from ruleweave.store import MemoryStore, RedisStore, SessionStore, SQLiteStore, open_store
    from ruleweave.ttsr import TtsrHit
    from ruleweave.ttsr.route import TtsrAction, TtsrRoute

# Every export loads on first use: a Claude Code hook process answering from its
# snapshot imports ``ruleweave`` without paying for pydantic, structlog or the rules.
_LAZY: dict[str, str] = {
    "ArgumentTypeError": "ruleweave.errors",
    "Bucket": "ruleweave.rules",
    "BudgetReport": "ruleweave.prompt.parts",
    "ConfigError": "ruleweave.errors",
    "Decision": "ruleweave.steering",
    "Discovery": "ruleweave.discovery",
    "DiscoveryWarning": "ruleweave.rules",
    "Injection": "ruleweave.session.notices",
    "InjectionItem": "ruleweave.session.notices",
    "MemoryStore": "ruleweave.store",
    "MissingDependencyError": "ruleweave.errors",
    "PromptParts": "ruleweave.prompt.parts",
    "RedisStore": "ruleweave.store",
    "Refusal": "ruleweave.steering",
    "ReplayError": "ruleweave.errors",
    "Rule": "ruleweave.rules",
    "RuleDocument": "ruleweave.session.rule_uri",
    "RuleNotFound": "ruleweave.errors",
    "RuleSession": "ruleweave.session._session",
    "RuleSet": "ruleweave.ruleset",
    "RuleweaveConfig": "ruleweave.config",
    "RuleweaveError": "ruleweave.errors",
    "SQLiteStore": "ruleweave.store",
    "SessionPool": "ruleweave.session.pool",
    "SessionStore": "ruleweave.store",
    "SourceMeta": "ruleweave.rules",
    "SpecError": "ruleweave.errors",
    "StoreError": "ruleweave.errors",
    "TtsrAction": "ruleweave.ttsr.route",
    "TtsrHit": "ruleweave.ttsr",
    "TtsrRoute": "ruleweave.ttsr.route",
    "open_store": "ruleweave.store",
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
