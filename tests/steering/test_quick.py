"""``spec decide`` without pydantic (steering.quick): the full command's bytes, first call or later."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ruleweave.cli import main, parse_and_run
from ruleweave.steering.algebra import FORMAT
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
    allow: {search: 1.50, depth: 0x1F, flag: true, nested: {a: [1, two]}, ceiling: -.inf, day: 2024-01-01,
            none: null}
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
    """The full command: the parser and the models, never steering.quick."""
    code = parse_and_run(args)
    return code, capsys.readouterr().out


def _kept(home: Path) -> list[Path]:
    folder = home / ".local" / "state" / "ruleweave" / FOLDER
    return sorted(folder.iterdir()) if folder.exists() else []


@pytest.mark.parametrize("spec", [*sorted(EXAMPLES.glob("*.skill.spec.yml")), "extended"], ids=str)
def test_first_and_warm_answers_are_byte_identical_to_the_full_command(
    spec: Path | str, tmp_path: Path, capsys: pytest.CaptureFixture[str], isolated_home: Path
) -> None:
    """Text and --json, with caller facts, control characters and tags: the same bytes from the full
    command, from a first call (nothing kept: checked against the table) and from a later one."""
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
                shutil.rmtree(isolated_home / ".local" / "state" / "ruleweave" / FOLDER, ignore_errors=True)
                first = answer(args)
                if not self_contained:
                    assert first is None  # imports name other files: always the full way
                    continue
                assert first == 0, args
                assert capsys.readouterr().out == full, args
                assert len(_kept(isolated_home)) == 1  # the first call kept it
                assert answer(args) == 0, args
                assert capsys.readouterr().out == full, args


def test_a_changed_spec_is_checked_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], isolated_home: Path
) -> None:
    """The snapshot is keyed by the spec's bytes: an edit misses and the new text is checked and
    kept; an edit that breaks it goes the full way, which names the problem."""
    spec = tmp_path / "skill.spec.yml"
    spec.write_text(EXTENDED, encoding="utf-8")
    args = [str(spec), "--input", "sync the repo"]
    assert answer(args) == 0
    assert "Both groups." in capsys.readouterr().out
    spec.write_text(EXTENDED.replace("Both groups.", "Changed."), encoding="utf-8")
    assert answer(args) == 0
    assert "Changed." in capsys.readouterr().out
    assert len(_kept(isolated_home)) == 2
    spec.write_text(EXTENDED.replace("prefer: remote", "prefer: nowhere"), encoding="utf-8")
    assert answer(args) is None
    assert main(["spec", "decide", *args]) == 1
    assert "nowhere" in capsys.readouterr().err
    assert len(_kept(isolated_home)) == 2


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (("when: {x-custom: true}", "when: {extensions: {x-custom: true}}"), "extensions spelled out"),
        (("rank: 2", "rank: 2\n    tool_boundary: {default: allow}"), None),
        (("question: Which <mode>?", "question: Which <mode>?\n    max_choices: 1"), None),
        (("closures:", "schema_: skillspec/v0\nclosures:"), "a field by its Python name"),
    ],
)
def test_the_table_answers_what_it_vouches_for_and_leaves_the_rest_to_the_models(
    change: tuple[str, str], why: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    isolated_home: Path,
) -> None:
    """A document the table leaves to the models is answered in full, with the same bytes; the rest first."""
    old, new = change
    spec = tmp_path / "skill.spec.yml"
    spec.write_text(EXTENDED.replace(old, new), encoding="utf-8")
    args = [str(spec), "--input", "sync the repo ticket", "--json"]
    code, full = _run(["spec", "decide", *args], capsys)
    shutil.rmtree(isolated_home / ".local" / "state" / "ruleweave" / FOLDER, ignore_errors=True)
    first = answer(args)
    if why is None:
        assert (first, capsys.readouterr().out) == (0, full)
        return
    assert first is None, why
    assert main(["spec", "decide", *args]) == code
    assert capsys.readouterr().out == full


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


def test_a_damaged_snapshot_is_never_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], isolated_home: Path
) -> None:
    """A snapshot of another format is checked again and rewritten; one of this format that does not
    decide is left to the full command, which rewrites it."""
    spec = tmp_path / "skill.spec.yml"
    spec.write_text(EXTENDED, encoding="utf-8")
    args = [str(spec), "--input", "sync the repo ticket", "--json"]
    _, full = _run(["spec", "decide", *args], capsys)
    (kept,) = _kept(isolated_home)
    good = kept.read_text(encoding="utf-8")
    kept.write_text(json.dumps({"format": 1, "trace_required": False, "rules": 7}), encoding="utf-8")
    assert answer(args) == 0
    assert capsys.readouterr().out == full
    assert kept.read_text(encoding="utf-8") == good
    kept.write_text(json.dumps({"format": FORMAT, "trace_required": False, "rules": 7}), encoding="utf-8")
    assert answer(args) is None
    assert main(["spec", "decide", *args]) == 0
    assert capsys.readouterr().out == full
    assert kept.read_text(encoding="utf-8") == good


PROBE = (
    "import sys; from ruleweave.cli import main; code = main(sys.argv[1:]); "
    "heavy = sorted(m for m in ('pydantic', 'pydantic_core', 'yaml', 'argparse', 'typing', "
    "'dataclasses', 'inspect', 'ruleweave.steering.model', 'pathlib') if m in sys.modules); "
    "print(code, heavy, file=sys.stderr)"
)


def test_no_call_imports_pydantic_and_a_later_one_not_even_yaml(tmp_path: Path) -> None:
    """The point of the path: none of the heavy modules the full command loads. The first call
    reads YAML (and typing, for its NamedTuples); a later one reads its kept JSON."""
    spec = tmp_path / "skill.spec.yml"
    spec.write_text(EXTENDED, encoding="utf-8")
    env = {**os.environ, "RULEWEAVE_STATE_DIR": str(tmp_path / "state")}
    args = ["spec", "decide", str(spec), "--input", "sync the repo ticket"]
    for heavy in ("0 ['typing', 'yaml']", "0 []"):
        done = subprocess.run(
            [sys.executable, "-c", PROBE, *args], env=env, check=True, capture_output=True, text=True
        )
        assert done.stderr.strip() == heavy
        assert "<steering>" in done.stdout
