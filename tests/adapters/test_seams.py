"""``ruleweave.adapters.seams``: what an adapter takes from ruleweave, and the adapters take it from there."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import ruleweave
from ruleweave.adapters import seams

ADAPTERS = Path(__file__).resolve().parents[2] / "adapters"

BESIDE_THE_SEAM: dict[tuple[str, str], str] = {
    ("claude_agent", "ruleweave.hosts.claude_code"): "the Agent SDK runs Claude Code's hooks, so the host's",
    ("loop", "ruleweave._lru"): "a bounded memory of refused call ids, an internal helper",
    ("mcp", "ruleweave._files.paths"): "a touched path shown relative to the project, as events show it",
    ("mcp", "ruleweave.hosts.claude_code.served"): "beside Claude Code's hooks it answers them, as the host",
    ("mcp", "ruleweave.hosts"): "beside a host's hooks it answers them: the host's declaration, by name",
    ("mcp", "ruleweave.hosts._core.served"): "beside a host's hooks it answers them, as the command hook",
}
"""Core modules an adapter of ours imports directly, each with the reason."""


def _core_imports(path: Path) -> set[str]:
    """The ruleweave modules (not adapters) a file imports: at module level, in functions, for types."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m.split(".")[0] == "ruleweave" and not m.startswith("ruleweave.adapters")}


def test_adapters_take_the_core_from_the_seam() -> None:
    """No adapter imports ruleweave's core modules except through ``seams`` (and the listed exceptions)."""
    strays: list[str] = []
    seen = 0
    for path in sorted(ADAPTERS.glob("*.py")):
        if path.name in ("seams.py", "__init__.py"):
            continue
        seen += 1
        for module in sorted(_core_imports(path)):
            if (path.stem, module) not in BESIDE_THE_SEAM:
                strays.append(f"{path.name}: {module}")
    assert seen >= 10
    assert strays == []


def test_the_checker_sees_a_deep_import(tmp_path: Path) -> None:
    """A module-level, a lazy and a type-only import of the core are all found (so a clean scan means
    something); the adapters' own modules are not."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from ruleweave.session.touch import parse_args\n"
        "from ruleweave.adapters.seams import RuleSession\n"
        "if TYPE_CHECKING:\n    from ruleweave.ttsr.route import TtsrRoute\n"
        "def f():\n    import ruleweave.store\n",
        encoding="utf-8",
    )
    assert _core_imports(probe) == {"ruleweave.session.touch", "ruleweave.ttsr.route", "ruleweave.store"}


def test_every_seam_name_is_the_core_object() -> None:
    """Each name of the seam is the object the core defines; those on ``ruleweave`` are the same."""
    from ruleweave.session.rule_uri import READ_RULE_TOOL
    from ruleweave.session.touch import parse_args
    from ruleweave.ttsr.route import TtsrAction

    assert seams.READ_RULE_TOOL == READ_RULE_TOOL == "read_rule"
    assert seams.parse_args is parse_args and seams.TtsrAction is TtsrAction
    assert seams.parse_args('{"path": "a.py"}') == {"path": "a.py"}
    shared = set(seams.__all__) & set(ruleweave.__all__)
    assert {"RuleSession", "RuleSet", "Injection", "TtsrRoute", "TtsrAction", "TtsrHit"} <= shared
    assert all(getattr(seams, name) is getattr(ruleweave, name) for name in shared)


def test_the_seam_loads_only_what_is_asked_for() -> None:
    """Importing the seam and reading the read_rule constants loads neither the SkillSpec models, the
    stream watcher nor a framework."""
    code = (
        "import sys\n"
        "from ruleweave.adapters.seams import READ_RULE_DESCRIPTION, READ_RULE_TOOL\n"
        "heavy = ('ruleweave.steering.model', 'ruleweave.ttsr.watcher', 'pydantic', 'langchain')\n"
        "loaded = [m for m in heavy if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
