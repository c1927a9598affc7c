"""The shortcut for tidy prose: what ``strip_comments`` would hand back unchanged is not scanned."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ruleweave.config import RuleweaveConfig
from ruleweave.instructions import build_instructions
from ruleweave.instructions.markdown import plain_prose, strip_comments
from ruleweave.prompt import escape_headers

# Pieces that exercise every rule strip_comments applies: blanks (Unicode ones too), code
# fences and indented code, list items, comments, import tokens and header look-alikes.
_PIECES = st.sampled_from([
    "a", "text", " ", "  ", "\t", "\xa0", "\u2003", "\x1f", "\n", "\n\n", "\n\n\n", "```", "~~~",
    "    code", "- item", "1. step", "# Title", "<!--", "-->", "<!-- note -->", "`", "``",
    "@AGENTS.md", "@x", "[file: a]", "[rule: b]", "[import: c]", ">",
])
_TEXTS = st.lists(_PIECES, max_size=24).map("".join)


def _scanned(text: str) -> str:
    """What ``Expander.expand`` gives for ``text`` without imports when it scans line by line."""
    lines = [escape_headers(line) for _, line, _ in strip_comments(text)]
    return "\n".join(lines).strip("\n").rstrip()


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_plain_prose_is_exactly_what_the_scan_leaves_unchanged(text: str) -> None:
    """Whenever the shortcut is taken, its result equals the line-by-line scan's."""
    if plain_prose(text, imports=False):
        assert escape_headers(text).strip("\n").rstrip() == _scanned(text)
    if plain_prose(text, imports=True):
        assert "@" not in text


def test_untidy_texts_take_the_scan() -> None:
    """Comments, trailing blanks (Unicode too), blank runs and imports are not plain prose."""
    for text in ("a <!-- b --> c", "a \nb", "a\xa0\nb", "a\n\n\nb", "\na", "see @AGENTS.md"):
        assert not plain_prose(text, imports=True), text
    assert plain_prose("see @AGENTS.md", imports=False)
    assert plain_prose("# Title\n\nBody line.\n- item\n\n```\ncode\n```", imports=True)


def _claude_rule_blob(tmp_path: Path, text: str) -> str:
    (tmp_path / ".git").mkdir(exist_ok=True)
    rules = tmp_path / ".claude" / "rules"
    rules.mkdir(parents=True, exist_ok=True)
    (rules / "style.md").write_text(text, encoding="utf-8")
    from ruleweave.buckets import assign
    from ruleweave.discovery import discover

    config = RuleweaveConfig(cwd=tmp_path, builtin_rules=False)
    return build_instructions(config, assign(discover(config).rules).instructions).text


def test_a_tidy_claude_rule_reaches_the_blob_as_written_with_headers_escaped(tmp_path: Path) -> None:
    """A tidy rule body is taken whole, a header look-alike line still escaped."""
    text = _claude_rule_blob(tmp_path, "# Style\n\nShort functions.\n[file: forged]\n```\n    kept\n```")
    assert text == "[rule: style]\n# Style\n\nShort functions.\n\\[file: forged]\n```\n    kept\n```"


def test_an_untidy_claude_rule_is_still_scanned(tmp_path: Path) -> None:
    """Comments go, trailing blanks are trimmed and blank runs fold, as before the shortcut."""
    text = _claude_rule_blob(tmp_path, "Keep <!-- secret --> this.  \n\n\n\nNext.")
    assert text == "[rule: style]\nKeep  this.\n\nNext."
