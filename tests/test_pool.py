"""SessionPool and bounded memory: sessions by id, LRU and idle bounds, caches that stay bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave import ArgumentTypeError, ConfigError, MemoryStore, RuleSet, RuleweaveConfig, SessionPool
from ruleweave.instructions.nested import CACHED_DIRECTORIES, CACHED_PARENTS
from ruleweave.prompt.parts import CACHED_PROMPTS
from tests.conftest import WriteTree

REPO = {
    ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\n---\nUse strict TypeScript.",
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nBe concise.",
    "services/api/AGENTS.md": "API service.",
}


class Clock:
    """A settable monotonic clock."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def ruleset(write_tree: WriteTree) -> RuleSet:
    return RuleSet.load(RuleweaveConfig(cwd=write_tree(REPO), builtin_rules=False))


def test_same_id_same_session_shared_store(ruleset: RuleSet) -> None:
    """get() returns one session per id, all over the pool's one store."""
    pool = SessionPool(ruleset)
    assert pool.get("a") is pool.get("a")
    assert pool.get("a") is not pool.get("b")
    assert pool.get("a").store is pool.get("b").store is ruleset.store


def test_lru_bound_drops_objects_not_state(ruleset: RuleSet) -> None:
    """Past max_sessions the least recent session object goes; its state survives in the store."""
    pool = SessionPool(ruleset, max_sessions=2)
    first = pool.get("a")
    assert first.after_tool_call("read", {"path": "src/app.ts"}) is not None
    pool.get("b")
    pool.get("c")
    assert len(pool) == 2 and "a" not in pool
    again = pool.get("a")
    assert again is not first
    assert again.after_tool_call("read", {"path": "src/app.ts"}) is None


def test_idle_sessions_are_dropped(ruleset: RuleSet) -> None:
    """A session unused for idle_ttl seconds is dropped on the next get()."""
    clock = Clock()
    pool = SessionPool(ruleset, idle_ttl=10, clock=clock)
    pool.get("a")
    clock.now = 5
    pool.get("b")
    clock.now = 12
    pool.get("b")
    assert "a" not in pool and "b" in pool


def test_drop_with_forget_state(ruleset: RuleSet) -> None:
    """drop(forget_state=True) also forgets the session in the store."""
    pool = SessionPool(ruleset)
    pool.get("a").after_tool_call("read", {"path": "src/app.ts"})
    pool.drop("a", forget_state=True)
    assert pool.get("a").after_tool_call("read", {"path": "src/app.ts"}) is not None


def test_bad_arguments(ruleset: RuleSet) -> None:
    """Bad bounds are ConfigError; a non-string id is ArgumentTypeError."""
    with pytest.raises(ConfigError):
        SessionPool(ruleset, max_sessions=0)
    with pytest.raises(ConfigError):
        SessionPool(ruleset, ttsr_retries=-1)
    with pytest.raises(ArgumentTypeError):
        SessionPool(ruleset).get(None)  # type: ignore[arg-type]


def test_memory_store_is_bounded_and_forgets() -> None:
    """MemoryStore keeps at most max_sessions, drops idle ones, and forget() drops one."""
    clock = Clock()
    store = MemoryStore(max_sessions=100, idle_ttl=60, clock=clock)
    for i in range(10_000):
        store.claim(f"s{i}", "inject:x")
    assert len(store) == 100
    assert store.claim("s9999", "inject:x") is False
    assert store.claim("s0", "inject:x") is True
    store.forget("s9999")
    assert store.claim("s9999", "inject:x") is True
    clock.now = 61
    store.claim("fresh", "k")
    assert len(store) == 1


def test_ten_thousand_sessions_and_a_hundred_thousand_directories(write_tree: WriteTree) -> None:
    """Caches stay at their documented bounds under 10,000 sessions and 100,000 invented dirs."""
    root = write_tree(REPO)
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False))
    pool = SessionPool(ruleset, max_sessions=256)
    for i in range(10_000):
        session = pool.get(f"thread-{i}")
        session.after_tool_call("read", {"path": f"src/d{i}/x{i}.ts"})
    assert len(pool) == 256
    assert len(ruleset.store) <= 10_000  # type: ignore[arg-type]
    session = pool.get("walker")
    for i in range(100_000):
        session.after_tool_call("read", {"path": f"gen/a{i % 997}/b{i}/c.txt"})
    nested = ruleset.nested
    assert len(nested._by_parent) == CACHED_PARENTS
    assert len(nested._cache) <= CACHED_DIRECTORIES
    for i in range(CACHED_PROMPTS * 3):
        ruleset.prompt_parts(f"custom prompt {i}")
    assert len(ruleset.prompts._cache) == CACHED_PROMPTS
    # The bound forgets answers, never correctness: a nested file is still found.
    found = session.after_tool_call("read", {"path": "services/api/main.py"})
    assert found is not None and found.items[0].name == "services/api/AGENTS.md"


def test_store_keeps_a_session_until_its_bound(tmp_path: Path) -> None:
    """The default MemoryStore bound (10,000 sessions) keeps every session of a busy process."""
    store = MemoryStore()
    for i in range(10_000):
        store.put(f"s{i}", "k", "v")
    assert store.get("s0", "k") == "v"
