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
if TYPE_CHECKING:  # ``X as X``: an explicit re-export, as ``mypy --strict`` wants without a literal __all__
    from ruleweave.config import RuleweaveConfig as RuleweaveConfig
    from ruleweave.discovery import Discovery as Discovery
    from ruleweave.errors import ArgumentTypeError as ArgumentTypeError
    from ruleweave.errors import ConfigError as ConfigError
    from ruleweave.errors import MissingDependencyError as MissingDependencyError
    from ruleweave.errors import ReplayError as ReplayError
    from ruleweave.errors import RuleNotFound as RuleNotFound
    from ruleweave.errors import RuleNotFoundError as RuleNotFoundError
    from ruleweave.errors import RuleweaveError as RuleweaveError
    from ruleweave.errors import SpecError as SpecError
    from ruleweave.errors import StoreError as StoreError
    from ruleweave.prompt.parts import BudgetReport as BudgetReport
    from ruleweave.prompt.parts import PromptParts as PromptParts
    from ruleweave.rules import Bucket as Bucket
    from ruleweave.rules import DiscoveryWarning as DiscoveryWarning
    from ruleweave.rules import Rule as Rule
    from ruleweave.rules import SourceMeta as SourceMeta
    from ruleweave.ruleset import RuleSet as RuleSet
    from ruleweave.session._session import RuleSession as RuleSession
    from ruleweave.session.notices import Injection as Injection
    from ruleweave.session.notices import InjectionItem as InjectionItem
    from ruleweave.session.pool import SessionPool as SessionPool
    from ruleweave.session.rule_uri import RuleDocument as RuleDocument
    from ruleweave.steering import Decision as Decision
    from ruleweave.steering import Refusal as Refusal
    from ruleweave.store import MemoryStore as MemoryStore
    from ruleweave.store import RedisStore as RedisStore
    from ruleweave.store import SessionStore as SessionStore
    from ruleweave.store import SQLiteStore as SQLiteStore
    from ruleweave.store import open_store as open_store
    from ruleweave.ttsr import TtsrHit as TtsrHit
    from ruleweave.ttsr.route import TtsrAction as TtsrAction
    from ruleweave.ttsr.route import TtsrRoute as TtsrRoute

# The one list of the public names, each loaded from its module on first use: a Claude Code hook
# process answering from its snapshot imports ``ruleweave`` without paying for pydantic, structlog or
# the rules. ``__all__`` is its keys; the imports above only show the names to type checkers (a test
# checks that they name the same modules).
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
    "RuleNotFound": "ruleweave.errors",  # the old name of RuleNotFoundError
    "RuleNotFoundError": "ruleweave.errors",
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

__all__ = sorted(_LAZY)

__getattr__ = lazy_exports(__name__, _LAZY)
