"""RuleweaveAgents with the real OpenAI Agents SDK, driven by its own scripted test models."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import pytest
from agents import (
    Agent,
    RunConfig,
    Runner,
    RunResult,
    RunResultStreaming,
    SQLiteSession,
    Tool,
    ToolOutputText,
    function_tool,
    set_tracing_disabled,
)
from agents.testing import ScriptedModel, assistant_message, function_call

from ruleweave import ConfigError, MemoryStore, MissingDependencyError, RuleSet, RuleweaveConfig
from ruleweave.adapters.openai_agents import RuleweaveAgents
from ruleweave.store import SessionStore
from ruleweave.testing import capture_events
from tests.adapters.fixtures import SPEC
from tests.conftest import WriteTree

set_tracing_disabled(True)  # nothing leaves the machine: no trace export either

SYSTEM = "You are a careful coding agent."
NOTICE = "[rule: ts]"
RETRY_TEXT = "Declare variables with const or let, never var."

RULES = {
    ".cursor/rules/ts.mdc": (
        "---\ndescription: TypeScript conventions\nglobs: src/**/*.ts\n---\nUse strict TypeScript in src.\n"
    ),
    ".cursor/rules/small.mdc": "---\nalwaysApply: true\n---\nKeep every change small.\n",
    ".ruleweave/rules/no-var.md": (
        "---\ncondition: '\\bvar\\s+\\w+'\n---\n" + RETRY_TEXT + "\n"
    ),
    "src/app.ts": "export const app = 1;\n",
    "src/util.ts": "export const util = 2;\n",
    "README.md": "# demo\n",
}



@pytest.fixture
def repo(write_tree: WriteTree) -> Path:
    """A repo with a scoped, an always-apply and a streamed rule."""
    return write_tree(RULES)


def file_tools(root: Path) -> list[Tool]:
    """Real file tools over ``root``."""

    @function_tool
    def read_file(path: str) -> str:
        """Read a file of the repository."""
        return (root / path).read_text(encoding="utf-8")

    @function_tool
    def write_file(path: str, content: str) -> str:
        """Write a file of the repository."""
        (root / path).write_text(content, encoding="utf-8")
        return f"wrote {path}"

    @function_tool
    def delete_file(path: str) -> str:
        """Delete a file of the repository."""
        (root / path).unlink()
        return f"deleted {path}"

    @function_tool
    def read_text_item(path: str) -> ToolOutputText:
        """Read a file, answering with a structured text item."""
        return ToolOutputText(text=(root / path).read_text(encoding="utf-8"))

    return [read_file, write_file, delete_file, read_text_item]


def build(
    root: Path,
    steps: Sequence[Any],
    *,
    store: SessionStore | None = None,
    instructions: Any = SYSTEM,
    **options: Any,
) -> tuple[RuleweaveAgents, Agent[Any], ScriptedModel]:
    """A wrapped agent over ``root`` whose scripted model replays ``steps``."""
    model = ScriptedModel(steps)
    rw = RuleweaveAgents(RuleweaveConfig(cwd=root, builtin_rules=False), store=store, **options)
    agent = rw.agent(Agent(name="coder", instructions=instructions, tools=file_tools(root), model=model))
    return rw, agent, model


def read(call_id: str, path: str) -> Any:
    """A scripted ``read_file`` call."""
    return function_call("read_file", {"path": path}, call_id=call_id)


def write(call_id: str, path: str, content: str) -> Any:
    """A scripted ``write_file`` call."""
    return function_call("write_file", {"path": path, "content": content}, call_id=call_id)


def outputs(result: RunResult | RunResultStreaming) -> dict[str, str]:
    """The tool outputs the run added to the conversation, by call id."""
    items: list[Mapping[str, Any]] = [cast("Mapping[str, Any]", item) for item in result.to_input_list()]
    return {
        str(item["call_id"]): str(item["output"])
        for item in items
        if item.get("type") == "function_call_output"
    }


async def streamed(rw: RuleweaveAgents, agent: Agent[Any], text: str, **options: Any) -> RunResultStreaming:
    """Run with streaming and drain its events."""
    result = rw.run_streamed(agent, text, **options)
    async for _ in result.stream_events():
        pass
    return result


# -- the prompt --------------------------------------------------------------------------


async def test_instructions_keep_the_agents_own_first(repo: Path) -> None:
    """Every model call's system instructions are the agent's own, then the rule blocks."""
    rw, agent, model = build(repo, [[read("c1", "src/app.ts")], [assistant_message("done")]])
    await rw.run(agent, "look at the app")
    assert len(model.calls) == 2
    for call in model.calls:
        system = call.system_instructions or ""
        assert system.startswith(SYSTEM + "\n\n")
        assert (
            "<generic-rules>\n[rule: small] .cursor/rules/small.mdc\n"
            "Keep every change small.\n</generic-rules>"
        ) in system
        assert "- ts (src/**/*.ts): TypeScript conventions" in system
        assert RETRY_TEXT not in system


async def test_callable_instructions_are_resolved_first(repo: Path) -> None:
    """Dynamic instructions of the agent are resolved every turn and stay first."""

    async def own(ctx: Any, agent: Agent[Any]) -> str:
        return f"You are {agent.name}."

    rw, agent, model = build(repo, [[assistant_message("hi")]], instructions=own)
    await rw.run(agent, "hello")
    system = model.calls[0].system_instructions or ""
    assert system.startswith("You are coder.\n\n<generic-rules>")


async def test_read_rule_tool_serves_rule_addresses(repo: Path) -> None:
    """The wrapped agent has a ``read_rule`` tool reading ``rule://`` in the conversation's session."""
    step = [function_call("read_rule", {"name": "rule://ts"}, call_id="r1")]
    rw, agent, model = build(repo, [step, [assistant_message("read it")]])
    assert [tool.name for tool in agent.tools][-1] == "read_rule"
    result = await rw.run(agent, "what are the TypeScript rules?")
    assert outputs(result)["r1"] == "[rule: ts]\nUse strict TypeScript in src."
    bare = RuleweaveAgents(RuleweaveConfig(cwd=repo, builtin_rules=False), read_rule_tool=False)
    assert "read_rule" not in [tool.name for tool in bare.agent(Agent(name="a", model=model)).tools]


# -- notices ---------------------------------------------------------------------------------


async def test_notice_once_over_parallel_calls(repo: Path) -> None:
    """Two parallel calls touching the scoped rule's files: exactly one result carries it, once."""
    rw, agent, model = build(
        repo,
        [
            [read("c1", "src/app.ts"), read("c2", "src/util.ts")],
            [read("c3", "src/app.ts")],
            [assistant_message("done")],
        ],
    )
    result = await rw.run(agent, "look at the sources")
    found = outputs(result)
    assert sorted(found) == ["c1", "c2", "c3"]
    assert sum(NOTICE in text for text in found.values()) == 1
    carrier = next(cid for cid, text in found.items() if NOTICE in text)
    assert carrier in ("c1", "c2")
    assert found[carrier].endswith(";\n\n[rule: ts]\nUse strict TypeScript in src.")
    assert NOTICE not in found["c3"]
    assert NOTICE in str(model.calls[1].input)


async def test_structured_output_gets_a_text_item(repo: Path) -> None:
    """A tool answering with structured items gets the notice as one more text item."""
    step = [function_call("read_text_item", {"path": "src/app.ts"}, call_id="c1")]
    rw, agent, model = build(repo, [step, [assistant_message("done")]])
    await rw.run(agent, "look")
    (output,) = [i["output"] for i in model.calls[1].input if i.get("type") == "function_call_output"]
    assert isinstance(output, list) and len(output) == 2
    assert output[0]["text"] == "export const app = 1;\n"
    assert output[1]["text"].startswith(NOTICE)


async def test_resumed_sqlite_session_does_not_repeat_notices(repo: Path, tmp_path: Path) -> None:
    """A conversation resumed from SQLiteSession by a new adapter on the same store gets no repeat."""
    store_url = f"sqlite:///{tmp_path / 'state.db'}"
    history = SQLiteSession("conv-1", str(tmp_path / "history.db"))
    config = RuleweaveConfig(cwd=repo, builtin_rules=False, store=store_url)

    first_model = ScriptedModel([[read("c1", "src/app.ts")], [assistant_message("done")]])
    rw = RuleweaveAgents(config)
    agent = rw.agent(Agent(name="coder", instructions=SYSTEM, tools=file_tools(repo), model=first_model))
    assert NOTICE in outputs(await rw.run(agent, "look", session=history))["c1"]

    second_model = ScriptedModel([[read("c2", "src/app.ts")], [assistant_message("done")]])
    rw = RuleweaveAgents(config)
    agent = rw.agent(Agent(name="coder", instructions=SYSTEM, tools=file_tools(repo), model=second_model))
    result = await rw.run(agent, "look again", session=history)
    assert NOTICE not in outputs(result)["c2"]
    assert NOTICE in str(second_model.calls[0].input)  # the history the SDK session replays

    third_model = ScriptedModel([[read("c3", "src/app.ts")], [assistant_message("done")]])
    agent = rw.agent(Agent(name="coder", instructions=SYSTEM, tools=file_tools(repo), model=third_model))
    other = SQLiteSession("conv-2", str(tmp_path / "history.db"))
    assert NOTICE in outputs(await rw.run(agent, "look", session=other))["c3"]


async def test_run_without_an_id_is_forgotten(repo: Path) -> None:
    """A run with no session, conversation or group id gets a fresh session, dropped when it ends."""
    store = MemoryStore()
    rw, agent, _ = build(repo, [[read("c1", "src/app.ts")], [assistant_message("done")]] * 2, store=store)
    with capture_events() as events:
        first = await rw.run(agent, "look")
        second = await rw.run(agent, "look")
    assert NOTICE in outputs(first)["c1"] and NOTICE in outputs(second)["c1"]
    sessions = {e["session"] for e in events if e["event"] == "session_start"}
    assert len(sessions) == 2 and all(s.startswith("run-") for s in sessions)
    assert not any(s in rw.pool for s in sessions)


async def test_conversation_scope_for_runner_called_directly(repo: Path) -> None:
    """``Runner.run`` inside ``rw.conversation(id)`` uses that conversation; outside one it is an error."""
    rw, agent, _ = build(
        repo, [[read("c1", "src/app.ts")], [assistant_message("done")], [read("c2", "src/app.ts")]]
    )
    with rw.conversation("direct") as session:
        result = await Runner.run(agent, "look")
    assert session.session_id == "direct"
    assert NOTICE in outputs(result)["c1"]
    with pytest.raises(ConfigError, match="outside a conversation"):
        await Runner.run(agent, "look")


async def test_group_id_names_the_conversation(repo: Path) -> None:
    """Without an SDK session, ``run_config.group_id`` keys the conversation."""
    rw, agent, _ = build(repo, [[assistant_message("hi")]])
    with capture_events() as events:
        await rw.run(agent, "hello", run_config=RunConfig(group_id="thread-9"))
    assert {e["session"] for e in events} == {"thread-9"}


# -- refusals ----------------------------------------------------------------------------------


async def test_refused_tool_does_not_run(repo: Path) -> None:
    """A tool the steering decision forbids is not run; its result names the rule."""
    (repo / ".ruleweave" / "skill.spec.yml").write_text(SPEC, encoding="utf-8")
    assert RuleSet.load(RuleweaveConfig(cwd=repo, builtin_rules=False)).steering.spec is not None
    step = [function_call("delete_file", {"path": "README.md"}, call_id="c1")]
    rw, agent, model = build(repo, [step, [assistant_message("kept it")]])
    result = await rw.run(agent, "please clean up the readme", session=SQLiteSession("s"))
    assert (repo / "README.md").exists()
    assert "never_delete_files" in outputs(result)["c1"]
    assert "<steering>" in (model.calls[0].system_instructions or "")


async def test_turn_without_forbid_runs_the_tool(repo: Path) -> None:
    """A user turn the spec forbids nothing for lets the same tool run."""
    (repo / ".ruleweave" / "skill.spec.yml").write_text(SPEC, encoding="utf-8")
    step = [function_call("delete_file", {"path": "README.md"}, call_id="c1")]
    rw, agent, _ = build(repo, [step, [assistant_message("ok")]])
    await rw.run(agent, "delete the readme")
    assert not (repo / "README.md").exists()


# -- streamed rules (TTSR) ---------------------------------------------------------------------


async def test_whole_reply_match_is_retried_not_streamed(repo: Path) -> None:
    """A non-streamed reply matching a condition is dropped and asked again with the rule."""
    rw, agent, model = build(
        repo,
        [
            [assistant_message("I will declare var total = 0 here")],
            [assistant_message("I will declare let total = 0 here")],
            [read("c1", "src/app.ts")],
            [assistant_message("done")],
        ],
    )
    history = SQLiteSession("t")
    result = await rw.run(agent, "add a counter", session=history)
    assert result.final_output == "I will declare let total = 0 here"
    assert len(model.calls) == 2
    assert RETRY_TEXT not in (model.calls[0].system_instructions or "")
    assert RETRY_TEXT in (model.calls[1].system_instructions or "")
    assert "var total" not in str(await history.get_items())
    await rw.run(agent, "now read the app", session=history)
    later = list(model.calls)[2:]
    assert len(later) == 2  # both calls of the next run keep the rule
    assert all(RETRY_TEXT in (call.system_instructions or "") for call in later)


async def test_whole_reply_tool_call_match_is_retried_before_it_runs(repo: Path) -> None:
    """A non-streamed reply whose tool call matches is dropped before the tool runs."""
    rw, agent, model = build(
        repo,
        [
            [write("w1", "src/new.ts", "var count = 0;\n")],
            [write("w2", "src/new.ts", "let count = 0;\n")],
            [assistant_message("done")],
        ],
    )
    result = await rw.run(agent, "add a counter file")
    assert (repo / "src/new.ts").read_text(encoding="utf-8") == "let count = 0;\n"
    assert sorted(outputs(result)) == ["w2"]
    assert RETRY_TEXT in (model.calls[1].system_instructions or "")


async def test_streamed_text_match_is_stopped_and_retried(repo: Path) -> None:
    """A streamed reply is stopped at the match and the model is asked again with the rule."""
    rw, agent, model = build(
        repo, [[assistant_message("so var x = 1 it is")], [assistant_message("so const x = 1 it is")]]
    )
    result = await streamed(rw, agent, "add x", session=SQLiteSession("st"))
    assert result.final_output == "so const x = 1 it is"
    assert [call.streamed for call in model.calls] == [True, True]
    assert RETRY_TEXT in (model.calls[1].system_instructions or "")
    assert "var x" not in str(result.to_input_list())


async def test_streamed_tool_arguments_match_is_retried_before_the_tool_runs(repo: Path) -> None:
    """A tool call whose streamed arguments match is dropped before it runs, and retried."""
    rw, agent, model = build(
        repo,
        [
            [write("w1", "src/new.ts", "var count = 0;\n")],
            [write("w2", "src/new.ts", "let count = 0;\n")],
            [assistant_message("done")],
        ],
    )
    result = await streamed(rw, agent, "add a counter file")
    assert (repo / "src/new.ts").read_text(encoding="utf-8") == "let count = 0;\n"
    assert sorted(outputs(result)) == ["w2"]
    assert RETRY_TEXT in (model.calls[1].system_instructions or "")


async def test_non_interrupting_hit_is_a_tool_result_reminder(write_tree: WriteTree) -> None:
    """A streamed rule with ``interruptMode: never`` is appended to the next tool result instead."""
    never = "---\ncondition: '\\bvar\\s+\\w+'\ninterruptMode: never\n---\n" + RETRY_TEXT + "\n"
    root = write_tree({**RULES, ".ruleweave/rules/no-var.md": never})
    step = [assistant_message("I will use var n here"), read("c1", "README.md")]
    rw, agent, model = build(root, [step, [assistant_message("done")]])
    result = await streamed(rw, agent, "go")
    assert len(model.calls) == 2
    text = outputs(result)["c1"]
    assert text.startswith("# demo\n\n[ruleweave] What you just wrote matches rule `no-var`")
    assert RETRY_TEXT in text


async def test_retries_are_bounded(repo: Path) -> None:
    """With ``ttsr_retries=0`` a matching reply is kept; the rule comes back as a reminder."""
    step = [assistant_message("so var x = 1"), read("c1", "README.md")]
    rw, agent, model = build(repo, [step, [assistant_message("done")]], ttsr_retries=0)
    result = await rw.run(agent, "go")
    assert len(model.calls) == 2
    assert RETRY_TEXT in outputs(result)["c1"]


# -- construction and the optional extra ------------------------------------------


def test_config_and_ruleset_are_exclusive(repo: Path) -> None:
    """Giving both a config and a rule set, or negative retries, is a configuration error."""
    config = RuleweaveConfig(cwd=repo, builtin_rules=False)
    with pytest.raises(ConfigError):
        RuleweaveAgents(config, ruleset=RuleSet.load(config))
    with pytest.raises(ConfigError):
        RuleweaveAgents(config, ttsr_retries=-1)


def test_run_sync_and_default_session(repo: Path) -> None:
    """``run_sync`` works, and an adapter with a ``session_id`` serves runs outside a conversation."""
    rw, agent, _ = build(
        repo, [[read("c1", "src/app.ts")], [assistant_message("done")]] * 2, session_id="fixed"
    )
    assert NOTICE in outputs(rw.run_sync(agent, "look"))["c1"]
    assert NOTICE not in outputs(Runner.run_sync(agent, "look"))["c1"]
    assert rw.session("fixed").session_id == "fixed"


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing the adapter without the SDK raises MissingDependencyError naming the extra."""
    for name in [n for n in sys.modules if n == "agents" or n.startswith("agents.")]:
        monkeypatch.setitem(sys.modules, name, None)
    for name in ("ruleweave.adapters.openai_agents", "ruleweave.adapters.openai_agents_stream"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(MissingDependencyError, match=re.escape("pip install ruleweave[openai-agents]")):
        importlib.import_module("ruleweave.adapters.openai_agents")
