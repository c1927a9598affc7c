"""The examples run offline as documented and show what they claim."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(name: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_demo() -> None:
    """make demo's script shows the scan, the prompt with its budget, and once-only notices."""
    out = run("demo.py")
    assert "1. ruleweave scan" in out and "python-style" in out
    assert "<generic-rules>" in out and "-- prompt:" in out and "-- instructions:" in out
    assert "call 2: read_file services/api/handlers.py -> python-style" in out
    assert "call 3: read_file services/api/store.py -> nothing new" in out
    assert "call 6: write_file db/migrations/0004_drop_legacy.sql -> sql-migrations" in out


def test_quickstart() -> None:
    """The README's snippet (examples/quickstart.py) runs as written and gets its notice."""
    out = run("quickstart.py")
    assert "system prompt: " in out and "refused: no" in out
    assert "[rule: typescript]" in out


def test_readme_snippet_is_the_quickstart() -> None:
    """The Python snippet at the top of the README is examples/quickstart.py, line for line."""
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    snippet = readme.split("```python\n", 1)[1].split("```\n", 1)[0]
    assert snippet in (EXAMPLES / "quickstart.py").read_text(encoding="utf-8")


def test_custom_loop(tmp_path: Path) -> None:
    """Both wire formats get notices on the first touch only, and the log replays clean."""
    log = tmp_path / "events.jsonl"
    out = run("custom_loop.py", "--event-log", str(log))
    assert "tool_result toolu_1: [rule: python-style]" in out
    assert "tool_result toolu_2: no notice" in out
    assert "tool call_1: [rule: typescript]" in out
    from ruleweave.testing import assert_replays

    assert_replays(log)


@pytest.mark.parametrize(
    "name", ["langchain_agent.py", "openai_agents_agent.py", "pydantic_ai_agent.py", "mcp_client.py"]
)
def test_framework_examples(name: str, tmp_path: Path) -> None:
    """The framework examples run offline with their scripted models."""
    out = run(name, "--event-log", str(tmp_path / "events.jsonl"))
    assert "[rule:" in out
