"""Every exception ruleweave raises.

The tree::

    RuleweaveError
    ├── ConfigError              a configuration value is unusable
    ├── MissingDependencyError   an optional extra is not installed (also ImportError)
    ├── RuleNotFound             rule://name names no rule of the session (also LookupError)
    ├── SpecError                a SkillSpec document is invalid
    └── StoreError               a session store failed

Foreign errors are translated where they enter (``raise ... from exc``).
"""

from __future__ import annotations


class RuleweaveError(Exception):
    """Base class of every error ruleweave raises."""


class ConfigError(RuleweaveError, ValueError):
    """A configuration value cannot be used."""


class MissingDependencyError(RuleweaveError, ImportError):
    """An optional dependency is missing; the message names the extra to install."""

    def __init__(self, package: str, extra: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{package} is not installed; install it with `pip install ruleweave[{extra}]`."
        )


class RuleNotFound(RuleweaveError, LookupError):
    """A ``rule://`` address names no rule known to the session."""

    def __init__(self, message: str, *, name: str, available: tuple[str, ...]) -> None:
        self.name = name
        self.available = available
        super().__init__(message)


class SpecError(RuleweaveError):
    """A SkillSpec document cannot be loaded or is invalid."""


class StoreError(RuleweaveError):
    """A session store could not read or write state."""
