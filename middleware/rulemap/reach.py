"""Which agents load each rule and instruction file, how, and why the others do not.

Every answer is read off what lint already decided: an agent's view
(``lint.agent_view``: session start, attached by path, read by description,
manual), the files it skips (``lint.reachability.skip_reason``), its
session-start files per directory (``lint.limits.session_files``) and the
``over-limit`` findings that name it. ruleweave's own answer comes from the
rule set: a rule's bucket, the instruction blob, the nested instruction files
a touch would send. An entry is ``{"loads": how}`` or
``{"loads": None, "why": code}``, with a ``note`` sentence and, for a file an
agent reads only in part, ``cut``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from ruleweave.lint.agent_view import AgentView
from ruleweave.lint.agents import Agent, format_label, names_in
from ruleweave.lint.findings import Finding
from ruleweave.lint.limits import session_files
from ruleweave.lint.reachability import skip_reason
from ruleweave.lint.sources import LintSources
from ruleweave.rules import Bucket, Rule

Reach = dict[str, Any]
"""One agent's answer for one file: ``loads`` (how, or ``None``), ``why``, ``note``, ``cut``."""

LOADS = ("session start", "by path", "by description", "manual", "in its directory", "streamed", "as a rule")
"""How an agent may load a rule or file (the values of ``loads``)."""

WHY = ("format", "excluded", "shadowed", "duplicate", "first only", "not read", "not watched")
"""Why an agent does not load one (the values of ``why``)."""

_BY_BUCKET = {
    Bucket.GENERIC: "session start", Bucket.INSTRUCTIONS: "session start", Bucket.SCOPED: "by path",
    Bucket.RULEBOOK: "by description", Bucket.MANUAL: "manual", Bucket.TTSR: "streamed",
}


class RuleReach:
    """Answers for rules, for the chosen agents.

    Args:
        sources: What lint looked at.
        views: The chosen agents' views, from the lint report.
        findings: Lint's findings (``over-limit`` ones are the ``cut`` notes).
    """

    def __init__(self, sources: LintSources, views: Sequence[AgentView], findings: Sequence[Finding]) -> None:
        self.sources = sources
        self.views = views
        self._placed: list[dict[tuple[str, str], str]] = [_placed(view) for view in views]
        self._cuts: dict[tuple[str, str], str] = {}
        for finding in findings:
            if finding.code == "over-limit" and finding.agent:
                self._cuts.setdefault((finding.agent, finding.path), finding.message)
        self._winners = {rule.name: rule for rule in sources.ruleset.discovery.rules}

    def rule(self, rule: Rule, shown: str, kind: str, bucket: Bucket | None) -> dict[str, Reach]:
        """Each chosen agent's answer for one rule.

        Args:
            rule: The rule.
            shown: Its path as views show it (relative to the root, ``~/…`` for the user tier).
            kind: ``rule`` (the walk's winner), ``shadowed`` (a copy that lost a name clash) or
                ``nested`` (a rule folder below the walk).
            bucket: Its bucket in a ruleweave session (a nested folder's for a nested rule).

        Returns:
            Agent id → answer.
        """
        out: dict[str, Reach] = {}
        relative = self.sources.relative(rule.path)
        for view, placed in zip(self.views, self._placed, strict=True):
            agent = view.agent
            if agent.id == "ruleweave":
                answer = self._ruleweave(rule, kind, bucket)
            else:
                how = placed.get(("", shown)) or placed.get((rule.name, shown))
                answer = self._agent(agent, rule, relative, how)
            cut = self._cuts.get((agent.id, relative)) if answer["loads"] else None
            if cut:
                answer["cut"] = cut
            out[agent.id] = answer
        return out

    def _agent(self, agent: Agent, rule: Rule, relative: str, placed: str | None) -> Reach:
        if rule.source.provider not in agent.providers:
            if not agent.providers:
                note = f"{agent.label} reads no rule files, only instruction files"
            else:
                note = f"{agent.label} does not read {format_label(rule.source.provider)} rules"
            return {"loads": None, "why": "format", "note": note}
        reason = skip_reason(self.sources, agent, relative) if rule.source.level == "project" else None
        if reason is not None:
            return {"loads": None, "why": "excluded", "note": reason}
        if placed is not None:
            return {"loads": placed}
        if rule.base and (rule.always_apply or rule.joins_instructions):
            return {"loads": "in its directory", "note": f"when {agent.label} works in {rule.base}/"}
        return {"loads": None, "why": "not watched", "note": f"{agent.label} has no trigger for it"}

    def _ruleweave(self, rule: Rule, kind: str, bucket: Bucket | None) -> Reach:
        if kind == "shadowed":
            winner = self._winners.get(rule.name)
            where = (
                f"{winner.source.provider}'s ({self.sources.relative(winner.path)})" if winner else "another"
            )
            return {"loads": None, "why": "shadowed", "note": f"ruleweave uses {where} rule of this name"}
        if bucket is None:
            return {"loads": None, "why": "not watched", "note": "ruleweave sessions have no bucket for it"}
        if kind == "nested":
            if bucket is Bucket.TTSR:
                return {
                    "loads": None, "why": "not watched",
                    "note": "streamed rules of nested rule folders are not watched",
                }
            if bucket in (Bucket.GENERIC, Bucket.INSTRUCTIONS):
                return {"loads": "in its directory", "note": f"on the first touch below {rule.base}/"}
        return {"loads": _BY_BUCKET[bucket]}


def _placed(view: AgentView) -> dict[tuple[str, str], str]:
    """``(name, shown path)`` → how the view loads it; session-start entries by path (name '')."""
    out: dict[tuple[str, str], str] = {("", item.path): "session start" for item in view.session_start}
    for entry in view.by_path:
        out[(entry.name, entry.path)] = "by path"
    for name, path, _ in view.by_description:
        out[(name, path)] = "by description"
    for name, path in view.manual:
        out[(name, path)] = "manual"
    return out


def instruction_reach(
    sources: LintSources, views: Sequence[AgentView], walk: Sequence[str]
) -> tuple[dict[str, dict[str, Reach]], dict[str, list[tuple[str, str]]]]:
    """Each chosen agent's answer for each instruction file of the project, and what each agent
    loads in each directory.

    Args:
        sources: What lint looked at.
        views: The chosen agents' views.
        walk: The directories from the root down to cwd, relative ('' first).

    Returns:
        Path → agent id → answer; and agent id → ``(directory, path)`` of each file it loads only
        when it works in that directory (files loaded at session start are the view's).
    """
    files = sources.instruction_files
    out: dict[str, dict[str, Reach]] = {path: {} for path in files}
    loaded: dict[str, list[tuple[str, str]]] = {}
    on_walk = frozenset(walk)
    for view in views:
        agent = view.agent
        if agent.id == "ruleweave":
            answers, places = _ruleweave_files(sources, files, on_walk)
        else:
            answers, places = _agent_files(sources, agent, files, on_walk)
        loaded[agent.id] = places
        for path in files:
            out[path][agent.id] = answers[path]
    return out, loaded


def _agent_files(
    sources: LintSources, agent: Agent, files: Sequence[str], on_walk: frozenset[str]
) -> tuple[dict[str, Reach], list[tuple[str, str]]]:
    by_dir = session_files(sources, agent)
    answers: dict[str, Reach] = {}
    places = [(d, path) for d, paths in by_dir.items() if d not in on_walk for path in paths]
    own_rules = {sources.relative(r.path) for r in sources.rules if r.source.provider in agent.providers}
    names = names_in(agent, sources.agent_names)
    for path in files:
        name = next((n for n in names if path == n or path.endswith("/" + n)), None)
        directory = path[: len(path) - len(name)].rstrip("/") if name else ""
        kept = by_dir.get(directory, []) if name else []
        if path in kept:
            answers[path] = {"loads": "session start" if directory in on_walk else "in its directory"}
        elif path in own_rules:
            answers[path] = {"loads": "as a rule", "note": f"{agent.label} reads it as a rule (see the rule)"}
        elif name is None:
            answers[path] = {"loads": None, "why": "format", "note": f"{agent.label} does not read this file"}
        else:
            first = kept[0] if kept else "another file"
            answers[path] = {
                "loads": None, "why": "first only",
                "note": f"{agent.label} reads one file per directory, and {first} comes first",
            }
    return answers, places


def _ruleweave_files(
    sources: LintSources, files: Sequence[str], on_walk: frozenset[str]
) -> tuple[dict[str, Reach], list[tuple[str, str]]]:
    """ruleweave's answers: the blob's files at session start, nested ones on a first touch below them."""
    ruleset = sources.ruleset
    blob = {sources.relative(f.abs_path) for f in ruleset.blob.files if f.level == "project"}
    merged: Mapping[str, str] = dict(ruleset.blob.merged)
    scoped = {sources.relative(s.file.path) for s in ruleset.blob.scoped}
    rule_files = {sources.relative(rule.path) for rule in sources.rules}
    names = [f.name for f in ruleset.blob.formats]
    answers: dict[str, Reach] = {}
    places: list[tuple[str, str]] = []
    nested: dict[str, frozenset[str]] = {}
    for path in files:
        name = next((n for n in names if path == n or path.endswith("/" + n)), None)
        directory = path[: len(path) - len(name)].rstrip("/") if name else ""
        if path in blob:
            answers[path] = {"loads": "session start"}
        elif path in merged:
            answers[path] = {
                "loads": None, "why": "duplicate",
                "note": f"same text as {merged[path]}, which ruleweave includes once",
            }
        elif path in scoped:
            answers[path] = {"loads": "by path"}
        elif path in rule_files:
            answers[path] = {"loads": "as a rule", "note": "ruleweave reads it as a rule (see the rule)"}
        elif name is None:
            answers[path] = {
                "loads": None, "why": "format",
                "note": "ruleweave does not read this file name (add it to instruction_files)",
            }
        elif directory in on_walk:
            answers[path] = {"loads": None, "why": "not read", "note": _NOT_SENT}
        else:
            if directory not in nested:
                probe = os.path.join(sources.root, *directory.split("/"), "-")
                sent = ruleset.nested.for_path(probe)
                nested[directory] = frozenset(sources.relative(f.path) for f in sent)
            if path in nested[directory]:
                note = f"on the first touch below {directory}/"
                answers[path] = {"loads": "in its directory", "note": note}
                places.append((directory, path))
            else:
                answers[path] = {"loads": None, "why": "not read", "note": _NOT_SENT}
    return answers, places


_NOT_SENT = (
    "ruleweave leaves it out: another file of its group comes first in the directory, it is read "
    "in the project root only, or it is empty or unreadable"
)
