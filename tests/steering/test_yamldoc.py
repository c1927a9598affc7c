"""SkillSpec YAML read the reference's way: YAML 1.2 scalars, number spellings, no merge keys."""

from __future__ import annotations

from ruleweave.steering import check_spec
from ruleweave.steering.yamldoc import YamlFloat, YamlInt, read_yaml, scalar_text
from tests.steering.helpers import spec_text


def test_core_schema_scalars() -> None:
    """Only true/false are booleans; yes/on/dates stay text; hex and octal are integers."""
    data = read_yaml("a: yes\nb: on\nc: 2025-01-31\nd: 0x1F\ne: 0o17\nf: TRUE\ng: ~\nh: 1.50\n", "f").data
    assert data == {
        "a": "yes",
        "b": "on",
        "c": "2025-01-31",
        "d": 31,
        "e": 15,
        "f": True,
        "g": None,
        "h": 1.5,
    }
    assert isinstance(data["d"], YamlInt) and data["d"].raw == "0x1F"
    assert isinstance(data["h"], YamlFloat) and scalar_text(data["h"]) == "1.50"


def test_quoted_and_tagged_scalars_stay_text() -> None:
    """A quoted scalar or an explicit !!str is text, whatever it looks like."""
    data = read_yaml("a: '12'\nb: !!str 12\nc: \"true\"\n", "f").data
    assert data == {"a": "12", "b": "12", "c": "true"}


def test_numbers_are_read_as_their_text_where_strings_are_expected() -> None:
    """An id, label or phrase written as a number is its source text, as the reference reads it."""
    body = "rules:\n  - id: r\n    when: {user_says_any: [404, 1.50]}\n    reason: 2024\n"
    spec, issues = check_spec(spec_text(body))
    assert issues == ()
    assert spec is not None and spec.rules[0].when.user_says_any == ("404", "1.50")
    assert spec.rules[0].reason == "2024"


def test_merge_keys_are_ordinary_keys() -> None:
    """<< does not merge: in a typed object it is reported with its line."""
    body = "elicitations:\n  a: &q {question: Q?, choices: [{id: x, label: X}]}\n  b:\n    <<: *q\n"
    _, issues = check_spec(spec_text(body))
    assert [(i.line, "merge keys" in i.reason) for i in issues if "<<" in i.reason] == [(15, True)]
    data = read_yaml("m: &m {a: 1}\nn: {<<: *m}\n", "f").data
    assert data == {"m": {"a": 1}, "n": {"<<": {"a": 1}}}


def test_a_self_referencing_alias_is_refused() -> None:
    """An alias inside its own anchor is a problem, not an endless structure."""
    document = read_yaml("a: &x\n  - *x\n", "f.yml")
    assert [issue.line for issue in document.issues] == [1]
    assert "contains itself" in document.issues[0].reason
