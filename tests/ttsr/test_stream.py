"""Decoding a tool call's streamed JSON arguments, escapes split anywhere."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from ruleweave.ttsr.stream import JsonPrefix, JsonTextDecoder, complete_prefix


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


def _pieces(text: str, cuts: list[int]) -> list[str]:
    pieces, rest, turn = [], text, 0
    while rest:
        size = cuts[turn % len(cuts)]
        pieces.append(rest[:size])
        rest, turn = rest[size:], turn + 1
    return pieces


@given(
    text=st.text(alphabet='{}[]":,\\nu0aD8', max_size=60),
    cuts=st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=20),
)
def test_any_text_decodes_the_same_however_it_is_cut(text: str, cuts: list[int]) -> None:
    """Broken, cut and surrogate escapes included: pieces decode like the character-by-character decoder."""
    careful = JsonTextDecoder()
    careful.feed("{")  # a JSON stream, decoded by the careful loop alone (the reference)
    expected = careful._careful(text, 0)
    assert decode(["{", *_pieces(text, cuts)]) == "{" + expected


@given(
    document=st.dictionaries(st.text(max_size=6), json_values, min_size=1, max_size=4),
    cuts=st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=20),
)
def test_the_prefix_fed_in_pieces_completes_like_the_whole(document: dict[str, Any], cuts: list[int]) -> None:
    """``JsonPrefix`` fed piece by piece completes every prefix as ``complete_prefix`` does, and its
    ``mark`` stays put only while the completed document does."""
    text = json.dumps(document)
    scanner = JsonPrefix()
    so_far, last_mark, last_completed = "", None, None
    for piece in _pieces(text, cuts):
        scanner.feed(piece)
        so_far += piece
        completed = scanner.completed(so_far)
        assert completed == complete_prefix(so_far)
        if scanner.mark == last_mark:
            assert completed == last_completed
        last_mark, last_completed = scanner.mark, completed
