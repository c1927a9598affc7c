"""What an adapter takes from ruleweave, in one module.

An adapter translates between one framework's hooks and a ``RuleSession``
(one module per framework, the framework imported inside it); it holds no
matching or rendering of its own. The adapters in ``ruleweave.adapters`` take
the core's types, constants and errors from here (a test holds them to it),
and an adapter written outside ruleweave should too: these names stay where
they are when the modules behind them move.

Loading rules and opening sessions:
    ``RuleweaveConfig``, ``RuleSet`` (``RuleSet.load(config, extractors=...)``),
    ``SessionStore`` (a store given by the caller), ``SessionPool`` (sessions by
    thread id), ``RuleSession``.

Tool calls:
    ``parse_args`` (tool arguments as a mapping: a mapping as is, a JSON object
    string decoded, else empty); ``Extractor``, the type of a per-tool
    touched-path extractor registered with ``RuleSet.load(extractors={tool:
    extractor})``; ``Injection`` and ``InjectionItem``, the notice
    ``after_tool_call`` returns for a tool's result; ``Refusal``, what
    ``before_tool_call`` returns for a call that must not run.

The ``read_rule`` tool:
    ``READ_RULE_TOOL`` and ``READ_RULE_DESCRIPTION``, the name and description
    every adapter gives the tool that answers with ``RuleSession.read_rule``;
    ``RuleDocument`` and ``RuleNotFoundError``, what ``RuleSession.resolve``
    returns and raises.

Streamed rules (TTSR):
    ``Source`` (``"text"``, ``"thinking"`` or ``"tool"``, the kind of a streamed
    delta given to ``RuleSession.watch``), ``TtsrHit`` (what ``watch`` returns
    when rules fire), ``TtsrRoute`` and ``TtsrAction`` (what ``route`` decides:
    retry the model call, append a reminder, or refuse the call).

Errors:
    ``MissingDependencyError`` (raise it, naming the extra, when the framework
    is not installed), ``ConfigError``, and ``RuleweaveError``, the root an
    adapter's own errors derive from.

Each name loads its module on first use, like ``ruleweave`` itself.
"""

from __future__ import annotations

from ruleweave._lazy import lazy_exports

TYPE_CHECKING = False  # not typing's: see ``ruleweave._lazy``
if TYPE_CHECKING:  # ``X as X``: an explicit re-export, as ``mypy --strict`` wants without a literal __all__
    from ruleweave.config import RuleweaveConfig as RuleweaveConfig
    from ruleweave.errors import ConfigError as ConfigError
    from ruleweave.errors import MissingDependencyError as MissingDependencyError
    from ruleweave.errors import RuleNotFoundError as RuleNotFoundError
    from ruleweave.errors import RuleweaveError as RuleweaveError
    from ruleweave.ruleset import RuleSet as RuleSet
    from ruleweave.session._session import RuleSession as RuleSession
    from ruleweave.session.notices import Injection as Injection
    from ruleweave.session.notices import InjectionItem as InjectionItem
    from ruleweave.session.pool import SessionPool as SessionPool
    from ruleweave.session.rule_uri import READ_RULE_DESCRIPTION as READ_RULE_DESCRIPTION
    from ruleweave.session.rule_uri import READ_RULE_TOOL as READ_RULE_TOOL
    from ruleweave.session.rule_uri import RuleDocument as RuleDocument
    from ruleweave.session.touch import Extractor as Extractor
    from ruleweave.session.touch import parse_args as parse_args
    from ruleweave.steering.enforce import Refusal as Refusal
    from ruleweave.store import SessionStore as SessionStore
    from ruleweave.ttsr.route import TtsrAction as TtsrAction
    from ruleweave.ttsr.route import TtsrRoute as TtsrRoute
    from ruleweave.ttsr.scope import Source as Source
    from ruleweave.ttsr.watcher import TtsrHit as TtsrHit

# The one list of the seam's names (``__all__`` is its keys); the imports above only show them to
# type checkers. Lazy: ``Refusal`` alone would cost an adapter's import the SkillSpec models.
_LAZY: dict[str, str] = {
    "ConfigError": "ruleweave.errors",
    "Extractor": "ruleweave.session.touch",
    "Injection": "ruleweave.session.notices",
    "InjectionItem": "ruleweave.session.notices",
    "MissingDependencyError": "ruleweave.errors",
    "READ_RULE_DESCRIPTION": "ruleweave.session.rule_uri",
    "READ_RULE_TOOL": "ruleweave.session.rule_uri",
    "Refusal": "ruleweave.steering.enforce",
    "RuleDocument": "ruleweave.session.rule_uri",
    "RuleNotFoundError": "ruleweave.errors",
    "RuleSession": "ruleweave.session._session",
    "RuleSet": "ruleweave.ruleset",
    "RuleweaveConfig": "ruleweave.config",
    "RuleweaveError": "ruleweave.errors",
    "SessionPool": "ruleweave.session.pool",
    "SessionStore": "ruleweave.store",
    "Source": "ruleweave.ttsr.scope",
    "TtsrAction": "ruleweave.ttsr.route",
    "TtsrHit": "ruleweave.ttsr.watcher",
    "TtsrRoute": "ruleweave.ttsr.route",
    "parse_args": "ruleweave.session.touch",
}

__all__ = sorted(_LAZY)

__getattr__ = lazy_exports(__name__, _LAZY)
