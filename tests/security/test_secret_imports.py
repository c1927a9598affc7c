"""A repository's imports cannot put the user's git-ignored or secret files into the prompt.

Issue #29 item 9: a committed ``CLAUDE.md`` with ``@.env`` (or a Kiro
``#[[file:.env]]``) put the user's untracked ``.env`` or key file into the
prompt sent to the model provider. Claude Code expands ``@path`` imports in
``CLAUDE.md`` (docs: code.claude.com/docs/en/memory, "CLAUDE.md imports"),
Gemini CLI in ``GEMINI.md`` (its ``memoryImportProcessor``), Kiro inlines
``#[[file:…]]`` in steering files (kiro.dev/docs/steering). Such imports of
git-ignored files and of secret-looking names are refused with a warning
unless ``allow_secret_imports`` is set.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave._files.secrets import secret_name
from tests.conftest import WriteTree
from tests.security.helpers import load

SECRET = "API_KEY=sk-live-do-not-leak"


def project(write_tree: WriteTree, importer: str) -> Path:
    """A project whose ``importer`` file imports a .env, a key, an ignored file and a plain note."""
    return write_tree({
        ".gitignore": ".env\nlocal/\n",
        ".env": SECRET + "\n",
        "certs/server.pem": "-----BEGIN PRIVATE KEY----- " + SECRET + "\n",
        "local/notes.md": "Ignored notes: " + SECRET + "\n",
        "docs/style.md": "Prefer small functions.\n",
        importer: "# Guide\n@.env\n@certs/server.pem\n@local/notes.md\n@docs/style.md\n",
    })


@pytest.mark.parametrize("importer", ["CLAUDE.md", "GEMINI.md"])
def test_at_imports_of_secrets_are_refused(write_tree: WriteTree, importer: str) -> None:
    """The blob keeps the plain note and none of the three secrets; each refusal is a warning."""
    ruleset = load(project(write_tree, importer))
    prompt = ruleset.session("s").system_prompt()
    assert "Prefer small functions." in prompt
    assert SECRET not in prompt
    messages = " | ".join(w.message for w in ruleset.warnings)
    assert "@.env: .env is a secret file name" in messages
    assert "@certs/server.pem: server.pem is a secret file name" in messages
    assert "@local/notes.md: the file is ignored by git" in messages


def test_the_option_lets_them_in(write_tree: WriteTree) -> None:
    """``allow_secret_imports=True`` is the user's word: the imports expand."""
    prompt = load(project(write_tree, "CLAUDE.md"), allow_secret_imports=True).session("s").system_prompt()
    assert prompt.count(SECRET) == 3


def test_a_kiro_reference_to_a_secret_is_refused(write_tree: WriteTree) -> None:
    """A Kiro steering file's ``#[[file:.env]]`` and a reference to an ignored file stay out."""
    root = write_tree({
        ".gitignore": "local/\n",
        ".env.local": SECRET + "\n",
        "local/data.txt": SECRET + "\n",
        "api/spec.yaml": "openapi: 3.1.0\n",
        ".kiro/steering/api.md": (
            "Follow #[[file:api/spec.yaml]], #[[file:.env.local]], #[[file:local/data.txt]].\n"
        ),
    })
    ruleset = load(root)
    prompt = ruleset.session("s").system_prompt()
    assert "openapi: 3.1.0" in prompt and SECRET not in prompt
    messages = " | ".join(w.message for w in ruleset.warnings)
    assert "#[[file:.env.local]]: .env.local is a secret file name" in messages
    assert "#[[file:local/data.txt]]: the file is ignored by git" in messages


def test_a_link_named_like_a_note_to_a_secret_is_refused(write_tree: WriteTree) -> None:
    """A committed ``notes.md`` linking to ``.env`` is judged by its real name."""
    root = write_tree({".env": SECRET + "\n", "CLAUDE.md": "@notes.md\n"})
    (root / "notes.md").symlink_to(root / ".env")
    assert SECRET not in load(root).session("s").system_prompt()


@pytest.mark.parametrize(
    ("name", "secret"),
    [(".env", True), (".env.production", True), ("prod.env", True), ("id_rsa", True),
     ("id_ed25519.pub", True),
     ("server.KEY", True), (".npmrc", True), ("credentials", True), ("id_card.md", False),
     ("environment.md", False), ("keys.txt", False), ("README.md", False)],
)
def test_secret_names(name: str, secret: bool) -> None:
    """The well-known secret names, case-insensitive; a Markdown file is never judged by its name."""
    assert secret_name(name) is secret
