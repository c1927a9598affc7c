"""Scope tokens and condition tokens that are file globs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleweave.ttsr.scope import (
    ScopeEntry,
    glob_tokens,
    is_glob_token,
    parse_scope,
    split_tokens,
)


def test_malformed_yaml_list_is_recovered() -> None:
    """``"text","thinking"`` (what YAML's line fallback leaves) is two tokens."""
    entries, problems = parse_scope(['"text","thinking"'])
    assert entries == (ScopeEntry("text"), ScopeEntry("thinking"))
    assert problems == []


def test_commas_inside_brackets_and_quotes_do_not_split() -> None:
    """Braces, parentheses and quotes protect their commas."""
    assert split_tokens("tool:edit(src/*.{ts,tsx}), 'a,b', text") == [
        "tool:edit(src/*.{ts,tsx})", "a,b", "text",
    ]


def _split_reference(value: str) -> list[str]:
    """``split_tokens`` as first written: one pass over every character."""
    tokens: list[str] = []
    current: list[str] = []
    depth = 0
    quote = ""
    for char in value:
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}" and depth:
            depth -= 1
        elif char == "," and depth == 0:
            tokens.append("".join(current))
            current = []
            continue
        current.append(char)
    tokens.append("".join(current))
    out = []
    for token in tokens:
        token = token.strip()
        while len(token) >= 2 and token[0] == token[-1] and token[0] in "\"'":
            token = token[1:-1].strip()
        if token:
            out.append(token)
    return out


@settings(max_examples=400, deadline=None)
@given(st.one_of(
    st.lists(st.sampled_from(["text", "tool:edit", " ", ",", ")", "]", "}", "*.ts", "\t"]), max_size=12),
    st.lists(st.sampled_from(["text", ",", " ", "(", ")", "{", "'", '"', "a,b", "*.py"]), max_size=12),
).map("".join))
def test_split_tokens_agrees_with_the_character_scan(value: str) -> None:
    """The plain split taken when nothing nests or quotes gives the tokens the character scan gives."""
    assert split_tokens(value) == _split_reference(value)


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("TEXT", [ScopeEntry("text")]),
        ("Thinking", [ScopeEntry("thinking")]),
        ("tool", [ScopeEntry("tool")]),
        ("Tool:Bash", [ScopeEntry("tool", "bash")]),
        ("tool:edit(**/*.TS)", [ScopeEntry("tool", "edit", "**/*.TS")]),
        ("write(*.py)", [ScopeEntry("tool", "write", "*.py")]),
        ("tool(*.md)", [ScopeEntry("tool", None, "*.md")]),
        ('tool:edit("*.ts", *.tsx)', [ScopeEntry("tool", "edit", "*.ts"),
                                     ScopeEntry("tool", "edit", "*.tsx")]),
    ],
)
def test_scope_token_forms(token: str, expected: list[ScopeEntry]) -> None:
    """Every documented token form parses, case-insensitively but keeping glob case."""
    entries, problems = parse_scope([token])
    assert list(entries) == expected
    assert problems == []


def test_unknown_tokens_are_reported_and_ignored() -> None:
    """A token that is not a scope form becomes a problem naming it."""
    entries, problems = parse_scope(["text, prose, text(*.md)"])
    assert entries == (ScopeEntry("text"),)
    assert len(problems) == 2
    assert "'prose'" in problems[0]


def test_entries_render_back_to_tokens() -> None:
    """``str(entry)`` is the canonical token, as ``ruleweave scan`` shows it."""
    entries, _ = parse_scope(["Text, tool:Edit(*.ts), tool, write(a/*.py)"])
    assert [str(e) for e in entries] == ["text", "tool:edit(*.ts)", "tool", "tool:write(a/*.py)"]


@pytest.mark.parametrize(
    ("token", "is_glob"),
    [
        ("src/**/*.ts", True),
        ("*.py", True),
        ("*.{ts,tsx}", True),
        ("docs/*.md", True),
        (".*", False),
        ("foo*", False),
        (r"\.py$", False),
        ("a/b", False),
        ("(src|lib)/*.ts", False),
        ("TODO", False),
        ("a{2,3}", False),
    ],
)
def test_glob_tokens_are_told_from_regexes(token: str, is_glob: bool) -> None:
    """A token is a glob only with glob magic, no regex-only characters, and a ``/`` or ``*.ext``."""
    assert is_glob_token(token) is is_glob


def test_a_comma_list_of_globs_is_several_glob_tokens() -> None:
    """``*.ts, *.tsx`` in one condition value is two globs; a mixed list is a regex."""
    assert glob_tokens("*.ts, src/**/*.tsx") == ["*.ts", "src/**/*.tsx"]
    assert glob_tokens("*.ts, TODO") == []
