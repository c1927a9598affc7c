"""ruleweave: a repository's coding-agent rules, woven into agent sessions.

Load once, open a session per conversation::

    from ruleweave import RuleSet, RuleweaveConfig

    ruleset = RuleSet.load(RuleweaveConfig(cwd="."))
    session = ruleset.session("thread-1")
    system = session.system_prompt()
    notice = session.after_tool_call("read_file", {"path": "src/app.ts"})
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleweave.buckets import Buckets
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import Discovery, Provider, discover
from ruleweave.errors import (
    ConfigError,
    MissingDependencyError,
    RuleNotFound,
    RuleweaveError,
    SpecError,
    StoreError,
)
from ruleweave.lazy import lazy_exports
from ruleweave.rules import Bucket, DiscoveryWarning, Rule, SourceMeta
from ruleweave.ruleset import BudgetReport, Match, PromptParts, RuleSet
from ruleweave.session import Injection, InjectionItem, RuleDocument, RuleSession
from ruleweave.store import MemoryStore, SessionStore
from ruleweave.touch import Extractor, TouchExtractors
from ruleweave.ttsr import TtsrHit, TtsrIndex, TtsrMatch, TtsrWatcher

if TYPE_CHECKING:
    from ruleweave.replay import ReplayError, ReplayReport, replay
    from ruleweave.steering import (
        Decision,
        ElicitRequest,
        KeywordHeuristic,
        Refusal,
        SkillSpec,
        SpecIssue,
        SpecValidationError,
        ToolPattern,
        check_spec,
        decide,
        load_spec,
        render_steering,
        run_tests,
    )

# Steering and replay load on first use, so a hook process that needs neither
# does not pay for their imports.
_LAZY: dict[str, str] = {
    **dict.fromkeys(("ReplayError", "ReplayReport", "replay"), "ruleweave.replay"),
    **dict.fromkeys(
        (
            "Decision", "ElicitRequest", "KeywordHeuristic", "Refusal", "SkillSpec", "SpecIssue",
            "SpecValidationError", "ToolPattern", "check_spec", "decide", "load_spec",
            "render_steering", "run_tests",
        ),
        "ruleweave.steering",
    ),
}

__all__ = [
    "Bucket",
    "Buckets",
    "BudgetReport",
    "ConfigError",
    "Decision",
    "Discovery",
    "DiscoveryWarning",
    "ElicitRequest",
    "Extractor",
    "Injection",
    "InjectionItem",
    "KeywordHeuristic",
    "Match",
    "MemoryStore",
    "MissingDependencyError",
    "PromptParts",
    "Provider",
    "Refusal",
    "ReplayError",
    "ReplayReport",
    "Rule",
    "RuleDocument",
    "RuleNotFound",
    "RuleSession",
    "RuleSet",
    "RuleweaveConfig",
    "RuleweaveError",
    "SessionStore",
    "SkillSpec",
    "SourceMeta",
    "SpecError",
    "SpecIssue",
    "SpecValidationError",
    "StoreError",
    "ToolPattern",
    "TouchExtractors",
    "TtsrHit",
    "TtsrIndex",
    "TtsrMatch",
    "TtsrWatcher",
    "check_spec",
    "decide",
    "discover",
    "load_spec",
    "render_steering",
    "replay",
    "run_tests",
]

__getattr__ = lazy_exports(__name__, _LAZY)
