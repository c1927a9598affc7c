"""@path imports (in CLAUDE.md, which expands them): resolution, depth, code, cycles, containment."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import WriteTree
from tests.instructions.helpers import build, claude_rule, messages


def test_relative_import_is_expanded_after_its_line(write_tree: WriteTree) -> None:
    """An import resolves against the importing file's directory and follows its line."""
    root = write_tree(
        {
            "pkg/CLAUDE.md": "See @docs/style.md for style.\nNext line.",
            "pkg/docs/style.md": "Tabs, not spaces.",
        }
    )
    text = build(root, "pkg").text
    assert text == (
        "[file: pkg/CLAUDE.md]\n"
        "See @docs/style.md for style.\n"
        "[import: pkg/docs/style.md]\n"
        "Tabs, not spaces.\n"
        "[end import: pkg/docs/style.md]\n"
        "Next line."
    )


def test_imports_nest_and_resolve_against_each_file(write_tree: WriteTree) -> None:
    """An imported file's own imports resolve against its directory, with ``..`` allowed."""
    root = write_tree(
        {
            "CLAUDE.md": "@docs/a.md",
            "docs/a.md": "A then @../shared/b.md",
            "shared/b.md": "B body",
        }
    )
    text = build(root).text
    assert text.index("A then") < text.index("[import: shared/b.md]\nB body")


def test_home_import_from_the_user_tier(write_tree: WriteTree, isolated_home: Path) -> None:
    """A user-tier file may import ``~/…`` files inside the user's Claude directory."""
    claude_dir = isolated_home / ".claude"
    claude_dir.mkdir()
    (claude_dir / "CLAUDE.md").write_text("Mine: @~/.claude/extra.md")
    (claude_dir / "extra.md").write_text("extra user prefs")
    root = write_tree({"CLAUDE.md": "project"})
    blob = build(root)
    assert "[import: ~/.claude/extra.md]\nextra user prefs" in blob.text
    assert blob.warnings == ()


def test_home_import_from_the_project_is_allowed(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """A project file importing ``~/…`` (a file in the user's home) expands, as in Claude Code."""
    (isolated_home / "notes.md").write_text("personal notes")
    root = write_tree({"CLAUDE.md": "@~/notes.md"})
    blob = build(root)
    assert "[import: ~/notes.md]\npersonal notes" in blob.text
    assert blob.warnings == ()


def test_outside_import_is_refused_unless_allowed(write_tree: WriteTree) -> None:
    """A relative import climbing out of the project is a warning unless allowed."""
    root = write_tree({"CLAUDE.md": "Use @../outside.md"})
    (root.parent / "outside.md").write_text("outside text")
    refused = build(root)
    assert "outside text" not in refused.text
    (warning,) = refused.warnings
    assert warning.path == str(root / "CLAUDE.md") and warning.line == 1
    assert "refused" in warning.message
    assert "outside text" in build(root, allow_outside_imports=True).text


def test_symlink_leading_outside_is_refused(write_tree: WriteTree) -> None:
    """An import through a symlink that points outside the project is refused."""
    root = write_tree({"CLAUDE.md": "@docs/link.md"})
    (root.parent / "elsewhere.md").write_text("escaped")
    (root / "docs").mkdir()
    (root / "docs" / "link.md").symlink_to(root.parent / "elsewhere.md")
    blob = build(root)
    assert "escaped" not in blob.text
    assert any("outside the project" in m for m in messages(blob))


def test_depth_limit(write_tree: WriteTree) -> None:
    """Imports expand five hops by default (issue #28 item 6); the next one is a warning.

    Claude Code's memory docs: "Imported files can recursively import additional files, with a
    max-depth of 5 hops"; Gemini CLI ``packages/core/src/utils/memoryImportProcessor.ts``
    (``processImports``: ``maxDepth: 5``, no expansion once ``currentDepth >= maxDepth``) includes
    files one to five imports deep and leaves the fifth one's imports as written.
    """
    files = {"CLAUDE.md": "level 0 @f1.md"}
    for level in range(1, 8):
        files[f"f{level}.md"] = f"level {level} @f{level + 1}.md"
    root = write_tree(files)
    blob = build(root)
    assert "level 5" in blob.text and "level 6" not in blob.text
    deep = [w for w in blob.warnings if "deeper than 5" in w.message]
    assert [w.path for w in deep] == [str(root / "f5.md")]
    shallow = build(root, import_max_depth=1)
    assert "level 1" in shallow.text and "level 2" not in shallow.text


def test_imports_in_code_are_not_expanded(write_tree: WriteTree) -> None:
    """Imports inside inline code spans and fenced blocks stay literal."""
    root = write_tree(
        {
            "CLAUDE.md": (
                "Inline `@docs/a.md` and ``x @docs/a.md y``.\n"
                "```\n@docs/a.md\n```\n"
                "~~~~\n@docs/a.md\n~~~~\n"
            ),
            "docs/a.md": "SHOULD NOT APPEAR",
        }
    )
    blob = build(root)
    assert "SHOULD NOT APPEAR" not in blob.text
    assert blob.warnings == ()


def test_import_after_a_closed_fence_is_expanded(write_tree: WriteTree) -> None:
    """Once a fence closes, imports on later lines expand again."""
    root = write_tree({"CLAUDE.md": "```\n@a.md\n```\n@a.md", "a.md": "A body"})
    assert build(root).text.count("A body") == 1


def test_cycle_is_a_warning_not_a_hang(write_tree: WriteTree) -> None:
    """A imports B imports A: each is included once and the cycle is reported."""
    root = write_tree({"CLAUDE.md": "root @a.md", "a.md": "A @b.md", "b.md": "B @a.md"})
    blob = build(root)
    assert blob.text.count("[import: a.md]") == 1 and blob.text.count("[import: b.md]") == 1
    assert any(w.path == str(root / "b.md") and "cycle" in w.message for w in blob.warnings)


def test_self_import_is_a_cycle(write_tree: WriteTree) -> None:
    """A file importing itself is reported as a cycle."""
    root = write_tree({"CLAUDE.md": "me @CLAUDE.md"})
    blob = build(root)
    assert blob.text == "[file: CLAUDE.md]\nme @CLAUDE.md"
    assert any("cycle" in m for m in messages(blob))


def test_missing_import_is_a_warning_with_its_line(write_tree: WriteTree) -> None:
    """A missing target is a warning naming the importing file and line; the blob is built."""
    root = write_tree({"CLAUDE.md": "first\nsee @docs/gone.md\nlast"})
    blob = build(root)
    assert blob.text == "[file: CLAUDE.md]\nfirst\nsee @docs/gone.md\nlast"
    (warning,) = blob.warnings
    assert (warning.path, warning.line) == (str(root / "CLAUDE.md"), 2)
    assert "does not exist" in warning.message


def test_binary_import_is_a_warning(write_tree: WriteTree) -> None:
    """An import that is binary is skipped with a warning on the importing line."""
    root = write_tree({"CLAUDE.md": "@blob.bin"})
    (root / "blob.bin").write_bytes(b"\x00\xff")
    blob = build(root)
    assert any(w.line == 1 and "binary" in w.message for w in blob.warnings)


def test_emails_and_mentions_are_not_imports(write_tree: WriteTree) -> None:
    """``a@b.com`` and a bare ``@name`` naming no file are prose, with no warning."""
    root = write_tree({"CLAUDE.md": "Mail a@b.com or ask @alice; use @dataclass."})
    blob = build(root)
    assert blob.text == "[file: CLAUDE.md]\nMail a@b.com or ask @alice; use @dataclass."
    assert blob.warnings == ()


def test_bare_name_that_exists_is_imported(write_tree: WriteTree) -> None:
    """``@README`` imports a file of that name when it exists."""
    root = write_tree({"CLAUDE.md": "Read @README first.", "README": "readme body"})
    assert "[import: README]\nreadme body" in build(root).text


def test_trailing_punctuation_is_not_part_of_the_path(write_tree: WriteTree) -> None:
    """A sentence ending right after an import still resolves the file."""
    root = write_tree({"CLAUDE.md": "Follow @docs/a.md.", "docs/a.md": "A"})
    blob = build(root)
    assert "[import: docs/a.md]\nA" in blob.text and blob.warnings == ()


def test_file_imported_twice_is_included_once(write_tree: WriteTree) -> None:
    """Two files importing the same target include its body once."""
    root = write_tree(
        {"GEMINI.md": "@docs/x.md", "CLAUDE.md": "also @docs/x.md", "docs/x.md": "X body"}
    )
    blob = build(root)
    assert blob.text.count("X body") == 1
    assert "[file: CLAUDE.md]\nalso @docs/x.md" in blob.text


def test_imported_instruction_file_is_not_repeated(write_tree: WriteTree) -> None:
    """CLAUDE.md importing AGENTS.md (the common pattern) does not duplicate it, nor leave a bare import."""
    root = write_tree({"AGENTS.md": "the rules", "CLAUDE.md": "@AGENTS.md\nMore."})
    blob = build(root)
    assert blob.text == "[file: AGENTS.md]\nthe rules\n\n[file: CLAUDE.md]\nMore."


def test_comments_are_stripped_in_imports_and_hide_imports(write_tree: WriteTree) -> None:
    """Imported files lose their comments, and an import inside a comment is not expanded."""
    root = write_tree(
        {
            "CLAUDE.md": "<!-- @hidden.md -->\n@docs/a.md",
            "hidden.md": "HIDDEN",
            "docs/a.md": "A <!-- note -->body",
        }
    )
    text = build(root).text
    assert "HIDDEN" not in text and "note" not in text and "A body" in text


def test_rule_bodies_expand_imports(write_tree: WriteTree) -> None:
    """An unscoped Claude rule's imports resolve against the rule file."""
    root = write_tree({".claude/rules/shared.md": "shared text"})
    rule = claude_rule(root, "style", "see @shared.md")
    assert "[import: .claude/rules/shared.md]\nshared text" in build(root, rules=(rule,)).text


def test_imports_in_indented_list_fences_are_not_expanded(write_tree: WriteTree) -> None:
    """A fence indented inside a list item still hides its imports."""
    root = write_tree({"CLAUDE.md": "- step:\n    ```sh\n    @a.md\n    ```\n", "a.md": "A body"})
    assert "A body" not in build(root).text


def test_user_tier_import_outside_its_claude_dir_is_refused(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """A user-tier file may not import files outside the Claude directory by a relative path."""
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude" / "CLAUDE.md").write_text("@../private.md")
    (isolated_home / "private.md").write_text("private")
    root = write_tree({"CLAUDE.md": "project"})
    blob = build(root)
    assert "private\n" not in blob.text and "[import:" not in blob.text
    assert any("outside " + str(isolated_home / ".claude") in m for m in messages(blob))


def _content_key_reference(text: str) -> str:
    """``content_key`` as first written: a list of folded lines, the empty ones dropped."""
    import hashlib

    from ruleweave.instructions.markdown import normalise_text

    lines = [" ".join(line.split()) for line in normalise_text(text).split("\n")]
    canonical = "\n".join(line for line in lines if line)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


_KEY_PIECES = st.sampled_from([
    "a", "b c", " ", "\t", "\n", "\r\n", "\r", "\ufeff", "\xa0", "\u2028", "\x85", "\x0b", "\x0c", "\x1f",
])


@settings(max_examples=500, deadline=None)
@given(st.one_of(
    st.lists(_KEY_PIECES, max_size=16).map("".join),
    st.lists(st.sampled_from(["a", "b c", " ", "\n", "\t", "\x1c"]), max_size=16).map("".join),  # ASCII
))
def test_content_key_agrees_with_its_first_version(text: str) -> None:
    """The key built from maps of C functions (or, for plain ASCII lines, without folding) equals
    the one built line by line."""
    from ruleweave.instructions.imports import content_key

    assert content_key(text) == _content_key_reference(text)
