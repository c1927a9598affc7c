"""``MemoryStore`` in a long-lived process: bounded per session and in total, never a notice repeated."""

from __future__ import annotations

import gc
import os
from pathlib import Path

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from tests.conftest import WriteTree


def _rss_bytes() -> int:
    """The process's resident set now (not its peak): ``/proc/self/statm``."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _ruleset(write_tree: WriteTree, rules: int) -> tuple[RuleSet, Path]:
    files = {
        f".cursor/rules/r{i:03d}.mdc": f"---\ndescription: area {i}\nglobs: src/a{i}/**\n---\nArea {i}.\n"
        for i in range(rules)
    }
    root = write_tree(files)
    return RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False)), root


def test_ten_thousand_sessions_stay_bounded_and_never_repeat_a_notice(write_tree: WriteTree) -> None:
    """10,000 sessions × 20 calls: the store holds at most ``max_sessions``, its memory stops growing
    once it is full, and no notice comes twice while its session is held."""
    ruleset, root = _ruleset(write_tree, 40)
    store = MemoryStore(max_sessions=1_000)
    rss: dict[int, int] = {}
    for n in range(10_000):
        session = ruleset.session(f"conversation-{n}", store=store)
        given: list[str] = []
        for call in range(20):
            area = (n + call * 7) % 40
            injection = session.after_tool_call(
                "read_file", {"path": f"{root}/src/a{area}/f{call % 3}.py"}, call_id=f"c{call}"
            )
            if injection is not None:
                given.extend(item.key for item in injection.items)
        # 20 calls in 20 distinct areas (7 is prime to 40): each notice once, none twice.
        assert len(given) == len(set(given)) == 20
        if n in (4_999, 9_999):
            gc.collect()
            rss[n] = _rss_bytes()
    assert len(store) == 1_000
    # Full since session 1,000: the second 5,000 sessions add nothing but churn.
    assert rss[9_999] - rss[4_999] < 4 << 20, rss


def test_a_long_session_keeps_the_newest_calls_records_and_never_repeats_a_notice(
    write_tree: WriteTree,
) -> None:
    """Past ``max_calls`` calls the oldest call's record goes (``forget_calls`` cannot re-arm it), but
    its notice stays claimed: touched again, it does not come again."""
    ruleset, root = _ruleset(write_tree, 30)
    store = MemoryStore(max_calls=10)
    session = ruleset.session("long", store=store)
    for area in range(30):
        path = f"{root}/src/a{area}/x.py"
        injection = session.after_tool_call("read_file", {"path": path}, call_id=f"c{area}")
        assert injection is not None and [item.name for item in injection.items] == [f"r{area:03d}"]
    assert set(store.ledger("long", [f"c{area}" for area in range(30)])) == {f"c{a}" for a in range(20, 30)}
    for area in range(30):
        assert session.after_tool_call("read_file", {"path": f"{root}/src/a{area}/y.py"}) is None
    assert session.forget_calls(["c0"]) == ()
    assert session.forget_calls(["c29"]) != ()
    again = session.after_tool_call("read_file", {"path": f"{root}/src/a29/z.py"})
    assert again is not None and [item.name for item in again.items] == ["r029"]
