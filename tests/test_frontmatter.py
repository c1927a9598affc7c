"""Frontmatter as docs/rules.md#frontmatter says: split, YAML 1.2, key folding, repair, never raise."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleweave import frontmatter as fm


def test_unquoted_cursor_globs_give_two_globs_and_the_description() -> None:
    """``globs: **/*.ts, src/**/*.{ts,tsx}`` is invalid YAML yet yields both globs intact."""
    text = (
        "---\ndescription: TypeScript: strict, no any\n"
        "globs: **/*.ts, src/**/*.{ts,tsx}\nalwaysApply: false\n---\nUse strict mode.\n"
    )
    parsed = fm.parse(text)
    assert parsed.data["description"] == "TypeScript: strict, no any"
    assert fm.as_globs(parsed.data["globs"]) == ("**/*.ts", "src/**/*.{ts,tsx}")
    assert parsed.data["always_apply"] is False
    assert parsed.body == "Use strict mode."
    assert parsed.problems == ()  # the normal Cursor format: repaired silently (issue #12)
    [(line, message)] = parsed.repairs
    assert line in (2, 3)
    assert "not valid YAML" in message


def test_the_common_case_alone_reports_the_globs_line() -> None:
    """With only the bad globs line, the repair record points at that line of the file."""
    parsed = fm.parse("---\ndescription: TS rules\nglobs: **/*.ts, src/**/*.{ts,tsx}\n---\nx")
    assert parsed.data == {"description": "TS rules", "globs": "**/*.ts, src/**/*.{ts,tsx}"}
    assert [line for line, _ in parsed.repairs] == [3]


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "y", "n", "Yes", "ON"])
def test_yaml_1_1_booleans_stay_strings(word: str) -> None:
    """YAML 1.2 booleans: ``yes``/``on``/``y`` and friends are strings, not booleans."""
    parsed = fm.parse(f"---\nalwaysApply: {word}\n---\nbody")
    assert parsed.data["always_apply"] == word
    assert fm.as_bool(parsed.data["always_apply"]) is False


@pytest.mark.parametrize(("word", "expected"), [("true", True), ("True", True), ("false", False)])
def test_yaml_1_2_booleans_are_booleans(word: str, expected: bool) -> None:
    """``true``/``false`` in any of YAML 1.2's spellings are real booleans."""
    assert fm.parse(f"---\nalwaysApply: {word}\n---\nbody").data["always_apply"] is expected


@pytest.mark.parametrize("key", ["always-apply", "alwaysApply", "always_apply", "AlwaysApply"])
def test_kebab_camel_and_snake_keys_are_one_key(key: str) -> None:
    """Every spelling of a key is read as its snake-case form."""
    assert fm.parse(f"---\n{key}: true\n---\nbody").data == {"always_apply": True}


def test_multiword_keys_fold_to_snake_case() -> None:
    """``fileMatchPattern`` and ``apply-to`` become ``file_match_pattern`` and ``apply_to``."""
    data = fm.parse("---\nfileMatchPattern: '*.py'\napply-to: '**'\n---\nb").data
    assert data == {"file_match_pattern": "*.py", "apply_to": "**"}


def test_leading_bom_is_ignored() -> None:
    """A UTF-8 byte-order mark before ``---`` does not hide the frontmatter."""
    parsed = fm.parse("\ufeff---\ndescription: with BOM\n---\nBody.")
    assert parsed.present is True
    assert parsed.data == {"description": "with BOM"}
    assert parsed.body == "Body."


def test_crlf_is_normalised() -> None:
    """Windows line endings parse like ``\\n`` and leave no ``\\r`` in the body."""
    text = "---\r\ndescription: dos\r\nglobs:\r\n  - '*.bat'\r\n---\r\nLine 1\r\nLine 2\r\n"
    parsed = fm.parse(text)
    assert parsed.data == {"description": "dos", "globs": ["*.bat"]}
    assert parsed.body == "Line 1\nLine 2"


def test_bom_and_crlf_together() -> None:
    """A BOM and CRLF endings together still give the frontmatter and a clean body."""
    parsed = fm.parse("\ufeff---\r\nalwaysApply: true\r\n---\r\n\r\nRule.\r\n")
    assert parsed.data == {"always_apply": True}
    assert parsed.body == "Rule."


def test_no_frontmatter_without_opening_fence() -> None:
    """Text not starting with ``---`` has no frontmatter; the whole text is the body, trimmed."""
    parsed = fm.parse("\n# Title\n---\nkey: value\n---\n")
    assert parsed.present is False
    assert parsed.data == {}
    assert parsed.body == "# Title\n---\nkey: value\n---"


def test_no_frontmatter_without_closing_fence() -> None:
    """An opening ``---`` with no closing line is body text, not frontmatter."""
    parsed = fm.parse("---\ndescription: never closed\nBody")
    assert parsed.present is False
    assert parsed.body == "---\ndescription: never closed\nBody"


def test_four_dashes_do_not_open_frontmatter() -> None:
    """A ``----`` rule line is not a frontmatter fence."""
    assert fm.parse("----\na: 1\n---\nbody").present is False


def test_empty_and_non_mapping_frontmatter_is_an_empty_mapping() -> None:
    """An empty block, a YAML list and a scalar all give ``{}`` and keep the body."""
    for block in ("", "- a\n- b", "just a string", "42"):
        parsed = fm.parse(f"---\n{block}\n---\nBody")
        assert parsed.present is True
        assert parsed.data == {}
        assert parsed.body == "Body"
        assert parsed.problems == ()


def test_body_is_trimmed_and_later_fences_stay_in_the_body() -> None:
    """Only the first closing fence ends the frontmatter; the body is stripped."""
    parsed = fm.parse("---\na: 1\n---\n\n  Text\n---\nmore\n\n")
    assert parsed.data == {"a": 1}
    assert parsed.body == "Text\n---\nmore"


def test_colon_in_plain_value_is_repaired_by_quoting() -> None:
    """A plain value holding ``': '`` is retried quoted, kept verbatim: a repair, not a warning."""
    parsed = fm.parse("---\ndescription: Note: run make first\nglobs: '*.mk'\n---\nb")
    assert parsed.data == {"description": "Note: run make first", "globs": "*.mk"}
    assert parsed.problems == ()
    [(line, message)] = parsed.repairs
    assert line == 2
    assert "quoted" in message


def test_line_fallback_reparses_each_value_and_keeps_raw_text() -> None:
    """In the line-by-line fallback each value is YAML when it can be, raw text otherwise."""
    text = "---\ncount: 3\nflag: true\nbroken: [oops\nglobs: *.py, *.pyi\nempty:\n---\nbody"
    parsed = fm.parse(text)
    assert parsed.data == {
        "count": 3,
        "flag": True,
        "broken": "[oops",
        "globs": "*.py, *.pyi",
        "empty": None,
    }
    # The unclosed '[' opened on line 4 is detected on line 5, where the parser stops.
    assert parsed.repairs[0][0] == 5
    assert "line by line" in parsed.repairs[0][1]
    assert parsed.problems == ()  # every line was read: nothing lost, nothing to warn about


def test_line_fallback_keeps_block_list_items() -> None:
    """A block list with an alias-looking item still comes back as a list of globs."""
    parsed = fm.parse("---\ndescription: x\nglobs:\n  - src/*.ts\n  - *.tsx\nbad: [\n---\nb")
    assert parsed.data["globs"] == ["src/*.ts", "*.tsx"]
    assert fm.as_globs(parsed.data["globs"]) == ("src/*.ts", "*.tsx")
    assert parsed.data["description"] == "x"


def test_line_fallback_keeps_folded_continuations() -> None:
    """Indented continuation lines belong to the key above them in the fallback."""
    text = "---\ndescription: first line\n  second line\nglobs: **/*.md\n---\nb"
    parsed = fm.parse(text)
    assert parsed.data["description"] == "first line second line"
    assert parsed.data["globs"] == "**/*.md"


def test_split_globs_respects_braces_and_brackets() -> None:
    """Commas inside ``{}`` and ``[]`` do not split; quotes and blanks are dropped."""
    assert fm.split_globs("src/**/*.{ts,tsx}, '*.md' , lib/[a,b]*.py,,") == [
        "src/**/*.{ts,tsx}",
        "*.md",
        "lib/[a,b]*.py",
    ]


def test_as_globs_from_list_string_and_nested_list() -> None:
    """Globs come from a list or a comma string, deduplicated, one nesting level flattened."""
    assert fm.as_globs(["*.py", "*.py", "a/*.{c,h}, b/*.c"]) == ("*.py", "a/*.{c,h}", "b/*.c")
    assert fm.as_globs([["x/*"], "y/*"]) == ("x/*", "y/*")
    assert fm.as_globs(None) == ()
    assert fm.as_globs({"not": "globs"}) == ()


def test_self_referencing_alias_does_not_recurse_forever() -> None:
    """A YAML list that contains itself yields no globs instead of recursing."""
    parsed = fm.parse("---\nglobs: &a ['*.py', *a]\n---\nb")
    assert fm.as_globs(parsed.data.get("globs")) == ("*.py",)


def test_as_text_and_as_bool_helpers() -> None:
    """Scalars become trimmed text, containers are not text; only true is truthy."""
    assert fm.as_text("  hi ") == "hi"
    assert fm.as_text(3) == "3"
    assert fm.as_text(["a"]) is None
    assert fm.as_text("   ") is None
    assert fm.as_bool("TRUE") is True
    assert fm.as_bool("1") is False
    assert fm.as_bool(1) is False


FRONTMATTER_LINES = st.sampled_from(
    [
        "description: a: b",
        "globs: **/*.ts, src/**/*.{ts,tsx}",
        "globs:",
        "  - *.py",
        "  - 'x'",
        "alwaysApply: yes",
        "always-apply: true",
        "key: [unclosed",
        "? [complex, key]",
        ": no key",
        "- item",
        "&anchor value",
        "*alias",
        "!!python/object:os.system x",
        "!!binary Zm9v",
        "a: &x [*x]",
        "\t tab: indented",
        "date: 2024-01-01",
        "---",
        "...",
        "%YAML 1.1",
        "x: |",
        "  block",
        "{flow: map",
    ]
)


@st.composite
def documents(draw: st.DrawFn) -> str:
    """Documents that look like rule files: fences, YAML-ish lines, junk, BOM and CRLF."""
    lines = draw(st.lists(st.one_of(FRONTMATTER_LINES, st.text(max_size=30)), max_size=12))
    body = draw(st.text(max_size=60))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    return bom + newline.join(["---", *lines, "---", body])


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), documents()))
def test_parse_never_raises_and_returns_mapping_and_body(text: str) -> None:
    """For any text, ``parse`` returns a dict with str keys and a str body, and never raises."""
    parsed = fm.parse(text)
    assert isinstance(parsed.data, dict)
    assert all(isinstance(key, str) for key in parsed.data)
    assert isinstance(parsed.body, str)
    assert parsed.body == parsed.body.strip()
    assert "\r\n" not in parsed.body
    for line, message in (*parsed.problems, *parsed.repairs):
        assert line >= 1
        assert message
    value: Any
    for value in parsed.data.values():
        fm.as_globs(value)
        fm.as_strings(value)
        fm.as_text(value)


SIMPLE_KEYS = [
    "a", "globs", "alwaysApply", "always-apply", "true", "null", "yes", "on", "x_1", "Key", "n", "_k",
]
SIMPLE_ATOMS = [
    "", " ", "a", "b c", "true", "True", "false", "FALSE", "yes", "on", "off", "no", "y", "null", "~",
    "1", "0x1", "1.5", ".5", "1e3", "2024-01-01", "12:30", "**/*.ts", "*.ts", "src/**", "'q'", "'it''s'",
    '"dq"', '"a\\"b"', "[]", "['a', 'b']", "['a',]", "[a]", "a: b", "a:b", "C#", "x #c", "-x", "?x", ":x",
    "%x", "@x", "!x", "&a x", "|", ">", "{a: 1}", "foo:", "\t", "é", "\u2028", "\x85", "\x07", "<<", "=",
    "+1", ".inf", "1_000", "a,b", "{x", "]", "'open", '"open', "''", '""',
]
SIMPLE_LINES = st.one_of(
    st.builds(
        lambda key, sep, atoms: key + sep + "".join(atoms),
        st.sampled_from(SIMPLE_KEYS),
        st.sampled_from([": ", ":  ", ":", ":\t"]),
        st.lists(st.sampled_from(SIMPLE_ATOMS), max_size=3),
    ),
    st.sampled_from(["", "# comment", "  indented: x", "- item", "---", "key:value"]),
)


@settings(max_examples=1500, deadline=None)
@given(st.lists(SIMPLE_LINES, min_size=1, max_size=5))
def test_simple_mapping_agrees_with_the_yaml_loader(lines: list[str]) -> None:
    """Whenever the flat-line reader accepts a block, the YAML loader gives the same mapping and types."""
    block = "\n".join(lines)
    simple = fm.simple_mapping(block)
    if simple is None:
        return
    loaded = fm.yaml_load(block)
    expected = {} if loaded is None else loaded
    assert simple == expected
    assert [type(v) for v in simple.values()] == [type(v) for v in expected.values()]


@pytest.mark.parametrize(
    "block",
    [
        "description: TypeScript conventions\nglobs: src/**/*.ts, src/**/*.{ts,tsx}\nalwaysApply: false",
        "trigger: always_on\nglobs: '**/*.py'\ndescription: rule",
        "name: topic\nglobs: ['**/*.rs', \"*.toml\"]\ncondition: 'unsafe\\s*\\{'\nscope: text",
        "applyTo: '**/*.ts,**/*.tsx'\n# a comment\n\ninclusion: fileMatch",
    ],
)
def test_common_rule_frontmatter_is_read_without_the_yaml_loader(block: str) -> None:
    """The flat blocks rule files are made of are read directly, to what the YAML loader gives."""
    simple = fm.simple_mapping(block)
    assert simple is not None
    assert simple == fm.yaml_load(block)


@pytest.mark.parametrize(
    "block",
    ["globs:\n  - '*.py'", "count: 3", "when: 2024-01-01", "a: &x 1", "a: |\n  text", "a: b: c", "k: *.ts"],
)
def test_anything_not_flat_goes_to_the_yaml_loader(block: str) -> None:
    """Indentation, numbers, dates, anchors, block scalars and nested colons are left to YAML."""
    assert fm.simple_mapping(block) is None


def test_yaml_1_1_booleans_stay_strings_on_the_flat_path() -> None:
    """``yes``/``on``/``off`` read directly are strings; ``true``/``False`` are booleans."""
    assert fm.simple_mapping("a: yes\nb: on\nc: off\nd: true\ne: False") == {
        "a": "yes", "b": "on", "c": "off", "d": True, "e": False,
    }


def _split_reference(text: str) -> tuple[str | None, str]:
    """``split`` as first written (a regex over the text after the opening fence)."""
    import re

    if not text.startswith("---"):
        return None, text.strip()
    first_break = text.find("\n")
    if first_break == -1 or text[:first_break].rstrip() != "---":
        return None, text.strip()
    close = re.search(r"^---[ \t]*$", text[first_break + 1 :], flags=re.MULTILINE)
    if close is None:
        return None, text.strip()
    block = text[first_break + 1 : first_break + 1 + close.start()]
    return block.rstrip("\n"), text[first_break + 1 + close.end() :].strip()


def _split_globs_reference(value: str) -> list[str]:
    """``split_globs`` as first written: one pass over the characters, whatever the value."""
    out: list[str] = []
    depth = 0
    current: list[str] = []
    for char in value:
        if char in "{[":
            depth += 1
        elif char in "}]" and depth:
            depth -= 1
        if char == "," and depth == 0:
            out.append("".join(current))
            current = []
        else:
            current.append(char)
    out.append("".join(current))
    return [item.strip().strip("'\"").strip() for item in out if item.strip().strip("'\"").strip()]


_FENCE_TEXTS = st.lists(
    st.sampled_from(["---", "--- ", "---\t", "----", "a: b", "", "x---", " ---", "body", "\n"]), max_size=8
).map("\n".join)


@settings(max_examples=500, deadline=None)
@given(st.one_of(_FENCE_TEXTS, documents(), st.text(max_size=40)))
def test_split_agrees_with_its_first_version(text: str) -> None:
    """The closing-fence search from the opening line's end finds what the sliced search found."""
    text = text.replace("\r\n", "\n").removeprefix("\ufeff")
    assert fm.split(text) == _split_reference(text)


_GLOB_PIECES = st.sampled_from(["a", "*.ts", ",", " ", "{", "}", "[", "]", "'", '"', "**/", "x,y"])


@settings(max_examples=500, deadline=None)
@given(st.lists(_GLOB_PIECES, max_size=10).map("".join))
def test_split_globs_agrees_with_its_first_version(value: str) -> None:
    """The one-glob shortcut and the cached comma split give what the character pass gave."""
    assert fm.split_globs(value) == _split_globs_reference(value)
    assert fm.split_globs(value) == _split_globs_reference(value)  # a second call, from the cache


@settings(max_examples=300, deadline=None)
@given(st.lists(_GLOB_PIECES, max_size=10).map("".join))
def test_a_string_reads_as_the_one_item_list_of_it(value: str) -> None:
    """``as_globs`` and ``as_strings`` read a plain string as they read ``[string]``."""
    assert fm.as_globs(value) == fm.as_globs([value])
    assert fm.as_strings(value) == fm.as_strings([value])


def test_the_flat_reader_declines_every_start_the_yaml_loader_resolves() -> None:
    """Every implicit resolver of the loader starts with a character the flat-line reader leaves to
    YAML (or is the boolean or null it reads itself): so it needs no YAML import to agree."""
    from ruleweave.frontmatter import _BOOLEANS, _NULLS, _PLAIN_START, _RESOLVABLE_START

    loader = fm.yaml12_loader()
    for first, resolvers in loader.yaml_implicit_resolvers.items():
        for tag, regexp in resolvers:
            if not first or first in _RESOLVABLE_START or first in _PLAIN_START:
                continue
            kind = tag.rsplit(":", 1)[-1]
            allowed = {("bool", c) for c in "tTfF"} | {("null", "n"), ("null", "N")}
            assert (kind, first) in allowed, (tag, first)
            words = _BOOLEANS if kind == "bool" else _NULLS
            assert {w for w in words if w[0] == first} == {
                w for w in ("true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL")
                if w[0] == first and regexp.match(w)
            }
