"""Whole-spec validation verdicts, one case per line: what the SkillSpec reference accepts and rejects.

Each case is one change away from a valid document (the header, a ``local``
route, files ``notes.md`` and ``refs/task.md`` beside it). The verdicts are
the reference implementation's, learnt from its conformance suite and
validator; ruleweave's own fixtures, not copies of them.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from ruleweave.cli import main
from ruleweave.steering import inspect_spec

HEAD = """\
schema: skillspec/v0
id: conformance.case
title: Conformance case
description: One change away from valid.
routes:
  - id: local
    label: Local
"""

FILES = {
    "notes.md": "# Notes\n\n## Shared rules\n\nAsk before pushing.\n\n## Other\n\nx\n",
    "refs/task.md": "# Task\n\nSteps.\n",
    "SKILL.md": "# Skill\n",
}

A_TEST = """\
tests:
  - name: local request
    input: run this local task
    expect: {route: local}
"""

VALID: dict[str, str] = {
    "minimal": """\
rules:
  - id: local_request
    when: {user_says_any: [local]}
    prefer: local
tests:
  - name: local request selects local
    input: run this local task
    expect: {route: local, matched_rules_exact: [local_request]}
""",
    "an import graph": """\
imports:
  house_rules:
    path: notes.md
    role: policy
    section: Shared rules
    load: always
  task_steps:
    path: refs/task.md
    role: reference
    used_by: [{kind: route, id: local}]
recipes:
  work:
    steps: [{load_import: task_steps}]
""",
    "free-form surfaces take any value": """\
applies_when:
  - any_hint: {deep: [1, 2]}
rules:
  - id: r
    when: {user_says_any: [go]}
    allow: {any_key: {deep: true}}
elicitations:
  mode:
    question: Which?
    choices: [{id: a, label: A, sets: {anything: {deep: 1}}}]
commands:
  go:
    template: make
    success_when: {any_check: {deep: true}}
artifacts:
  report: {kind: report, schema: {any: {deep: true}}}
closures:
  any_closure: {deep: true}
metadata:
  any_metadata: {deep: true}
""",
    "numbers and yes/no where text is expected": """\
rules:
  - id: r
    when: {user_says_any: [404, yes, on]}
    prefer: local
    reason: 2024
""",
    "an always-loaded import needs no user": """\
imports:
  house_rules: {path: notes.md, role: policy, load: always}
""",
    "a resource used by a command": """\
resources:
  skill_source: {path: SKILL.md, role: source_material}
commands:
  show: {template: cat SKILL.md, requires: {resources: [skill_source]}}
""",
    "every section at once": """\
activation: {summary: Run local tasks., keywords: [local], priority: high}
entry: {prompt: What should run?, tool_boundary: {default: deny, allow: [bash]}}
trace: {mode: event_log, required: false, record: [rule_matched, outcome_recorded]}
dependencies:
  make_cli: {kind: cli, command: make, check: {command: make --version}}
states:
  start: {say: hello, ask: mode, next: done}
  done: {do: [go]}
elicitations:
  mode:
    question: Which mode?
    required_when: [{route: local, missing: run_mode}]
    choices: [{id: fast, label: Fast, next: done, safety: read_only}]
    default: fast
snippets:
  hello: {text: Hello.}
code:
  probe:
    language: sh
    kind: probe
    source: {inline: make -n}
    requires: {dependencies: [make_cli]}
commands:
  go: {template: make, safety: local_write, requires: {dependencies: [make_cli]}}
recipes:
  build:
    ordered: true
    steps:
      - run_code: probe
      - branch: {if: probe failed, then: go, otherwise: build}
      - ask: mode
      - note: Done.
proof: {metrics: [steering_accuracy]}
review_required: [check the template]
rules:
  - id: r
    when: {user_says_any: [go]}
    after_success: [go]
""",
    "a ruleweave x- predicate": """\
rules:
  - id: r
    when: {user_says_any: [go], x-paid-plan: true}
    prefer: local
""",
}

INVALID: dict[str, tuple[str, str]] = {
    # the reference's conformance fixtures
    "a typo in a rule field": (
        "rules:\n  - id: r\n    when: {user_says_any: [local]}\n    preferr: local\n",
        "Unknown field 'preferr'",
    ),
    "an import cycle": (
        "imports:\n"
        "  one: {path: notes.md, role: reference, requires: {imports: [two]}}\n"
        "  two: {path: refs/task.md, role: reference, requires: {imports: [one]}}\n",
        "The imports form a cycle: one -> two -> one.",
    ),
    # the top level
    "an unknown top-level key": ("rule:\n  - id: r\n", "Unknown field 'rule' in the document."),
    "an x- key at the top level": ("x-owner: me\n", "x- keys are accepted only as extension predicates"),
    "an x- key in a route": (
        "elicitations:\n  mode:\n    question: Q?\n    x-hint: 1\n    choices: [{id: a, label: A}]\n",
        "Unknown field 'x-hint'",
    ),
    "a YAML merge key": (
        "elicitations:\n  a: &q {question: Q?, choices: [{id: x, label: X}]}\n  b: {<<: *q}\n",
        "YAML merge keys (<<) are not part of SkillSpec",
    ),
    "a merge key in a typed object": (
        "states:\n  start: &s {next: start}\n  again: {<<: *s}\n",
        "YAML merge keys (<<) are not part of SkillSpec",
    ),
    "after_success with no action declared": (
        "rules:\n  - id: r\n    when: {user_says_any: [go]}\n    after_success: [remember]\n",
        "unknown command or closure 'remember' (declared: none)",
    ),
    "a test without assertions": (
        "tests:\n  - {name: empty, input: go, expect: {}}\n",
        "has an empty expect",
    ),
    "a count that is not an integer": (
        "elicitations:\n  mode: {question: Q?, max_choices: 1.5, choices: [{id: a, label: A}]}\n",
        "must be an integer",
    ),
    # states
    "a state going nowhere": ("states:\n  start: {next: finish}\n", "unknown state 'finish'"),
    "a state saying an unknown snippet": ("states:\n  start: {say: hello}\n", "unknown snippet 'hello'"),
    "a state asking an unknown question": ("states:\n  start: {ask: mode}\n", "unknown elicitation 'mode'"),
    "a state doing an unknown action": ("states:\n  start: {do: [deploy]}\n", "unknown command or closure"),
    "a state id that is not an identifier": ("states:\n  Start: {}\n", "state id 'Start' is not"),
    "a typo in a state": ("states:\n  start: {nxt: start}\n", "Unknown field 'nxt'"),
    # trace, activation, entry
    "a trace event recorded twice": (
        "trace: {mode: event_log, record: [rule_matched, rule_matched]}\n",
        "Duplicate trace event 'rule_matched'",
    ),
    "an unknown trace event": ("trace: {mode: event_log, record: [rule_fired]}\n", "must be one of"),
    "a trace without mode": ("trace: {required: true}\n", "missing the required field 'mode'"),
    "an unknown trace mode": ("trace: {mode: files}\n", "must be one of"),
    "a typo in trace": ("trace: {mode: event_log, requird: true}\n", "Unknown field 'requird'"),
    "an activation without summary": (
        "activation: {keywords: [x]}\n",
        "missing the required field 'summary'",
    ),
    "a typo in activation": ("activation: {summary: S, keyword: [x]}\n", "Unknown field 'keyword'"),
    "an entry without prompt": ("entry: {decision_required: true}\n", "missing the required field 'prompt'"),
    "a typo in entry": ("entry: {prompt: P, tool_boundry: {}}\n", "Unknown field 'tool_boundry'"),
    "a bad tool boundary default": (
        "entry: {prompt: P, tool_boundary: {default: maybe}}\n",
        "must be one of",
    ),
    # dependencies
    "an unknown dependency kind": ("dependencies:\n  git: {kind: binary}\n", "must be one of"),
    "an empty dependency command": ("dependencies:\n  git: {kind: cli, command: ''}\n", "must not be empty"),
    "a provision asking an unknown question": (
        "dependencies:\n  git: {kind: cli, provision: {elicit: install_mode}}\n",
        "unknown elicitation 'install_mode'",
    ),
    "a repeated provision option": (
        "dependencies:\n  git:\n    kind: cli\n    provision:\n"
        "      options: [{id: brew, label: Brew}, {id: brew, label: Again}]\n",
        "Duplicate provision option id 'brew'",
    ),
    # imports
    "an import nobody uses": ("imports:\n  task_steps: {path: refs/task.md, role: reference}\n", "orphan"),
    "an import requiring an unknown import": (
        "imports:\n  task_steps:\n"
        "    {path: refs/task.md, role: reference, load: always, requires: {imports: [base]}}\n",
        "unknown import 'base'",
    ),
    "an unknown import role": (
        "imports:\n  n: {path: notes.md, role: manual, load: always}\n",
        "must be one of",
    ),
    "an import used by the wrong kind": (
        "imports:\n  n: {path: notes.md, role: reference, used_by: [{kind: recipe, id: local}]}\n",
        "unknown recipe 'local'",
    ),
    "an absolute import path": (
        "imports:\n  n: {path: /etc/hosts, role: policy, load: always}\n",
        "must be local and relative",
    ),
    "a URL import": ("imports:\n  n: {path: 'https://x.test/a.md', role: policy, load: always}\n", "no URL"),
    "a missing import file": (
        "imports:\n  n: {path: gone.md, role: policy, load: always}\n",
        "cannot be found",
    ),
    "a missing import section": (
        "imports:\n  n: {path: notes.md, role: policy, load: always, section: Absent}\n",
        "the section 'Absent' is not a heading",
    ),
    "an empty import section": (
        "imports:\n  n: {path: notes.md, role: policy, load: always, section: ''}\n",
        "must not be empty",
    ),
    "a typo in an import": (
        "imports:\n  n: {path: notes.md, role: policy, lod: always}\n",
        "Unknown field 'lod'",
    ),
    # resources
    "a resource nobody uses": ("resources:\n  src: {path: SKILL.md, role: source_material}\n", "orphan"),
    "a resource outside the folder": (
        "resources:\n  src:\n"
        "    {path: ../SKILL.md, role: source_material, used_by: [{kind: route, id: local}]}\n",
        "must stay within the skill folder",
    ),
    "a missing resource file": (
        "resources:\n  src: {path: gone.md, role: asset, used_by: [{kind: route, id: local}]}\n",
        "is missing",
    ),
    "a resource used by an unknown rule": (
        "resources:\n  src: {path: SKILL.md, role: asset, used_by: [{kind: rule, id: nope}]}\n",
        "unknown rule 'nope'",
    ),
    # code
    "code naming a resource and an import": (
        "imports:\n  n: {path: notes.md, role: policy, load: always}\n"
        "resources:\n  src: {path: SKILL.md, role: asset, used_by: [{kind: route, id: local}]}\n"
        "code:\n  c:\n"
        "    {language: sh, kind: probe, source: {inline: x}, provenance: {resource: src, import: n}}\n",
        "names a resource and an import",
    ),
    "code with no provenance source": (
        "code:\n  c: {language: sh, kind: probe, source: {inline: x}, provenance: {heading: H}}\n",
        "names no resource or import",
    ),
    "an unknown code kind": (
        "code:\n  c: {language: sh, kind: snippet, source: {inline: x}}\n",
        "must be one of",
    ),
    "an empty code language": (
        "code:\n  c: {language: ' ', kind: probe, source: {inline: x}}\n",
        "must not be empty",
    ),
    "an inline source with a file": (
        "code:\n  c: {language: sh, kind: probe, source: {inline: x, file: SKILL.md}}\n",
        "an inline source has only 'inline'",
    ),
    "code requiring an unknown import": (
        "code:\n  c: {language: sh, kind: probe, source: {inline: x}, requires: {imports: [n]}}\n",
        "unknown import 'n'",
    ),
    # artifacts, recipes, commands
    "an artifact made by an unknown command": (
        "artifacts:\n  report: {kind: report, produced_by: [{kind: command, id: build}]}\n",
        "unknown command 'build'",
    ),
    "an artifact made by a route": (
        "artifacts:\n  report: {kind: report, produced_by: [{kind: route, id: local}]}\n",
        "must be one of",
    ),
    "a recipe step with two actions": (
        "commands:\n  go: {template: make}\nrecipes:\n  r: {steps: [{run_command: go, note: also}]}\n",
        "a recipe step has exactly one of",
    ),
    "a recipe running an unknown command": (
        "recipes:\n  r: {steps: [{run_command: go}]}\n",
        "unknown command 'go'",
    ),
    "a recipe branching nowhere": (
        "recipes:\n  r: {steps: [{branch: {if: failed, then: retry}}]}\n",
        "unknown command, code or recipe 'retry'",
    ),
    "an empty recipe note": ("recipes:\n  r: {steps: [{note: ' '}]}\n", "must not be empty"),
    "a command without template": (
        "commands:\n  go: {description: Build.}\n",
        "missing the required field 'template'",
    ),
    "a command requiring an unknown dependency": (
        "commands:\n  go: {template: make, requires: {dependencies: [make_cli]}}\n",
        "unknown dependency 'make_cli'",
    ),
    "a command id that is not an identifier": (
        "commands:\n  Go: {template: make}\n",
        "command id 'Go' is not",
    ),
    # the steering core, beyond what ruleweave checked before
    "a blank choice label": (
        "elicitations:\n  mode: {question: Q?, choices: [{id: a, label: ' '}]}\n",
        "must not be empty",
    ),
    "a missing fact that is not an identifier": (
        "elicitations:\n  mode:\n    question: Q?\n    required_when: [{missing: Run Mode}]\n"
        "    choices: [{id: a, label: A}]\n",
        "missing fact 'Run Mode' is not",
    ),
    "a choice going to an unknown state": (
        "elicitations:\n  mode: {question: Q?, choices: [{id: a, label: A, next: done}]}\n",
        "unknown state 'done'",
    ),
    "a typo in a snippet": ("snippets:\n  hello: {txt: Hi}\n", "Unknown field 'txt'"),
    "a typo in proof": ("proof: {metric: [x]}\n", "Unknown field 'metric'"),
}


def _write(tmp_path: Path, body: str) -> Path:
    if "tests:" not in body:
        body += A_TEST
    for name, text in FILES.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    path = tmp_path / "skill.spec.yml"
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return path


@pytest.mark.parametrize("body", VALID.values(), ids=list(VALID))
def test_valid_case(tmp_path: Path, body: str) -> None:
    """Each valid case passes whole-spec validation, its imports and files included."""
    path = _write(tmp_path, body)
    report = inspect_spec(path.read_text(), file=str(path), folder=tmp_path)
    assert report.issues == ()
    assert report.spec is not None


@pytest.mark.parametrize(("body", "reason"), INVALID.values(), ids=list(INVALID))
def test_invalid_case(tmp_path: Path, body: str, reason: str) -> None:
    """Each invalid case is rejected with a sentence naming the problem and its line."""
    path = _write(tmp_path, body)
    report = inspect_spec(path.read_text(), file=str(path), folder=tmp_path)
    assert report.spec is None
    assert any(reason in issue.reason for issue in report.issues), report.issues
    assert all(issue.line > 0 for issue in report.issues)


def test_conformance_fixtures_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """spec validate exits 0 for the conformance-style valid fixtures and 1 for the invalid ones."""
    for name in ("minimal", "an import graph"):
        assert main(["spec", "validate", str(_write(tmp_path, VALID[name]))]) == 0, name
    for name in ("a typo in a rule field", "an import cycle"):
        assert main(["spec", "validate", str(_write(tmp_path, INVALID[name][0]))]) == 1, name
    capsys.readouterr()


def test_extension_predicates_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """spec validate --json lists x- predicates as ruleweave extensions of a valid document."""
    path = _write(tmp_path, VALID["a ruleweave x- predicate"])
    assert main(["spec", "validate", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is True
    assert [(e["rule"], e["predicate"], e["line"]) for e in data["extensions"]] == [("r", "x-paid-plan", 10)]
    assert main(["spec", "validate", str(path)]) == 0
    assert "uses the ruleweave extension predicate 'x-paid-plan'" in capsys.readouterr().out


def test_all_problems_are_listed_with_lines(tmp_path: Path) -> None:
    """Unlike the reference, which stops at the first problem, every problem is listed in line order."""
    body = "states:\n  start: {next: finish}\nrules:\n  - id: r\n    preferr: local\nx-owner: me\n"
    path = _write(tmp_path, body)
    report = inspect_spec(path.read_text(), file=str(path), folder=tmp_path)
    assert [issue.line for issue in report.issues] == [9, 12, 13]
