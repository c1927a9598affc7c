"""What the OpenCode tests share: Node, to run the plugin as OpenCode would."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture
def node() -> str:
    """The ``node`` on ``PATH`` (OpenCode runs plugins in its own Bun; Node runs the same module)."""
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not installed, so the plugin cannot be run outside OpenCode")
    return found
