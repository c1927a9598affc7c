"""A session continues in another process from its store: claims, ledger, TTSR, turn, steering."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import WriteTree

SPECS = Path(__file__).resolve().parent.parent / "examples" / "specs"

STEP = textwrap.dedent(
    """
    import json, sys
    from ruleweave import RuleSet, RuleweaveConfig
    root, url, step = sys.argv[1], sys.argv[2], sys.argv[3]
    session = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False, store=url)).session("conv-1")
    out = {}
    if step == "first":
        out["steered"] = session.steer("browse the changelog page") is not None
        out["notice"] = bool(session.after_tool_call("read", {"path": "src/app.ts"}, call_id="c1"))
        session.turn_start()
        hit = session.watch("text", "var x")
        out["ttsr"] = hit is not None and session.route(hit).action.value
    else:
        refusal = session.check_tool("bash", {"command": "curl -s https://example.com"})
        out["refused"] = refusal is not None and refusal.rule
        out["steering_block"] = "<steering>" in session.system_prompt()
        out["notice"] = bool(session.after_tool_call("read", {"path": "src/app.ts"}, call_id="c2"))
        out["ledger"] = [i.name for i in (session.notices_for("c1") or type("E", (), {"items": ()})).items]
        hit = session.watch("text", "var y")
        out["ttsr"] = hit is not None
        out["rearmed"] = len(session.forget_calls(["c1"]))
        out["notice_after_forget"] = bool(session.after_tool_call("read", {"path": "src/b.ts"}))
    print(json.dumps(out))
    """
)


@pytest.fixture
def root(write_tree: WriteTree) -> Path:
    root = write_tree({
        ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\n---\nStrict.",
        ".ruleweave/rules/no-var.md": "---\ncondition: '\\bvar\\b'\n---\nUse const.",
        "src/app.ts": "x",
    })
    shutil.copy(SPECS / "web-research.skill.spec.yml", root / ".ruleweave" / "skill.spec.yml")
    return root


def _step(root: Path, url: str, step: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", STEP, str(root), url, step], capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout))


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_a_second_process_continues_the_session(
    root: Path, tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    """Process two refuses what process one's steering forbade and repeats no notice or rule."""
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'state.db'}"
    else:
        url = f"{request.getfixturevalue('redis_url')}?prefix=continues-{tmp_path.name}:"
    first = _step(root, url, "first")
    assert first == {"steered": True, "notice": True, "ttsr": "retry"}
    second = _step(root, url, "second")
    assert second == {
        "refused": "browse_words_use_the_browser",
        "steering_block": True,
        "notice": False,
        "ledger": ["ts"],
        "ttsr": False,
        "rearmed": 1,
        "notice_after_forget": True,
    }


def test_memory_url_does_not_outlive_the_process(root: Path) -> None:
    """memory:// keeps nothing: the second process starts afresh (the reason the others exist)."""
    _step(root, "memory://", "first")
    second = _step(root, "memory://", "second")
    assert second["refused"] is False and second["notice"] is True
