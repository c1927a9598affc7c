"""``ruleweave spec decide``'s warm path (steering.quick): the full command's bytes, without pydantic."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ruleweave.cli import main
from ruleweave.steering.quick import FOLDER, answer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "specs"

INPUTS = (
    "browse each committer social profile",
    "check whether the repo is in sync and browse each committer social profile",
    "research the weekly dashboard again, login first",
    "Run the TESTS in the background <script>&amp;</script>",
    "deploy the release\x1b[31m now\u202e and \u200bwatch",
    "nothing to see here",
    "",
    "İstanbul BUILDİNG ſync repoを同期 tickets",
)

FACTS = ((), ("--fact", "task_recurrence_likely"), ("--fact", "interactive_prompt_likely=false"),
         ("--fact", "x-custom=true", "--fact", "command_likely_long_running=true"))

EXTENDED = """\
schema: skillspec/v0
id: quick.extended
title: Extended
description: Every predicate kind, plans, questions and odd allow values.
routes:
  - id: local
    label: Local
    rank: 2
    execution_plan:
      phases:
        - {id: look, owner_skill: me, jumps: [{when: stuck, to_phase: ask}]}
        - {id: ask, owner_skill: me}
  - id: remote
    label: Remote
    rank: 1
rules:
  - id: all_groups
    when: {user_says_all_groups: [[repo, ticket], [sync]]}
    route_order: [local, remote]
    allow: {search: 1.50, depth: 0x1F, flag: true, nested: {a: [1, two]}}
    reason: Both groups.
  - id: extension
    when: {x-custom: true}
    prefer: remote
    elicit: [mode, mode]
  - id: facts_only
    when: {command_likely_long_running: true, interactive_prompt_likely: false}
    forbid: [raw_shell, raw_shell]
    after_success: [done]
  - id: empty
    when: {}
    prefer: local
elicitations:
  mode:
    question: Which <mode>?
    choices:
      - {id: a, label: a}
      - {id: b, label: Bee, description: the second}
    default: b
closures:
  done: {}
"""


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().out


@pytest.mark.parametrize("spec", [*sorted(EXAMPLES.glob("*.skill.spec.yml")), "extended"], ids=str)
def test_warm_answer_is_byte_identical_to_the_full_command(
    spec: Path | str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Text and --json, with caller facts, control characters and tags: the same bytes, warm or full."""
    if spec == "extended":
        spec = tmp_path / "skill.spec.yml"
        spec.write_text(EXTENDED, encoding="utf-8")
    assert isinstance(spec, Path)
    self_contained = b"imports:" not in spec.read_bytes()
    for text in INPUTS:
        for facts in FACTS:
            for as_json in ((), ("--json",)):
                args = [str(spec), "--input", text, *facts, *as_json]
                code, full = _run(["spec", "decide", *args], capsys)
                assert code == 0
                warm = answer(args)
                if not self_contained:
                    assert warm is None  # imports name other files: always the full way
                    continue
                assert warm == 0, args
                assert capsys.readouterr().out == full, args


def test_a_changed_spec_is_decided_again_in_full(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The snapshot is keyed by the spec's bytes: an edit misses; the full command answers the new text."""
    spec = tmp_path / "skill.spec.yml"
    spec.write_text(EXTENDED, encoding="utf-8")
    args = [str(spec), "--input", "sync the repo"]
    _run(["spec", "decide", *args], capsys)
    assert answer(args) == 0
    capsys.readouterr()
    spec.write_text(EXTENDED.replace("Both groups.", "Changed."), encoding="utf-8")
    assert answer(args) is None
    code, out = _run(["spec", "decide", *args], capsys)
    assert code == 0 and "Changed." in out
    assert answer(args) == 0
    assert "Changed." in capsys.readouterr().out


@pytest.mark.parametrize(
    "extra",
    [
        ["--trace-dir", "traces"],
        ["--inp", "x"],  # argparse takes abbreviations; this path does not
        ["--fact", "nonsense=true"],
        ["--fact", "task_recurrence_likely=maybe"],
        ["--input", "twice"],
        ["--root", "."],
        ["-h"],
    ],
)
def test_what_the_warm_path_does_not_take_goes_the_full_way(
    extra: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Options it does not read exactly as argparse would return None (the full command answers)."""
    spec = tmp_path / "skill.spec.yml"
    spec.write_text(EXTENDED, encoding="utf-8")
    _run(["spec", "decide", str(spec), "--input", "sync"], capsys)
    assert answer([str(spec), "--input", "sync"]) == 0
    capsys.readouterr()
    assert answer([str(spec), "--input", "sync", *extra]) is None


def test_required_traces_and_invalid_specs_are_never_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], isolated_home: Path
) -> None:
    """trace.required must refuse an untraced run, and an invalid spec must list its problems: no snapshot."""
    traced = tmp_path / "traced.skill.spec.yml"
    traced.write_text(EXTENDED + "trace: {mode: event_log, required: true}\n", encoding="utf-8")
    invalid = tmp_path / "invalid.skill.spec.yml"
    invalid.write_text(EXTENDED.replace("prefer: remote", "prefer: nowhere"), encoding="utf-8")
    assert main(["spec", "decide", str(traced), "--input", "x"]) == 2
    assert main(["spec", "decide", str(invalid), "--input", "x"]) == 1
    capsys.readouterr()
    assert answer([str(traced), "--input", "x"]) is None
    assert answer([str(invalid), "--input", "x"]) is None
    assert not (isolated_home / ".local" / "state" / "ruleweave" / FOLDER).exists()


def test_a_damaged_snapshot_is_answered_in_full_and_rewritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], isolated_home: Path
) -> None:
    """A snapshot that is not what this version wrote is ignored, never trusted."""
    spec = tmp_path / "skill.spec.yml"
    spec.write_text(EXTENDED, encoding="utf-8")
    args = [str(spec), "--input", "sync the repo ticket", "--json"]
    _, full = _run(["spec", "decide", *args], capsys)
    folder = isolated_home / ".local" / "state" / "ruleweave" / FOLDER
    (kept,) = folder.iterdir()
    kept.write_text(json.dumps({"format": 1, "trace_required": False, "rules": 7}), encoding="utf-8")
    assert answer(args) is None
    assert _run(["spec", "decide", *args], capsys)[1] == full
    assert answer(args) == 0
    assert capsys.readouterr().out == full


def test_the_warm_path_imports_no_pydantic_yaml_argparse_or_typing(tmp_path: Path) -> None:
    """The point of the path: none of the heavy modules the full command loads."""
    spec = tmp_path / "skill.spec.yml"
    spec.write_text(EXTENDED, encoding="utf-8")
    env = {**os.environ, "RULEWEAVE_STATE_DIR": str(tmp_path / "state")}
    args = ["spec", "decide", str(spec), "--input", "sync the repo ticket"]
    full = "import sys; from ruleweave.cli import main; sys.exit(main(sys.argv[1:]))"
    subprocess.run([sys.executable, "-c", full, *args], env=env, check=True, capture_output=True)
    probe = (
        "import sys; from ruleweave.cli import main; code = main(sys.argv[1:]); "
        "heavy = sorted(m for m in ('pydantic', 'yaml', 'argparse', 'typing', 'dataclasses', "
        "'ruleweave.steering.model', 'pathlib') if m in sys.modules); print(code, heavy, file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], env=env, check=True, capture_output=True, text=True
    )
    assert done.stderr.strip() == "0 []"
    assert "<steering>" in done.stdout
