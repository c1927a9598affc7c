"""LangChain as its users run it: the usual fake model, invoke, restarts, summaries, forks, HITL."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage, RemoveMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from ruleweave import MemoryStore, RuleweaveConfig
from ruleweave.adapters.langchain import NOTICES_KEY, RuleweaveMiddleware
from tests.adapters.fixtures import SPEC
from tests.adapters.test_langchain import (
    NOTICE,
    RETRY_TEXT,
    RULES,
    ScriptedModel,
    ask,
    calling,
    file_tools,
    read,
    system_of,
    thread,
    tool_results,
)
from tests.conftest import WriteTree


class ListModel(FakeMessagesListChatModel):
    """LangChain's own list-replaying fake (it keeps its position on the instance), with tools."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ListModel:
        """Tools are scripted, so binding them changes nothing."""
        return self


@pytest.fixture
def repo(write_tree: WriteTree) -> Path:
    return write_tree(RULES)


def middleware(root: Path, **options: Any) -> RuleweaveMiddleware:
    return RuleweaveMiddleware(RuleweaveConfig(cwd=root, builtin_rules=False), **options)


def agent_with(root: Path, model: Any, mw: RuleweaveMiddleware, **options: Any) -> Any:
    return create_agent(model, file_tools(root), middleware=[mw], **options)


def notices(state: dict[str, Any]) -> list[bool]:
    return [NOTICE in str(m.content) for m in tool_results(state)]


def test_fake_messages_list_model_finishes(repo: Path) -> None:
    """The usual test double finishes in three steps: the middleware never copies the model."""
    replies: list[BaseMessage] = [
        calling(read("c1", "src/app.ts")), calling(read("c2", "README.md")), AIMessage("done"),
    ]
    model = ListModel(responses=replies)
    state = agent_with(repo, model, middleware(repo)).invoke(ask("look"), {"recursion_limit": 12})
    assert state["messages"][-1].content == "done"
    assert notices(state) == [True, False]


def test_a_whole_reply_is_checked_when_nothing_streams(repo: Path) -> None:
    """With invoke(), a reply matching an interrupting prose rule is dropped and retried."""
    model = ScriptedModel(messages=iter([AIMessage("so var x = 1"), AIMessage("so const x = 1")]))
    state = agent_with(repo, model, middleware(repo)).invoke(ask("go"))
    assert len(model.calls) == 2
    assert RETRY_TEXT in system_of(model.calls[1])
    assert state["messages"][-1].content == "so const x = 1"


async def test_a_whole_reply_is_checked_async(repo: Path) -> None:
    """ainvoke() checks the whole reply the same way."""
    model = ScriptedModel(messages=iter([AIMessage("so var x = 1"), AIMessage("so const x = 1")]))
    state = await agent_with(repo, model, middleware(repo)).ainvoke(ask("go"))
    assert len(model.calls) == 2
    assert state["messages"][-1].content == "so const x = 1"


def test_a_restart_on_the_same_checkpointer_does_not_repeat(repo: Path) -> None:
    """A fresh middleware (new process, empty store) on the same checkpointer gives no notice twice."""
    saver = InMemorySaver()
    first = ScriptedModel(messages=iter([calling(read("c1", "src/app.ts")), AIMessage("done")]))
    agent_with(repo, first, middleware(repo), checkpointer=saver).invoke(ask("look"), thread("t"))
    second = ScriptedModel(messages=iter([calling(read("c2", "src/util.ts")), AIMessage("done")]))
    state = agent_with(repo, second, middleware(repo), checkpointer=saver).invoke(
        ask("again"), thread("t")
    )
    assert notices(state) == [True, False]


def test_same_thread_without_a_checkpointer_gets_the_notice_again(repo: Path) -> None:
    """Without a checkpointer each invoke starts a fresh history, so the notice comes again."""
    mw = middleware(repo)
    for _ in range(2):
        model = ScriptedModel(messages=iter([calling(read("c1", "src/app.ts")), AIMessage("done")]))
        state = agent_with(repo, model, mw).invoke(ask("look"), thread("t"))
        assert notices(state) == [True]


def test_a_summary_that_drops_the_notice_brings_it_back(repo: Path) -> None:
    """When the ToolMessage carrying a notice leaves the history, the rule is given again."""
    saver = InMemorySaver()
    mw = middleware(repo)
    model = ScriptedModel(messages=iter([calling(read("c1", "src/app.ts")), AIMessage("done")]))
    agent = agent_with(repo, model, mw, checkpointer=saver)
    state = agent.invoke(ask("look"), thread("t"))
    dropped = [m for m in state["messages"] if isinstance(m, ToolMessage) or m.type == "ai"]
    agent.update_state(thread("t"), {"messages": [RemoveMessage(id=m.id) for m in dropped if m.id]})
    model2 = ScriptedModel(messages=iter([calling(read("c2", "src/util.ts")), AIMessage("done")]))
    agent2 = agent_with(repo, model2, mw, checkpointer=saver)
    state = agent2.invoke(ask("again"), thread("t"))
    assert notices(state) == [True]
    assert "c2" in agent2.get_state(thread("t")).values[NOTICES_KEY].values()


def test_a_fork_from_before_the_notice_gets_it(repo: Path) -> None:
    """Replaying from a checkpoint taken before the notice, the forked branch gets the rule."""
    saver = InMemorySaver()
    mw = middleware(repo)
    replies = [calling(read("c1", "src/app.ts")), AIMessage("done"),
               calling(read("c9", "src/util.ts")), AIMessage("done again")]
    agent = agent_with(repo, ScriptedModel(messages=iter(replies)), mw, checkpointer=saver)
    agent.invoke(ask("look"), thread("t"))
    history = list(agent.get_state_history(thread("t")))
    before = next(s for s in reversed(history) if s.values.get("messages") and
                  len(s.values["messages"]) == 1)
    forked = agent.invoke(None, before.config)
    assert [NOTICE in str(m.content) for m in tool_results(forked)] == [True]


def test_steering_survives_a_human_in_the_loop_resume(write_tree: WriteTree) -> None:
    """After a HITL pause on delete_file, resuming with a fresh middleware still refuses it."""
    root = write_tree({**RULES, ".ruleweave/skill.spec.yml": SPEC})
    saver = InMemorySaver()
    replies = [calling(("delete_file", "d1", {"path": "README.md"})), AIMessage("ok")]
    hitl = HumanInTheLoopMiddleware(interrupt_on={"delete_file": True})
    first: Any = create_agent(ScriptedModel(messages=iter(replies)), file_tools(root),
                         middleware=[middleware(root), hitl], checkpointer=saver)
    first.invoke(ask("please clean up the repo"), thread("h"))
    assert (root / "README.md").exists()
    resumed: Any = create_agent(ScriptedModel(messages=iter([AIMessage("ok")])), file_tools(root),
                           middleware=[middleware(root, store=MemoryStore()), hitl],
                           checkpointer=saver)
    state = resumed.invoke(Command(resume={"decisions": [{"type": "approve"}]}), thread("h"))
    assert (root / "README.md").exists()
    [refused] = tool_results(state)
    assert "never_delete_files" in str(refused.content)


def test_read_rule_tool_serves_rule_uris(repo: Path) -> None:
    """The middleware brings a read_rule tool; it answers with the rule, or the names there are."""
    replies = [
        calling(("read_rule", "r1", {"name": "rule://migrations"}), ("read_rule", "r2", {"name": "nope"})),
        AIMessage("done"),
    ]
    state = agent_with(repo, ScriptedModel(messages=iter(replies)), middleware(repo)).invoke(ask("x"))
    found, missing = tool_results(state)
    assert found.content == "[rule: migrations]\nMigrations are append-only."
    assert "No rule named 'nope'" in str(missing.content) and "migrations" in str(missing.content)


def test_read_rule_tool_can_be_turned_off(repo: Path) -> None:
    """read_rule_tool=False registers no tool."""
    assert middleware(repo, read_rule_tool=False).tools == []
    assert [t.name for t in middleware(repo).tools] == ["read_rule"]
