"""Issue #28's new formats and agent facts: Aider, OpenHands, Gemini Code Assist, Kiro, Claude ``paths: |``.

Each test names the source or doc it follows.
"""

from __future__ import annotations

from pathlib import Path

from ruleweave.discovery import aider, claude, codeassist, kiro, openhands
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, messages, named, run


def test_aider_reads_what_the_nearest_config_names_under_read(write_tree: WriteTree) -> None:
    """``read: [CONVENTIONS.md, docs/aider]`` gives always-on rules; cwd's config overrides the root's.

    Aider-AI/aider ``aider/main.py``: ``default_config_files`` (cwd, git root, home; reversed for
    configargparse, so the nearer file wins) and ``args.read`` (``Path(fn).expanduser().resolve()``
    against cwd; a directory gives every file below it). Without ``read:`` Aider loads no
    ``CONVENTIONS.md`` (``aider/website/docs/usage/conventions.md``).
    """
    root = write_tree(
        {
            ".aider.conf.yml": "read: [CONVENTIONS.md, docs/aider]\n",
            "CONVENTIONS.md": "Prefer httpx over requests.",
            "docs/aider/types.md": "Type every function.",
            "docs/aider/more/naming.txt": "snake_case names.",
            "lib/.aider.conf.yml": "read: ../CONVENTIONS.md\n",
            "lib/x.py": "pass\n",
            "unnamed/CONVENTIONS.md": "Not named by any config.",
        }
    )
    found = run(root, only=aider.PROVIDER)
    assert buckets(found) == {
        "CONVENTIONS.md": Bucket.GENERIC,
        "docs/aider/more/naming.txt": Bucket.GENERIC,
        "docs/aider/types.md": Bucket.GENERIC,
    }
    assert set(named(run(root, cwd="lib", only=aider.PROVIDER))) == {"CONVENTIONS.md"}
    # A config without read: names nothing: CONVENTIONS.md alone is not loaded.
    assert run(write_tree({".aider.conf.yml": "model: gpt-4o\n"}), only=aider.PROVIDER).rules == ()


def test_aider_config_problems_are_warnings(write_tree: WriteTree) -> None:
    """Bad YAML, a ``read`` of the wrong shape, an entry outside the project: warnings naming the file."""
    root = write_tree({".aider.conf.yml": "read: {a: 1}\n"})
    assert any("read is not a path" in m for m in messages(run(root, only=aider.PROVIDER)))
    root = write_tree({".aider.conf.yml": "read: [../../etc/passwd]\n"})
    assert any("leaves the project" in m for m in messages(run(root, only=aider.PROVIDER)))
    root = write_tree({".aider.conf.yml": "read: [unclosed\n"})
    assert any("not valid YAML" in m for m in messages(run(root, only=aider.PROVIDER)))


def test_openhands_microagents_by_the_kind_openhands_infers(write_tree: WriteTree) -> None:
    """``repo.md`` always; ``triggers``: a description rule; ``inputs``: manual; ``type`` alone: nothing.

    All-Hands-AI/OpenHands ``openhands/microagent/microagent.py`` (``BaseMicroagent.load``: inputs →
    TASK, triggers → KNOWLEDGE, else REPO_KNOWLEDGE; ``load_microagents_from_dir``: ``rglob('*.md')``
    without ``README.md``) and ``types.py`` (``MicroagentMetadata.triggers``).
    """
    root = write_tree(
        {
            ".openhands/microagents/repo.md": "---\nname: repo\ntype: repo\n---\nThis repo uses uv.",
            ".openhands/microagents/docker.md": "---\ntriggers: [docker, container]\n---\nUse compose v2.",
            ".openhands/microagents/tasks/bump.md": (
                "---\ninputs:\n  - name: VERSION\n    description: the new version\n---\n"
                "Bump to {{ VERSION }}."
            ),
            ".openhands/microagents/typed.md": "---\ntype: knowledge\n---\nNo triggers: always on.",
            ".openhands/microagents/README.md": "How to write microagents.",
        }
    )
    found = run(root, only=openhands.PROVIDER)
    assert buckets(found) == {
        "repo": Bucket.GENERIC,
        "docker": Bucket.RULEBOOK,
        "tasks/bump": Bucket.MANUAL,
        "typed": Bucket.GENERIC,
    }
    assert "docker, container" in (named(found)["docker"].description or "")


def test_gemini_code_assist_style_guide_is_a_note_not_a_rule(write_tree: WriteTree) -> None:
    """``.gemini/styleguide.md`` is Gemini Code Assist's review guide: an info line, no prompt text.

    https://developers.google.com/gemini-code-assist/docs/customize-gemini-behavior-github
    ("styleguide.md" in the ``.gemini/`` folder customises code review).
    """
    root = write_tree({".gemini/styleguide.md": "# Review style\nFlag unchecked errors."})
    found = run(root, only=codeassist.PROVIDER)
    assert found.rules == ()
    assert [(w.severity, "code-review" in w.message) for w in found.warnings] == [("info", True)]


def test_a_user_tier_file_match_steering_file_never_fires(write_tree: WriteTree, isolated_home: Path) -> None:
    """``~/.kiro/steering`` with ``inclusion: fileMatch`` is manual with a warning, as Kiro never fires it.

    Kiro's tracker, https://github.com/kirodotdev/Kiro/issues/9176: global steering files with
    ``inclusion: fileMatch`` are not included when a matching file is read.
    """
    steering = isolated_home / ".kiro" / "steering"
    steering.mkdir(parents=True)
    (steering / "tsx.md").write_text(
        "---\ninclusion: fileMatch\nfileMatchPattern: '*.tsx'\n---\nGlobal TSX rule.", encoding="utf-8"
    )
    py = "---\ninclusion: fileMatch\nfileMatchPattern: '*.py'\n---\nPy."
    root = write_tree({".kiro/steering/py.md": py})
    found = run(root, only=kiro.PROVIDER)
    assert buckets(found) == {"tsx": Bucket.MANUAL, "py": Bucket.SCOPED}
    assert named(found)["tsx"].globs == ()
    assert [m for m in messages(found) if "kirodotdev/Kiro#9176" in m] == [
        f"{steering / 'tsx.md'}: {kiro.GLOBAL_FILE_MATCH}"
    ]


def test_claude_paths_block_string_is_one_glob_and_a_warning(write_tree: WriteTree) -> None:
    """``paths: |`` holding ``- a`` lines is one glob with line breaks in it, as Claude Code reads it.

    The bundled Claude Code CLI (claude_agent_sdk/_bundled/claude) reads ``frontmatter.paths``
    through a splitter that cuts a string on commas outside braces only, so the block string is a
    single pattern that matches no file; ruleweave reads it the same way and warns.
    """
    root = write_tree(
        {".claude/rules/api.md": "---\npaths: |\n  - src/api/**\n  - tests/api/**\n---\nAPI rule."}
    )
    found = run(root, only=claude.PROVIDER)
    assert named(found)["api"].globs == ("- src/api/**\n- tests/api/**",)
    assert buckets(found) == {"api": Bucket.SCOPED}
    assert [m for m in messages(found) if "YAML block string" in m] != []
