"""The public surface: ruleweave.__all__ is sorted and every name in it exists."""

from __future__ import annotations

import json
import subprocess
import sys

import ruleweave

FRAMEWORKS = ("langchain", "langchain_core", "langgraph", "agents", "claude_agent_sdk",
              "pydantic_ai", "mcp", "ast_grep_py", "redis")


PUBLIC = [
    "ArgumentTypeError", "Bucket", "BudgetReport", "ConfigError", "Decision", "Discovery",
    "DiscoveryWarning", "Injection", "InjectionItem", "MemoryStore", "MissingDependencyError",
    "PromptParts", "RedisStore", "Refusal", "ReplayError", "Rule", "RuleDocument", "RuleNotFound",
    "RuleSession", "RuleSet", "RuleweaveConfig", "RuleweaveError", "SQLiteStore", "SessionPool",
    "SessionStore", "SourceMeta", "SpecError", "StoreError", "TtsrAction", "TtsrHit", "TtsrRoute",
    "open_store",
]


def test_all_is_the_documented_contract() -> None:
    """__all__ is exactly the documented public API: entry points, data, stores and errors."""
    assert ruleweave.__all__ == PUBLIC


def test_internal_helpers_are_not_exported() -> None:
    """Module internals stay in their modules, not on the package."""
    for name in ("Match", "Buckets", "TtsrIndex", "TtsrWatcher", "discover", "decide", "replay"):
        assert name not in ruleweave.__all__
        assert not hasattr(ruleweave, name) or name in ("replay",), name


def test_all_is_sorted_and_complete() -> None:
    """__all__ is sorted, unique, and each name resolves on the package."""
    assert ruleweave.__all__ == sorted(set(ruleweave.__all__))
    for name in ruleweave.__all__:
        assert getattr(ruleweave, name) is not None, name


def test_core_imports_no_framework() -> None:
    """Importing ruleweave, loading rules and the loop adapter pulls in no framework or extra."""
    code = (
        "import sys, json, ruleweave, ruleweave.adapters.loop, ruleweave.cli\n"
        "ruleweave.RuleSet.load(ruleweave.RuleweaveConfig(cwd='.'))\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []
