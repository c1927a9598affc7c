"""Which rules register as TTSR, what they report, and how buckets agree with the watcher."""

from __future__ import annotations

from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.ttsr.helpers import feed, feed_call, load, names, rule


def test_a_pattern_re2_rejects_keeps_the_rule_out_with_a_warning(write_tree: WriteTree) -> None:
    """A look-behind is a warning naming the rule, and the rule falls to its next bucket."""
    root = write_tree(
        {
            ".ruleweave/rules/lookbehind.md": rule(
                condition="['ok', '(?<=x)y']", description="Has a description."
            )
        }
    )
    loaded = load(root)
    assert loaded.buckets.by_rule["lookbehind"] is Bucket.RULEBOOK
    assert loaded.index.compiled == ()
    [cannot, summary] = loaded.buckets.warnings
    assert cannot.message.startswith("rule 'lookbehind': re2 cannot compile '(?<=x)y'")
    assert cannot.path.endswith("lookbehind.md")
    assert "does not register" in summary.message


def test_conditions_as_list_string_and_older_name(write_tree: WriteTree) -> None:
    """A YAML list, a single string and ``ttsr_trigger`` all register."""
    root = write_tree(
        {
            ".ruleweave/rules/listed.md": rule(condition="\n  - 'alpha'\n  - 'beta'"),
            ".ruleweave/rules/single.md": rule(condition="'gamma'"),
            ".ruleweave/rules/older.md": rule(ttsr_trigger="'delta'"),
        }
    )
    loaded = load(root)
    assert {r.name for r in loaded.buckets.ttsr} == {"listed", "single", "older"}
    assert names(feed(loaded.watcher(), "text", "beta gamma delta", size=50)) == [
        "listed", "older", "single",
    ]


def test_yaml_backspace_and_kept_quotes_are_repaired_with_notes(write_tree: WriteTree) -> None:
    """``"\\bword\\b"`` and ``"\\d+"`` in double quotes still mean what their author wrote."""
    root = write_tree(
        {
            ".ruleweave/rules/word.md": '---\ncondition: "\\bcat\\b"\n---\nCats.\n',
            ".ruleweave/rules/digits.md": '---\ncondition: "v\\d+"\n---\nVersions.\n',
        }
    )
    loaded = load(root)
    assert names(feed(loaded.watcher(), "text", "concatenate v12 cat.", size=50)) == [
        "digits", "word",
    ]
    notes = loaded.messages()
    assert any("backspace" in m and "'word'" in m for m in notes)
    assert any("double quotes" in m and "'digits'" in m for m in notes)


def test_a_pattern_matching_empty_text_registers_with_a_warning(write_tree: WriteTree) -> None:
    """``x*`` fires on any output, which is almost never meant, so it is reported."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'x*'", scope="thinking")})
    loaded = load(root)
    assert any("matches empty text" in m for m in loaded.messages())
    assert names(feed(loaded.watcher(), "thinking", "hello")) == ["r"]


def test_a_scope_with_no_usable_token_does_not_register(write_tree: WriteTree) -> None:
    """Only unknown scope tokens: the rule is not watched anywhere, and says so."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'x'", scope="prose")})
    loaded = load(root)
    assert loaded.buckets.by_rule["r"] is Bucket.MANUAL
    assert any("no usable token" in m for m in loaded.messages())


def test_a_glob_condition_watches_edits_and_writes_of_matching_files(
    write_tree: WriteTree,
) -> None:
    """``condition: src/**/*.sql`` fires as soon as an edit or write names such a file."""
    root = write_tree(
        {".ruleweave/rules/sql.md": rule(condition="src/**/*.sql", interruptMode="never")}
    )
    loaded = load(root)
    [entry] = loaded.index.compiled
    assert [str(e) for e in entry.scope] == ["tool:edit(src/**/*.sql)", "tool:write(src/**/*.sql)"]
    assert feed(loaded.watcher(), "text", "edit src/db/q.sql now") == []
    assert feed_call(loaded.watcher(), "bash", {"path": "src/db/q.sql"}) == []
    assert feed_call(loaded.watcher(), "write", {"path": "src/db/q.py", "content": "x"}) == []
    [hit] = feed_call(loaded.watcher(), "write", {"path": "src/db/q.sql", "content": "select"})
    assert hit.matches[0].kind == "glob"
    assert hit.matches[0].path == "src/db/q.sql"


def test_rule_globs_gate_tool_streams_but_not_prose(write_tree: WriteTree) -> None:
    """A rule's ``globs`` decide which files' tool calls it watches; prose is not gated."""
    root = write_tree(
        {".ruleweave/rules/r.md": rule(condition=r"'print\('", globs='"**/*.py"')}
    )
    loaded = load(root)
    assert loaded.buckets.by_rule["r"] is Bucket.TTSR
    assert names(feed(loaded.watcher("a"), "text", "print(x)")) == ["r"]
    assert feed_call(loaded.watcher("b"), "write", {"path": "a.js", "content": "print(x)"}) == []
    assert feed_call(loaded.watcher("c"), "bash", {"command": "print(x)"}) == []
    hits = feed_call(loaded.watcher("d"), "write", {"path": "pkg/a.py", "content": "print(x)"})
    assert names(hits) == ["r"]


def test_a_rules_glob_gate_is_indexed_by_the_first_call_naming_a_path(write_tree: WriteTree) -> None:
    """Loading leaves a rule's glob gate unbuilt (most never meet a path); the first gated call builds it."""
    root = write_tree(
        {".ruleweave/rules/r.md": rule(condition=r"'print\('", globs='"**/*.py"')}
    )
    loaded = load(root)
    gate = loaded.index.compiled[0].path_gate
    assert gate is not None and gate.globs == ("**/*.py",) and not gate.indexed
    assert names(feed(loaded.watcher("a"), "text", "print(x)")) == ["r"]
    assert not gate.indexed  # prose is not gated
    hits = feed_call(loaded.watcher("b"), "write", {"path": "pkg/a.py", "content": "print(x)"})
    assert names(hits) == ["r"] and gate.indexed
    assert feed_call(loaded.watcher("c"), "write", {"path": "a.js", "content": "print(x)"}) == []


def test_no_scope_means_text_and_every_tool(write_tree: WriteTree) -> None:
    """Without a scope a rule watches prose and tool calls, but not thinking."""
    root = write_tree({".ruleweave/rules/r.md": rule(condition="'bad'")})
    loaded = load(root)
    assert names(feed(loaded.watcher("a"), "text", "bad")) == ["r"]
    assert names(feed(loaded.watcher("b"), "tool", "bad", tool="anything")) == ["r"]
    assert feed(loaded.watcher("c"), "thinking", "bad") == []
