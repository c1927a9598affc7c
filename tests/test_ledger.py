"""The notice ledger: which notices went with which tool call, re-applied and re-armed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from tests.conftest import WriteTree

REPO = {
    ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\n---\nUse strict TypeScript.",
    ".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nType every function.",
    "services/api/AGENTS.md": "API service: run `make api-test`.",
    "src/app.ts": "export {}",
}


@pytest.fixture
def ruleset(write_tree: WriteTree) -> RuleSet:
    return RuleSet.load(RuleweaveConfig(cwd=write_tree(REPO), builtin_rules=False))


def test_notices_for_returns_what_a_call_carried(ruleset: RuleSet) -> None:
    """notices_for(call_id) gives back exactly the notice that call's result carried."""
    session = ruleset.session("s")
    first = session.after_tool_call("read", {"path": "src/app.ts"}, call_id="c1")
    assert first is not None
    assert session.after_tool_call("read", {"path": "src/app.ts"}, call_id="c2") is None
    again = session.notices_for("c1")
    assert again is not None
    assert again.text == first.text
    assert [i.name for i in again.items] == ["ts"]
    assert session.notices_for("c2") is None
    assert session.notices_for("never") is None


def test_forget_calls_rearms_exactly_those_notices(ruleset: RuleSet) -> None:
    """Forgetting a call re-arms only the notices it carried; others stay given."""
    session = ruleset.session("s")
    assert session.after_tool_call("read", {"path": "src/app.ts"}, call_id="c1")
    assert session.after_tool_call("read", {"path": "tools/gen.py"}, call_id="c2")
    assert session.after_tool_call("read", {"path": "services/api/main.py"}, call_id="c3")
    rearmed = session.forget_calls(["c1", "c3"])
    assert len(rearmed) == 2
    back = session.after_tool_call("read", {"paths": ["src/x.ts", "x.py", "services/api/y.py"]})
    assert back is not None
    assert sorted(i.name for i in back.items) == ["services/api/AGENTS.md", "ts"]
    assert session.notices_for("c1") is None
    assert session.notices_for("c2") is not None


def test_forgetting_an_unknown_call_rearms_nothing(ruleset: RuleSet) -> None:
    """An id the ledger does not know re-arms nothing."""
    session = ruleset.session("s")
    session.after_tool_call("read", {"path": "src/app.ts"}, call_id="c1")
    assert session.forget_calls(["zzz"]) == ()
    assert session.after_tool_call("read", {"path": "src/app.ts"}) is None


def test_compacted_clears_the_ledger(ruleset: RuleSet) -> None:
    """After compacted() no call holds a notice, and every notice comes back."""
    session = ruleset.session("s")
    session.after_tool_call("read", {"path": "src/app.ts"}, call_id="c1")
    session.compacted()
    assert session.notices_for("c1") is None
    assert session.after_tool_call("read", {"path": "src/app.ts"}, call_id="c2") is not None


def test_the_ledger_is_shared_through_the_store(ruleset: RuleSet) -> None:
    """A second session object on the same id and store sees the first one's ledger."""
    one = ruleset.session("s")
    one.after_tool_call("read", {"path": "src/app.ts"}, call_id="c1")
    other = ruleset.session("s")
    assert other.notices_for("c1") is not None
    assert other.forget_calls(["c1"])
    assert one.after_tool_call("read", {"path": "src/app.ts"}) is not None


def test_async_twins(ruleset: RuleSet) -> None:
    """anotices_for and aforget_calls behave like their sync twins."""
    session = ruleset.session("s")

    async def main() -> None:
        assert await session.aafter_tool_call("read", {"path": "src/app.ts"}, call_id="c1")
        found = await session.anotices_for("c1")
        assert found is not None and [i.name for i in found.items] == ["ts"]
        assert await session.aforget_calls(["c1"])
        assert await session.aafter_tool_call("read", {"path": "src/app.ts"}) is not None

    asyncio.run(main())


def test_a_removed_rule_is_left_out_of_notices_for(write_tree: WriteTree) -> None:
    """A record naming a rule the reloaded rule set no longer has is skipped, not raised on."""
    root = write_tree(REPO)
    first = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False))
    first.session("s").after_tool_call("read", {"path": "src/app.ts"}, call_id="c1")
    (root / ".cursor/rules/ts.mdc").unlink()
    reloaded = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False, store=first.store))
    assert reloaded.session("s").notices_for("c1") is None


def test_parallel_claims_are_recorded_once(ruleset: RuleSet) -> None:
    """Of two calls racing for one rule, only the winner's ledger entry holds it."""
    session = ruleset.session("s")
    a = session.after_tool_call("read", {"path": "src/a.ts"}, call_id="a")
    b = session.after_tool_call("read", {"path": "src/b.ts"}, call_id="b")
    assert (a is None) != (b is None)
    assert (session.notices_for("a") is None) != (session.notices_for("b") is None)


def test_instruction_file_notices_round_trip(ruleset: RuleSet, tmp_path: Path) -> None:
    """A nested instruction file's notice comes back from the ledger with its body."""
    session = ruleset.session("s")
    first = session.after_tool_call("read", {"path": "services/api/main.go"}, call_id="c1")
    assert first is not None and "make api-test" in first.text
    again = session.notices_for("c1")
    assert again is not None and again.text == first.text


def test_ledger_records_are_the_records_of_the_notices(write_tree: WriteTree) -> None:
    """What the store keeps for each notice a call won is ``ledger.record`` of it, to the byte: a rule
    whose name needs escaping, a nested instruction file, and the same rule won again after a release
    (its record's head made once per source, its trigger per call)."""
    from ruleweave import MemoryStore
    from ruleweave._kernel import ledger

    root = write_tree({
        '.cursor/rules/qu"o\\te-é.mdc': "---\nglobs: src/**/*.ts\n---\nUse strict TypeScript.",
        "services/api/AGENTS.md": "API service: run `make api-test`.",
    })
    store = MemoryStore()
    session = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False)).session("s", store=store)

    def check(calls: dict[str, str]) -> list[str]:
        records = []
        for call_id, rel in calls.items():
            injection = session.after_tool_call("read", {"path": rel}, call_id=call_id)
            assert injection is not None and {i.trigger for i in injection.items} == {rel}
            expected = [ledger.record(i.kind, i.name, i.path, i.trigger, i.glob) for i in injection.items]
            assert [record for _, record in store.ledger("s", [call_id])[call_id]] == expected
            records += expected
        return records

    first = check({"c1": "src/app.ts", "c2": "services/api/main.go"})
    assert first[0].startswith('["rule", "qu\\"o\\\\te-é", ') and first[1].startswith('["instructions", ')
    session.compacted()  # the ledger starts over; the rule is won again, by another path
    (again,) = check({"c3": "src/deep/other.ts"})
    assert again.startswith('["rule", "qu\\"o\\\\te-é", ') and '"src/deep/other.ts"' in again
