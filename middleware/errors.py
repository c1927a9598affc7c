"""Every exception ruleweave raises, in one tree.

The tree::

    RuleweaveError
    ├── ConfigError              a configuration value or argument is unusable (also ValueError)
    ├── ArgumentTypeError        an argument has the wrong type (also TypeError)
    ├── MissingDependencyError   an optional extra is not installed (also ImportError)
    ├── RuleNotFoundError        rule://name names no rule of the session (also LookupError)
    ├── SpecError                a SkillSpec document cannot be used
    │   ├── SpecReadError        the file cannot be read
    │   └── SpecValidationError  the document is invalid; ``.issues`` lists every problem
    ├── StoreError               a session store failed (unreachable, unknown URL, disk full)
    ├── ReplayError              an event log cannot be replayed
    ├── HookUsageError           a hook command got an option it does not know (also ValueError)
    ├── SettingsError            an agent's settings or hook file has the wrong shape (also ValueError)
    ├── ServerConfigError        a Claude Code MCP server file has the wrong shape (also ValueError)
    ├── UsageError               bad command-line arguments or unreadable input: the CLI exits 2
    ├── OptionError              a replayed log's option value is unusable (also ValueError)
    └── StreamInterruptError     a LangChain model stream stopped for a streamed rule

The last five are defined where they are raised: ``SettingsError`` in
``ruleweave.hosts._hooks_json`` (every installer's), ``ServerConfigError`` in
``ruleweave.hosts.claude_code.mcp_servers``, ``UsageError`` in
``ruleweave.cli.common`` (shared by the subcommands), ``OptionError`` in
``ruleweave.replay._options`` (always translated into a ``ReplayError``
before a caller sees it) and ``StreamInterruptError`` in
``ruleweave.adapters.langchain_stream`` (raised inside a model call and
caught by ``RuleweaveMiddleware``, which retries).
``RuleNotFound`` is the old name of ``RuleNotFoundError``, kept as an alias.

Foreign errors are translated where they enter (``raise ... from exc``), so a
caller that catches ``RuleweaveError`` catches everything ruleweave raises.
The module imports only ``ruleweave._lazy`` at start-up: a hook process
raises ``HookUsageError`` and must not import ``typing``.
"""

from __future__ import annotations

from ruleweave._lazy import lazy_exports

TYPE_CHECKING = False  # not typing's: see the module docstring
if TYPE_CHECKING:
    from ruleweave.steering.issue import SpecIssue as SpecIssue


class RuleweaveError(Exception):
    """Base class of every error ruleweave raises."""


class ConfigError(RuleweaveError, ValueError):
    """A configuration value or an argument's value cannot be used."""


class ArgumentTypeError(RuleweaveError, TypeError):
    """An argument to a public call has the wrong type."""


class MissingDependencyError(RuleweaveError, ImportError):
    """An optional dependency is missing; the message names the extra to install."""

    def __init__(self, package: str, extra: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{package} is not installed; install it with `pip install ruleweave[{extra}]`."
        )


class RuleNotFoundError(RuleweaveError, LookupError):
    """A ``rule://`` address names no rule known to the session.

    Attributes:
        name: The name asked for.
        available: Every name the session can resolve.
    """

    def __init__(self, message: str, *, name: str, available: tuple[str, ...]) -> None:
        self.name = name
        self.available = available
        super().__init__(message)


RuleNotFound = RuleNotFoundError
"""The old name of ``RuleNotFoundError``, kept so that ``except RuleNotFound`` goes on working."""


class SpecError(RuleweaveError):
    """A SkillSpec document cannot be loaded or is invalid."""


class SpecReadError(SpecError):
    """A SkillSpec file cannot be read.

    Attributes:
        file: The path.
        line: Always 0 (the whole file).
        reason: One sentence.
    """

    def __init__(self, file: str, reason: str) -> None:
        self.file = file
        self.line = 0
        self.reason = reason
        super().__init__(f"{file}:0: {reason}")


class SpecValidationError(SpecError):
    """A SkillSpec document is invalid; every problem found is listed.

    Attributes:
        issues: All problems, in line order.
        file: The first issue's file.
        line: The first issue's line.
        reason: The first issue's reason.
    """

    def __init__(self, issues: tuple[SpecIssue, ...]) -> None:
        if not issues:
            from ruleweave.steering.issue import SpecIssue

            issues = (SpecIssue("<unknown>", 0, "The SkillSpec is invalid."),)
        self.issues = issues
        first = issues[0]
        self.file = first.file
        self.line = first.line
        self.reason = first.reason
        count = len(issues)
        head = f"{first.file}: {count} problem{'s' if count != 1 else ''} in the SkillSpec"
        super().__init__("\n".join([head, *(f"  {issue}" for issue in issues)]))


class StoreError(RuleweaveError):
    """A session store could not read or write state, or cannot be opened."""


class ReplayError(RuleweaveError):
    """An event log cannot be read or holds no ruleweave session."""


class HookUsageError(RuleweaveError, ValueError):
    """An option a ``ruleweave hook <agent>`` command does not know, or one missing its value.

    The hook reports it on stderr and in its log; its exit status stays 0.
    """


# ``SpecIssue`` moved to ``ruleweave.steering.issue``; it is still found here, loaded on first use.
__getattr__ = lazy_exports(__name__, {"SpecIssue": "ruleweave.steering.issue"})
