"""``ruleweave hook codex`` end to end: a real project, the real console script, the SQLite store.

Payloads have the keys Codex 0.171.0 sends (``payloads``); answers must be what its output schemas
accept (``hookSpecificOutput.additionalContext``, ``permissionDecision: deny`` + reason).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import WriteTree
from tests.hosts.codex.payloads import bash, event, patch
from tests.hosts.running import hook

FILES = {
    ".cursor/rules/ts.mdc": "---\nglobs: '**/*.ts'\n---\nTS-RULE: no `any`.\n",
    ".github/copilot-instructions.md": "COPILOT-ALWAYS: small commits.\n",
    ".ruleweave/rules/no-eval.md": (
        "---\ncondition: 'eval\\('\nscope: 'tool:edit'\n---\nNO-EVAL: never call eval.\n"
    ),
    "AGENTS.md": "ROOT-AGENTS: Codex loads this itself.\n",
    "src/a.ts": "export const a = 1;\n",
}
EVAL_PATCH = "*** Begin Patch\n*** Add File: src/n.ts\n+export const n = eval('1');\n*** End Patch\n"


@pytest.fixture
def project(write_tree: WriteTree) -> Path:
    return write_tree(FILES)


def run(payload: Mapping[str, Any], state: Path) -> dict[str, Any] | None:
    """Run ``ruleweave hook codex`` with ``payload`` on stdin; its JSON answer (``None``: it printed
    nothing)."""
    done = hook("codex", payload, state)
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout) if done.stdout.strip() else None


def context(answer: dict[str, Any] | None) -> str:
    return "" if answer is None else str(answer["hookSpecificOutput"]["additionalContext"])


def test_session_start_gives_the_prompt_without_what_codex_reads_itself(
    project: Path, tmp_path: Path,
) -> None:
    """SessionStart carries the always-on rules, not the root AGENTS.md Codex loads itself."""
    answer = run(event(project, "SessionStart", source="startup"), tmp_path / "state")
    assert answer is not None and answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "COPILOT-ALWAYS" in context(answer) and "ROOT-AGENTS" not in context(answer)


def test_a_file_read_through_the_shell_gets_its_rule_once(project: Path, tmp_path: Path) -> None:
    """``cat src/a.ts`` (Bash) brings the .ts rule the first time, nothing the second time, warm or cold."""
    state = tmp_path / "state"
    first = run(bash(project, "cat src/a.ts", "call_1"), state)
    assert first == {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": context(first)},
    }
    assert "TS-RULE" in context(first)
    assert run(bash(project, "sed -n 1,5p src/a.ts", "call_2"), state) is None
    assert "TS-RULE" in context(run(bash(project, "cat src/a.ts", "call_3", session="other"), state))


def test_a_patch_touches_the_files_it_names(project: Path, tmp_path: Path) -> None:
    """``apply_patch``'s patch text (``tool_input.command``) names the files it adds or changes."""
    text = "*** Begin Patch\n*** Add File: src/b.ts\n+export const b = 2;\n*** End Patch\n"
    assert "TS-RULE" in context(run(patch(project, text, "call_1"), tmp_path / "state"))


def test_a_streamed_rule_refuses_the_patch_before_it_runs(project: Path, tmp_path: Path) -> None:
    """PreToolUse on a patch that writes ``eval(`` is a deny whose reason holds the rule."""
    answer = run(patch(project, EVAL_PATCH, "call_1", after=False), tmp_path / "state")
    assert answer is not None
    out = answer["hookSpecificOutput"]
    assert (out["hookEventName"], out["permissionDecision"]) == ("PreToolUse", "deny")
    assert "NO-EVAL: never call eval." in out["permissionDecisionReason"]
    assert set(answer) == {"hookSpecificOutput"}  # Codex's schema refuses other fields here


def test_compaction_re_arms_the_notices(project: Path, tmp_path: Path) -> None:
    """SessionStart ``source: compact`` (Codex's event after compacting): the rule comes again on the
    next read."""
    state = tmp_path / "state"
    assert "TS-RULE" in context(run(bash(project, "cat src/a.ts", "call_1"), state))
    assert "COPILOT-ALWAYS" in context(run(event(project, "SessionStart", source="compact"), state))
    assert "TS-RULE" in context(run(bash(project, "cat src/a.ts", "call_2"), state))


def test_events_it_does_not_answer_print_nothing(project: Path, tmp_path: Path) -> None:
    """PreCompact (no context possible) and an unknown event exit 0 with no output."""
    assert run(event(project, "PreCompact", trigger="auto"), tmp_path / "state") is None
    assert run(event(project, "Interrupt"), tmp_path / "state") is None


def test_answers_stay_under_codexs_byte_limit_in_any_script(write_tree: WriteTree, tmp_path: Path) -> None:
    """Codex keeps hook context whole up to 2,500 tokens counted as UTF-8 bytes / 4, i.e. 10,000 bytes
    (``hooks/src/output_spill.rs``; a real 0.171.0 run: a 12.9 KB context arrived cut to a preview and a
    file path). Rules in Japanese (3 bytes a character) go out whole, one per answer, under that; a rule
    alone over it is cut; the start context splits into parts under it."""
    rule = "型ヒントを必ず書くこと。" * 200  # 2,400 characters, 7,200 bytes
    root = write_tree({
        ".git/HEAD": "",
        ".cursor/rules/a.mdc": f"---\nglobs: '**/*.py'\n---\n{rule}\n",
        ".cursor/rules/b.mdc": f"---\nglobs: '**/*.py'\n---\n{rule}\n",
        ".cursor/rules/big.mdc": f"---\nglobs: 'big/**'\n---\n{rule * 3}\n",
        ".cursor/rules/always.mdc": f"---\nalwaysApply: true\n---\n{rule * 3}\n",
        "a.py": "", "big/x.txt": "",
    })
    state = tmp_path / "state"
    answers = [context(run(event(root, "SessionStart", source="startup"), state))]
    for n, command in enumerate(["cat a.py", "cat big/x.txt", *["ls"] * 6]):
        answers.append(context(run(bash(root, command, f"c{n}"), state)))
    sent = [text for text in answers if text]
    assert all(len(text.encode("utf-8")) <= 10_000 for text in sent)
    whole = "\n".join(sent)
    assert "part 1 of 3" in sent[0] and "part 3 of 3" in whole  # the start context, in parts
    assert whole.count("[rule: a]") == whole.count("[rule: b]") == whole.count("[rule: big]") == 1
    # The rule alone over the limit: the notice budget (the limit, in bytes) cut it, saying where it is whole.
    assert "bytes left out; whole text at the shell command `ruleweave read rule://big`]" in whole
    assert answers[-1] == ""  # everything went out


def test_a_project_the_user_marked_untrusted_gets_nothing(
    project: Path, tmp_path: Path, isolated_home: Path
) -> None:
    """``[projects."<root>"] trust_level = "untrusted"`` in the user's Codex config: Codex loads no
    project doc there (a real run: the root AGENTS.md reached no request, with the hooks installed for
    the user), so the hooks give none of the project's rules either, warm snapshot or not; the cwd's own
    entry wins over the root's, and ``trusted`` (or no entry) answers as before."""
    codex = isolated_home / ".codex"
    codex.mkdir()
    state = tmp_path / "state"
    first = run(bash(project, "cat src/a.ts", "call_1"), state)
    assert "TS-RULE" in context(first)  # no entry: the project's rules come
    past = time.time() - 60
    for path in [project, *project.rglob("*"), codex]:
        os.utime(path, (past, past), follow_symlinks=False)
    assert "TS-RULE" in context(run(bash(project, "cat src/a.ts", "call_2", session="s2"), state))
    assert list((state / "snapshots").glob("*.json"))  # the warm path would answer from here
    (codex / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "untrusted"\n')
    for payload in (event(project, "SessionStart", session="s3", source="startup"),
                    bash(project, "cat src/a.ts", "call_3", session="s3"),
                    patch(project, EVAL_PATCH, "call_4", session="s3", after=False)):
        assert run(payload, state) is None
    (project / "src/.keep").write_text("")  # a directory of the project as cwd: the root's entry holds
    assert run(event(project / "src", "SessionStart", session="s4", source="startup"), state) is None
    src = project / "src"
    (codex / "config.toml").write_text(
        f'[projects."{project}"]\ntrust_level = "untrusted"\n[projects."{src}"]\ntrust_level = "trusted"\n'
    )
    start = run(event(src, "SessionStart", session="s5", source="startup"), state)
    assert "COPILOT-ALWAYS" in context(start)
    (codex / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    assert "TS-RULE" in context(run(bash(project, "cat src/a.ts", "call_5", session="s6"), state))
