"""The MCP server with the real ``mcp`` SDK: in process, over stdio and over streamable HTTP."""

from __future__ import annotations

import importlib
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client

from ruleweave import ConfigError, MissingDependencyError, RuleSet, RuleweaveConfig
from ruleweave.adapters.mcp import NOTHING_NEW, PATHS_HINT, RULE_TEMPLATE, create_server
from ruleweave.cli import main
from ruleweave.testing import capture_events
from tests.conftest import WriteTree

NOTICE = "[rule: ts]"

RULES = {
    ".cursor/rules/ts.mdc": (
        "---\ndescription: TypeScript conventions\nglobs: src/**/*.ts\n---\nUse strict TypeScript in src.\n"
    ),
    ".cursor/rules/small.mdc": "---\nalwaysApply: true\n---\nKeep every change small.\n",
    ".cursor/rules/backend/testing.mdc": "---\ndescription: Backend tests\n---\nUse pytest.\n",
    "apps/web/.cursor/rules/deploy.mdc": "---\ndescription: How the web app deploys\n---\nfly deploy.\n",
    "apps/web/app/root.tsx": "export {}\n",
    "src/app.ts": "export const app = 1;\n",
    "src/util.ts": "export const util = 2;\n",
}

SERVE = "import sys; from ruleweave.cli import main; sys.exit(main())"
"""``python -c SERVE mcp …`` runs ``ruleweave mcp`` whatever the scripts directory."""


@pytest.fixture
def repo(write_tree: WriteTree) -> Path:
    """A repo with a scoped rule, an always-apply rule, a rule in a subfolder and a nested folder."""
    return write_tree(RULES)


def server_for(root: Path, **options: Any) -> Any:
    """An in-process server over ``root``."""
    return create_server(RuleweaveConfig(cwd=root, builtin_rules=False), **options)


def text_of(result: Any) -> str:
    """The text of a tool result."""
    return "".join(getattr(block, "text", "") for block in result.content)


# -- in process -------------------------------------------------------------------------


async def test_instructions_are_the_prompt_contribution(repo: Path) -> None:
    """The server's instructions are the rule blocks; the prompt ``ruleweave-system`` says the same."""
    async with Client(server_for(repo)) as client:
        assert client.instructions is not None
        assert (
            "<generic-rules>\n[rule: small] .cursor/rules/small.mdc\n"
            "Keep every change small.\n</generic-rules>"
        ) in client.instructions
        assert "- ts (src/**/*.ts): TypeScript conventions" in client.instructions
        assert client.instructions.endswith(PATHS_HINT)
        prompt = await client.get_prompt("ruleweave-system")
        assert "<generic-rules>" in getattr(prompt.messages[0].content, "text", "")


async def test_rules_are_listed_and_read_by_name(repo: Path) -> None:
    """Every rule is a listed resource; names with ``/`` and ``:`` read plainly or percent-escaped."""
    async with Client(server_for(repo)) as client:
        listed = {str(r.uri): r for r in (await client.list_resources()).resources}
        assert {"rule://ts", "rule://small", "rule://backend/testing"} <= set(listed)
        assert listed["rule://ts"].description == "TypeScript conventions"
        templates = (await client.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == [RULE_TEMPLATE]
        for uri in ("rule://backend/testing", "rule://backend%2Ftesting"):
            assert (await client.read_resource(uri)).contents[0].text == "Use pytest."  # type: ignore[union-attr]
        nested = await client.read_resource("rule://apps/web:deploy")
        assert nested.contents[0].text == "fly deploy."  # type: ignore[union-attr]
        with pytest.raises(MCPError, match=r"No rule named 'nope'; available rules: .*ts"):
            await client.read_resource("rule://nope")


async def test_rules_for_paths_gives_each_notice_once(repo: Path) -> None:
    """``rules_for_paths`` returns a path's rules the first time only, in this MCP session."""
    server = server_for(repo)
    async with Client(server) as client:
        first = await client.call_tool("rules_for_paths", {"paths": ["src/app.ts"]})
        assert text_of(first) == "[rule: ts]\nUse strict TypeScript in src."
        again = await client.call_tool("rules_for_paths", {"paths": ["src/util.ts", "src/app.ts"]})
        assert text_of(again) == NOTHING_NEW
        nested = await client.call_tool("rules_for_paths", {"paths": ["apps/web/app/root.tsx"]})
        assert "rule://apps/web:deploy: How the web app deploys" in text_of(nested)
        listed = {str(r.uri) for r in (await client.list_resources()).resources}
        assert "rule://apps/web:deploy" in listed  # its folder was read: now listed too
    other = server_for(repo)
    async with Client(other) as client:
        fresh = await client.call_tool("rules_for_paths", {"paths": ["src/app.ts"]})
        assert NOTICE in text_of(fresh)


async def test_read_rule_and_explain(repo: Path) -> None:
    """``read_rule`` returns a rule's text (an unknown name is an error result listing the names there
    are); ``explain`` says why a rule fires, for the same ``paths`` argument ``rules_for_paths`` takes."""
    async with Client(server_for(repo)) as client:
        found = await client.call_tool("read_rule", {"name": "rule://backend/testing"})
        assert not found.is_error and text_of(found) == "[rule: backend/testing]\nUse pytest."
        missing = await client.call_tool("read_rule", {"name": "nope"})
        assert missing.is_error
        assert text_of(missing).startswith("No rule named 'nope'; available rules:")
        explained = await client.call_tool("explain", {"paths": ["src/app.ts"]})
        assert explained.structured_content == {"paths": [{
            "path": "src/app.ts",
            "rules": [{"name": "ts", "provider": "cursor", "glob": "src/**/*.ts"}],
            "instructions": [],
            "listings": [],
        }]}
        again = await client.call_tool("rules_for_paths", {"paths": ["src/app.ts"]})
        assert NOTICE in text_of(again)  # explain claimed nothing


async def test_a_wrong_argument_gets_one_sentence(repo: Path) -> None:
    """A call with arguments a tool does not take is an error result of one sentence, no validation dump."""
    async with Client(server_for(repo)) as client:
        wrong = await client.call_tool("explain", {"path": "src/app.ts"})
        assert wrong.is_error
        assert text_of(wrong) == "The tool explain takes paths (a list of strings); it was given path."
        wrong = await client.call_tool("read_rule", {"rule": "ts", "extra": 1})
        assert text_of(wrong) == "The tool read_rule takes name (a string); it was given extra, rule."
        wrong = await client.call_tool("rules_for_paths", {"paths": "src/app.ts"})
        assert wrong.is_error and "\n" not in text_of(wrong) and "validation" not in text_of(wrong).lower()


async def test_session_id_keys_the_state_in_the_store(repo: Path, tmp_path: Path) -> None:
    """A server's requests without an MCP session use its ``session_id``, state in the configured store."""
    config = RuleweaveConfig(cwd=repo, builtin_rules=False, store=f"sqlite:///{tmp_path / 'state.db'}")
    with capture_events() as events:
        async with Client(create_server(config, session_id="host-1")) as client:
            assert NOTICE in text_of(await client.call_tool("rules_for_paths", {"paths": ["src/app.ts"]}))
        async with Client(create_server(config, session_id="host-1")) as client:
            again = await client.call_tool("rules_for_paths", {"paths": ["src/app.ts"]})
    assert text_of(again) == NOTHING_NEW
    assert {e["session"] for e in events} == {"host-1"}
    assert {e["adapter"] for e in events if e["event"] == "session_start"} == {"mcp"}


def test_config_and_ruleset_are_exclusive(repo: Path) -> None:
    """Giving both a config and a rule set is a configuration error."""
    config = RuleweaveConfig(cwd=repo, builtin_rules=False)
    with pytest.raises(ConfigError):
        create_server(config, ruleset=RuleSet.load(config))


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing the adapter without mcp raises MissingDependencyError naming the extra."""
    for name in [n for n in sys.modules if n == "mcp" or n.startswith("mcp.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "ruleweave.adapters.mcp", raising=False)
    with pytest.raises(MissingDependencyError, match=re.escape("pip install ruleweave[mcp]")):
        importlib.import_module("ruleweave.adapters.mcp")


# -- ruleweave mcp, over stdio and HTTP ---------------------------------------------------------


def serve_args(root: Path, *more: str) -> list[str]:
    """``ruleweave mcp --cwd root …`` as arguments of the Python interpreter."""
    return ["-c", SERVE, "mcp", "--cwd", str(root), *more]


async def test_stdio_subprocess_serves_and_keeps_stderr_quiet(repo: Path, tmp_path: Path) -> None:
    """``ruleweave mcp`` over stdio: notices once per process, nothing on stderr unless asked."""
    for flags, expect_events in (((), False), (("--events",), True)):
        log = tmp_path / f"stderr-{expect_events}.txt"
        params = StdioServerParameters(command=sys.executable, args=serve_args(repo, *flags))
        with log.open("w", encoding="utf-8") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                first = await client.call_tool("rules_for_paths", {"paths": ["src/app.ts"]})
                second = await client.call_tool("rules_for_paths", {"paths": ["src/app.ts"]})
                assert (await client.read_resource("rule://ts")).contents[0].text == (  # type: ignore[union-attr]
                    "Use strict TypeScript in src."
                )
        assert NOTICE in text_of(first) and text_of(second) == NOTHING_NEW
        stderr = log.read_text(encoding="utf-8")
        if expect_events:
            assert "event='tool_touch'" in stderr and "adapter='mcp'" in stderr
        else:
            assert stderr.strip() == "", stderr


def free_port() -> int:
    """A port nothing listens on now, on the loopback interface."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def http_server(repo: Path) -> Iterator[str]:
    """``ruleweave mcp --http 127.0.0.1:PORT`` running; its URL. Stopped at the end of the test."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, *serve_args(repo, "--http", f"127.0.0.1:{port}")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(process.stderr.read().decode() if process.stderr else "") from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


async def test_http_gives_each_mcp_session_its_own_rules(http_server: str) -> None:
    """Over streamable HTTP each MCP session (``Mcp-Session-Id``) is a ruleweave session of its own."""
    for _ in range(2):
        async with Client(http_server, mode="legacy") as client:
            first = await client.call_tool("rules_for_paths", {"paths": ["src/app.ts"]})
            second = await client.call_tool("rules_for_paths", {"paths": ["src/app.ts"]})
            assert NOTICE in text_of(first) and text_of(second) == NOTHING_NEW
            assert "<generic-rules>" in (client.instructions or "")


def test_http_address_must_have_a_port(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--http`` without a port is a usage error (exit 2), before anything is served."""
    assert main(["mcp", "--cwd", str(repo), "--http", "localhost"]) == 2
    assert "expected HOST:PORT" in capsys.readouterr().err
