"""RuleweaveMiddleware in a real LangChain ``create_agent`` with a scripted tool-calling model."""

from __future__ import annotations

import importlib
import json
import logging
import re
import sys
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import pytest
from langchain.agents import create_agent
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
)
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_core.tools import BaseTool, InjectedToolCallId, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from pydantic import Field

from ruleweave import ConfigError, MemoryStore, MissingDependencyError, RuleSet, RuleweaveConfig
from ruleweave.adapters.langchain import RuleweaveMiddleware
from ruleweave.store import SessionStore
from tests.adapters.fixtures import SPEC
from tests.conftest import WriteTree

SYSTEM = "You are a careful coding agent."

RULES = {
    ".cursor/rules/ts.mdc": (
        "---\ndescription: TypeScript conventions\nglobs: src/**/*.ts\n---\nUse strict TypeScript in src.\n"
    ),
    ".cursor/rules/small.mdc": "---\nalwaysApply: true\n---\nKeep every change small.\n",
    ".cursor/rules/migrations.mdc": (
        "---\ndescription: How to write database migrations\n---\nMigrations are append-only.\n"
    ),
    ".ruleweave/rules/no-var.md": (
        "---\ncondition: '\\bvar\\s+\\w+'\n---\nDeclare variables with const or let, never var.\n"
    ),
    "src/app.ts": "export const app = 1;\n",
    "src/util.ts": "export const util = 2;\n",
    "README.md": "# demo\n",
}


NOTICE = "[rule: ts]"
RETRY_TEXT = "Declare variables with const or let, never var."


class ScriptedModel(GenericFakeChatModel):
    """Replays scripted replies, streamed as text and tool-call chunks when asked; records each call."""

    calls: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedModel:
        """Tools are scripted, so binding them changes nothing."""
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append(list(messages))
        return super()._generate(messages, stop=stop, **kwargs)

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        reply = self._generate(messages, stop=stop).generations[0].message
        assert isinstance(reply, AIMessage)
        if isinstance(reply.content, list):
            for block in reply.content:
                yield ChatGenerationChunk(message=AIMessageChunk(content=[block], id=reply.id))
        for token in re.split(r"(\s)", reply.content) if isinstance(reply.content, str) else []:
            if token:
                yield ChatGenerationChunk(message=AIMessageChunk(content=token, id=reply.id))
        for index, call in enumerate(reply.tool_calls):
            text = json.dumps(call["args"])
            for start in range(0, len(text), 6):
                first = start == 0
                yield ChatGenerationChunk(
                    message=AIMessageChunk(
                        content="",
                        id=reply.id,
                        tool_call_chunks=[
                            {
                                "type": "tool_call_chunk",
                                "index": index,
                                "id": call["id"] if first else None,
                                "name": call["name"] if first else None,
                                "args": text[start : start + 6],
                            }
                        ],
                    )
                )


def calling(*calls: tuple[str, str, dict[str, Any]]) -> AIMessage:
    """An assistant reply making the given ``(tool, call id, args)`` calls."""
    return AIMessage(
        content="", tool_calls=[ToolCall(name=name, args=args, id=cid) for name, cid, args in calls]
    )


def read(cid: str, path: str) -> tuple[str, str, dict[str, Any]]:
    """A ``read_file`` call."""
    return ("read_file", cid, {"path": path})


def file_tools(root: Path) -> list[BaseTool]:
    """Real file tools over ``root``."""

    @tool
    def read_file(path: str) -> str:
        """Read a file of the repository."""
        return (root / path).read_text(encoding="utf-8")

    @tool
    def write_file(path: str, content: str) -> str:
        """Write a file of the repository."""
        (root / path).write_text(content, encoding="utf-8")
        return f"wrote {path}"

    @tool
    def delete_file(path: str) -> str:
        """Delete a file of the repository."""
        (root / path).unlink()
        return f"deleted {path}"

    @tool
    def read_blocks(path: str) -> list[dict[str, str]]:
        """Read a file, answering with content blocks."""
        return [{"type": "text", "text": (root / path).read_text(encoding="utf-8")}]

    @tool
    def open_file(path: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command[Any]:
        """Read a file, answering with a state-updating command."""
        text = (root / path).read_text(encoding="utf-8")
        return Command(update={"messages": [ToolMessage(content=text, tool_call_id=tool_call_id)]})

    return [read_file, write_file, delete_file, read_blocks, open_file]


@pytest.fixture
def repo(write_tree: WriteTree) -> Path:
    """A repo with a scoped, an always-apply, a description-only and a streamed rule."""
    return write_tree(RULES)


def build(
    root: Path,
    replies: Sequence[AIMessage],
    *,
    checkpointer: InMemorySaver | None = None,
    store: SessionStore | None = None,
    system_prompt: str | SystemMessage = SYSTEM,
    **options: Any,
) -> tuple[Any, ScriptedModel]:
    """A ``create_agent`` over ``root`` whose model replays ``replies``."""
    model = ScriptedModel(messages=iter(replies))
    middleware = RuleweaveMiddleware(
        RuleweaveConfig(cwd=root, builtin_rules=False), store=store, **options
    )
    agent = create_agent(
        model,
        file_tools(root),
        system_prompt=system_prompt,
        middleware=[middleware],
        checkpointer=checkpointer,
    )
    return agent, model


def ask(text: str) -> dict[str, Any]:
    """The agent input for one user message."""
    return {"messages": [HumanMessage(text)]}


def thread(name: str) -> dict[str, Any]:
    """A run config naming a thread."""
    return {"configurable": {"thread_id": name}}


def tool_results(state: dict[str, Any]) -> list[ToolMessage]:
    """The tool messages of a final agent state."""
    return [m for m in state["messages"] if isinstance(m, ToolMessage)]


def system_of(call: list[BaseMessage]) -> str:
    """The system message text of one recorded model call."""
    assert isinstance(call[0], SystemMessage)
    return call[0].text


def streamed(agent: Any, text: str, config: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run the agent with token streaming; return its final state."""
    last: dict[str, Any] = {}
    for mode, chunk in agent.stream(ask(text), config, stream_mode=["messages", "values"]):
        if mode == "values":
            last = chunk
    return last


async def astreamed(agent: Any, text: str, config: dict[str, Any] | None = None) -> dict[str, Any]:
    """Async twin of ``streamed``."""
    last: dict[str, Any] = {}
    async for mode, chunk in agent.astream(ask(text), config, stream_mode=["messages", "values"]):
        if mode == "values":
            last = chunk
    return last


# -- the system prompt -------------------------------------------------------------


def test_model_receives_rule_blocks_after_callers_prompt(repo: Path) -> None:
    """Every model call's system message is the caller's prompt followed by the rule blocks."""
    agent, model = build(repo, [calling(read("c1", "src/app.ts")), AIMessage("done")])
    agent.invoke(ask("look at the app"))
    assert len(model.calls) == 2
    for call in model.calls:
        system = system_of(call)
        assert system.startswith(SYSTEM + "\n\n")
        assert (
            "<generic-rules>\n[rule: small] .cursor/rules/small.mdc\n"
            "Keep every change small.\n</generic-rules>"
        ) in system
        assert "- ts (src/**/*.ts): TypeScript conventions" in system
        assert "- migrations: How to write database migrations" in system
        assert "no-var" not in system
    assert system_of(model.calls[0]) == system_of(model.calls[1])


def test_block_system_prompt_gets_a_text_block(repo: Path) -> None:
    """A system message made of content blocks keeps them and gains one text block of rules."""
    caller = SystemMessage(content=[{"type": "text", "text": SYSTEM}])
    agent, model = build(repo, [AIMessage("done")], system_prompt=caller)
    agent.invoke(ask("hello"))
    content = model.calls[0][0].content
    assert isinstance(content, list) and len(content) == 2
    assert content[0] == {"type": "text", "text": SYSTEM}
    assert isinstance(content[1], dict) and "<generic-rules>" in content[1]["text"]


# -- notices on tool results -------------------------------------------------------


def test_first_touch_carries_notice_second_does_not(repo: Path) -> None:
    """The first result touching a scoped file carries the rule; the second touch does not."""
    agent, model = build(
        repo,
        [calling(read("c1", "src/app.ts")), calling(read("c2", "src/util.ts")), AIMessage("done")],
    )
    state = agent.invoke(ask("look at the app"))
    first, second = tool_results(state)
    assert first.content == "export const app = 1;\n\n[rule: ts]\nUse strict TypeScript in src."
    assert second.content == "export const util = 2;\n"
    assert NOTICE in str(model.calls[1][-1].content)


async def test_ainvoke_carries_notice_once(repo: Path) -> None:
    """``ainvoke`` adds the rule blocks and appends the notice once, like ``invoke``."""
    agent, model = build(
        repo,
        [calling(read("c1", "src/app.ts")), calling(read("c2", "src/app.ts")), AIMessage("done")],
    )
    state = await agent.ainvoke(ask("look at the app"))
    first, second = tool_results(state)
    assert NOTICE in str(first.content)
    assert NOTICE not in str(second.content)
    assert "<generic-rules>" in system_of(model.calls[0])


def test_resumed_thread_does_not_repeat_notices(repo: Path) -> None:
    """A thread resumed from the checkpointer, even by a new middleware on the same store, gets no repeat."""
    saver, store = InMemorySaver(), MemoryStore()
    agent, _ = build(
        repo, [calling(read("c1", "src/app.ts")), AIMessage("done")], checkpointer=saver, store=store
    )
    state = agent.invoke(ask("look at the app"), thread("t1"))
    assert NOTICE in str(tool_results(state)[0].content)
    agent, _ = build(
        repo, [calling(read("c2", "src/app.ts")), AIMessage("done")], checkpointer=saver, store=store
    )
    state = agent.invoke(ask("and again"), thread("t1"))
    results = tool_results(state)
    assert len(results) == 2
    assert NOTICE not in str(results[1].content)


def test_same_agent_resumed_thread_and_new_thread(repo: Path) -> None:
    """One agent: the resumed thread gets no repeat while a new thread gets its own notice."""
    replies = [calling(read(f"c{i}", "src/app.ts")) if i % 2 == 0 else AIMessage("done") for i in range(6)]
    agent, _ = build(repo, replies, checkpointer=InMemorySaver())
    first = agent.invoke(ask("look"), thread("a"))
    again = agent.invoke(ask("look again"), thread("a"))
    other = agent.invoke(ask("look"), thread("b"))
    assert [NOTICE in str(m.content) for m in tool_results(first)] == [True]
    assert [NOTICE in str(m.content) for m in tool_results(again)] == [True, False]
    assert [NOTICE in str(m.content) for m in tool_results(other)] == [True]


def test_runs_without_thread_id_are_separate_sessions(repo: Path) -> None:
    """Each run without a thread id is its own session, so each gets the notice."""
    replies = [calling(read("c1", "src/app.ts")), AIMessage("done")] * 2
    agent, _ = build(repo, replies)
    for _ in range(2):
        state = agent.invoke(ask("look"))
        assert NOTICE in str(tool_results(state)[0].content)
        assert "ruleweave_session" not in state


class RecordingStore(MemoryStore):
    """A memory store that records which sessions claimed state and which were forgotten."""

    def __init__(self) -> None:
        super().__init__()
        self.claimed: set[str] = set()
        self.released: list[str] = []

    def claim_many(
        self, session_id: str, keys: Sequence[str], *, call_id: str | None = None,
        records: Sequence[str] = (),
    ) -> list[bool]:
        self.claimed.add(session_id)
        return super().claim_many(session_id, keys, call_id=call_id, records=records)

    def forget(self, session_id: str) -> None:
        self.released.append(session_id)
        super().forget(session_id)


def test_run_without_thread_id_releases_its_state(repo: Path) -> None:
    """The generated session of a run without a thread id is released when the run ends."""
    store = RecordingStore()
    agent, _ = build(repo, [calling(read("c1", "src/app.ts")), AIMessage("done")], store=store)
    agent.invoke(ask("look"))
    assert len(store.claimed) == 1
    assert store.released == sorted(store.claimed)
    assert store.released[0].startswith("run-")


def test_parallel_tool_calls_give_one_notice(repo: Path) -> None:
    """Two tool calls in one step touching the same rule's files yield exactly one notice."""
    agent, _ = build(
        repo, [calling(read("c1", "src/app.ts"), read("c2", "src/util.ts")), AIMessage("done")]
    )
    state = agent.invoke(ask("look at both"))
    results = tool_results(state)
    assert len(results) == 2
    assert sum(str(m.content).count(NOTICE) for m in results) == 1


async def test_parallel_async_tool_calls_give_one_notice(repo: Path) -> None:
    """The async path also injects one notice for parallel calls in one step."""
    agent, _ = build(
        repo,
        [
            calling(read("c1", "src/app.ts"), read("c2", "src/util.ts"), read("c3", "src/app.ts")),
            AIMessage("done"),
        ],
    )
    state = await agent.ainvoke(ask("look at all"))
    results = tool_results(state)
    assert len(results) == 3
    assert sum(str(m.content).count(NOTICE) for m in results) == 1


def test_content_block_result_gets_text_block(repo: Path) -> None:
    """A tool answering with content blocks gets the notice as one more text block."""
    agent, _ = build(repo, [calling(("read_blocks", "c1", {"path": "src/app.ts"})), AIMessage("done")])
    state = agent.invoke(ask("look"))
    (result,) = tool_results(state)
    assert isinstance(result.content, list)
    assert result.content[-1] == {"type": "text", "text": "[rule: ts]\nUse strict TypeScript in src."}


def test_command_result_gets_notice(repo: Path) -> None:
    """A tool answering with a ``Command`` gets the notice in its ``ToolMessage``."""
    agent, _ = build(repo, [calling(("open_file", "c1", {"path": "src/app.ts"})), AIMessage("done")])
    state = agent.invoke(ask("look"))
    (result,) = tool_results(state)
    assert result.tool_call_id == "c1"
    assert str(result.content).startswith("export const app = 1;\n")
    assert str(result.content).endswith("[rule: ts]\nUse strict TypeScript in src.")


# -- steering ----------------------------------------------------------------------


def test_refused_tool_does_not_run(repo: Path) -> None:
    """A tool the steering decision forbids is not run; its error result names the rule."""
    (repo / ".ruleweave" / "skill.spec.yml").write_text(SPEC, encoding="utf-8")
    assert RuleSet.load(RuleweaveConfig(cwd=repo, builtin_rules=False)).steering.spec is not None
    agent, model = build(
        repo, [calling(("delete_file", "c1", {"path": "README.md"})), AIMessage("kept it")]
    )
    state = agent.invoke(ask("please clean up the readme"))
    assert (repo / "README.md").exists()
    (result,) = tool_results(state)
    assert result.status == "error"
    assert result.tool_call_id == "c1"
    assert "never_delete_files" in str(result.content)
    assert "<steering>" in system_of(model.calls[0])


async def test_refused_tool_does_not_run_async(repo: Path) -> None:
    """The async path refuses the forbidden tool too."""
    (repo / ".ruleweave" / "skill.spec.yml").write_text(SPEC, encoding="utf-8")
    agent, _ = build(repo, [calling(("delete_file", "c1", {"path": "README.md"})), AIMessage("ok")])
    state = await agent.ainvoke(ask("clean up the readme"))
    assert (repo / "README.md").exists()
    assert "never_delete_files" in str(tool_results(state)[0].content)


def test_turn_without_forbid_runs_the_tool(repo: Path) -> None:
    """A user turn the spec does not forbid anything for lets the same tool run."""
    (repo / ".ruleweave" / "skill.spec.yml").write_text(SPEC, encoding="utf-8")
    agent, _ = build(repo, [calling(("delete_file", "c1", {"path": "README.md"})), AIMessage("ok")])
    agent.invoke(ask("delete the readme"))
    assert not (repo / "README.md").exists()


# -- streamed rules (TTSR) ---------------------------------------------------------


def test_streamed_text_match_is_interrupted_and_retried(repo: Path) -> None:
    """A streamed reply matching a condition is dropped and retried with the rule in the system message."""
    agent, model = build(
        repo,
        [
            AIMessage("I will declare var total = 0 here"),
            AIMessage("I will declare let total = 0 here"),
            calling(read("c1", "src/app.ts")),
            AIMessage("done"),
        ],
        checkpointer=InMemorySaver(),
    )
    state = streamed(agent, "add a counter", thread("t"))
    assert len(model.calls) == 2
    assert RETRY_TEXT not in system_of(model.calls[0])
    assert RETRY_TEXT in system_of(model.calls[1])
    assert "no-var" in system_of(model.calls[1])
    replies = [m.content for m in state["messages"] if isinstance(m, AIMessage)]
    assert replies == ["I will declare let total = 0 here"]
    state = streamed(agent, "now read the app", thread("t"))
    assert RETRY_TEXT in system_of(model.calls[2])
    assert "var" not in str(tool_results(state)[0].content)


def test_the_stream_interrupt_is_not_logged_as_a_callback_error(
    repo: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """LangChain logs every error a callback raises; the designed interrupt (StreamInterruptError) is
    kept out of that log, and the stream is still retried."""
    agent, model = build(repo, [AIMessage("so var x = 1 it is"), AIMessage("so const x = 1 it is")])
    with caplog.at_level(logging.WARNING):
        streamed(agent, "add x")
    assert len(model.calls) == 2
    assert [r.getMessage() for r in caplog.records if "callback" in r.getMessage()] == []


async def test_astreamed_text_match_is_interrupted_and_retried(repo: Path) -> None:
    """The async stream is interrupted and retried the same way."""
    agent, model = build(
        repo, [AIMessage("so var x = 1 it is"), AIMessage("so const x = 1 it is")]
    )
    state = await astreamed(agent, "add x")
    assert len(model.calls) == 2
    assert RETRY_TEXT in system_of(model.calls[1])
    assert [m.content for m in state["messages"] if isinstance(m, AIMessage)] == ["so const x = 1 it is"]


def test_streamed_tool_call_match_is_retried_before_the_tool_runs(repo: Path) -> None:
    """A tool call whose streamed arguments match is dropped before it runs, and retried."""
    write = ("write_file", "w1", {"path": "src/new.ts", "content": "var count = 0;\n"})
    fixed = ("write_file", "w2", {"path": "src/new.ts", "content": "let count = 0;\n"})
    agent, model = build(repo, [calling(write), calling(fixed), AIMessage("done")])
    state = streamed(agent, "add a counter file")
    assert (repo / "src/new.ts").read_text(encoding="utf-8") == "let count = 0;\n"
    assert RETRY_TEXT in system_of(model.calls[1])
    assert [m.tool_call_id for m in tool_results(state)] == ["w2"]


def test_unstreamed_tool_call_match_is_refused(repo: Path) -> None:
    """Without streaming, a tool call matching a streamed rule is refused with the rule, not run."""
    write = ("write_file", "w1", {"path": "src/new.ts", "content": "var count = 0;\n"})
    fixed = ("write_file", "w2", {"path": "src/new.ts", "content": "let count = 0;\n"})
    agent, _ = build(repo, [calling(write), calling(fixed), AIMessage("done")])
    state = agent.invoke(ask("add a counter file"))
    refused, written = tool_results(state)
    assert refused.status == "error" and RETRY_TEXT in str(refused.content)
    assert str(written.content).startswith("wrote src/new.ts\n\n[rule: ts]")
    assert (repo / "src/new.ts").read_text(encoding="utf-8") == "let count = 0;\n"


def test_non_interrupting_hit_is_a_tool_result_reminder(write_tree: WriteTree) -> None:
    """A streamed rule with ``interruptMode: never`` is appended to the next tool result instead."""
    root = write_tree(
        {
            **RULES,
            ".ruleweave/rules/no-var.md": (
                "---\ncondition: '\\bvar\\s+\\w+'\ninterruptMode: never\n---\n" + RETRY_TEXT + "\n"
            ),
        }
    )
    reply = AIMessage(
        "I will use var n here", tool_calls=[ToolCall(name="read_file", args={"path": "README.md"}, id="c1")]
    )
    agent, model = build(root, [reply, AIMessage("done")])
    state = streamed(agent, "go")
    assert len(model.calls) == 2
    (result,) = tool_results(state)
    assert str(result.content).startswith("# demo\n\n[ruleweave] What you just wrote matches rule `no-var`")
    assert RETRY_TEXT in str(result.content)


def test_retries_are_bounded(write_tree: WriteTree) -> None:
    """Past ``ttsr_retries`` an interrupting hit is not retried: it becomes a reminder."""
    root = write_tree(
        {**RULES, ".ruleweave/rules/no-eval.md": "---\ncondition: 'eval\\('\n---\nNever call eval.\n"}
    )
    second = AIMessage(
        "then eval(code) runs", tool_calls=[ToolCall(name="read_file", args={"path": "src/app.ts"}, id="c1")]
    )
    agent, model = build(
        root, [AIMessage("first var a here"), second, AIMessage("done")], ttsr_retries=1
    )
    state = streamed(agent, "go")
    assert len(model.calls) == 3
    (result,) = tool_results(state)
    content = str(result.content)
    assert NOTICE in content
    assert "[ruleweave] What you just wrote matches rule `no-eval`" in content
    assert "Never call eval." in content


def test_no_retry_when_retries_are_zero(repo: Path) -> None:
    """With ``ttsr_retries=0`` the stream is never interrupted."""
    agent, model = build(repo, [AIMessage("so var x = 1")], ttsr_retries=0)
    state = streamed(agent, "go")
    assert len(model.calls) == 1
    assert state["messages"][-1].content == "so var x = 1"


def test_streamed_reasoning_is_watched(write_tree: WriteTree) -> None:
    """A rule scoped to ``thinking`` interrupts a reply whose reasoning matches."""
    rule = "---\ncondition: 'rm -rf'\nscope: thinking\n---\nNever delete trees.\n"
    root = write_tree({**RULES, ".ruleweave/rules/no-rm.md": rule})
    thought = AIMessage(content=[{"type": "reasoning", "reasoning": "maybe rm -rf build"},
                                 {"type": "text", "text": "cleaning"}])
    agent, model = build(root, [thought, AIMessage("I will list the files first")])
    state = streamed(agent, "clean the build")
    assert len(model.calls) == 2
    assert "Never delete trees." in system_of(model.calls[1])
    assert state["messages"][-1].content == "I will list the files first"


def test_v3_stream_events_are_watched(repo: Path) -> None:
    """The v2 streaming protocol (``stream_events(version="v3")``) is watched as well."""
    agent, model = build(repo, [AIMessage("so var x = 1"), AIMessage("so const x = 1")])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the v3 protocol is marked experimental
        for _ in agent.stream_events(ask("go"), version="v3"):
            pass
    assert len(model.calls) == 2
    assert RETRY_TEXT in system_of(model.calls[1])


# -- construction and the optional extra ------------------------------------------


def test_config_and_ruleset_are_exclusive(repo: Path) -> None:
    """Giving both a config and a rule set is a configuration error."""
    config = RuleweaveConfig(cwd=repo, builtin_rules=False)
    with pytest.raises(ConfigError):
        RuleweaveMiddleware(config, ruleset=RuleSet.load(config))
    with pytest.raises(ConfigError):
        RuleweaveMiddleware(config, ttsr_retries=-1)


def test_session_is_shared_by_thread_id(repo: Path) -> None:
    """``session(thread_id)`` is the session the hooks use for that thread."""
    middleware = RuleweaveMiddleware(RuleweaveConfig(cwd=repo, builtin_rules=False))
    assert middleware.session("t") is middleware.session("t")
    assert middleware.session("t").session_id == "t"


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing the adapter without langchain raises MissingDependencyError naming the extra."""
    for name in [n for n in sys.modules if n == "langchain" or n.startswith("langchain.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "ruleweave.adapters.langchain")
    with pytest.raises(MissingDependencyError, match=re.escape("pip install ruleweave[langchain]")):
        importlib.import_module("ruleweave.adapters.langchain")
