"""Phrase matching as the reference does it: a table of inputs and the decisions they must produce.

Lowercasing only (no case folding), literal spaces, word boundaries checked on
the lowercased text; plus ruleweave's one deliberate fix, overlapping phrases.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave.steering import SkillSpec, decide
from tests.steering.helpers import load

BODY = """\
rules:
  - id: build
    when: {user_says_any: [build]}
    prefer: browser
  - id: sync
    when: {user_says_any: [" in sync "]}
  - id: social
    when: {user_says_any: [social profile]}
  - id: keep
    when: {user_says_any: [keep]}
  - id: laugh
    when: {user_says_any: [ha ha]}
  - id: repo
    when: {user_says_any: [repo]}
  - id: city
    when: {user_says_any: [istanbul]}
  - id: long_running
    when: {command_likely_long_running: true}
"""

# input → (route, matched rules)
TABLE: dict[str, tuple[str, tuple[str, ...]]] = {
    # case: only lowercasing, as Rust's to_lowercase / Python's str.lower
    "BUILD it now": ("browser", ("build", "long_running")),
    "Build": ("browser", ("build", "long_running")),
    "BUILDİNG": ("local_cli", ()),  # İ lowercases to i + a combining dot: a word character follows
    "buildİ": ("local_cli", ()),
    "İstanbul": ("local_cli", ()),  # i̇stanbul is not istanbul
    "ISTANBUL": ("local_cli", ("city",)),
    "ſocial profile": ("local_cli", ()),  # long s is not s: no case folding
    "SOCIAL PROFILES": ("local_cli", ("social",)),  # plural s
    "\u212aeep it": ("local_cli", ("keep",)),  # the Kelvin sign lowercases to k
    "build\u212a": ("local_cli", ()),  # ...so it is a word character after "build"
    "ıs the repo ın sync": ("local_cli", ("repo",)),  # dotless ı is not i
    # boundaries: ASCII letters, digits and _ only
    "repoを同期": ("local_cli", ("repo",)),
    "my_repo": ("local_cli", ()),
    "repo2": ("local_cli", ()),
    "(repo)": ("local_cli", ("repo",)),
    "déjà-build": ("browser", ("build", "long_running")),
    # spaces are literal; the phrase itself is trimmed
    "is the repo in sync": ("local_cli", ("sync", "repo")),
    "is it in  sync": ("local_cli", ()),
    "is it in\tsync": ("local_cli", ()),
    "is it in\nsync": ("local_cli", ()),
    "is it in\u00a0sync": ("local_cli", ()),
    # ruleweave's deliberate fix: every occurrence is tried (the reference misses this one)
    "xha ha ha": ("local_cli", ("laugh",)),
    "ha ha": ("local_cli", ("laugh",)),
    "xha ha": ("local_cli", ()),
}


@pytest.fixture
def spec(tmp_path: Path) -> SkillSpec:
    """The table's document."""
    return load(tmp_path, BODY)


@pytest.mark.parametrize(("text", "expected"), TABLE.items(), ids=[repr(k) for k in TABLE])
def test_decision_for_input(spec: SkillSpec, text: str, expected: tuple[str, tuple[str, ...]]) -> None:
    """Each input selects the expected route and matches exactly the expected rules."""
    decision = decide(spec, text)
    assert (decision.route, decision.matched_rules) == expected
