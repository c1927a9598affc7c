"""``lint(config)``: load once, run every check, gather the findings in a stable order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ruleweave.config import RuleweaveConfig
from ruleweave.errors import ConfigError
from ruleweave.lint.agent_view import AgentView, agent_view, viewable
from ruleweave.lint.agents import AGENT_IDS, Agent
from ruleweave.lint.agents import agent as agent_named
from ruleweave.lint.dead_globs import attached_files, check_dead_globs
from ruleweave.lint.drift import check_drift
from ruleweave.lint.findings import Finding
from ruleweave.lint.limits import check_limits
from ruleweave.lint.reachability import check_reachability
from ruleweave.lint.sources import LintSources
from ruleweave.rules import Rule

CHECKS = (check_dead_globs, check_limits, check_drift, check_reachability)
"""Every check, in the order they run (output is sorted anyway)."""


@dataclass(frozen=True, slots=True)
class LintReport:
    """What lint found.

    Attributes:
        findings: Every finding, sorted by file, line and code.
        rules: Project rules looked at (nested folders and shadowed copies included).
        files: Project files listed.
        listing: How they were listed (``git`` or ``walk``).
        views: The agent views asked for, in the order asked.
    """

    findings: tuple[Finding, ...]
    rules: int
    files: int
    listing: str
    views: tuple[AgentView, ...] = ()


def _discovery_findings(sources: LintSources, findings: list[Finding]) -> list[Finding]:
    """Discovery's warnings and info lines, less those a lint finding already says better.

    A provider that cut a file at its agent's limit (Windsurf) or skipped one its agent skips
    (Copilot's ``excludeAgent``, Cursor's ``.md`` files) reported it; lint's ``over-limit`` or
    ``unreachable`` finding about that file, for that agent, names the limit or the reason.
    """
    covered: list[tuple[str, frozenset[str]]] = []
    for finding in findings:
        entry = agent_named(finding.agent) if finding.agent else None
        if entry is not None and finding.code in ("over-limit", "unreachable"):
            covered.append((finding.path, frozenset(entry.providers)))
    out: list[Finding] = []
    for warning in sources.warnings:
        path = sources.relative(warning.path) if warning.path else ""
        if warning.provider and path and any(
            warning.provider in providers and (where == path or where.startswith(path + "/"))
            for where, providers in covered
        ):
            continue
        out.append(Finding(
            "discovery", warning.severity, path, warning.line, warning.message.rstrip(".") + ".",
            agent=warning.provider,
        ))
    return out


def lint(config: RuleweaveConfig, agents: Sequence[str] = ()) -> LintReport:
    """Lint the project's rules and instruction files.

    Args:
        config: The configuration (root, cwd, limits).
        agents: Agent ids (``agents.AGENT_IDS``) whose view to add.

    Returns:
        The report; bad files are ``discovery`` findings, never exceptions.

    Raises:
        ConfigError: An agent id is unknown.
    """
    chosen = agents_named(agents)
    return lint_sources(LintSources.load(config), chosen)


def agents_named(names: Sequence[str]) -> tuple[Agent, ...]:
    """The agents called ``names``, in that order, without repeats.

    Raises:
        ConfigError: A name is not an agent lint knows (the message lists them).
    """
    chosen: list[Agent] = []
    for name in names:
        entry = agent_named(name)
        if entry is None:
            raise ConfigError(f"Unknown agent {name!r}; lint knows {', '.join(AGENT_IDS)}.")
        chosen.append(entry)
    return tuple(dict.fromkeys(chosen))


def lint_sources(
    sources: LintSources, agents: Sequence[Agent] = (), counted: Mapping[Rule, int] | None = None
) -> LintReport:
    """Lint what ``sources`` loaded (for a caller that uses the same load for more: ``ruleweave map``).

    Args:
        sources: The loaded rule set and file listing.
        agents: The agents whose view to add.
        counted: Per rule of ``agent_view.viewable``, the project files it attaches to, when the
            caller counted them already (default: counted here, in one pass for every view).

    Returns:
        The report, as ``lint`` makes it.
    """
    findings: list[Finding] = []
    for check in CHECKS:
        findings += check(sources)
    findings += _discovery_findings(sources, findings)
    unique = sorted(dict.fromkeys(findings), key=Finding.sort_key)
    if counted is None and any(a.providers for a in agents):  # one pass over the listing for every view
        counted = attached_files(sources, viewable(sources))
    return LintReport(
        findings=tuple(unique),
        rules=len({rule.path for rule in sources.rules}),
        files=len(sources.listing.paths),
        listing=sources.listing.source,
        views=tuple(agent_view(sources, entry, counted) for entry in dict.fromkeys(agents)),
    )
