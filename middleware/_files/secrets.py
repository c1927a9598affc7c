"""File names that hold credentials by convention, which no repository import may put in a prompt.

A committed ``CLAUDE.md`` with ``@.env`` (or a Kiro steering file with
``#[[file:.env]]``) would send the user's untracked ``.env`` to the model
provider. Imports from a project's files refuse a target whose name is one of
these (and a git-ignored target) unless ``RuleweaveConfig.allow_secret_imports``
is set. A Markdown file is never judged by its name (``id_card.md`` is prose).
"""

from __future__ import annotations

import fnmatch
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ruleweave._files.tree import ProjectTree
    from ruleweave.config import RuleweaveConfig

SECRET_NAMES = (
    ".env", ".env.*", "*.env", ".envrc", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore",
    "*.ppk", "*.asc", "*.gpg", "id_*", ".npmrc", ".pypirc", ".netrc", "_netrc", ".git-credentials",
    ".htpasswd", ".pgpass", ".dockercfg", "credentials", "credentials.*", "secrets.*", "*.tfvars",
    "*.tfstate", "service-account*.json",
)
"""Base-name patterns (case-insensitive) of files refused as import targets."""

_MARKDOWN = (".md", ".markdown", ".mdx")


def secret_name(name: str) -> bool:
    """Whether a file's base name is one that holds credentials by convention.

    Args:
        name: A file's base name (``.env.local``, ``id_ed25519``, ``server.pem``).

    Returns:
        True for one of ``SECRET_NAMES`` (never for a Markdown file).
    """
    lowered = name.lower()
    if lowered.endswith(_MARKDOWN):
        return False
    return any(fnmatch.fnmatchcase(lowered, pattern) for pattern in SECRET_NAMES)


class ImportGuard:
    """Judges a project file's import target: a secret-looking name, or a file git ignores, is refused.

    The project tree (ignore files, git's excludes) is built on the first target judged.

    Args:
        config: The configuration (``allow_secret_imports``, root, ignored folders).
    """

    def __init__(self, config: RuleweaveConfig) -> None:
        self.config = config
        self._tree: ProjectTree | None = None

    def refusal(self, path: str) -> str | None:
        """Why ``path`` may not be imported from a project file, or ``None`` when it may.

        Args:
            path: The import target (absolute); its real path is judged too.

        Returns:
            A clause naming the reason and the option that allows it, or ``None``.
        """
        if self.config.allow_secret_imports:
            return None
        real = os.path.realpath(path)
        for spelled in dict.fromkeys((path, real)):
            if secret_name(os.path.basename(spelled)):
                name = os.path.basename(spelled)
                return f"{name} is a secret file name; refused (allow_secret_imports is off)"
        if self._tree is None:
            from ruleweave._files.tree import ProjectTree  # its ignore files only once an import asks

            self._tree = ProjectTree(self.config)
        if self._tree.ignored_file(os.path.normpath(path)):
            return "the file is ignored by git; refused (allow_secret_imports is off)"
        return None
