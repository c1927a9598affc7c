"""Clean cuts: line and word boundaries, UTF-8 safety and the marker line."""

from __future__ import annotations

from ruleweave.prompt._cuts import LONG_LINE, clean_cut, cut_to_share, marker


def test_a_cut_falls_on_a_line_boundary() -> None:
    """A cut inside a short line drops that line whole and keeps the lines before it."""
    text = b"first line\nsecond line\nthird line that is cut"
    assert clean_cut(text, len(text) - 5) == b"first line\nsecond line"


def test_a_long_line_is_cut_at_a_word_boundary() -> None:
    """Inside a line longer than LONG_LINE the cut falls after a whole word."""
    words = " ".join(f"word{i}" for i in range(200)).encode()
    assert len(words) > LONG_LINE
    kept = clean_cut(b"head\n" + words, 600)
    assert kept.startswith(b"head\nword0 ") and len(kept) <= 600
    last = kept.rsplit(b" ", 1)[1]
    assert last.startswith(b"word") and last[4:].isdigit() and b" " + last + b" " in words + b" "


def test_a_cut_never_splits_a_utf8_sequence() -> None:
    """A line of multi-byte characters without blanks is cut at a character boundary."""
    text = ("ü" * 500).encode()
    for room in range(1, 40):
        kept = clean_cut(text, room)
        assert kept.decode("utf-8") == "ü" * (len(kept) // 2) and len(kept) <= room


def test_the_marker_says_how_much_and_where() -> None:
    """A cut text ends with one marker line naming the bytes left out and the address of the whole."""
    body = ("alpha beta\n" * 200).encode()
    result = cut_to_share(body, 500, "rule://backend/testing")
    assert result is not None
    text, dropped = result
    assert len(text) <= 500 and dropped == len(body) - text.index(b"\n[ruleweave:")
    assert text.endswith(marker("rule://backend/testing", dropped))
    assert text.decode().splitlines()[-1] == (
        f"[ruleweave: {dropped} bytes left out; whole text at rule://backend/testing]"
    )
    assert text.decode().splitlines()[-2] == "alpha beta"


def test_no_share_for_the_marker_is_none() -> None:
    """A share too small for the marker itself gives None (the caller drops the part)."""
    assert cut_to_share(b"x" * 100, 10, "AGENTS.md") is None
