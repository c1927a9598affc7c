"""Where an agent has a shell but no ``rule://`` reader (Codex, Gemini CLI, Qwen Code, Cline, OpenCode),
the hooks tell the model to read a whole rule with ``ruleweave read``, its address quoted for the shell:
run as written, the command prints the rule, and a rule file named like a command substitution runs
nothing."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import RULEWEAVE

BIG = "Use the repository's logger. " * 400  # ~11 KB: over every host's limit, so its notice is cut


@pytest.mark.parametrize(("agent", "payload"), [
    ("codex", {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "cat a.py"},
               "tool_use_id": "c1", "tool_response": ""}),
    ("qwen", {"hook_event_name": "PostToolUse", "tool_name": "read_file", "tool_input": {"file_path": "a.py"},
              "tool_use_id": "c1", "tool_response": {"llmContent": ""}}),
])
def test_a_cut_rule_names_a_shell_command_that_prints_it(
    agent: str, payload: dict[str, object], write_tree: WriteTree, tmp_path: Path
) -> None:
    root = write_tree({
        ".git/HEAD": "", "a.py": "",
        ".cursor/rules/$(touch PWNED).mdc": f"---\nglobs: '**/*.py'\n---\n{BIG}\n",
    })
    env = {**os.environ, "RULEWEAVE_STATE_DIR": str(tmp_path / "state")}
    event = {**payload, "session_id": "s1", "cwd": str(root)}
    done = subprocess.run([RULEWEAVE, "hook", agent], input=json.dumps(event).encode(), env=env,
                          capture_output=True, check=True, timeout=120)
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    command = re.search(r"the shell command `(ruleweave read [^`]+)`", context)
    assert command is not None, context[-300:]
    assert command.group(1) == "ruleweave read 'rule://$(touch PWNED)'"
    on_path = {**env, "PATH": f"{Path(RULEWEAVE).parent}{os.pathsep}{env.get('PATH', '')}"}
    shell = subprocess.run(["sh", "-c", command.group(1)], cwd=root, env=on_path, capture_output=True,
                           text=True, check=False, timeout=120)
    assert shell.returncode == 0, shell.stderr
    assert shell.stdout.count("Use the repository's logger.") == 400
    assert not (root / "PWNED").exists()


def test_a_cut_listing_says_how_to_list_every_rule_at_this_host(write_tree: WriteTree) -> None:
    """The ``<domain-rules>`` listing cut to its budget ends with how this host lists every rule: the
    ``rule://`` address by default, ``ruleweave read rule://`` where the model reads rules by shell."""
    from ruleweave import RuleSet, RuleweaveConfig
    from ruleweave.hosts import SHELL_READ_TEMPLATES

    rules = {f".cursor/rules/r{i:02}.mdc": f"---\ndescription: Rule {i} {'x' * 200}\n---\nBody {i}.\n"
             for i in range(40)}
    root = write_tree({".git/HEAD": "", **rules})
    plain, shell = "rule:// with no name", "`ruleweave read rule://` with no name"
    for templates, expected in (({}, plain), (SHELL_READ_TEMPLATES, shell)):
        config = RuleweaveConfig(cwd=root, prompt_max_bytes=4096, templates=templates)
        text = RuleSet.load(config).prompt_parts().text
        assert expected in text, text[-400:]
