"""Refusing tool calls that use a forbidden substitute."""

from __future__ import annotations

from pathlib import Path

from ruleweave.steering import Decision, ToolPattern, check_tool, decide
from ruleweave.steering.enforce import split_command
from tests.steering.helpers import load

BODY = """\
rules:
  - id: browse_means_browser
    when: {user_says_any: [browse]}
    prefer: browser
    forbid: [native_search_as_answer, raw_playwright, curl]
    reason: The answer must come from pages read in the browser.
  - id: search_for_urls_only
    when: {user_says_any: [find]}
    allow: {native_search: url_discovery_only}
  - id: no_push
    when: {user_says_any: [push]}
    forbid: [git_push]
"""


def decision(tmp_path: Path, text: str) -> Decision:
    """The decision for ``text`` under the shared rules."""
    return decide(load(tmp_path, BODY), text)


def test_forbidden_tool_name_is_refused(tmp_path: Path) -> None:
    """A playwright tool is refused under raw_playwright, naming the rule and reason."""
    refusal = check_tool(decision(tmp_path, "browse it"), "mcp__playwright__browser_click", {})
    assert refusal is not None
    assert refusal.rule == "browse_means_browser"
    assert refusal.forbidden == "raw_playwright"
    assert refusal.reason == "The answer must come from pages read in the browser."
    assert "browse_means_browser" in refusal.message
    assert refusal.reason in refusal.message
    assert "'browser'" in refusal.message


def test_shell_program_is_refused(tmp_path: Path) -> None:
    """curl run through a shell tool is refused, even behind sudo, env and a pipeline."""
    d = decision(tmp_path, "browse it")
    for name, args in [
        ("bash", {"command": "curl -s https://example.com"}),
        ("Bash", {"command": "cd /tmp && FOO=1 sudo /usr/bin/curl x | jq ."}),
        ("run_command", {"cmd": ["bash", "-lc", "echo hi; curl x"]}),
        ("mcp__shell__execute", {"command": "timeout 5 curl x 2>/dev/null"}),
    ]:
        assert isinstance(args, dict)
        refusal = check_tool(d, name, args)
        assert refusal is not None, (name, args)
        assert refusal.forbidden == "curl"
        assert refusal.matched.startswith("program ")


def test_unrelated_calls_pass(tmp_path: Path) -> None:
    """Calls that only mention a forbidden word in data are not refused."""
    d = decision(tmp_path, "browse it")
    assert check_tool(d, "bash", {"command": "echo curl > notes.txt"}) is None
    assert check_tool(d, "bash", {"command": "cat curl"}) is None
    assert check_tool(d, "read_file", {"path": "curl.md"}) is None
    assert check_tool(d, "browser_navigate", {"url": "https://x"}) is None


def test_nothing_forbidden_nothing_refused(tmp_path: Path) -> None:
    """Without forbids every call passes."""
    assert check_tool(decision(tmp_path, "hello"), "bash", {"command": "curl x"}) is None


def test_native_search_forbidden_then_narrowed_by_allow(tmp_path: Path) -> None:
    """A web search is refused as answer substrate, unless an allow narrows it to URL discovery."""
    refusal = check_tool(decision(tmp_path, "browse it"), "WebSearch", {"query": "x"})
    assert refusal is not None and refusal.forbidden == "native_search_as_answer"
    narrowed = decision(tmp_path, "browse it and find the url")
    assert check_tool(narrowed, "WebSearch", {"query": "x"}) is None
    assert check_tool(narrowed, "bash", {"command": "curl x"}) is not None


def test_program_patterns_with_arguments(tmp_path: Path) -> None:
    """git_push matches ``git push`` but not other git commands."""
    d = decision(tmp_path, "push the branch")
    assert check_tool(d, "shell", {"command": "git push origin main"}) is not None
    assert check_tool(d, "shell", {"command": "git status"}) is None


def test_tool_map_overrides_and_extends_defaults(tmp_path: Path) -> None:
    """A caller's mapping decides what a forbid id matches."""
    d = decision(tmp_path, "browse it")
    tool_map = {
        "curl": ToolPattern.parse(["http_get", "shell:http*"]),
        "raw_playwright": ToolPattern(),
    }
    assert check_tool(d, "http_get", {}, tool_map=tool_map) is not None
    assert check_tool(d, "bash", {"command": "httpie x"}, tool_map=tool_map) is not None
    assert check_tool(d, "bash", {"command": "curl x"}, tool_map=tool_map) is None
    assert check_tool(d, "playwright_click", {}, tool_map=tool_map) is None


def test_unmapped_ids_match_a_tool_or_program_of_that_name(tmp_path: Path) -> None:
    """A forbid id without a mapping matches a tool named like it and a program of that name."""
    spec = load(
        tmp_path, "rules:\n  - id: r\n    when: {user_says_any: [x]}\n    forbid: [node_repl]\n"
    )
    d = decide(spec, "x")
    assert check_tool(d, "node-repl", {}) is not None
    assert check_tool(d, "bash", {"command": "node_repl --eval 1"}) is not None
    assert check_tool(d, "node", {}) is None


def test_split_command_finds_every_program() -> None:
    """Wrappers, assignments, separators, redirections and sh -c strings are looked through."""
    commands = list(split_command("A=1 sudo npx -y playwright test > log 2>&1; sh -c 'wget x'"))
    programs = [words[0] for words in commands]
    assert programs == ["sudo", "npx", "playwright", "sh", "wget"]
    assert ["log"] not in commands
    assert list(split_command("echo 'unbalanced")) == [["echo", "'unbalanced"]]


def test_split_command_reads_scripts_line_by_line() -> None:
    """Newlines, comment lines, continuations, shell keywords, backticks and wrapper option values."""

    def programs(line: str) -> list[str]:
        return [words[0] for words in split_command(line)]

    assert programs("cd repo\ncurl -s x | jq .") == ["cd", "curl", "jq"]
    assert programs("# fetch it\nwget y") == ["wget"]
    assert programs("echo hi \\\n  && curl x") == ["echo", "curl"]
    assert programs("if true; then curl a; fi") == ["true", "curl"]
    assert programs("for f in a b; do wget $f; done") == ["for", "wget"]
    assert programs("echo `curl x`") == ["echo", "curl"]
    assert programs("sudo -u root curl x") == ["sudo", "curl"]
    assert programs("env -u HOME curl x") == ["env", "curl"]
    assert programs("bash -c 'ls\ncurl x'") == ["bash", "ls", "curl"]
