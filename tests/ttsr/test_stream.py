"""Decoding a tool call's streamed JSON arguments, escapes split anywhere."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from ruleweave.ttsr.stream import JsonTextDecoder, complete_prefix


def decode(pieces: list[str]) -> str:
    """Feed ``pieces`` to a fresh decoder and join what comes out."""
    decoder = JsonTextDecoder()
    return "".join(decoder.feed(piece) for piece in pieces)


@given(
    value=st.text(st.characters(codec="utf-8"), max_size=60),
    ascii_only=st.booleans(),
    cuts=st.lists(st.integers(min_value=1, max_value=7), min_size=1, max_size=30),
)
def test_string_values_come_out_decoded_however_the_stream_is_cut(
    value: str, ascii_only: bool, cuts: list[int]
) -> None:
    """``{"content": s}`` streamed in any pieces yields ``s`` itself, escapes resolved."""
    document = json.dumps({"path": "a.py", "content": value}, ensure_ascii=ascii_only)
    pieces, rest, turn = [], document, 0
    while rest:
        size = cuts[turn % len(cuts)]
        pieces.append(rest[:size])
        rest, turn = rest[size:], turn + 1
    assert decode(pieces) == '{"path": "a.py", "content": "' + value + '"}'


def test_plain_text_tool_streams_pass_through() -> None:
    """A stream that does not start like JSON is left as it is."""
    assert decode(["  echo \\n", ' "hi"']) == '  echo \\n "hi"'


def test_broken_escapes_do_not_raise() -> None:
    """A bad ``\\u`` escape or a lone surrogate escape becomes text or U+FFFD."""
    assert decode(['{"a": "\\uZZZZ \\ud800x \\udc00"}']) == '{"a": "\\uZZZZ \ufffdx \ufffd"}'


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=8,
)


@given(document=st.dictionaries(st.text(max_size=6), json_values, min_size=1, max_size=4))
def test_every_prefix_completes_to_complete_members(document: dict[str, Any]) -> None:
    """Any prefix of a JSON object completes to valid JSON holding only members that fully streamed."""
    text = json.dumps(document)
    for end in range(1, len(text) + 1):
        completed = complete_prefix(text[:end])
        assert completed is not None
        value = json.loads(completed)
        assert isinstance(value, dict)
        for key, member in value.items():
            if not isinstance(member, (dict, list)):
                assert document[key] == member
    assert json.loads(complete_prefix(text) or "") == document


def test_complete_prefix_cases() -> None:
    """A half-streamed value is dropped, never guessed; non-JSON text gives None."""
    assert complete_prefix('{"file_path": "a.py", "content": "def f(') == '{"file_path": "a.py"}'
    assert complete_prefix('{"file_path": "a.p') == "{}"
    assert complete_prefix('{"edits": [{"path": "x.py", "new": "y') == '{"edits": [{"path": "x.py"}]}'
    assert complete_prefix("plain text") is None
