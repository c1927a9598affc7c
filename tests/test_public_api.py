"""The public surface: ruleweave.__all__ is sorted and every name in it exists."""

from __future__ import annotations

import json
import subprocess
import sys

import ruleweave

FRAMEWORKS = ("langchain", "langchain_core", "langgraph", "agents", "claude_agent_sdk",
              "pydantic_ai", "mcp", "ast_grep_py", "redis")


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
