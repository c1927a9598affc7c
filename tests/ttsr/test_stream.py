"""Decoding a tool call's streamed JSON arguments, escapes split anywhere."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from ruleweave.ttsr.stream import JsonTextDecoder


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
