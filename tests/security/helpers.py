"""Shared by the security tests: hang detection, FIFOs that cannot stay blocked, hostile trees."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

import pytest

from ruleweave import RuleSet, RuleweaveConfig

T = TypeVar("T")

HANG = 20.0
"""Seconds after which a call counts as hung: a hang detector, never a timing assertion."""


def returns_within(seconds: float, call: Callable[[], T], *, unblock: Callable[[], None] | None = None) -> T:
    """``call()``'s result; fails the test when it has not returned after ``seconds``.

    Args:
        seconds: A generous bound (see ``HANG``).
        call: What must not hang.
        unblock: Run before failing, to free the stuck thread (open a FIFO's other end).
    """
    result: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            result.append(call())
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        if unblock is not None:
            unblock()
        pytest.fail(f"the call did not return within {seconds} s", pytrace=False)
    if errors:
        raise errors[0]
    return result[0]


def unblock_fifo(path: Path) -> Callable[[], None]:
    """Something that opens both ends of the FIFO at ``path``, releasing whoever waits on it."""

    def release() -> None:
        for flags in (os.O_WRONLY | os.O_NONBLOCK, os.O_RDONLY | os.O_NONBLOCK):
            with suppress(OSError):
                os.close(os.open(path, flags))

    return release


@contextmanager
def fifo(path: Path) -> Iterator[Path]:
    """A FIFO at ``path`` for the block; both of its ends are opened afterwards so nothing stays stuck."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    try:
        yield path
    finally:
        unblock_fifo(path)()


def load(root: Path, **options: Any) -> RuleSet:
    """The rule set of ``root`` with the given options (built-in rules off unless asked for)."""
    options.setdefault("builtin_rules", False)
    return RuleSet.load(RuleweaveConfig(cwd=root, **options))


def write(root: Path, files: dict[str, str]) -> Path:
    """Write ``{relative path: text}`` under ``root``; returns ``root``."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


RULEWEAVE = str(Path(sys.executable).parent / "ruleweave")
"""The console script the package installs (what Claude Code runs)."""


def run_hook(payload: dict[str, Any] | bytes, state: Path, **env: str) -> tuple[int, str, str]:
    """Run ``ruleweave hook claude-code`` as Claude Code does; returns (exit code, stdout, stderr).

    Args:
        payload: The event (a dict is sent as JSON).
        state: The hook's state directory (``RULEWEAVE_STATE_DIR``).
        env: More environment variables.
    """
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    done = subprocess.run(
        [RULEWEAVE, "hook", "claude-code"], input=data, capture_output=True, timeout=120, check=False,
        env={**os.environ, "RULEWEAVE_STATE_DIR": str(state), **env},
    )
    out, err = done.stdout.decode("utf-8", "backslashreplace"), done.stderr.decode(errors="replace")
    return done.returncode, out, err
