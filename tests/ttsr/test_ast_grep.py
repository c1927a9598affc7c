"""``astCondition``: ast-grep over the code a tool call writes, and life without the extra."""

from __future__ import annotations

import sys

import pytest

from ruleweave.rules import Bucket
from ruleweave.ttsr import ast_grep
from tests.conftest import WriteTree
from tests.ttsr.helpers import feed, feed_call, load, names, rule

EVAL_RULE = rule(astCondition="'eval($X)'", condition="'\\beval\\b'", scope="tool:write")
AST_ONLY = rule(astCondition="'eval($X)'", scope="tool:write", description="No eval.")


def test_ast_condition_fires_on_a_written_python_file(write_tree: WriteTree) -> None:
    """A Write of a .py file containing ``eval(...)`` fires the AST pattern."""
    root = write_tree({".ruleweave/rules/no-eval.md": AST_ONLY})
    loaded = load(root)
    assert loaded.buckets.by_rule["no-eval"] is Bucket.TTSR
    code = "import os\n\n\ndef run(text):\n    return eval(text)\n"
    [hit] = feed_call(loaded.watcher(), "write", {"file_path": "pkg/run.py", "content": code})
    match = hit.matches[0]
    assert (match.kind, match.condition, match.matched) == ("ast", "eval($X)", "eval(text)")
    assert match.path == "pkg/run.py"


def test_ast_condition_ignores_lookalikes_and_unknown_languages(write_tree: WriteTree) -> None:
    """A comment or string saying eval(x) is not a call; a file without a known language is skipped."""
    root = write_tree({".ruleweave/rules/no-eval.md": AST_ONLY})
    loaded = load(root)
    quiet = "# never call eval(x)\nNOTE = 'eval(x)'\n"
    assert feed_call(loaded.watcher(), "write", {"file_path": "a.py", "content": quiet}) == []
    code = "eval(x)\n"
    assert feed_call(loaded.watcher(), "write", {"file_path": "notes.txt", "content": code}) == []
    assert feed_call(loaded.watcher(), "bash", {"file_path": "a.py", "content": code}) == []


def test_identical_snapshots_are_parsed_once(
    write_tree: WriteTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Repeating the same arguments does not parse the code again."""
    root = write_tree({".ruleweave/rules/no-eval.md": AST_ONLY})
    calls: list[str] = []
    real_find = ast_grep.find

    def counting_find(code: str, language: str, patterns: list[str]) -> list[tuple[str, str]]:
        calls.append(code)
        return real_find(code, language, patterns)

    monkeypatch.setattr(ast_grep, "find", counting_find)
    watcher = load(root).watcher()
    args = {"file_path": "a.py", "content": "x = 1\n"}
    for _ in range(5):
        assert watcher.watch("tool", "", tool="write", call_id="c", args=args) is None
    assert calls == ["x = 1\n"]


def test_growing_snapshots_are_parsed_on_a_geometric_schedule(
    write_tree: WriteTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Streaming a 20 KB file in 10-character steps parses it a few dozen times, not 2,000."""
    root = write_tree({".ruleweave/rules/no-eval.md": AST_ONLY})
    calls: list[int] = []
    real_find = ast_grep.find

    def counting_find(code: str, language: str, patterns: list[str]) -> list[tuple[str, str]]:
        calls.append(len(code))
        return real_find(code, language, patterns)

    monkeypatch.setattr(ast_grep, "find", counting_find)
    watcher = load(root).watcher()
    code = "x = 1\n" * 3_400 + "eval(y)\n"
    hits = []
    for end in range(10, len(code) + 10, 10):
        args = {"file_path": "a.py", "content": code[:end]}
        hits.append(watcher.watch("tool", code[end - 10 : end], tool="write", call_id="c",
                                  args=args))
    complete = {"file_path": "a.py", "content": code}
    hits.append(watcher.watch("tool", "", tool="write", call_id="c", args=complete))
    assert len([h for h in hits if h is not None]) == 1
    assert len(calls) < 60
    assert calls[-1] == len(code)


def test_without_the_extra_the_regex_part_still_works(
    write_tree: WriteTree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ast_grep_py unimportable, the regex fires, the AST-only rule drops out, both warn."""
    monkeypatch.setitem(sys.modules, "ast_grep_py", None)
    root = write_tree(
        {".ruleweave/rules/eval-both.md": EVAL_RULE, ".ruleweave/rules/eval-ast.md": AST_ONLY}
    )
    loaded = load(root)
    assert loaded.buckets.by_rule["eval-both"] is Bucket.TTSR
    assert loaded.buckets.by_rule["eval-ast"] is Bucket.RULEBOOK
    messages = loaded.messages()
    assert any("'eval-both'" in m and "astCondition is off" in m for m in messages)
    assert any("'eval-ast'" in m and "ruleweave[ast]" in m for m in messages)
    hits = feed_call(loaded.watcher(), "write", {"file_path": "a.py", "content": "eval(x)\n"})
    assert [m.kind for h in hits for m in h.matches] == ["regex"]
    assert names(feed(loaded.watcher("t"), "text", "eval")) == []


def test_ast_condition_needs_a_tool_in_scope(write_tree: WriteTree) -> None:
    """An AST pattern on a prose-only rule is off, with a warning."""
    root = write_tree(
        {".ruleweave/rules/r.md": rule(astCondition="'eval($X)'", scope="text", description="d")}
    )
    loaded = load(root)
    assert loaded.buckets.by_rule["r"] is Bucket.RULEBOOK
    assert any("scope names no tool" in m for m in loaded.messages())
