"""Shared builders for steering tests: spec text and files in tmp_path."""

from __future__ import annotations

import textwrap
from pathlib import Path

from ruleweave.steering import SkillSpec, load_spec

HEADER = """\
schema: skillspec/v0
id: test.skill
title: Test skill
description: A skill used by the tests.
"""

ROUTES = """\
routes:
  - id: local_cli
    label: Local CLI
    rank: 1
  - id: browser
    label: Browser
    rank: 2
"""


def spec_text(body: str, *, routes: bool = True) -> str:
    """A document: the header, two routes (unless ``routes=False``) and ``body``."""
    return HEADER + (ROUTES if routes else "") + textwrap.dedent(body)


def write_spec(
    tmp_path: Path, body: str, *, routes: bool = True, name: str = "skill.spec.yml"
) -> Path:
    """Write a document built by :func:`spec_text` and return its path."""
    path = tmp_path / name
    path.write_text(spec_text(body, routes=routes), encoding="utf-8")
    return path


def load(tmp_path: Path, body: str, *, routes: bool = True) -> SkillSpec:
    """Write and load a valid document."""
    return load_spec(write_spec(tmp_path, body, routes=routes))
