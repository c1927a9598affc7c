"""The package's import graph, read from the source, has no cycle.

Every ``import`` counts: at module level, inside functions (lazy imports) and
under ``TYPE_CHECKING``, because each of them is a dependency a reader and a
type checker must follow. Importing a package's own submodule through the
package (``from ruleweave import prompt``) is an edge to the submodule, and a
parent package is not an edge of its children (Python imports it first).
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).parent.parent
ROOTS = {"ruleweave": REPO / "middleware", "ruleweave.adapters": REPO / "adapters"}


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, root in ROOTS.items():
        for path in root.rglob("*.py"):
            if package == "ruleweave" and path.is_relative_to(ROOTS["ruleweave.adapters"]):
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


def _edges(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    out.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            for alias in node.names:
                child = f"{base}.{alias.name}"
                if child in modules:
                    out.add(child)
                elif base in modules:
                    out.add(base)
    parents = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
    return out - parents - {name}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path of module names, or ``None``."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The checker itself reports a planted cycle (so a clean result means something)."""
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_edges_count_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    """Imports inside functions and under TYPE_CHECKING are edges too."""
    (tmp_path / "m.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ruleweave.session import RuleSession\n"
        "def f():\n    from ruleweave import prompt\n",
        encoding="utf-8",
    )
    modules = {"ruleweave.session": Path(), "ruleweave.prompt": Path(), "ruleweave": Path()}
    assert _edges("ruleweave.m", tmp_path / "m.py", modules) == {"ruleweave.session", "ruleweave.prompt"}


def test_the_package_has_no_import_cycle() -> None:
    """No module of ruleweave reaches itself through its imports."""
    modules = _modules()
    graph = {name: _edges(name, path, modules) for name, path in modules.items()}
    assert _cycle(graph) is None
