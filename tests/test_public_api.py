"""The public surface: ruleweave.__all__ is sorted and every name in it exists."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import ruleweave
import ruleweave.adapters.seams

FRAMEWORKS = ("langchain", "langchain_core", "langgraph", "agents", "claude_agent_sdk",
              "pydantic_ai", "mcp", "ast_grep_py", "redis")


PUBLIC = [
    "ArgumentTypeError", "Bucket", "BudgetReport", "ConfigError", "Decision", "Discovery",
    "DiscoveryWarning", "Injection", "InjectionItem", "MemoryStore", "MissingDependencyError",
    "PromptParts", "RedisStore", "Refusal", "ReplayError", "Rule", "RuleDocument", "RuleNotFound",
    "RuleNotFoundError", "RuleSession", "RuleSet", "RuleweaveConfig", "RuleweaveError", "SQLiteStore",
    "SessionPool", "SessionStore", "SourceMeta", "SpecError", "StoreError", "TtsrAction", "TtsrHit",
    "TtsrRoute", "open_store",
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


def _type_checking_imports(module: ModuleType) -> dict[str, str]:
    """Name → module of the ``from M import X as X`` lines under the module's ``if TYPE_CHECKING:``."""
    tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for line in node.body:
                assert isinstance(line, ast.ImportFrom) and line.module, ast.unparse(line)
                for alias in line.names:
                    assert alias.asname == alias.name, f"{alias.name}: not re-exported as itself"
                    found[alias.name] = line.module
    return found


@pytest.mark.parametrize("module", [ruleweave, ruleweave.adapters.seams], ids=lambda m: m.__name__)
def test_one_lazy_table_names_the_exports(module: ModuleType) -> None:
    """``__all__`` is the lazy table's keys, and the type checker's imports name the same modules."""
    table: dict[str, str] = module._LAZY
    assert module.__all__ == sorted(table)
    assert _type_checking_imports(module) == table
    for name, source in table.items():
        assert getattr(module, name) is getattr(sys.modules[source], name), name


def test_star_import_needs_no_extra() -> None:
    """``from ruleweave import *`` binds every public name, with redis (an extra) impossible to import."""
    code = (
        "import sys\n"
        "sys.modules['redis'] = None\n"
        "from ruleweave import *\n"
        "import ruleweave\n"
        "missing = [n for n in ruleweave.__all__ if n not in globals()]\n"
        "assert not missing, missing\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
