"""``ruleweave hook <agent>`` on input no agent sends, for every host: it never fails the agent.

An agent acts on a hook's exit code (Claude Code, Codex, Qwen Code and Gemini CLI block on exit 2) and
on any JSON it prints (a deny, a block), so garbage in is exit 0 and nothing out. Input of an agent's
own shape with wrong fields is tested in ``tests/hosts/<agent>/test_hook.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave.hosts import HOSTS
from tests.hosts.running import hook


@pytest.mark.parametrize("agent", HOSTS)
@pytest.mark.parametrize("stdin", ["", "not json", "[1, 2]", "{}", b"\xff\xfe\x00"])
def test_garbage_in_is_exit_0_and_no_answer(agent: str, stdin: str | bytes, tmp_path: Path) -> None:
    """Empty input, text that is not JSON, a JSON list, an empty object, bytes that are not UTF-8."""
    done = hook(agent, stdin, tmp_path / "state", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, b""), done.stderr.decode()
