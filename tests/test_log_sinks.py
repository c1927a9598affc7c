"""structlog is imported only when a log record would reach a handler."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

from ruleweave.log import LibraryLogger, has_sink
from tests.conftest import WriteTree

# A frontmatter line that cannot be read: a warning (repairing the unquoted globs alone is silent).
BAD_RULE = {".cursor/rules/bad.mdc": "---\ndescription: a: b: c\nglobs: **/*.ts, *.tsx\n[lost\n---\nX"}


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_a_load_with_warnings_and_no_logging_does_not_import_structlog(write_tree: WriteTree) -> None:
    """Repair warnings nobody handles are not rendered: structlog stays unimported."""
    root = write_tree(BAD_RULE)
    code = (
        "import sys\n"
        "from ruleweave import RuleSet, RuleweaveConfig\n"
        f"r = RuleSet.load(RuleweaveConfig(cwd={str(root)!r}, builtin_rules=False))\n"
        "r.session('s').after_tool_call('read', {'path': 'a.ts'})\n"
        "print(len(r.warnings), 'structlog' in sys.modules)\n"
    )
    assert _run(code).split() == ["1", "False"]


def test_a_configured_handler_gets_the_warnings_through_structlog(write_tree: WriteTree) -> None:
    """With logging configured, the same warning is rendered (by structlog) and handled."""
    root = write_tree(BAD_RULE)
    code = (
        "import logging, sys\n"
        "logging.basicConfig(stream=sys.stdout, format='%(name)s %(message)s')\n"
        "from ruleweave import RuleSet, RuleweaveConfig\n"
        f"RuleSet.load(RuleweaveConfig(cwd={str(root)!r}, builtin_rules=False))\n"
        "print('structlog' in sys.modules)\n"
    )
    lines = _run(code).splitlines()
    assert lines[-1] == "True"
    assert any(line.startswith("ruleweave.discovery event='discovery_warning'") for line in lines)


def test_has_sink_follows_levels_handlers_and_propagation() -> None:
    """A NullHandler is no sink; a handler up the tree is, unless its level or propagation says no."""
    parent = logging.getLogger("rw-sink-test")
    child = logging.getLogger("rw-sink-test.child")
    handler = logging.StreamHandler()
    parent.propagate = False  # the root logger's handlers (pytest's own) are not part of this test
    try:
        child.addHandler(logging.NullHandler())
        assert not has_sink(child, logging.WARNING)
        parent.addHandler(handler)
        assert has_sink(child, logging.WARNING)
        handler.setLevel(logging.ERROR)
        assert not has_sink(child, logging.WARNING)
        handler.setLevel(logging.NOTSET)
        child.propagate = False
        assert not has_sink(child, logging.WARNING)
    finally:
        parent.removeHandler(handler)
        parent.propagate = child.propagate = True


def test_library_logger_renders_for_a_capturing_handler(caplog: pytest.LogCaptureFixture) -> None:
    """A handler that captures records (pytest's) receives the rendered event."""
    with caplog.at_level(logging.WARNING, logger="rw-sink-test.lib"):
        LibraryLogger("rw-sink-test.lib").warning("something_odd", path="a.md")
    assert [r.getMessage() for r in caplog.records] == ["event='something_odd' path='a.md'"]
