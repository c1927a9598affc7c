"""Loading SkillSpec files: YAML, line numbers, every problem listed."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave.errors import SpecError
from ruleweave.steering import SpecReadError, SpecValidationError, check_spec, load_spec, parse_spec
from tests.steering.helpers import spec_text, write_spec


def test_loads_a_valid_file(tmp_path: Path) -> None:
    """A valid document loads with its routes, rules and elicitations typed."""
    path = write_spec(
        tmp_path,
        """\
        rules:
          - id: browse
            when: {user_says_any: [browse]}
            prefer: browser
            elicit: [mode]
        elicitations:
          mode:
            question: Which mode?
            choices: [{id: headless, label: Headless}]
        """,
    )
    spec = load_spec(path)
    assert spec.id == "test.skill"
    assert [r.id for r in spec.routes] == ["local_cli", "browser"]
    assert spec.rules[0].prefer == "browser"
    assert spec.elicitations["mode"].choices[0].label == "Headless"


def test_other_sections_are_typed(tmp_path: Path) -> None:
    """Sections ruleweave does not evaluate are validated and kept as typed data."""
    spec = load_spec(
        write_spec(tmp_path, "commands:\n  go: {template: make}\nmetadata:\n  owner: me\n")
    )
    assert spec.commands["go"].template == "make"
    assert dict(spec.metadata) == {"owner": "me"}


def test_errors_carry_file_line_and_reason(tmp_path: Path) -> None:
    """An unknown rule field is reported at the line of the field, in this file."""
    path = write_spec(
        tmp_path,
        """\
        rules:
          - id: typo_rule
            when: {user_says_any: [local]}
            preferr: local_cli
        """,
    )
    with pytest.raises(SpecValidationError) as caught:
        load_spec(path)
    issue = caught.value.issues[0]
    assert issue.file == str(path)
    assert issue.line == 15
    assert "preferr" in issue.reason and "typo_rule" in issue.reason
    assert isinstance(caught.value, SpecError)


def test_every_problem_is_listed_not_just_the_first(tmp_path: Path) -> None:
    """Shape problems and reference problems are reported together, in line order."""
    path = write_spec(
        tmp_path,
        """\
        rules:
          - id: one
            when: {user_says_any: [a]}
            preferr: local_cli
          - id: two
            when: {user_says_any: [b]}
            prefer: nowhere
        """,
    )
    _, issues = check_spec(path.read_text(), file=str(path))
    assert len(issues) == 2
    assert [i.line for i in issues] == sorted(i.line for i in issues)
    assert "preferr" in issues[0].reason
    assert "nowhere" in issues[1].reason


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    """Broken YAML is one issue at the line the parser stopped on."""
    _, issues = check_spec("schema: skillspec/v0\nid: [unclosed\ntitle: x\n", file="bad.yml")
    assert len(issues) == 1
    assert issues[0].file == "bad.yml"
    assert issues[0].line >= 2
    assert "YAML" in issues[0].reason


def test_duplicate_yaml_keys_are_errors() -> None:
    """A key given twice in one mapping is reported instead of silently keeping the last."""
    text = spec_text("elicitations:\n  mode: {question: A?, choices: [{id: a, label: A}]}\n") + (
        "elicitations:\n  other: {question: B?, choices: [{id: b, label: B}]}\n"
    )
    _, issues = check_spec(text)
    assert any("Duplicate key 'elicitations'" in i.reason for i in issues)


def test_alias_bomb_is_refused_without_expanding_it() -> None:
    """Nested YAML aliases standing for 9**9 phrases are one issue, found at once (not a hang)."""
    levels = ['x-l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n']
    for n in range(1, 9):
        levels.append(f"x-l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]\n")
    body = "rules:\n  - id: r\n    when: {user_says_any: *l8}\n    prefer: local_cli\n"
    spec, issues = check_spec(spec_text("".join(levels) + body))
    assert spec is None
    [issue] = issues
    assert "aliases" in issue.reason


def test_empty_and_non_mapping_documents_are_invalid() -> None:
    """An empty file or a YAML list is not a SkillSpec."""
    for text in ("", "- a\n- b\n"):
        _, issues = check_spec(text)
        assert len(issues) == 1
        assert "mapping" in issues[0].reason


def test_wrong_schema_is_reported() -> None:
    """Only skillspec/v0 is accepted."""
    text = spec_text("").replace("skillspec/v0", "skillspec/v9")
    _, issues = check_spec(text)
    assert [i.line for i in issues] == [1]
    assert "skillspec/v9" in issues[0].reason


def test_missing_header_fields_are_reported() -> None:
    """A document without title and description lists both as missing."""
    _, issues = check_spec("schema: skillspec/v0\nid: a\n")
    reasons = " ".join(i.reason for i in issues)
    assert "'title'" in reasons and "'description'" in reasons


def test_wrong_types_are_reported_with_the_field() -> None:
    """A string where a list of ids belongs, and a quoted rank, are type errors."""
    text = spec_text(
        """\
        rules:
          - id: r
            when: {user_says_any: [x]}
            forbid: curl
        """
    ).replace("rank: 1", 'rank: "1"')
    _, issues = check_spec(text)
    reasons = [i.reason for i in issues]
    assert any("rank must be an integer" in r for r in reasons)
    assert any("forbid must be a list" in r for r in reasons)


def test_yaml_12_booleans_keep_yes_a_string() -> None:
    """``yes`` is not a boolean, so a predicate written ``yes`` is a type error."""
    text = spec_text("rules:\n  - id: r\n    when: {task_recurrence_likely: yes}\n")
    _, issues = check_spec(text)
    assert any("true or false" in i.reason for i in issues)


def test_crlf_and_bom_are_accepted() -> None:
    """Windows line endings and a BOM do not change the result."""
    text = "\ufeff" + spec_text("").replace("\n", "\r\n")
    assert parse_spec(text).id == "test.skill"


def test_unreadable_file_is_a_read_error(tmp_path: Path) -> None:
    """A missing file raises SpecReadError with the path and line 0."""
    with pytest.raises(SpecReadError) as caught:
        load_spec(tmp_path / "missing.yml")
    assert caught.value.file.endswith("missing.yml")
    assert caught.value.line == 0


def test_validation_error_message_lists_all_issues(tmp_path: Path) -> None:
    """The exception text holds one line per issue, each with file and line."""
    path = write_spec(tmp_path, "rules:\n  - id: A\n    prefer: x\n")
    with pytest.raises(SpecValidationError) as caught:
        load_spec(path)
    text = str(caught.value)
    assert len(caught.value.issues) == 2
    for issue in caught.value.issues:
        assert f"{path}:{issue.line}: " in text
