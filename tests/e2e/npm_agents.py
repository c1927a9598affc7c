"""The real CLI agents of the end-to-end tests, installed from the npm registry at pinned versions.

``agent_cli("codex")`` returns the path of the agent's executable, installing
its package into a cache on first use (``$RULEWEAVE_E2E_CACHE``, else
``~/.cache/ruleweave-e2e``; one folder per package and version, so runs after
the first install nothing). Parallel test processes install once: the cache
holds a lock file. When the install fails because the registry cannot be
reached, the test is skipped with that reason; any other failure fails it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

AGENTS: dict[str, tuple[str, str, str]] = {
    "codex": ("@openai/codex", "0.171.0", "codex"),
    "gemini": ("@google/gemini-cli", "0.61.0", "gemini"),
    "qwen": ("@qwen-code/qwen-code", "0.24.4", "qwen"),
    "cline": ("cline", "3.0.65", "cline"),
    "opencode": ("opencode-ai", "1.18.33", "opencode"),
}
"""Agent → (npm package, pinned version, executable name)."""

_HOME = Path.home()
"""The home at import time: tests give each agent a home of its own, the cache outlives them."""

INSTALL_TIMEOUT = 600
"""Seconds one ``npm install`` may take (a first install downloads up to ~450 MB)."""


def cache_dir() -> Path:
    """Where the packages are installed."""
    given = os.environ.get("RULEWEAVE_E2E_CACHE")
    return Path(given) if given else _HOME / ".cache" / "ruleweave-e2e"


def agent_cli(agent: str) -> Path:
    """The executable of ``agent`` (a key of ``AGENTS``), installed first if need be.

    Raises:
        pytest.skip.Exception: npm is missing or the registry cannot be reached.
        RuntimeError: The install failed for another reason.
    """
    package, version, program = AGENTS[agent]
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(f"npm is not installed, so the real {agent} CLI cannot be installed")
    prefix = cache_dir() / f"{package.replace('/', '+')}@{version}"
    executable = prefix / "node_modules" / ".bin" / program
    if executable.exists():
        return executable
    prefix.mkdir(parents=True, exist_ok=True)
    with open(prefix.parent / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if executable.exists():  # another process installed it while this one waited
            return executable
        done = subprocess.run(
            [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--no-save",
             f"{package}@{version}"],
            capture_output=True, text=True, timeout=INSTALL_TIMEOUT, check=False,
        )
    if done.returncode == 0 and executable.exists():
        return executable
    if _unreachable(done.stderr):
        pytest.skip(f"the npm registry cannot be reached, so {package}@{version} cannot be installed: "
                    f"{done.stderr.strip().splitlines()[-1] if done.stderr.strip() else 'no output'}")
    raise RuntimeError(f"npm install {package}@{version} failed ({done.returncode}): {done.stderr[-2000:]}")


def _unreachable(stderr: str) -> bool:
    """Whether npm failed for want of the registry (no network, DNS, refused, timed out)."""
    return any(code in stderr for code in ("ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT",
                                           "ECONNRESET", "ENETUNREACH", "network"))
