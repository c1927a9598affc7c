"""The CI fuzz suite, continued (bounded, hypothesis): hook stdin, MCP requests, file names not in UTF-8.

Issue #29, "extend the CI fuzz suite". Properties:

* hook stdin, for every host in ``ruleweave.hosts.HOSTS`` (Claude Code's event
  shapes: ``hook_event_name``, ``cwd``, ``session_id``, ``tool_name``,
  ``tool_input``, ``tool_response``, ``source``, ``prompt``): the hook returns 0,
  prints nothing or one JSON object, and logs no internal error;
* MCP requests (tools, resources, prompts, any arguments): a result, an
  ``isError`` result or an ``MCPError``, never anything else;
* rule file names made of arbitrary bytes: loading, the prompt, a notice and
  ``scan --json`` never raise, and everything they produce is valid UTF-8.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import tempfile
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client, MCPError

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.adapters.mcp import create_server
from ruleweave.cli import main
from ruleweave.hosts import HOSTS, host
from ruleweave.hosts._command import run
from tests.security.test_fuzz import FUZZ, json_values

PROJECT = {
    ".git/HEAD": "ref",
    ".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nTyped.",
    ".cursor/rules/all.mdc": "---\nalwaysApply: true\n---\nAlways.",
    ".ruleweave/rules/t.md": "---\ncondition: 'eval\\('\n---\nNo eval.",
    "pkg/AGENTS.md": "Nested.",
    "pkg/a.py": "x = 1\n",
}
INTERNAL = ("TypeError", "AttributeError", "KeyError", "IndexError", "ValueError", "UnicodeEncodeError",
            "UnicodeDecodeError", "RecursionError", "AssertionError", "OverflowError")
"""Exception names that, in a hook_error line, mean ruleweave itself broke on its input."""


def _tree(root: Path) -> Path:
    for relative, text in PROJECT.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with an always-on, a scoped, a streamed rule and a nested instruction file."""
    return _tree(tmp_path_factory.mktemp("fuzz-inputs") / "repo")


def _events() -> st.SearchStrategy[str]:
    names = [name for agent in HOSTS for name in host(agent).events]
    return st.one_of(st.sampled_from(names), st.text(max_size=12))


texts = st.one_of(st.text(max_size=30), st.sampled_from(("\ud800", "a\udcffb", "\x00", "x" * 5000)))


@st.composite
def hook_payloads(draw: st.DrawFn, root: str) -> Any:
    """A hook event as an agent sends it, every field possibly of the wrong type or shape."""
    payload: dict[str, Any] = {
        "hook_event_name": draw(_events()),
        "session_id": draw(st.one_of(texts, json_values)),
        "cwd": draw(st.one_of(st.just(root), st.just(root + "/pkg"), texts, json_values)),
        "transcript_path": draw(st.one_of(texts, st.just(root + "/t.jsonl"))),
    }
    extra = {
        "tool_name": st.one_of(st.sampled_from(("Read", "Edit", "Write", "Bash", "mcp__x__y")), texts),
        "tool_input": st.one_of(
            st.fixed_dictionaries({"file_path": st.one_of(st.just(root + "/pkg/a.py"), texts)}),
            st.fixed_dictionaries({"file_path": st.just(root + "/pkg/a.py"), "content": st.just("eval(x)")}),
            json_values,
        ),
        "tool_response": json_values, "tool_use_id": texts, "source": st.one_of(
            st.sampled_from(("startup", "resume", "clear", "compact")), texts),
        "prompt": texts, "agent_id": texts, "last_assistant_message": texts, "stop_hook_active": json_values,
    }
    for key in draw(st.lists(st.sampled_from(sorted(extra)), max_size=len(extra), unique=True)):
        payload[key] = draw(extra[key])
    return draw(st.one_of(st.just(payload), json_values))


@settings(FUZZ, max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                        HealthCheck.too_slow])
@given(data=st.data(), agent=st.sampled_from(HOSTS), raw=st.booleans())
def test_hook_stdin_never_breaks_the_hook(project: Path, data: st.DataObject, agent: str, raw: bool) -> None:
    """Whatever an agent (or something posing as one) sends, the hook exits 0 with nothing or one JSON
    object, and its log records no internal error."""
    payload = data.draw(hook_payloads(str(project)))
    encoded = json.dumps(payload).encode() if not raw else data.draw(st.binary(max_size=200))
    with tempfile.TemporaryDirectory() as state, mock.patch.dict(os.environ, {"RULEWEAVE_STATE_DIR": state}):
        out = io.StringIO()
        assert run(agent, (), stdin=io.BytesIO(encoded), stdout=out) == 0
        printed = out.getvalue()
        printed.encode("utf-8")
        assert printed == "" or isinstance(json.loads(printed), dict)
        for log in Path(state).glob("*.jsonl"):
            for line in log.read_text(encoding="utf-8").splitlines():
                error = str(json.loads(line).get("error", ""))
                assert not error.startswith(INTERNAL), error


wire_values = json_values.filter(lambda value: _travels(value))
"""Arguments an MCP client can send: JSON whose text is valid UTF-8 (a lone surrogate cannot be encoded)."""


def _travels(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False).encode("utf-8")
    except (ValueError, UnicodeEncodeError):
        return False
    return True


@settings(FUZZ, max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                        HealthCheck.too_slow])
@given(calls=st.lists(st.tuples(
    st.sampled_from(("tool", "resource", "prompt")),
    st.one_of(st.sampled_from(("rules_for_paths", "read_rule", "explain", "all", "py", "nope",
                               "ruleweave-system")), st.text(max_size=30)),
    st.one_of(st.dictionaries(st.sampled_from(("paths", "name", "path", "x")), wire_values, max_size=3),
              wire_values),
), min_size=1, max_size=4))
def test_mcp_requests_never_break_the_server(project: Path, calls: list[tuple[str, str, Any]]) -> None:
    """Every request gets a result, an ``isError`` result or an MCP error, and the session goes on."""
    server = create_server(RuleweaveConfig(cwd=project, builtin_rules=False))

    async def session() -> None:
        async with Client(server) as client:
            for kind, name, args in calls:
                try:
                    if kind == "tool":
                        await client.call_tool(name, args if isinstance(args, dict) else {"paths": args})
                    elif kind == "resource":
                        await client.read_resource(f"rule://{name}")
                    else:
                        await client.get_prompt(name)
                except MCPError:
                    pass
            assert (await client.call_tool("read_rule", {"name": "all"})).is_error is False

    asyncio.run(session())


names = st.binary(min_size=1, max_size=12).filter(lambda b: b"/" not in b and b"\x00" not in b and b not in (
    b".", b".."))


@settings(FUZZ, max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                        HealthCheck.too_slow])
@given(name=names, always=st.booleans())
def test_rule_file_names_in_any_bytes(name: bytes, always: bool) -> None:
    """A rule file named with any bytes: load, prompt, notice and ``scan --json`` never raise, stay UTF-8."""
    with tempfile.TemporaryDirectory() as top:
        root = _tree(Path(top) / "repo")
        front = "alwaysApply: true" if always else "globs: pkg/**"
        folder = os.fsencode(root / ".cursor" / "rules")
        with open(folder + b"/" + name + b".mdc", "wb") as handle:
            handle.write(f"---\n{front}\n---\nOdd-name body.\n".encode())
        ruleset = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False))
        session = ruleset.session("s")
        assert "Odd-name body." in session.system_prompt().encode("utf-8").decode("utf-8") or not always
        hit = session.after_tool_call("Read", {"file_path": str(root / "pkg" / "a.py")})
        assert hit is not None
        hit.text.encode("utf-8")
        assert ("Odd-name body." in hit.text) is not always
        out = io.StringIO()
        with redirect_stdout(out):
            assert main(["scan", "--json", "--cwd", str(root)]) == 0
        json.loads(out.getvalue().encode("utf-8"))
