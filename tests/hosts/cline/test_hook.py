"""``ruleweave hook cline`` end to end: a real project, the real console script, the SQLite store.

Payloads have the keys Cline 3.0.65 sends (``payloads``). The hook runs in the session's cwd, as
Cline starts it (the payload has no cwd; ``workspaceRoots`` is the git root). Answers are what
Cline's ``HookOutputSchema`` reads (``contextModification``; a refusal's ``overrideInput``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import WriteTree
from tests.hosts import running
from tests.hosts.cline.payloads import base, post, pre, read

FILES = {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nALWAYS-RULE: be brief.\n",
    ".cursor/rules/ts.mdc": "---\nglobs: '**/*.ts'\n---\nTS-RULE: no `any`.\n",
    ".clinerules/style.md": "CLINE-RULE: Cline loads this itself.\n",
    ".ruleweave/rules/no-eval.md": (
        "---\ncondition: 'eval\\('\nscope: 'tool:edit'\n---\nNO-EVAL: never call eval.\n"
    ),
    "AGENTS.md": "ROOT-AGENTS: Cline loads this itself.\n",
    "src/a.ts": "export const a = 1;\n",
    "src/deep/AGENTS.md": "NESTED-AGENTS: below the cwd, Cline never loads it.\n",
    "src/deep/b.py": "b = 2\n",
}


@pytest.fixture
def project(write_tree: WriteTree) -> Path:
    return write_tree(FILES)


def run(payload: Mapping[str, Any], state: Path, cwd: Path) -> dict[str, Any] | None:
    """Run ``ruleweave hook cline`` in ``cwd`` with ``payload`` on stdin; its JSON answer (``None``: it
    printed nothing)."""
    done = running.hook("cline", payload, state, cwd=cwd)
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout) if done.stdout.strip() else None


def context(answer: dict[str, Any] | None) -> str:
    return "" if answer is None else str(answer["contextModification"])


def test_a_read_gets_its_rule_once(project: Path, tmp_path: Path) -> None:
    """``read_files`` of a .ts file brings the .ts rule the first time, nothing the second time."""
    state = tmp_path / "state"
    first = run(read(project, "src/a.ts"), state, project)
    assert first is not None and set(first) == {"contextModification"} and "TS-RULE" in context(first)
    assert run(read(project, "src/a.ts", call_id="call_000002"), state, project) is None
    assert "TS-RULE" in context(run(read(project, "src/a.ts", session="other"), state, project))


def test_what_cline_reads_itself_is_never_sent(project: Path, tmp_path: Path) -> None:
    """A nested AGENTS.md below the cwd comes with its file; the root one and .clinerules never do."""
    answer = context(run(read(project, "src/deep/b.py"), tmp_path / "state", project))
    assert "NESTED-AGENTS" in answer
    assert "ROOT-AGENTS" not in answer and "CLINE-RULE" not in answer


def test_relative_paths_resolve_against_the_hooks_cwd_not_the_workspace_root(
    project: Path, tmp_path: Path,
) -> None:
    """Cline runs the hook in the session's cwd; ``workspaceRoots`` names the git root."""
    answer = run(read(project, "a.ts"), tmp_path / "state", project / "src")
    assert "TS-RULE" in context(answer)


def test_a_streamed_rule_refuses_an_edit_before_it_runs(project: Path, tmp_path: Path) -> None:
    """PreToolUse on an ``editor`` call writing ``eval(``: its input is replaced by one the tool
    rejects, and the rule is the context the model gets."""
    call = pre(project, "editor", {"path": "src/n.ts", "new_text": "eval('1')"}, "call_000003")
    answer = run(call, tmp_path / "state", project)
    assert answer is not None and set(answer) == {"overrideInput", "contextModification"}
    assert answer["overrideInput"] == {"ruleweave_refused": answer["contextModification"]}
    assert "NO-EVAL: never call eval." in answer["contextModification"]


def test_an_edit_gets_the_rule_of_its_file(project: Path, tmp_path: Path) -> None:
    """``editor`` names its file under ``path``; ``run_commands`` in its command words."""
    state = tmp_path / "state"
    edit = post(project, "editor", {"path": "src/c.ts", "new_text": "export const c = 3;"}, "call_1")
    assert "TS-RULE" in context(run(edit, state, project))
    shell = post(project, "run_commands", {"commands": ["cat src/a.ts"]}, "call_2", session="s2")
    assert "TS-RULE" in context(run(shell, state, project))


def test_events_it_does_not_answer_print_nothing(project: Path, tmp_path: Path) -> None:
    """TaskStart (detached: Cline ignores its output) and PreCompact (never run) are not answered."""
    for hook in ("agent_start", "pre_compact", "prompt_submit"):
        payload = {**read(project, "src/a.ts"), "hookName": hook}
        assert run(payload, tmp_path / "state", project) is None
    assert run({"not": "a cline payload"}, tmp_path / "state", project) is None


def test_the_start_context_waits_for_the_first_post_tool_use(project: Path, tmp_path: Path) -> None:
    """Cline runs TaskStart detached and never reads its output (3.0.65: ``blockingRunStartHooks`` is
    never set), so the start context waits in the session's queue and rides on the first PostToolUse,
    once per session: the TaskStart of a later run of the same session queues nothing again."""
    state = tmp_path / "state"
    assert run(base(project, "agent_start"), state, project) is None
    first = context(run(read(project, "src/a.ts"), state, project))
    assert first.count("ALWAYS-RULE") == 1 and "TS-RULE" in first
    assert first.index("ALWAYS-RULE") < first.index("TS-RULE")  # the start context first
    assert run(base(project, "agent_start"), state, project) is None  # the next prompt's TaskStart
    assert "ALWAYS-RULE" not in context(run(read(project, "src/deep/b.py"), state, project))
