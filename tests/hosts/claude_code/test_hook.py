"""``ruleweave hook claude-code`` run as Claude Code runs it: a new process per event, JSON on stdin."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.hosts.claude_code.conftest import RunHook, context_of, event, read_event


def test_session_start_leaves_out_what_claude_code_loads(project: Path, run_hook: RunHook) -> None:
    """SessionStart answers with the always-apply rules, leaving out .claude/rules and AGENTS.md."""
    code, out, _ = run_hook(event(project, "SessionStart", source="startup"))
    assert code == 0
    answer = json.loads(out)
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    text = context_of(out)
    assert "Be concise." in text
    assert "Claude Code loads this" not in text


def test_include_native_keeps_what_claude_code_loads(project: Path, run_hook: RunHook) -> None:
    """--include-native puts AGENTS.md back into the SessionStart context."""
    _, out, _ = run_hook(event(project, "SessionStart", source="startup"), "--include-native")
    assert "Claude Code loads this itself too." in context_of(out)


def test_post_tool_use_injects_a_cursor_rule_once_per_session(project: Path, run_hook: RunHook) -> None:
    """A Read of a .py file brings the Cursor rule once; a second Read nothing; a new session again."""
    code, out, _ = run_hook(read_event(project, "src/app.py", "t1"))
    assert code == 0
    text = context_of(out)
    assert text.startswith("[rule: python]") and "Use type hints everywhere." in text
    assert "Claude Code loads this itself" not in text
    assert run_hook(read_event(project, "src/app.py", "t2")) == (0, "", "")
    assert "Use type hints" in context_of(run_hook(read_event(project, "src/app.py", "t3", session="s2"))[1])


def test_post_tool_use_injects_a_copilot_rule_for_an_edit(project: Path, run_hook: RunHook) -> None:
    """An Edit of src/ui.ts brings the Copilot applyTo rule."""
    payload = event(
        project, "PostToolUse", tool_name="Edit", tool_use_id="e1",
        tool_input={"file_path": str(project / "src/ui.ts"), "old_string": "1", "new_string": "2"},
    )
    assert "No `any` in TypeScript." in context_of(run_hook(payload)[1])


def test_glob_grep_and_bash_touch_paths(project: Path, run_hook: RunHook) -> None:
    """Glob's pattern, Grep's glob and a path in a Bash command each count as touched."""
    glob = event(project, "PostToolUse", "g", tool_name="Glob", tool_use_id="g1",
                 tool_input={"pattern": "src/**/*.py", "path": str(project)})
    grep = event(project, "PostToolUse", "r", tool_name="Grep", tool_use_id="r1",
                 tool_input={"pattern": "any", "path": str(project / "src"), "glob": "*.ts"})
    bash = event(project, "PostToolUse", "b", tool_name="Bash", tool_use_id="b1",
                 tool_input={"command": "python src/app.py --verbose | head -n 3"})
    assert "Use type hints" in context_of(run_hook(glob)[1])
    assert "No `any`" in context_of(run_hook(grep)[1])
    assert "Use type hints" in context_of(run_hook(bash)[1])


def test_parallel_reads_inject_a_rule_once(project: Path, run_hook: RunHook) -> None:
    """Six hook processes for parallel Reads of .py files of one session: exactly one carries the rule."""
    (project / "src/b.py").write_text("x = 1\n")
    payloads = [read_event(project, "src/app.py" if i % 2 else "src/b.py", f"p{i}") for i in range(6)]
    with ThreadPoolExecutor(6) as pool:
        outs = [out for _, out, _ in pool.map(run_hook, payloads)]
    assert sum("[rule: python]" in context_of(out) for out in outs) == 1


def test_pre_tool_use_denies_a_call_matching_a_streamed_rule(project: Path, run_hook: RunHook) -> None:
    """A Write whose content matches an interrupting streamed rule is denied with the rule's text."""
    payload = event(project, "PreToolUse", tool_name="Write", tool_use_id="w1",
                    tool_input={"file_path": str(project / "src/x.py"), "content": "eval(input())"})
    code, out, _ = run_hook(payload)
    assert code == 0
    decision = json.loads(out)["hookSpecificOutput"]
    assert decision["hookEventName"] == "PreToolUse" and decision["permissionDecision"] == "deny"
    assert "Never call eval." in decision["permissionDecisionReason"]
    harmless = dict(payload, tool_input={"file_path": str(project / "src/x.py"), "content": "x = 1"})
    code, out, _ = run_hook(harmless)  # not denied: the write gets its file's notice before it runs
    assert code == 0 and "permissionDecision" not in out
    assert context_of(out) == "[rule: python]\nUse type hints everywhere."


def test_stop_blocks_once_on_an_interrupting_prose_rule(project: Path, run_hook: RunHook) -> None:
    """A final message matching a streamed rule blocks with the rule; with stop_hook_active it does not."""
    stop = event(project, "Stop", last_assistant_message="Just eval( it.", stop_hook_active=False)
    code, out, _ = run_hook(stop)
    assert code == 0
    answer = json.loads(out)
    assert answer["decision"] == "block" and "Never call eval." in answer["reason"]
    again = event(project, "Stop", last_assistant_message="Just eval( it.", stop_hook_active=True)
    assert run_hook(again) == (0, "", "")


def test_compact_rearms_notices(project: Path, run_hook: RunHook) -> None:
    """After SessionStart with source compact, a rule already injected comes again."""
    assert "Use type hints" in context_of(run_hook(read_event(project, "src/app.py", "t1"))[1])
    assert run_hook(read_event(project, "src/app.py", "t2"))[1] == ""
    run_hook(event(project, "SessionStart", source="compact"))
    assert "Use type hints" in context_of(run_hook(read_event(project, "src/app.py", "t3"))[1])


def test_a_resumed_session_is_not_given_its_start_context_twice(project: Path, run_hook: RunHook) -> None:
    """`claude --resume` fires SessionStart(resume) on a history that already holds the context.

    The context comes again only when the rules changed meanwhile, or after a compaction.
    """
    first = context_of(run_hook(event(project, "SessionStart", source="startup"))[1])
    assert "Be concise." in first
    assert run_hook(event(project, "SessionStart", source="resume")) == (0, "", "")
    assert run_hook(event(project, "SessionStart", source="resume", session="other")) != (0, "", "")
    (project / ".cursor/rules/general.mdc").write_text("---\nalwaysApply: true\n---\nBe brief.\n")
    assert "Be brief." in context_of(run_hook(event(project, "SessionStart", source="resume"))[1])
    assert "Be brief." in context_of(run_hook(event(project, "SessionStart", source="compact"))[1])


def test_bad_input_never_fails_the_agent(project: Path, run_hook: RunHook, state_dir: Path) -> None:
    """Malformed JSON, a JSON list, binary bytes and an unknown option all exit 0 with no output."""
    for payload in ("{not json", "[1, 2]", b"\xff\xfe\x00", ""):
        assert run_hook(payload) == (0, "", "")
    code, out, err = run_hook(read_event(project, "src/app.py", "t1"), "--bogus")
    assert (code, out) == (0, "") and "unknown option" in err
    log = [json.loads(line) for line in (state_dir / "claude-code-hook.jsonl").read_text().splitlines()]
    assert [e["event"] for e in log] == ["hook_error"]


def test_an_unknown_event_or_missing_session_answers_nothing(project: Path, run_hook: RunHook) -> None:
    """An event ruleweave does not answer, or one without a session id, prints nothing."""
    assert run_hook(event(project, "Notification", message="hi")) == (0, "", "")
    assert run_hook({"hook_event_name": "SessionStart", "cwd": str(project)}) == (0, "", "")
