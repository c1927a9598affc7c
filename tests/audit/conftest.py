"""Helpers for the audit tests: run ``ruleweave audit`` in-process and read its JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from ruleweave.cli import main

Audit = Callable[..., tuple[int, Any, str]]


@pytest.fixture
def run_audit(capsys: pytest.CaptureFixture[str]) -> Audit:
    """``ruleweave audit ARGS…``: (exit code, parsed JSON with ``--json`` else the text, stderr)."""

    def run(*args: str) -> tuple[int, Any, str]:
        code = main(["audit", *args])
        out, err = capsys.readouterr()
        return code, json.loads(out) if "--json" in args and code in (0, 1) else out, err

    return run
