"""The hook's cold start (no snapshot): it loads only the machinery the rule set needs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ruleweave.hosts._core import snapshot_build
from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import RULEWEAVE, RunHook, context_of, event, read_event
from tests.hosts.claude_code.test_hook_snapshot import PLAIN_FILES, backdate

NOT_ON_THE_COLD_PATH = (
    "ruleweave.ttsr.compile",  # the streamed-rule compiler: only for rules with a condition
    "ruleweave.ttsr.watcher",
    "ruleweave.ttsr.scope",
    "ruleweave.ttsr.conditions",
    "ruleweave.steering.model",  # the SkillSpec models: only with a SkillSpec
    "pathspec",  # ignore rules: only with a .gitignore
    "structlog",  # only with an event sink
    # Each of these costs a hook process a sizeable part of Python's own start-up (#16):
    "pydantic",  # rules and the config are NamedTuples and a plain class
    "dataclasses",  # ... and not dataclasses either: the module imports inspect
    "inspect",
    "yaml",  # flat frontmatter is read without it
    "importlib.metadata",  # no installed distribution names the plugin group
    "ruleweave.steering.loader",  # no SkillSpec file
    "ruleweave.ttsr.index",  # no streamed rule
    "ruleweave.prompt.parts",  # a PostToolUse renders no prompt
    "hashlib",
    "tomllib",  # no Codex config.toml
    "logging",  # no frontmatter was repaired
    "wcmatch",  # literal names and ``*suffix`` globs in literal places need no regex
    "bracex",  # ... and braces of one flat group are split without it
    # About a millisecond each of a cold start, for what the hook does not use:
    "threading",  # its Lock is _thread's
    "sqlite3",  # the store opens the C module _sqlite3: the package imports datetime
    "datetime",
    "string",  # template fields are parsed by _string, which string.Formatter calls
    "importlib",  # extractor modules are imported with __import__
)


def imported_modules(stderr: bytes) -> set[str]:
    """The module names a ``python -X importtime`` run printed."""
    return {line.rsplit("|", 1)[-1].strip() for line in stderr.decode().splitlines() if "|" in line}


def cold_run(payload: dict[str, object], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    """One hook process under ``-X importtime``, with no snapshot to answer from."""
    return subprocess.run(
        [sys.executable, "-X", "importtime", RULEWEAVE, "hook", "claude-code"],
        input=json.dumps(payload).encode(), capture_output=True, env=env, check=True,
    )


def test_a_cold_start_without_streamed_rules_skips_their_machinery(
    write_tree: WriteTree, hook_env: dict[str, str], state_dir: Path
) -> None:
    """No condition, no SkillSpec, no .gitignore: the cold hook answers without TTSR, steering models,
    pathspec or structlog, and still writes the snapshot."""
    root = write_tree(PLAIN_FILES)
    backdate(root)
    done = cold_run(read_event(root, "src/app.py", "t1"), hook_env)
    assert "Use type hints everywhere." in context_of(done.stdout.decode())
    imported = imported_modules(done.stderr)
    assert "ruleweave.ruleset" in imported  # it did take the full path
    assert imported & set(NOT_ON_THE_COLD_PATH) == set()
    assert any((state_dir / "snapshots").glob("*.json"))


def test_a_streamed_rule_loads_its_machinery_on_the_cold_path(
    write_tree: WriteTree, hook_env: dict[str, str]
) -> None:
    """With a rule that has a condition, the cold hook compiles and watches it (a Stop is blocked)."""
    root = write_tree({".cursor/rules/no-eval.mdc": '---\ncondition: "eval\\\\("\n---\nNever call eval.\n'})
    stop = event(root, "Stop", last_assistant_message="Just eval( it.", stop_hook_active=False)
    done = cold_run(stop, hook_env)
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block" and "Never call eval." in answer["reason"]
    assert {"ruleweave.ttsr.compile", "ruleweave.ttsr.watcher", "re2"} <= imported_modules(done.stderr)


def test_a_gitignore_still_hides_its_directories_on_the_cold_path(
    write_tree: WriteTree, run_hook: RunHook
) -> None:
    """pathspec is loaded when a .gitignore exists: an ignored directory's instruction file stays out."""
    root = write_tree({
        ".cursor/rules/python.mdc": '---\nglobs: "**/*.py"\n---\nUse type hints everywhere.\n',
        ".gitignore": "generated/\n",
        "generated/GEMINI.md": "Ignored instructions.\n",
        "generated/x.py": "x = 1\n",
    })
    answer = context_of(run_hook(read_event(root, "generated/x.py", "t1"), "--no-snapshot")[1])
    assert "Use type hints everywhere." in answer and "Ignored instructions." not in answer


def test_the_event_log_imports_logging_only_when_something_else_did() -> None:
    """No module imported logging, so no handler can exist: an event log checks its sinks without it."""
    code = (
        "import sys\n"
        "from ruleweave.log import EventLog, LibraryLogger\n"
        "assert not EventLog().enabled\n"
        "LibraryLogger('rw-test').warning('nothing_listens')\n"
        "assert 'logging' not in sys.modules and 'structlog' not in sys.modules\n"
        "import logging, io\n"
        "stream = io.StringIO()\n"
        "logging.getLogger('ruleweave.events').addHandler(logging.StreamHandler(stream))\n"
        "logging.getLogger('ruleweave.events').setLevel(logging.INFO)\n"
        "log = EventLog()\n"
        "assert log.enabled\n"
        "log.emit('probe', n=1)\n"
        "assert 'probe' in stream.getvalue(), stream.getvalue()\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_a_stale_temporary_snapshot_file_is_replaced(tmp_path: Path) -> None:
    """A temporary file a dead process with this pid left is not an obstacle to writing the snapshot."""
    upcoming = next(snapshot_build._TMP_NAMES) + 1
    stale = tmp_path / f".snapshot-{os.getpid()}-{upcoming}.json"
    stale.write_text("half a snap", encoding="utf-8")
    target = tmp_path / "snap.json"
    snapshot_build._atomic_json(str(tmp_path), str(target), {"rules": ["é"]})
    assert json.loads(target.read_text(encoding="utf-8")) == {"rules": ["é"]}
    assert not stale.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["snap.json"]


MAKEFILE_RULE = {  # ``[Mm]akefile`` needs a regex: wcmatch translates it
    ".cursor/rules/make.mdc": '---\nglobs: "[Mm]akefile"\n---\nRecipes are indented with tabs.\n',
    "Makefile": "all:\n",
}


WRONG = {"[Mm]akefile": ["^(?s:x)$"]}
"""A translation no wcmatch gives: a file holding it must not be believed."""


def _drop_snapshots(state_dir: Path) -> None:
    """Remove every snapshot, keeping the saved glob translations: the next start is cold."""
    for path in (state_dir / "snapshots").iterdir():
        if path.name != "globs.json":
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def test_a_cold_start_reuses_the_glob_translations_one_before_saved(
    write_tree: WriteTree, hook_env: dict[str, str], state_dir: Path
) -> None:
    """The first cold start translates ``[Mm]akefile`` with wcmatch and saves the translation; the
    next one (its snapshot gone, as after a rule edit) answers the same without importing wcmatch."""
    root = write_tree(MAKEFILE_RULE)
    backdate(root)
    first = cold_run(read_event(root, "Makefile", "t1", session="s1"), hook_env)
    assert "Recipes are indented with tabs." in context_of(first.stdout.decode())
    assert "wcmatch.glob" in imported_modules(first.stderr)
    saved = json.loads((state_dir / "snapshots" / "globs.json").read_text(encoding="utf-8"))
    assert list(saved["translations"]) == ["[Mm]akefile"]
    _drop_snapshots(state_dir)
    second = cold_run(read_event(root, "Makefile", "t1", session="s2"), hook_env)
    imported = imported_modules(second.stderr)
    assert "ruleweave.ruleset" in imported and "wcmatch" not in imported
    assert context_of(second.stdout.decode()) == context_of(first.stdout.decode())
    miss = cold_run(read_event(root, "makefile.txt", "t2", session="s2"), hook_env)
    assert context_of(miss.stdout.decode()) == ""


@pytest.mark.parametrize(
    "saved",
    [
        b"not json",
        # Another wcmatch (its translator file differs): its translations are not this one's.
        json.dumps({"format": 1, "wcmatch": [0, 0, 0], "translations": WRONG}).encode(),
        json.dumps({"format": 99, "translations": WRONG}).encode(),
        json.dumps({"format": 1, "wcmatch": None, "translations": []}).encode(),
    ],
    ids=["damaged", "another-wcmatch", "another-format", "malformed"],
)
def test_saved_glob_translations_that_do_not_fit_are_ignored_and_rewritten(
    write_tree: WriteTree, hook_env: dict[str, str], state_dir: Path, saved: bytes
) -> None:
    """A damaged, foreign or malformed translations file changes no answer: wcmatch translates anew
    and the file is written again for this wcmatch."""
    root = write_tree(MAKEFILE_RULE)
    backdate(root)
    (state_dir / "snapshots").mkdir(parents=True)
    (state_dir / "snapshots" / "globs.json").write_bytes(saved)
    done = cold_run(read_event(root, "Makefile", "t1"), hook_env)
    assert "Recipes are indented with tabs." in context_of(done.stdout.decode())
    assert "wcmatch.glob" in imported_modules(done.stderr)
    rewritten = json.loads((state_dir / "snapshots" / "globs.json").read_text(encoding="utf-8"))
    assert rewritten["format"] == 1 and rewritten["wcmatch"] != [0, 0, 0]
    assert rewritten["translations"]["[Mm]akefile"] != ["^(?s:x)$"]


def test_a_rule_set_whose_globs_need_no_regex_reads_no_saved_translations(
    write_tree: WriteTree, hook_env: dict[str, str], state_dir: Path
) -> None:
    """The saved translations are read at the first glob that needs one: none here, so a damaged
    file is neither read nor rewritten."""
    root = write_tree(PLAIN_FILES)
    backdate(root)
    (state_dir / "snapshots").mkdir(parents=True)
    (state_dir / "snapshots" / "globs.json").write_bytes(b"not json")
    done = cold_run(read_event(root, "src/app.py", "t1"), hook_env)
    assert "Use type hints everywhere." in context_of(done.stdout.decode())
    assert (state_dir / "snapshots" / "globs.json").read_bytes() == b"not json"
