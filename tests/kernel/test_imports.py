"""``ruleweave._kernel`` imports the standard library only, not even ``typing``: the warm hook loads it."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

KERNEL = Path(__file__).parent.parent.parent / "middleware" / "_kernel"
LAZY_ONLY = {"re2"}  # linear-time regexes, imported inside the function that needs one, never at import time


def _imports(tree: ast.AST, inside: bool = False) -> list[tuple[str, bool]]:
    """``(top-level module name, imported inside a function)`` for each import in ``tree``."""
    out: list[tuple[str, bool]] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name.split(".")[0], inside) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            out.append(((node.module or "").split(".")[0], inside))
        elif isinstance(node, ast.ImportFrom):
            out.append(("ruleweave", inside))  # relative: within the package
        out += _imports(node, inside or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef))
    return out


def test_kernel_sources_import_only_the_standard_library() -> None:
    """Each import in the kernel's sources is of the standard library, the kernel, or re2 in a function."""
    modules = sorted(KERNEL.glob("*.py"))
    assert {"state.py", "sqlite.py", "ledger.py"} <= {path.name for path in modules}
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, inside in _imports(tree):
            if name == "ruleweave":
                continue  # checked below, by what importing it loads
            allowed = name in sys.stdlib_module_names or (inside and name in LAZY_ONLY)
            assert allowed, f"{path.name} imports {name}"


def test_importing_the_kernel_loads_no_third_party_module_nor_typing() -> None:
    """Importing every kernel module loads only standard-library modules, without ``typing``."""
    names = [f"ruleweave._kernel.{p.stem}" for p in sorted(KERNEL.glob("*.py")) if p.stem != "__init__"]
    code = (
        "import sys, json\n"
        "before = set(sys.modules)\n"
        f"for name in {names!r}:\n"
        "    __import__(name)\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    assert "typing" not in loaded
    tops = {m.split(".")[0] for m in loaded}
    foreign = sorted(tops - set(sys.stdlib_module_names) - {"ruleweave"})
    assert foreign == []
    assert [m for m in loaded if m.startswith("ruleweave.") and not m.startswith("ruleweave._")] == []
