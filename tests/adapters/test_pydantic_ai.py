"""RuleweaveCapability in real pydantic-ai agents, driven by its own FunctionModel and TestModel."""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import AsyncIterable, AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent, ModelResponse, RunContext, TextPart, ToolCallPart, ToolReturn, models
from pydantic_ai.messages import (
    AgentStreamEvent,
    ModelMessage,
    ModelRequest,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel
from pydantic_ai.models.test import TestModel

from ruleweave import ConfigError, MissingDependencyError, RuleSet, RuleweaveConfig
from ruleweave.adapters.pydantic_ai import RuleweaveCapability
from ruleweave.testing import capture_events
from tests.adapters.fixtures import SPEC
from tests.conftest import WriteTree

models.ALLOW_MODEL_REQUESTS = False  # only the test models answer

SYSTEM = "You are a careful coding agent."
NOTICE = "[rule: ts]"
RETRY_TEXT = "Declare variables with const or let, never var."

RULES = {
    ".cursor/rules/ts.mdc": (
        "---\ndescription: TypeScript conventions\nglobs: src/**/*.ts\n---\nUse strict TypeScript in src.\n"
    ),
    ".cursor/rules/small.mdc": "---\nalwaysApply: true\n---\nKeep every change small.\n",
    ".ruleweave/rules/no-var.md": "---\ncondition: '\\bvar\\s+\\w+'\n---\n" + RETRY_TEXT + "\n",
    "src/app.ts": "export const app = 1;\n",
    "src/util.ts": "export const util = 2;\n",
    "README.md": "# demo\n",
}


Reply = list[str | tuple[str, str, dict[str, Any]]]
"""One scripted reply: text parts and ``(tool, call id, args)`` calls."""


@dataclass
class Script:
    """Scripted replies for a ``FunctionModel``, plain or streamed; records what each request carried."""

    replies: list[Reply]
    requests: list[tuple[str, list[ModelMessage]]] = field(default_factory=list)

    def _next(self, messages: list[ModelMessage], info: AgentInfo) -> Reply:
        self.requests.append((info.instructions or "", list(messages)))
        return self.replies[len(self.requests) - 1]

    def reply(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        """The next reply, whole."""
        parts: list[Any] = [
            TextPart(p) if isinstance(p, str) else ToolCallPart(p[0], p[2], tool_call_id=p[1])
            for p in self._next(messages, info)
        ]
        return ModelResponse(parts=parts)

    async def stream(
        self, messages: list[ModelMessage], info: AgentInfo
    ) -> AsyncIterator[str | DeltaToolCalls]:
        """The next reply, streamed: text word by word, tool arguments in chunks of six characters."""
        for index, part in enumerate(self._next(messages, info)):
            if isinstance(part, str):
                for word in re.split(r"(\s)", part):
                    if word:
                        yield word
                continue
            name, call_id, args = part
            text = json.dumps(args)
            for start in range(0, len(text), 6):
                first = start == 0
                yield {index: DeltaToolCall(name if first else None, text[start : start + 6],
                                            tool_call_id=call_id if first else None)}

    def model(self) -> FunctionModel:
        """A ``FunctionModel`` answering plain and streamed requests from this script."""
        return FunctionModel(self.reply, stream_function=self.stream)


@pytest.fixture
def repo(write_tree: WriteTree) -> Path:
    """A repo with a scoped, an always-apply and a streamed rule."""
    return write_tree(RULES)


def build(root: Path, replies: Sequence[Reply], **options: Any) -> tuple[Agent[None, str], Script]:
    """An agent with file tools over ``root`` whose model replays ``replies``."""
    script = Script(list(replies))
    capability = RuleweaveCapability(RuleweaveConfig(cwd=root, builtin_rules=False), **options)
    return file_agent(root, script.model(), capability), script


def file_agent(root: Path, model: Any, capability: RuleweaveCapability) -> Agent[None, str]:
    """An agent over ``root`` with real file tools and the capability."""
    agent = Agent(model, instructions=SYSTEM, capabilities=[capability])

    @agent.tool_plain
    def read_file(path: str) -> str:
        """Read a file of the repository."""
        return (root / path).read_text(encoding="utf-8")

    @agent.tool_plain
    def write_file(path: str, content: str) -> str:
        """Write a file of the repository."""
        (root / path).write_text(content, encoding="utf-8")
        return f"wrote {path}"

    @agent.tool_plain
    def delete_file(path: str) -> str:
        """Delete a file of the repository."""
        (root / path).unlink()
        return f"deleted {path}"

    @agent.tool_plain
    def stat_file(path: str) -> dict[str, int]:
        """The size of a file of the repository."""
        return {"bytes": (root / path).stat().st_size}

    return agent


def read(call_id: str, path: str) -> tuple[str, str, dict[str, Any]]:
    """A ``read_file`` call."""
    return ("read_file", call_id, {"path": path})


def write(call_id: str, path: str, content: str) -> tuple[str, str, dict[str, Any]]:
    """A ``write_file`` call."""
    return ("write_file", call_id, {"path": path, "content": content})


def returns(messages: Sequence[ModelMessage]) -> dict[str, Any]:
    """The tool returns in a history, by call id."""
    return {
        part.tool_call_id: part.content
        for message in messages if isinstance(message, ModelRequest)
        for part in message.parts if isinstance(part, ToolReturnPart)
    }


# -- the prompt --------------------------------------------------------------------------


async def test_instructions_follow_the_agents_own(repo: Path) -> None:
    """Every request's instructions are the agent's own, then the rule blocks."""
    agent, script = build(repo, [[read("c1", "src/app.ts")], ["done"]])
    await agent.run("look at the app")
    assert len(script.requests) == 2
    for instructions, _ in script.requests:
        assert instructions.startswith(SYSTEM + "\n\n")
        assert (
            "<generic-rules>\n[rule: small] .cursor/rules/small.mdc\n"
            "Keep every change small.\n</generic-rules>"
        ) in instructions
        assert "- ts (src/**/*.ts): TypeScript conventions" in instructions
        assert RETRY_TEXT not in instructions


async def test_test_model_run_carries_the_rules(repo: Path) -> None:
    """With ``TestModel`` the recorded request carries the rule blocks in its instructions."""
    capability = RuleweaveCapability(RuleweaveConfig(cwd=repo, builtin_rules=False))
    agent = file_agent(repo, TestModel(call_tools=[], custom_output_text="ok"), capability)
    result = await agent.run("hello")
    first = result.all_messages()[0]
    assert isinstance(first, ModelRequest) and first.instructions is not None
    assert first.instructions.startswith(SYSTEM) and "<generic-rules>" in first.instructions


async def test_read_rule_tool_serves_rule_addresses(repo: Path) -> None:
    """The capability brings a ``read_rule`` tool reading ``rule://`` in the run's conversation."""
    agent, _ = build(repo, [[("read_rule", "r1", {"name": "rule://ts"})], ["read it"]])
    result = await agent.run("what are the TypeScript rules?", conversation_id="c")
    assert returns(result.all_messages())["r1"] == "[rule: ts]\nUse strict TypeScript in src."
    bare = RuleweaveCapability(RuleweaveConfig(cwd=repo, builtin_rules=False), read_rule_tool=False)
    assert bare.get_toolset() is None


# -- notices ---------------------------------------------------------------------------------


async def test_notice_once_over_parallel_calls(repo: Path) -> None:
    """Two parallel calls touching the scoped rule's files: exactly one result carries it, once."""
    agent, _ = build(
        repo, [[read("c1", "src/app.ts"), read("c2", "src/util.ts")], [read("c3", "src/app.ts")], ["done"]]
    )
    result = await agent.run("look at the sources", conversation_id="conv")
    found = returns(result.all_messages())
    assert sorted(found) == ["c1", "c2", "c3"]
    assert sum(NOTICE in str(text) for text in found.values()) == 1
    carrier = next(cid for cid, text in found.items() if NOTICE in str(text))
    assert found[carrier].endswith(";\n\n[rule: ts]\nUse strict TypeScript in src.")
    assert NOTICE not in found["c3"]


async def test_non_text_result_carries_the_notice_as_content(repo: Path) -> None:
    """A tool returning data keeps its value; the notice goes to the model beside it."""
    agent, script = build(repo, [[("stat_file", "c1", {"path": "src/app.ts"})], ["done"]])
    result = await agent.run("how big is the app")
    assert returns(result.all_messages())["c1"] == {"bytes": 22}
    assert NOTICE in str(script.requests[1][1][-1])


async def test_conversation_continues_across_runs_and_processes(repo: Path, tmp_path: Path) -> None:
    """A conversation continued by id on the same store, even by a new capability, gets no repeat."""
    config = RuleweaveConfig(cwd=repo, builtin_rules=False, store=f"sqlite:///{tmp_path / 'state.db'}")
    first = Script([[read("c1", "src/app.ts")], ["done"]])
    result = await file_agent(repo, first.model(), RuleweaveCapability(config)).run(
        "look", conversation_id="conv-1"
    )
    assert NOTICE in returns(result.all_messages())["c1"]

    second = Script([[read("c2", "src/app.ts")], ["done"], [read("c3", "src/app.ts")], ["done"]])
    agent = file_agent(repo, second.model(), RuleweaveCapability(config))
    again = await agent.run("look again", message_history=result.all_messages())
    assert again.conversation_id == "conv-1"
    assert NOTICE not in returns(again.new_messages())["c2"]
    other = await agent.run("look", conversation_id="conv-2")
    assert NOTICE in returns(other.all_messages())["c3"]


# -- refusals ----------------------------------------------------------------------------------


async def test_refused_tool_does_not_run(repo: Path) -> None:
    """A tool the steering decision forbids is not run; the model is asked to retry with the reason."""
    (repo / ".ruleweave" / "skill.spec.yml").write_text(SPEC, encoding="utf-8")
    assert RuleSet.load(RuleweaveConfig(cwd=repo, builtin_rules=False)).steering.spec is not None
    agent, script = build(repo, [[("delete_file", "c1", {"path": "README.md"})], ["kept it"]])
    result = await agent.run("please clean up the readme")
    assert (repo / "README.md").exists()
    assert result.output == "kept it"
    (refused,) = [
        part for message in result.all_messages() if isinstance(message, ModelRequest)
        for part in message.parts if isinstance(part, ToolReturnPart)
    ]
    assert refused.outcome == "retried" and refused.retry is not None
    assert refused.retry.cause == "model_retry" and "never_delete_files" in str(refused.content)
    assert "<steering>" in script.requests[0][0]


async def test_turn_without_forbid_runs_the_tool(repo: Path) -> None:
    """A user turn the spec forbids nothing for lets the same tool run."""
    (repo / ".ruleweave" / "skill.spec.yml").write_text(SPEC, encoding="utf-8")
    agent, _ = build(repo, [[("delete_file", "c1", {"path": "README.md"})], ["ok"]])
    await agent.run("delete the readme")
    assert not (repo / "README.md").exists()


# -- streamed rules (TTSR) ---------------------------------------------------------------------


async def test_whole_reply_match_is_retried_natively(repo: Path) -> None:
    """A matching reply is dropped (``RetryModelRequest``), retried with the rule, kept out of history."""
    agent, script = build(
        repo,
        [["I will declare var total = 0 here"], ["I will declare let total = 0 here"],
         [read("c1", "src/app.ts")], ["done"]],
    )
    result = await agent.run("add a counter", conversation_id="t")
    assert result.output == "I will declare let total = 0 here"
    assert RETRY_TEXT not in script.requests[0][0]
    assert RETRY_TEXT in script.requests[1][0]
    assert "var total" not in str(result.all_messages())
    await agent.run("now read the app", message_history=result.all_messages())
    assert RETRY_TEXT in script.requests[2][0]  # kept for the conversation
    assert RETRY_TEXT in script.requests[3][0]


async def test_whole_reply_tool_call_match_is_retried_before_it_runs(repo: Path) -> None:
    """A reply whose tool call matches is dropped before the tool runs."""
    agent, script = build(
        repo,
        [[write("w1", "src/new.ts", "var count = 0;\n")], [write("w2", "src/new.ts", "let count = 0;\n")],
         ["done"]],
    )
    result = await agent.run("add a counter file")
    assert (repo / "src/new.ts").read_text(encoding="utf-8") == "let count = 0;\n"
    assert sorted(returns(result.all_messages())) == ["w2"]
    assert RETRY_TEXT in script.requests[1][0]


async def test_streamed_text_match_restarts_the_stream(repo: Path) -> None:
    """``run_stream``: the stream is stopped at the match and opened again with the rule."""
    agent, script = build(repo, [["so var x = 1 it is"], ["so const x = 1 it is"]])
    async with agent.run_stream("add x") as result:
        output = await result.get_output()
    assert output == "so const x = 1 it is"
    assert len(script.requests) == 2
    assert RETRY_TEXT in script.requests[1][0]
    assert "var x" not in str(result.all_messages())


async def test_streamed_tool_arguments_match_is_retried_before_the_tool_runs(repo: Path) -> None:
    """A tool call whose streamed arguments match is dropped before it runs, and retried."""
    agent, script = build(
        repo,
        [[write("w1", "src/new.ts", "var count = 0;\n")], [write("w2", "src/new.ts", "let count = 0;\n")],
         ["done"]],
    )
    async with agent.run_stream("add a counter file") as result:
        assert await result.get_output() == "done"
    assert (repo / "src/new.ts").read_text(encoding="utf-8") == "let count = 0;\n"
    assert sorted(returns(result.all_messages())) == ["w2"]
    assert RETRY_TEXT in script.requests[1][0]


async def test_event_stream_runs_are_watched(repo: Path) -> None:
    """``run`` with an event stream handler streams its requests, and they are watched too."""
    seen: list[Any] = []

    async def handler(ctx: RunContext[None], events: AsyncIterable[AgentStreamEvent]) -> None:
        async for event in events:
            seen.append(event)

    agent, script = build(repo, [["so var x = 1"], ["so const x = 1"]])
    result = await agent.run("add x", event_stream_handler=handler)
    assert result.output == "so const x = 1"
    assert RETRY_TEXT in script.requests[1][0]
    assert seen


async def test_non_interrupting_hit_is_a_tool_result_reminder(write_tree: WriteTree) -> None:
    """A streamed rule with ``interruptMode: never`` is appended to the next tool result instead."""
    never = "---\ncondition: '\\bvar\\s+\\w+'\ninterruptMode: never\n---\n" + RETRY_TEXT + "\n"
    root = write_tree({**RULES, ".ruleweave/rules/no-var.md": never})
    agent, script = build(root, [["I will use var n here", read("c1", "README.md")], ["done"]])
    result = await agent.run("go")
    assert len(script.requests) == 2
    text = returns(result.all_messages())["c1"]
    assert text.startswith("# demo\n\n[ruleweave] What you just wrote matches rule `no-var`")


async def test_retries_are_bounded(repo: Path) -> None:
    """With ``ttsr_retries=0`` a matching reply is kept; the rule comes back as a reminder."""
    agent, script = build(repo, [["so var x = 1", read("c1", "README.md")], ["done"]], ttsr_retries=0)
    result = await agent.run("go")
    assert len(script.requests) == 2
    assert RETRY_TEXT in returns(result.all_messages())["c1"]


# -- construction and the optional extra ------------------------------------------


async def test_sessions_are_keyed_by_conversation_id(repo: Path) -> None:
    """The run's session is the one of its conversation id."""
    capability = RuleweaveCapability(RuleweaveConfig(cwd=repo, builtin_rules=False))
    agent = file_agent(repo, TestModel(call_tools=[], custom_output_text="ok"), capability)
    with capture_events() as events:
        await agent.run("hello", conversation_id="c-42")
    assert {e["session"] for e in events} == {"c-42"}
    assert capability.session("c-42") is capability.session("c-42")


def test_config_and_ruleset_are_exclusive(repo: Path) -> None:
    """Giving both a config and a rule set, or negative retries, is a configuration error."""
    config = RuleweaveConfig(cwd=repo, builtin_rules=False)
    with pytest.raises(ConfigError):
        RuleweaveCapability(config, ruleset=RuleSet.load(config))
    with pytest.raises(ConfigError):
        RuleweaveCapability(config, ttsr_retries=-1)


def test_tool_return_keeps_its_value(repo: Path) -> None:
    """A ``ToolReturn`` with text gets the notice appended; other values keep theirs."""
    from ruleweave.adapters.pydantic_ai import _with_notice

    assert _with_notice(ToolReturn(return_value="x"), "n").return_value == "x\n\nn"
    kept = _with_notice(ToolReturn(return_value=[1], content="c"), "n")
    assert kept.return_value == [1] and kept.content == "c\n\nn"


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing the adapter without pydantic-ai raises MissingDependencyError naming the extra."""
    for name in [n for n in sys.modules if n == "pydantic_ai" or n.startswith("pydantic_ai.")]:
        monkeypatch.setitem(sys.modules, name, None)
    for name in ("ruleweave.adapters.pydantic_ai", "ruleweave.adapters.pydantic_ai_stream"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(MissingDependencyError, match=re.escape("pip install ruleweave[pydantic-ai]")):
        importlib.import_module("ruleweave.adapters.pydantic_ai")
