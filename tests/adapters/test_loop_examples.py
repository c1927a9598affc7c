"""The hand-written-loop examples run offline and show refusals, notices and streamed-rule retries."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """Run an example as ``__main__`` in this process (the SDKs are imported once for the whole run)."""
    monkeypatch.setattr("sys.argv", [name])
    runpy.run_path(str(EXAMPLES / name), run_name="__main__")
    return capsys.readouterr().out


def test_custom_loop_sends_refusals_without_notices(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dict loops answer refused calls in the next message, without notices, in all three formats."""
    out = run("custom_loop.py", capsys, monkeypatch)
    assert "tool_result toolu_3: refused by no-float-money" in out
    assert "function_call_output call_1: [rule: frontend/components]" in out
    assert "function_call_output call_2: refused by no-float-money" in out
    assert out.count("assistant: ") == 3


def test_sdk_loops_retry_streams_with_the_rule(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each SDK loop stops the stream on the rule, asks again with it, and gets the notices after."""
    out = run("sdk_loops.py", capsys, monkeypatch)
    assert out.count("stream stopped by no-float-money; asking again") == 3
    assert out.count(": True") == 3 and ": False" not in out
    for line in ("tool_result toolu_2: [rule: python-style]", "tool call_2: [rule: python-style]",
                 "function_call_output call_2: [rule: python-style]"):
        assert line in out
