"""The per-agent view: what one agent loads at session start here, and which rules attach by path.

In the agent's own semantics (``agents.AGENTS``): its session-start files on
the root→cwd walk (only the first per directory for Codex), the always-apply
rules of its own formats (less the files it never reads, ``agents.Ignore``:
a Cursor ``.md`` file in ``.cursor/rules``), the rules whose globs attach them to files (with
how many project files each attaches to, in its glob dialect), the rules it
reads by description and the manual ones. For ``ruleweave`` it is what a
ruleweave session's prompt holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ruleweave._files.paths import display, walk_down
from ruleweave.discovery.placement import relative_dir
from ruleweave.lint.agents import Agent
from ruleweave.lint.dead_globs import attached_files
from ruleweave.lint.limits import session_files
from ruleweave.lint.reachability import skip_reason
from ruleweave.lint.sources import LintSources
from ruleweave.rules import Rule


@dataclass(frozen=True, slots=True)
class Loaded:
    """A file or rule loaded at session start: its path, its bytes, and why."""

    path: str
    bytes: int
    why: str


@dataclass(frozen=True, slots=True)
class Attached:
    """A rule that attaches by path: name, file, globs and how many project files it attaches to."""

    name: str
    path: str
    globs: tuple[str, ...]
    files: int


@dataclass(frozen=True, slots=True)
class AgentView:
    """What one agent sees of the project.

    Attributes:
        agent: The agent.
        session_start: Files and rules loaded when a session starts, in load order.
        by_path: Rules that attach when a file matching their globs is touched.
        by_description: ``(name, path, description)`` of rules the agent reads when it judges them relevant.
        manual: ``(name, path)`` of rules read only when asked for by name.
        limits: ``(name, amount, unit, scope)`` of each limit: the agent's documented ones, or
            ruleweave's budgets from the config for ``ruleweave``.
    """

    agent: Agent
    session_start: tuple[Loaded, ...]
    by_path: tuple[Attached, ...]
    by_description: tuple[tuple[str, str, str], ...]
    manual: tuple[tuple[str, str], ...]
    limits: tuple[tuple[str, int, str, str], ...] = ()

    @property
    def session_bytes(self) -> int:
        """Bytes loaded at session start."""
        return sum(item.bytes for item in self.session_start)

    @property
    def empty(self) -> bool:
        """The agent loads nothing of this project (no file at session start, no rule of its formats)."""
        return not (self.session_start or self.by_path or self.by_description or self.manual)

    def as_json(self) -> dict[str, Any]:
        """The view as ``--json`` spells it."""
        return {
            "agent": self.agent.id,
            "label": self.agent.label,
            "dialect": self.agent.dialect,
            "session_start": [{"path": i.path, "bytes": i.bytes, "why": i.why} for i in self.session_start],
            "session_bytes": self.session_bytes,
            "by_path": [
                {"name": a.name, "path": a.path, "globs": list(a.globs), "files": a.files}
                for a in self.by_path
            ],
            "by_description": [{"name": n, "path": p, "description": d} for n, p, d in self.by_description],
            "manual": [{"name": n, "path": p} for n, p in self.manual],
            "limits": [
                {"name": name, "scope": scope, "amount": amount, "unit": unit}
                for name, amount, unit, scope in self.limits
            ],
        }


def viewable(sources: LintSources) -> tuple[Rule, ...]:
    """Every rule an agent's view draws from: the walk's winners, the copies they shadowed (another
    agent may read them), then each nested rule folder's rules; user-tier ones included."""
    found = sources.ruleset.discovery
    nested = (rule for folder in sources.nested_folders for rule in folder.rules.values())
    return (*found.rules, *found.shadowed, *nested)


def agent_view(sources: LintSources, agent: Agent, counted: Mapping[Rule, int] | None = None) -> AgentView:
    """What ``agent`` loads here and which rules attach by path.

    Args:
        sources: What lint looks at.
        agent: The agent.
        counted: Per rule, the project files it attaches to (``dead_globs.attached_files`` over
            ``viewable``), when already counted for several views; else counted here.

    Returns:
        The view.
    """
    config = sources.config
    ruleset = sources.ruleset
    found = ruleset.discovery
    folders = sources.nested_folders
    everything = viewable(sources)
    if agent.id == "ruleweave":
        own = [*found.rules, *(r for f in folders for r in f.rules.values())]
    else:
        own = [
            r for r in everything
            if r.source.provider in agent.providers
            # a file of its own format it never reads (a Cursor .md file): not in its view
            and not (r.source.level == "project" and skip_reason(sources, agent, sources.relative(r.path)))
        ]

    def shown(rule: Rule) -> str:
        return display(rule.path, config.root, config.home, home_first=rule.source.level == "user")

    start: list[Loaded] = []
    if agent.id == "ruleweave":
        start += [Loaded(f.path, f.bytes, "instruction file") for f in ruleset.blob.files]
        parts = ruleset.prompt_parts()
        by_name = {r.name: r for r in found.rules}
        start += [
            Loaded(shown(by_name[n]), len(by_name[n].content.encode("utf-8")), "always")
            for n in parts.generic_rules if n in by_name
        ]
        if parts.domain:
            start.append(Loaded("<domain-rules>", len(parts.domain.encode("utf-8")), "rule listing"))
    else:
        files = session_files(sources, agent)
        walk = [relative_dir(d, sources.root) for d in walk_down(config.root, config.cwd)]
        for directory in walk:
            for path in files.get(directory, ()):
                text = sources.text(path)
                if text is not None:
                    start.append(Loaded(path, len(text.text.encode("utf-8")), "instruction file"))
        on_walk = {id(r) for r in (*found.rules, *found.shadowed)}
        listed = {item.path for item in start}
        for rule in own:
            if shown(rule) in listed:
                continue  # a file that is both an instruction file and a rule (copilot-instructions.md)
            if id(rule) in on_walk and (rule.always_apply or rule.joins_instructions):
                start.append(Loaded(shown(rule), len(rule.content.encode("utf-8")), "always"))
    scoped = [r for r in own if r.globs and not r.always_apply]
    counts = attached_files(sources, scoped) if counted is None else counted
    attached = tuple(Attached(rule.name, shown(rule), rule.globs, counts[rule]) for rule in scoped)
    described = tuple(
        (r.name, shown(r), r.description or "") for r in own
        if not r.globs and not r.always_apply and not r.joins_instructions and (r.description or "").strip()
    )
    manual = tuple(
        (r.name, shown(r)) for r in own
        if not r.globs and not r.always_apply and not r.joins_instructions
        and not (r.description or "").strip() and not r.condition and not r.ast_condition
    )
    limits: tuple[tuple[str, int, str, str], ...]
    if agent.id == "ruleweave":
        limits = (
            ("max_rule_bytes", config.max_rule_bytes, "bytes", "rule"),
            ("instructions_max_bytes", config.instructions_max_bytes, "bytes", "instruction blob"),
            ("prompt_max_bytes", config.prompt_max_bytes, "bytes", "session-start prompt"),
            ("notice_max_bytes", config.notice_max_bytes, "bytes", "after-tool notice"),
        )
    else:
        limits = tuple((lim.name, lim.amount, lim.unit, lim.scope) for lim in agent.limits)
    return AgentView(agent, tuple(start), attached, described, manual, limits)
