"""``LazyRegex``: a module-level pattern compiled at its first use, answering as ``re`` does."""

from __future__ import annotations

import re

import pytest

from ruleweave._text.lazy_regex import LazyRegex

TEXT = "*** Add File: a.py\n+++ b/c.py\tx\nplain line\n*** Move to: d.py\n"


def test_every_method_answers_as_the_compiled_pattern() -> None:
    """Each forwarded method gives what ``re.compile`` gives, before and after the first compile."""
    source, flags = r"^(?:\*\*\* (?:Add File|Move to): (.+?)|\+\+\+ b/(.+?)\t.*)$", re.M
    compiled = re.compile(source, flags)
    for _ in range(2):  # the first call compiles; the second goes straight to the compiled methods
        lazy = LazyRegex(source, flags)
        assert [m.span() for m in lazy.finditer(TEXT)] == [m.span() for m in compiled.finditer(TEXT)]
        assert lazy.findall(TEXT) == compiled.findall(TEXT)
        assert lazy.sub(lambda m: "<" + m.group(0)[:3] + ">", TEXT) == compiled.sub(
            lambda m: "<" + m.group(0)[:3] + ">", TEXT
        )
        assert lazy.split(TEXT, 1) == compiled.split(TEXT, 1)
        search, match = lazy.search(TEXT, 5), compiled.search(TEXT, 5)
        assert search is not None and match is not None and search.span() == match.span()
        assert lazy.match(TEXT) is not None and lazy.fullmatch(TEXT) is None
        assert lazy.compiled() is lazy.compiled()


def test_a_bad_pattern_fails_where_it_is_first_used() -> None:
    """Nothing is compiled when the pattern is made: an invalid one raises ``re.error`` at its first use."""
    lazy = LazyRegex("(unclosed")
    with pytest.raises(re.error):
        lazy.search("x")
