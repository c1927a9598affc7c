"""A rule file whose name is not valid UTF-8 never switches ruleweave off; its name is shown escaped.

Issue #29 item 3: ``.cursor/rules/r\\xff.mdc`` made ``ruleweave prompt`` and
``lint`` crash with a traceback, ``system_prompt()`` raise, the hook answer
nothing (user-tier rules lost too), and ``after_tool_call`` raise with the
memory store and drop the notice with SQLite and Redis. Python lists such a
name with a lone surrogate (PEP 383); ruleweave spells the byte ``\\xff``
wherever the name appears, and warns once.
"""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from pathlib import Path

import pytest

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from ruleweave.store.redis import RedisStore
from ruleweave.store.sqlite import SQLiteStore
from tests.hosts.claude_code.conftest import context_of, event, read_event
from tests.security.helpers import RULEWEAVE, run_hook

BAD = b"r\xff"
SHOWN = "r\\xff"  # how the name reads everywhere: prompt, notices, keys, JSON, terminal


def bad_project(root: Path, *, always: bool = False) -> Path:
    """A git-marked project with ``.cursor/rules/r\\xff.mdc`` (scoped, or always-on) and one good rule."""
    rules = root / ".cursor" / "rules"
    rules.mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("x = 1\n", encoding="utf-8")
    front = "alwaysApply: true" if always else "globs: src/**"
    with open(os.fsencode(rules) + b"/" + BAD + b".mdc", "wb") as handle:
        handle.write(f"---\n{front}\n---\nBad-name rule body.\n".encode())
    (rules / "good.mdc").write_text("---\nalwaysApply: true\n---\nGood rule body.\n", encoding="utf-8")
    return root


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """The real console script, its output encoded strictly as UTF-8 (a terminal in a UTF-8 locale)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"}
    return subprocess.run([RULEWEAVE, *args, "--cwd", str(root)], capture_output=True, env=env, timeout=120)


@pytest.mark.parametrize("command", [["prompt"], ["lint"], ["scan"], ["explain", "src/a.py"]])
def test_terminal_commands_show_the_name_escaped(tmp_path: Path, command: list[str]) -> None:
    """prompt, lint, scan and explain exit normally and print valid UTF-8 with the name as ``r\\xff``."""
    done = cli(bad_project(tmp_path), *command)
    text = done.stdout.decode("utf-8") + done.stderr.decode("utf-8")  # strict: raises on a raw 0xff
    assert "Traceback" not in text and done.returncode in (0, 1), text
    assert SHOWN in text
    assert "\\udcff" not in text


@pytest.mark.parametrize(
    "command", [["scan", "--json"], ["map", "--json"], ["lint", "--json"], ["prompt", "--json"]]
)
def test_json_outputs_hold_the_escaped_name(tmp_path: Path, command: list[str]) -> None:
    """Every --json output is strict UTF-8 JSON whose strings hold the name as the text ``r\\xff``."""
    done = cli(bad_project(tmp_path), *command)
    assert done.returncode in (0, 1), done.stderr.decode("utf-8")
    text = done.stdout.decode("utf-8")
    json.loads(text)
    assert "\\udcff" not in text
    if command[0] != "prompt":
        assert SHOWN.replace("\\", "\\\\") in text


def test_system_prompt_names_an_always_on_rule_escaped(tmp_path: Path) -> None:
    """``system_prompt()`` carries both always-on rules, the odd one headed ``r\\xff``; a warning says why."""
    ruleset = RuleSet.load(RuleweaveConfig(cwd=bad_project(tmp_path, always=True), builtin_rules=False))
    prompt = ruleset.session("s").system_prompt()
    prompt.encode("utf-8")
    assert "Good rule body." in prompt and "Bad-name rule body." in prompt
    assert f"[rule: {SHOWN}] .cursor/rules/{SHOWN}.mdc" in prompt
    assert [w.message for w in ruleset.warnings if "not valid UTF-8" in w.message] == [
        f"the file name is not valid UTF-8; the rule is named {SHOWN}"
    ]
    assert ruleset.session("s").resolve(f"rule://{SHOWN}").content == "Bad-name rule body."


@pytest.fixture(params=["memory", "sqlite", "redis"])
def store_of(request: pytest.FixtureRequest, tmp_path: Path) -> object:
    """Each kind of store, real: in memory, a SQLite file, the test run's redis-server."""
    if request.param == "memory":
        return lambda: MemoryStore()
    if request.param == "sqlite":
        return lambda: SQLiteStore(tmp_path / "state.db")
    url = request.getfixturevalue("redis_url")
    prefix = f"test:{uuid.uuid4().hex}:"
    return lambda: RedisStore.from_url(url, prefix=prefix)


def test_after_tool_call_gives_the_notice_once_with_every_store(tmp_path: Path, store_of: object) -> None:
    """The scoped rule's notice comes once, headed ``r\\xff``, whatever the store (no raise, no drop)."""
    ruleset = RuleSet.load(RuleweaveConfig(cwd=bad_project(tmp_path / "p"), builtin_rules=False))
    store = store_of()  # type: ignore[operator]
    session = ruleset.session("s", store=store)
    target = str(tmp_path / "p" / "src" / "a.py")
    first = session.after_tool_call("Read", {"file_path": target})
    assert first is not None and first.text.startswith(f"[rule: {SHOWN}]")
    assert "Bad-name rule body." in first.text
    assert first.items[0].key.encode("utf-8")
    assert ruleset.session("s", store=store).after_tool_call("Read", {"file_path": target}) is None


def test_the_hook_answers_with_every_rule(tmp_path: Path) -> None:
    """The Claude Code hook's SessionStart keeps every rule (the user tier too), its PostToolUse gives the
    scoped notice once, and every answer is strict UTF-8 JSON."""
    root = bad_project(tmp_path / "p")
    home = Path(os.environ["HOME"])
    (home / ".cursor" / "rules").mkdir(parents=True)
    (home / ".cursor" / "rules" / "mine.mdc").write_text("---\nalwaysApply: true\n---\nUser tier.\n", "utf-8")
    state = tmp_path / "state"
    code, out, _ = run_hook(event(root, "SessionStart", source="startup"), state)
    start = context_of(out)
    assert code == 0 and "Good rule body." in start and "User tier." in start
    for call, expected in (("t1", True), ("t2", False)):
        code, out, _ = run_hook(read_event(root, "src/a.py", call), state)
        out.encode("utf-8")
        assert code == 0 and ("Bad-name rule body." in context_of(out)) is expected
        assert "\\udcff" not in out
    assert f"[rule: {SHOWN}]" in context_of(run_hook(read_event(root, "src/a.py", "t3", "s2"), state)[1])
