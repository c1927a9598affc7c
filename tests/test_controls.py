"""Hidden characters: the written-out class matches unicodedata, stripping and escaping keep text readable."""

from __future__ import annotations

import json
import sys
import unicodedata

from ruleweave._text.controls import escape_controls, strip_controls


def test_every_control_format_and_separator_character_is_hidden() -> None:
    """Each code point of categories Cc, Cf, Zl and Zp (this Python's Unicode) is stripped."""
    missed = [
        f"U+{code:04X}"
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in ("Cc", "Cf", "Zl", "Zp")
        and strip_controls(f"a{chr(code)}b") not in ("ab", "a b")
    ]
    assert missed == []


def test_strip_keeps_printable_text_and_turns_whitespace_controls_into_spaces() -> None:
    """Letters, emoji and spaces stay; tab and newline become spaces; escapes and bidi marks go."""
    assert strip_controls("naïve ✓ 名前") == "naïve ✓ 名前"
    assert strip_controls("a\tb\nc") == "a b c"
    assert strip_controls("\x1b[2Jtitle\u202e\u200b") == "[2Jtitle"


def test_escape_spells_hidden_characters_the_way_json_does() -> None:
    """Escaped text shows ``\\u001b``; JSON passed through decodes to the same value."""
    assert escape_controls("a\x1b[31mb\u202ec\n\td") == "a\\u001b[31mb\\u202ec\n\td"
    assert escape_controls("x\ny", multiline=False) == "x\\u000ay"
    value = "x\x7f\x85\u202e\U000e0041"
    assert json.loads(escape_controls(json.dumps(value, ensure_ascii=False))) == value
