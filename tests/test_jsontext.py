"""``_kernel.jsontext``: the ``json`` package's values and text, through ``_json`` alone."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleweave._kernel import jsontext
from tests.hosts.claude_code.test_hook_cold import imported_modules

SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()  # lone surrogates included: a file name's undecodable bytes reach JSON so
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)


def same(a: Any, b: Any) -> bool:
    """Equal, NaN equal to NaN."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


@settings(max_examples=400)
@given(VALUES, st.booleans(), st.booleans(), st.sampled_from([None, (",", ":"), (", ", ": ")]))
def test_dumps_writes_what_json_dumps_writes(value: Any, ascii_only: bool, sort: bool, seps: Any) -> None:
    """Every JSON value, every combination of the options the code uses: the same text."""
    assert jsontext.dumps(value, ensure_ascii=ascii_only, sort_keys=sort, separators=seps) == json.dumps(
        value, ensure_ascii=ascii_only, sort_keys=sort, separators=seps
    )


@settings(max_examples=400)
@given(VALUES, st.sampled_from(["", " ", "\n\t ", "\r\n"]))
def test_loads_reads_what_json_loads_reads(value: Any, space: str) -> None:
    """Text json wrote, with whitespace around it, as str and as bytes in each encoding json detects."""
    text = space + json.dumps(value) + space
    assert same(jsontext.loads(text), json.loads(text))
    for encoding in ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"):
        data = text.encode(encoding, "surrogatepass")
        assert same(jsontext.loads(data), json.loads(data)), encoding


@pytest.mark.parametrize(
    "text",
    ["", " ", "{", '{"a": }', "[1,]", "1 2", '"\\x"', "nul", "\ufeff{}", '{"a": 1} x', "[" * 100_000,
     b"\xff\xfe\xfd", b"\x80", '"tab\there"'],
)
def test_what_json_refuses_is_refused_alike(text: str | bytes) -> None:
    """Malformed text, a BOM in text, bad bytes, control characters in strings: the same error."""
    with pytest.raises((ValueError, RecursionError)) as ours:
        jsontext.loads(text)
    with pytest.raises((ValueError, RecursionError)) as theirs:
        json.loads(text)
    assert type(ours.value) is type(theirs.value)


def test_malformed_text_is_a_value_error_where_json_was_never_imported() -> None:
    """In a process that has not imported ``json`` (a warm hook's), malformed text still raises
    ``ValueError`` (Python 3.11's ``_json`` needs ``json.decoder`` imported to raise its error)."""
    code = (
        "import sys\n"
        "from ruleweave._kernel import jsontext\n"
        "assert 'json' not in sys.modules\n"
        "for bad in ('{not json', '[1,]', '{\"a\": 1} x', '\\ufeff{}'):\n"
        "    try:\n"
        "        jsontext.loads(bad)\n"
        "    except ValueError as exc:\n"
        "        print(type(exc).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["JSONDecodeError"] * 4


def test_what_json_cannot_hold_is_refused_alike() -> None:
    """A set, a circular list, and ``default`` turning a value into one JSON holds."""
    for bad in ({1}, object()):
        with pytest.raises(TypeError, match="is not JSON serializable"):
            jsontext.dumps(bad)
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular"):
        jsontext.dumps(loop)
    assert jsontext.dumps({"b": {1}}, sort_keys=True, default=str) == json.dumps({"b": {1}}, default=str)
    assert jsontext.quoted("é\u2028\"") == json.dumps("é\u2028\"", ensure_ascii=False)
    assert jsontext.loads(b'"\xed\xa0\x80"') == json.loads(b'"\xed\xa0\x80"') == "\ud800"  # surrogatepass


def test_the_warm_paths_modules_leave_json_and_re_out() -> None:
    """Importing the kernel and the hook's warm-path modules imports neither ``json`` nor ``re``."""
    modules = (
        "ruleweave.hosts._command, ruleweave.hosts._core.answer, ruleweave.hosts._core.snapshot, "
        "ruleweave._kernel.delivery, ruleweave._kernel.ledger, ruleweave._kernel.sqlite"
    )
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {modules}"],
                          capture_output=True, check=True)
    imported = imported_modules(done.stderr)
    assert "ruleweave._kernel.jsontext" in imported and imported & {"json", "re", "enum"} == set()
