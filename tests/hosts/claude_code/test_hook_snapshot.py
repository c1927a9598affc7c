"""The hook's warm start: answers from the snapshot are byte-identical to the full path's, and stale
snapshots are never trusted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleweaveConfig, SQLiteStore
from ruleweave._kernel.ledger import reminder_key
from ruleweave.hosts._core import snapshot
from ruleweave.hosts._core.snapshot_build import Recorder, _holds
from ruleweave.hosts._options import HookOptions
from ruleweave.hosts.claude_code import CONTEXT_LIMIT, HOST
from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import RULEWEAVE, RunHook, context_of, event, read_event

PLAIN_FILES = {  # no streamed rules, no steering: every event kind has a warm answer
    ".cursor/rules/python.mdc": '---\nglobs: "**/*.py"\n---\nUse type hints everywhere.\n',
    ".cursor/rules/general.mdc": "---\nalwaysApply: true\n---\nBe concise.\n",
    ".cursor/rules/docs.mdc": "---\ndescription: Writing docs\n---\nShort sentences.\n",
    ".github/instructions/ts.instructions.md": '---\napplyTo: "src/**/*.{ts,tsx}"\n---\nNo `any`.\n',
    ".github/instructions/all-py.instructions.md": '---\napplyTo: "*.py"\n---\nRoot-level Python only.\n',
    "AGENTS.md": "# Agents\nLoaded by Claude Code.\n",
    "setup.py": "x = 1\n",
    "src/app.py": "x = 1\n",
    "src/ui.tsx": "x\n",
    "docs/guide.md": "x\n",
}


def backdate(root: Path) -> None:
    """Date every file and directory a minute back (a snapshot is not written while its files change)."""
    past = time.time() - 60
    for path in [root, *root.rglob("*")]:
        os.utime(path, (past, past), follow_symlinks=False)


@pytest.fixture
def plain(write_tree: WriteTree) -> Path:
    root = write_tree(PLAIN_FILES)
    backdate(root)
    return root


def warm(run_hook: RunHook, root: Path, *paths: str) -> None:
    """Write the snapshot (and its entries for the directories of ``paths``) with a throwaway session."""
    for i, path in enumerate(paths or ("src/app.py",)):
        run_hook(read_event(root, path, f"warm{i}", session="warm-up"))


def fast(payload: dict[str, Any], state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> object:
    """What the snapshot alone answers (in process), or ``snapshot.MISS``."""
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(state_dir))
    return snapshot.answer(HOST, payload, HookOptions())


EVENTS = [
    ("UserPromptSubmit", {"prompt": "fix the build", "prompt_id": "p1"}),
    ("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "b1"}),
    ("Stop", {"last_assistant_message": "Done.", "stop_hook_active": False}),
]


@pytest.mark.parametrize(("name", "fields"), EVENTS)
def test_each_event_kind_answers_the_same_warm_and_full(
    plain: Path, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch, name: str,
    fields: dict[str, Any],
) -> None:
    """Every other event kind: the snapshot answers, byte-identical to the full path."""
    warm(run_hook, plain)
    payload = event(plain, name, **fields)
    answered = fast(payload, state_dir, monkeypatch)
    assert answered is not snapshot.MISS
    _, full, _ = run_hook(payload, "--no-snapshot")
    _, hooked, _ = run_hook(payload)
    expected = (json.dumps(answered, ensure_ascii=False) + "\n") if answered is not None else ""
    assert hooked == full == expected


@pytest.mark.parametrize(
    ("tool", "tool_input", "rules"),
    [
        ("Read", {"file_path": "src/app.py"}, 1),
        ("Read", {"file_path": "setup.py", "offset": 1, "limit": 20}, 2),
        ("Edit", {"file_path": "src/ui.tsx", "old_string": "x", "new_string": "y"}, 1),
        ("Write", {"file_path": "docs/guide.md", "content": "# Guide"}, 0),
        ("Glob", {"pattern": "src/**/*.py"}, 1),
        ("Bash", {"command": "python src/app.py && cat setup.py"}, 2),
    ],
)
def test_post_tool_use_answers_the_same_warm_and_full(
    plain: Path, run_hook: RunHook, state_dir: Path, tool: str, tool_input: dict[str, Any], rules: int
) -> None:
    """A PostToolUse answered from the snapshot prints what the full path prints in a fresh session."""
    warm(run_hook, plain, "src/app.py", "setup.py", "src/ui.tsx", "docs/guide.md", "x.py")
    resolved = {k: str(plain / v) if k == "file_path" else v for k, v in tool_input.items()}
    payload = event(plain, "PostToolUse", "fresh-1", tool_name=tool, tool_input=resolved, tool_use_id="t1")
    _, hooked, _ = run_hook(payload)
    _, full, _ = run_hook(dict(payload, session_id="fresh-2"), "--no-snapshot")
    assert hooked == full
    assert context_of(hooked).count("[rule: ") == rules
    assert run_hook(payload)[1] == ""  # claimed: the second time brings nothing


def test_the_warm_path_imports_no_pydantic(plain: Path, run_hook: RunHook, hook_env: dict[str, str]) -> None:
    """With a warm snapshot the hook process answers without importing pydantic, structlog or the rules."""
    warm(run_hook, plain)
    payload = json.dumps(read_event(plain, "src/app.py", "t1", session="fresh")).encode()
    done = subprocess.run(
        [sys.executable, "-X", "importtime", RULEWEAVE, "hook", "claude-code"],
        input=payload, capture_output=True, env=hook_env, check=True,
    )
    assert "Use type hints everywhere." in context_of(done.stdout.decode())
    imported = done.stderr.decode()
    for module in ("pydantic", "structlog", "ruleweave.ruleset", "ruleweave.config", "typing"):
        assert f" {module}\n" not in imported and f" {module}." not in imported, module


def warm_run(payload: dict[str, Any], env: dict[str, str]) -> tuple[str, set[str]]:
    """One hook process under ``-X importtime``: its output and the modules it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", RULEWEAVE, "hook", "claude-code"],
        input=json.dumps(payload).encode(), capture_output=True, env=env, check=True,
    )
    modules = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.decode().splitlines() if "|" in line}
    return done.stdout.decode(), modules


def test_notices_given_before_are_answered_without_opening_the_state_file(
    plain: Path, run_hook: RunHook, hook_env: dict[str, str], state_dir: Path
) -> None:
    """A file whose notices went out earlier in the session: the warm path answers nothing from the
    session's memo, without importing ``_sqlite3`` (a quarter of its start-up). Every release of
    claims (compaction, a dropped tool call, a forgotten session) makes the notice come again."""
    warm(run_hook, plain, "src/app.py", "setup.py")
    out, modules = warm_run(read_event(plain, "src/app.py", "t1"), hook_env)
    assert "Use type hints" in context_of(out) and "_sqlite3" in modules  # claimed: the store decides
    out, modules = warm_run(read_event(plain, "src/app.py", "t2"), hook_env)
    assert out == "" and "ruleweave._kernel.claimed" in modules
    assert not modules & {"_sqlite3", "sqlite3", "ruleweave._kernel.sqlite", "fcntl"}
    both = read_event(plain, "setup.py", "t3")  # one notice given before, one not: the store decides
    out, modules = warm_run(both, hook_env)
    assert context_of(out).count("[rule: ") == 1 and "_sqlite3" in modules
    assert warm_run(dict(both, tool_use_id="t4"), hook_env)[0] == ""

    run_hook(event(plain, "SessionStart", source="compact"))
    out, modules = warm_run(read_event(plain, "src/app.py", "t5"), hook_env)
    assert "Use type hints" in context_of(out), "compaction released the notice: it comes again"
    assert warm_run(read_event(plain, "src/app.py", "t6"), hook_env)[0] == ""

    store = SQLiteStore(state_dir / "state.db")
    try:
        store.forget_calls("s1", ["t5"])
        assert "Use type hints" in context_of(run_hook(read_event(plain, "src/app.py", "t7"))[1])
        assert run_hook(read_event(plain, "src/app.py", "t8"))[1] == ""
        store.forget("s1")
        assert "Use type hints" in context_of(run_hook(read_event(plain, "src/app.py", "t9"))[1])
    finally:
        store.close()


def test_a_changed_rule_file_is_picked_up_on_the_next_event(
    plain: Path, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Editing a rule, adding one and adding a rule folder each show on the very next event."""
    warm(run_hook, plain)
    probe = read_event(plain, "src/app.py", "t0", session="probe")
    assert fast(probe, state_dir, monkeypatch) is not snapshot.MISS
    (plain / ".cursor/rules/python.mdc").write_text('---\nglobs: "**/*.py"\n---\nUse dataclasses.\n')
    assert "Use dataclasses." in context_of(run_hook(read_event(plain, "src/app.py", "t1", session="a"))[1])
    (plain / ".cursor/rules/more.mdc").write_text('---\nglobs: "src/*.py"\n---\nKeep modules small.\n')
    second = run_hook(read_event(plain, "src/app.py", "t2", session="b"))[1]
    assert "Keep modules small." in context_of(second)
    (plain / ".windsurf/rules").mkdir(parents=True)
    (plain / ".windsurf/rules/w.md").write_text("---\ntrigger: always_on\n---\nWindsurf says hi.\n")
    assert "Windsurf says hi." in context_of(run_hook(event(plain, "SessionStart", source="startup"))[1])


def test_a_rule_edited_within_the_same_second_is_not_missed(
    plain: Path, run_hook: RunHook, state_dir: Path
) -> None:
    """A rule file rewritten at the same size right after a snapshot was written is still seen."""
    rule = plain / ".cursor/rules/python.mdc"
    rule.write_text('---\nglobs: "**/*.py"\n---\nUse type hints EVERYWHERE.\n')
    warm(run_hook, plain)  # the rule changed just now: no snapshot may trust it
    rule.write_text('---\nglobs: "**/*.py"\n---\nUse type hints ANYWHERE!.\n')
    assert "ANYWHERE" in context_of(run_hook(read_event(plain, "src/app.py", "t1", session="x"))[1])


def test_a_new_directory_is_answered_by_the_full_path_then_warm(
    plain: Path, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A directory the snapshot has not seen misses once; a nested rule folder there is honoured."""
    warm(run_hook, plain)
    (plain / "pkg/.cursor/rules").mkdir(parents=True)
    (plain / "pkg/.cursor/rules/pkg.mdc").write_text('---\nglobs: "**/*.py"\n---\nPackage rule.\n')
    (plain / "pkg/mod.py").write_text("x = 1\n")
    backdate(plain)
    payload = read_event(plain, "pkg/mod.py", "t1", session="n1")
    assert fast(payload, state_dir, monkeypatch) is snapshot.MISS
    text = context_of(run_hook(payload)[1])
    assert "Package rule." in text and "Use type hints" in text
    assert fast(read_event(plain, "pkg/mod.py", "t2", session="n2"), state_dir, monkeypatch) is snapshot.MISS
    (plain / "lib").mkdir()
    (plain / "lib/a.py").write_text("x = 1\n")
    backdate(plain)
    run_hook(read_event(plain, "lib/a.py", "t3", session="n3"))
    again = read_event(plain, "lib/a.py", "t4", session="n4")
    assert fast(again, state_dir, monkeypatch) is not snapshot.MISS


def test_parallel_warm_reads_inject_a_rule_once(plain: Path, run_hook: RunHook) -> None:
    """Eight warm hook processes for one session's parallel Reads: exactly one carries the rule."""
    warm(run_hook, plain, "src/app.py", "setup.py")
    files = ["src/app.py", "setup.py"]
    payloads = [read_event(plain, files[i % 2], f"p{i}", session="par") for i in range(8)]
    with ThreadPoolExecutor(8) as pool:
        outs = [out for _, out, _ in pool.map(run_hook, payloads)]
    assert sum("Use type hints everywhere." in context_of(out) for out in outs) == 1
    assert sum("Root-level Python only." in context_of(out) for out in outs) == 1


def test_a_kept_reminder_arrives_with_the_warm_answer(
    project: Path, run_hook: RunHook, state_dir: Path
) -> None:
    """A reminder PreToolUse kept in the store for a call is added to that call's PostToolUse, once."""
    backdate(project)
    warm(run_hook, project)
    from ruleweave.store import SQLiteStore

    store = SQLiteStore(state_dir / "state.db")
    store.put("r", reminder_key("call-9"), "Remember: never call eval.")
    payload = read_event(project, "src/app.py", "call-9", session="r")
    text = context_of(run_hook(payload)[1])
    assert text.endswith("\n\nRemember: never call eval.") and "Use type hints" in text
    assert run_hook(dict(payload, tool_use_id="call-10"))[1] == ""
    store.close()


def test_context_over_the_limit_is_cut_on_the_full_path(write_tree: WriteTree, run_hook: RunHook) -> None:
    """An always-apply rule set bigger than 10,000 characters is cut to fit (a marker says so)."""
    body = "---\nalwaysApply: true\n---\n" + "word " * 800
    root = write_tree({f".cursor/rules/r{i}.mdc": body for i in range(6)})
    text = context_of(run_hook(event(root, "SessionStart", source="startup"))[1])
    assert 0 < len(text) <= CONTEXT_LIMIT


def test_directories_are_known_before_their_first_touch(
    plain: Path, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new snapshot knows the project's directories; a rule folder added in one is still honoured."""
    (plain / "pkg/deep").mkdir(parents=True)
    (plain / "pkg/deep/mod.py").write_text("x = 1\n")
    (plain / "node_modules/lib").mkdir(parents=True)
    (plain / ".gitignore").write_text("node_modules/\n")
    backdate(plain)
    run_hook(event(plain, "SessionStart", source="startup"))  # any event writes the snapshot
    first = read_event(plain, "pkg/deep/mod.py", "t1", session="d1")
    assert fast(first, state_dir, monkeypatch) is not snapshot.MISS
    (plain / "pkg/.cursor/rules").mkdir(parents=True)
    (plain / "pkg/.cursor/rules/pkg.mdc").write_text('---\nglobs: "**/*.py"\n---\nPackage rule.\n')
    backdate(plain)
    second = read_event(plain, "pkg/deep/mod.py", "t2", session="d2")
    assert fast(second, state_dir, monkeypatch) is snapshot.MISS
    assert "Package rule." in context_of(run_hook(second)[1])


def test_the_snapshot_key_holds_every_variable_the_config_reads() -> None:
    """A snapshot built under another value of any variable ``RuleweaveConfig`` reads (a user tier, git's
    global excludes under ``XDG_CONFIG_HOME``) is another rule set, so each is part of the key."""
    import re

    import ruleweave.config
    from ruleweave.hosts._core.snapshot import ENVIRONMENT

    source = Path(ruleweave.config.__file__).read_text(encoding="utf-8")
    read = set(re.findall(r"env\.get\(\"([A-Z_]+)\"\)", source))
    assert read and read <= set(ENVIRONMENT), sorted(read - set(ENVIRONMENT))


def test_instruction_files_on_the_walk_keep_the_path_warm(
    write_tree: WriteTree, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A root ``CLAUDE.md`` and ``AGENTS.md`` (the most common layout) are the start context's, never a
    notice: a read below them is answered from the snapshot, as the full path answers it; a nested
    ``AGENTS.md`` below the walk still sends its directory to the full path."""
    root = write_tree({**PLAIN_FILES, "CLAUDE.md": "# Claude\n", "pkg/AGENTS.md": "PKG\n", "pkg/m.py": ""})
    backdate(root)
    warm(run_hook, root, "src/app.py", "pkg/m.py")
    payload = read_event(root, "src/app.py", "c1", session="fresh-1")
    answered = fast(payload, state_dir, monkeypatch)
    assert answered is not snapshot.MISS and "Use type hints" in context_of(json.dumps(answered))
    _, full, _ = run_hook(dict(payload, session_id="fresh-2"), "--no-snapshot")
    assert full == json.dumps(answered, ensure_ascii=False) + "\n"
    nested = read_event(root, "pkg/m.py", "c2", session="fresh-3")
    assert fast(nested, state_dir, monkeypatch) is snapshot.MISS


@pytest.mark.parametrize(
    "files",
    [
        [],
        ["AGENTS.md"],
        ["agents.md"],  # another case: a case-insensitive disk finds AGENTS.md, this one does not
        ["README.md", "src/x.py"],
        [".claude/CLAUDE.md"],
        [".claude/settings.json"],  # the folder alone is no instruction file
        [".junie/guidelines.md", "CRUSH.md"],
        ["AGENTS.md/inner.txt"],  # a folder named like an instruction file: lexists finds it too
        ["AGENTS.md", "src/x.py"],
    ],
)
def test_a_directory_holds_instruction_files_as_lexists_finds_them(tmp_path: Path, files: list[str]) -> None:
    """``_holds`` reads one listing where a lookup per name was made: the same answer for every name
    list, including names in subfolders and names the listing holds in another case."""
    for rel in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x", encoding="utf-8")
    names = RuleweaveConfig(cwd=tmp_path).instruction_files
    configured = ("./AGENTS.md", "../sibling.md", "src//x.py")  # names a user may configure
    for subset in (names, names[:3], ("AGENTS.md",), (".claude/CLAUDE.md", "crush.md"), configured):
        expected = any(os.path.lexists(os.path.join(tmp_path, name)) for name in subset)
        assert _holds(str(tmp_path), subset) is expected, (files, subset)


def answered_warm(payload: dict[str, Any], hook_env: dict[str, str]) -> str:
    """The hook's output for ``payload``, checked to come from the snapshot (the rules never loaded)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", RULEWEAVE, "hook", "claude-code"],
        input=json.dumps(payload).encode(), capture_output=True, env=hook_env, check=True,
    )
    assert " ruleweave.ruleset\n" not in done.stderr.decode()
    return done.stdout.decode()


def test_a_rule_cut_for_size_is_answered_warm_with_the_full_paths_record(
    write_tree: WriteTree, run_hook: RunHook, hook_env: dict[str, str], state_dir: Path
) -> None:
    """A rule longer than ``notice_max_bytes`` goes out cut, with a marker naming the whole: the warm path
    sends the same text as the full path and records the same bytes lost, without loading the rules."""
    essay = "".join(f"Paragraph {i}: how code here is written, at length.\n" for i in range(400))
    rule = f'---\nglobs: "**/*.py"\n---\n{essay}'
    root = write_tree({".cursor/rules/long.mdc": rule, "src/app.py": "x = 1\n"})
    backdate(root)
    run_hook(read_event(root, "src/app.py", "t0", session="warm-up"))  # writes the snapshot
    warm_text = context_of(answered_warm(read_event(root, "src/app.py", "t1", session="warm"), hook_env))
    _, full, _ = run_hook(read_event(root, "src/app.py", "t1", session="full"), "--no-snapshot")
    assert warm_text == context_of(full) and "bytes left out; whole text at" in warm_text
    assert len(warm_text.encode()) < len(essay.encode())
    store = SQLiteStore(state_dir / "state.db")
    records = {}
    for session in ("warm", "full"):
        (entry,) = [json.loads(e) for e in store.deliveries(session)]
        records[session] = {k: v for k, v in entry.items() if k not in ("at", "event", "call")}
    assert records["warm"] == records["full"] and records["warm"]["cut"] > 0


def test_the_prefill_is_one_file_and_a_damaged_one_is_not_trusted(
    plain: Path, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The prefilled directories' entries are one file beside the touched directories' own; a first
    touch answers warm from it, an instruction file added since is honoured, and a damaged file sends
    the touch to the full path."""
    for package in ("a", "b", "c"):
        (plain / f"pkg/{package}").mkdir(parents=True)
        (plain / f"pkg/{package}/mod.py").write_text("x = 1\n")
    backdate(plain)
    run_hook(read_event(plain, "src/app.py", "t0", session="p0"))  # writes the snapshot
    (entries,) = [p for p in (state_dir / "snapshots").iterdir() if p.is_dir()]
    touched = os.path.basename(snapshot.dir_path(f"{entries}.json", str(plain / "src")))
    assert sorted(p.name for p in entries.iterdir()) == sorted([snapshot.PREFILL, touched])
    prefill = json.loads((entries / snapshot.PREFILL).read_text(encoding="utf-8"))
    assert {str(plain / f"pkg/{p}") for p in "abc"} <= set(prefill["dirs"])
    touch_a = read_event(plain, "pkg/a/mod.py", "t1", session="p1")
    assert fast(touch_a, state_dir, monkeypatch) is not snapshot.MISS
    data = snapshot.load(HOST, HookOptions(), str(plain), str(state_dir))
    assert data is not None and snapshot.directory_entry(data, str(plain / "pkg/b"))
    (plain / "pkg/b/GEMINI.md").write_text("Package b's own instructions.\n")
    past = time.time() - 30  # dated back, and only these two: the rule set's own files stay as they were
    for changed in (plain / "pkg/b/GEMINI.md", plain / "pkg/b"):
        os.utime(changed, (past, past))
    data = snapshot.load(HOST, HookOptions(), str(plain), str(state_dir))
    assert data is not None and not snapshot.directory_entry(data, str(plain / "pkg/b"))
    touch_b = read_event(plain, "pkg/b/mod.py", "t2", session="p2")
    assert "Package b's own instructions." in context_of(run_hook(touch_b)[1])
    data = snapshot.load(HOST, HookOptions(), str(plain), str(state_dir))
    assert data is not None and snapshot.directory_entry(data, str(plain / "pkg/c"))
    (entries / snapshot.PREFILL).write_text('{"base": "x", "dirs": [1]', encoding="utf-8")
    data = snapshot.load(HOST, HookOptions(), str(plain), str(state_dir))
    assert data is not None and not snapshot.directory_entry(data, str(plain / "pkg/c"))
    touch_c = read_event(plain, "pkg/c/mod.py", "t3", session="p3")
    assert fast(touch_c, state_dir, monkeypatch) is snapshot.MISS
    assert "Use type hints everywhere." in context_of(run_hook(touch_c)[1])


def test_notices_past_the_limit_are_queued_on_the_warm_path_as_on_the_full_path(
    write_tree: WriteTree, run_hook: RunHook, hook_env: dict[str, str], state_dir: Path
) -> None:
    """Two notices that together pass Claude Code's 10,000 characters: the warm path sends the first
    and queues the second, as the full path does; the next event (a full path, as pieces wait)
    delivers it. Answers and delivery records are the same in a session that never used the snapshot."""
    body = "".join(f"Line {i} of a long rule, kept whole.\n" for i in range(160))  # ~5,900 characters
    root = write_tree({
        ".cursor/rules/a-first.mdc": f'---\nglobs: "**/*.py"\n---\n{body}',
        ".cursor/rules/b-second.mdc": f'---\nglobs: "src/**"\n---\n{body}',
        "src/app.py": "x = 1\n",
        "README.md": "# Read me\n",
    })
    backdate(root)
    run_hook(read_event(root, "README.md", "t0", session="warm-up"))  # writes the snapshot
    first = answered_warm(read_event(root, "src/app.py", "t1", session="warm"), hook_env)
    answers = {"warm": [context_of(first)]}
    answers["warm"].append(context_of(run_hook(read_event(root, "README.md", "t2", session="warm"))[1]))
    answers["full"] = [
        context_of(run_hook(read_event(root, rel, call, session="full"), "--no-snapshot")[1])
        for rel, call in (("src/app.py", "t1"), ("README.md", "t2"))
    ]
    assert answers["warm"] == answers["full"]
    assert answers["warm"][0].startswith("[rule: a-first]") and "[rule: b-second]" not in answers["warm"][0]
    assert answers["warm"][1].startswith("[rule: b-second]")
    store = SQLiteStore(state_dir / "state.db")
    records = {
        session: [
            {k: v for k, v in json.loads(e).items() if k not in ("at",)} for e in store.deliveries(session)
        ]
        for session in ("warm", "full")
    }
    assert records["warm"] == records["full"]
    assert [(r["action"], r["name"]) for r in records["warm"]] == [
        ("delivered", "a-first"), ("queued", "b-second"), ("dequeued", "b-second"), ("delivered", "b-second"),
    ]


def test_a_first_touch_beyond_the_prefill_makes_its_neighbours_warm(
    write_tree: WriteTree, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """300 directories: the prefill's 256 miss ``deep/``. Its first touch takes the full path and
    writes entries for its neighbourhood, so a sibling's first touch is warm; a nested rule folder
    added there since is still honoured."""
    files = {f"wide/d{i:03}/x.txt": "" for i in range(300)}
    files.update({f"deep/pkg/m{i}/mod.py": "x = 1\n" for i in range(3)})
    files[".cursor/rules/python.mdc"] = '---\nglobs: "**/*.py"\n---\nUse type hints everywhere.\n'
    root = write_tree(files)
    backdate(root)
    run_hook(read_event(root, "wide/d000/x.txt", "t0", session="w0"))  # writes the snapshot
    first = read_event(root, "deep/pkg/m0/mod.py", "t1", session="w1")
    assert fast(first, state_dir, monkeypatch) is snapshot.MISS
    assert "Use type hints" in context_of(run_hook(first)[1])
    sibling = fast(read_event(root, "deep/pkg/m1/mod.py", "t2", session="w2"), state_dir, monkeypatch)
    assert sibling is not snapshot.MISS and "Use type hints" in json.dumps(sibling)
    (root / "deep/pkg/m2/.cursor/rules").mkdir(parents=True)
    (root / "deep/pkg/m2/.cursor/rules/m2.mdc").write_text('---\nglobs: "**/*.py"\n---\nModule two.\n')
    past = time.time() - 30
    for changed in (root / "deep/pkg/m2/.cursor/rules/m2.mdc", root / "deep/pkg/m2/.cursor/rules",
                    root / "deep/pkg/m2/.cursor", root / "deep/pkg/m2"):
        os.utime(changed, (past, past))
    touch = read_event(root, "deep/pkg/m2/mod.py", "t3", session="w3")
    assert fast(touch, state_dir, monkeypatch) is snapshot.MISS
    assert "Module two." in context_of(run_hook(touch)[1])


def test_the_state_directory_is_never_a_dependency(tmp_path: Path) -> None:
    """What the full path does in the state directory (creating it, its store and memos) is not a
    dependency of the rule set, the directory itself included: else the next snapshot's fingerprint
    would differ and it would be rebuilt, its neighbourhood entries lost."""
    state = tmp_path / "state"
    recorder = Recorder((str(state),))
    for path in (state, state / "state.db", state / "state.db-claimed", tmp_path / "statement"):
        recorder.note(str(path), "s")
    assert recorder.paths == {str(tmp_path / "statement"): "s"}


WATCH_BASH = (  # a streamed rule for shell commands only
    "---\ncondition: 'rm -rf /'\nscope: tool:bash\ninterrupt_mode: always\n---\nNever delete the root.\n"
)
WATCH_TEXT = "---\ncondition: 'TODO'\nscope: text\n---\nNo TODO in replies.\n"
WATCH_ALL = "---\ncondition: 'eval\\('\n---\nNever call eval.\n"  # no scope: the text and every tool


def pre_tool(root: Path, tool: str, tool_input: dict[str, Any], call: str) -> dict[str, Any]:
    return event(root, "PreToolUse", "s1", tool_name=tool, tool_input=tool_input, tool_use_id=call)


def test_streamed_rules_leave_the_calls_they_do_not_watch_warm(
    write_tree: WriteTree, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A streamed rule scoped to ``tool:bash`` watches only calls of a shell tool (any of its names):
    a PreToolUse of another tool, and a Stop, are answered warm, as the full path answers them; a shell
    call still goes to the full path, which refuses it."""
    root = write_tree({**PLAIN_FILES, ".ruleweave/rules/no-rm.md": WATCH_BASH})
    backdate(root)
    warm(run_hook, root)
    read = pre_tool(root, "Read", {"file_path": str(root / "src/app.py")}, "r1")
    answered = fast(read, state_dir, monkeypatch)
    assert answered is None and run_hook(read, "--no-snapshot")[1] == ""
    stop = event(root, "Stop", last_assistant_message="TODO: rm -rf / later", stop_hook_active=False)
    assert fast(stop, state_dir, monkeypatch) is None and run_hook(stop, "--no-snapshot")[1] == ""
    shell = pre_tool(root, "Bash", {"command": "rm -rf / --no-preserve-root"}, "b1")
    assert fast(shell, state_dir, monkeypatch) is snapshot.MISS
    assert "Never delete the root." in run_hook(shell)[1]
    alias = pre_tool(root, "exec_command", {"cmd": "ls"}, "b2")  # Codex's name for the same kind
    assert fast(alias, state_dir, monkeypatch) is snapshot.MISS


@pytest.mark.parametrize(("rule", "read_warm"), [(WATCH_TEXT, True), (WATCH_ALL, False)])
def test_a_rule_watching_the_text_or_every_tool_keeps_those_events_on_the_full_path(
    write_tree: WriteTree, run_hook: RunHook, state_dir: Path, monkeypatch: pytest.MonkeyPatch,
    rule: str, read_warm: bool,
) -> None:
    """A rule on the text sends every Stop to the full path (a Read stays warm); a rule with no scope
    watches the text and every tool, and sends both there."""
    root = write_tree({**PLAIN_FILES, ".ruleweave/rules/watch.md": rule})
    backdate(root)
    warm(run_hook, root)
    read = pre_tool(root, "Read", {"file_path": str(root / "src/app.py")}, "r1")
    assert (fast(read, state_dir, monkeypatch) is not snapshot.MISS) is read_warm
    stop = event(root, "Stop", last_assistant_message="TODO: eval(x)", stop_hook_active=False)
    assert fast(stop, state_dir, monkeypatch) is snapshot.MISS
    assert json.loads(run_hook(stop)[1])["decision"] == "block"  # the full path's watcher speaks


def test_the_watched_tool_names_follow_the_configured_aliases(write_tree: WriteTree) -> None:
    """``tool_aliases`` adds names to a kind: a streamed rule on that kind watches them too, and a rule
    on a tool no kind knows watches that name alone (the watcher's own reading, ``ToolNames``)."""
    from ruleweave import RuleSet
    from ruleweave.hosts._core.snapshot_build import _ttsr_flags

    root = write_tree({
        ".ruleweave/rules/no-rm.md": WATCH_BASH,
        ".ruleweave/rules/deploy.md": "---\ncondition: 'prod'\nscope: tool:Deploy_App\n---\nCareful.\n",
    })
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, tool_aliases={"bash": ["my_runner"]}))
    flags = _ttsr_flags(ruleset)
    assert flags["ttsr"] and not flags["ttsr_text"]
    tools = set(flags["ttsr_tools"])
    assert {"bash", "run_shell_command", "exec_command", "my_runner", "deploy_app"} <= tools
    assert not tools & {"read", "edit", "write", "grep"}
