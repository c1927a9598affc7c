"""The context economy of a logged session: what ruleweave delivered against two baselines.

``ruleweave replay LOG --economy`` replays each session of an event log
against the rule set on disk (as ``replay`` does) and counts UTF-8 bytes of
rule text:

* **delivered** — what ruleweave adds: the prompt contribution once, plus
  every after-tool notice (each notice source at most once per session,
  re-armed by ``compacted``, within ``notice_max_bytes``);
* **all in prompt** — every rule of the rule set and every instruction file,
  whole, in the system prompt (plus each nested notice source the session
  met, whole, once);
* **re-inject every call** — the always-on text whole (instruction files,
  ``<generic-rules>``, the ``<domain-rules>`` listing) once, plus every rule
  and file that matches a call, whole, re-injected on every matching call.

The ten rules (or files) that cost most are those with the most bytes
delivered. Nothing is written; no store is touched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleweave.replay import LoggedSession, read_log, rebase, replay_config
from ruleweave.ruleset import RuleSet

TOP = 10
"""How many of the costliest rules a report lists."""


@dataclass(frozen=True, slots=True)
class RuleCost:
    """The bytes one rule or file cost in a session.

    Attributes:
        name: The rule's name (``rule://`` address) or the file's path.
        where: ``prompt`` or ``notice``.
        bytes: UTF-8 bytes delivered.
    """

    name: str
    where: str
    bytes: int


@dataclass(frozen=True, slots=True)
class Economy:
    """One session's bytes of rule text, delivered and in the two baselines.

    Attributes:
        session: The logged session id.
        calls: Tool calls replayed.
        prompt: Bytes of the prompt contribution (delivered once).
        notices: Bytes of every notice delivered.
        notice_count: Notices delivered (tool calls that got one).
        all_in_prompt: Baseline: every rule and instruction file whole in the prompt.
        reinject_every_call: Baseline: always-on text once, every matching rule on every call.
        top: The costliest rules and files, most bytes first.
    """

    session: str
    calls: int
    prompt: int
    notices: int
    notice_count: int
    all_in_prompt: int
    reinject_every_call: int
    top: tuple[RuleCost, ...]

    @property
    def delivered(self) -> int:
        """Bytes ruleweave delivered: the prompt once and every notice."""
        return self.prompt + self.notices

    def ratio(self, baseline: int) -> float:
        """``delivered / baseline`` (0 for an empty baseline)."""
        return self.delivered / baseline if baseline else 0.0

    def to_json(self) -> dict[str, Any]:
        """The report as plain JSON."""
        return {
            "session": self.session,
            "calls": self.calls,
            "delivered": {"total": self.delivered, "prompt": self.prompt, "notices": self.notices,
                          "notice_count": self.notice_count},
            "baselines": {
                "all_in_prompt": self.all_in_prompt,
                "reinject_every_call": self.reinject_every_call,
            },
            "ratios": {
                "all_in_prompt": round(self.ratio(self.all_in_prompt), 4),
                "reinject_every_call": round(self.ratio(self.reinject_every_call), 4),
            },
            "top": [{"name": c.name, "where": c.where, "bytes": c.bytes} for c in self.top],
        }

    def format(self) -> str:
        """The report for people."""
        lines = [
            f"session {self.session}: {self.calls} tool calls",
            f"  ruleweave delivered   {self.delivered:>12,} bytes  (prompt {self.prompt:,} once + "
            f"{self.notice_count} notices {self.notices:,})",
            f"  all rules in prompt   {self.all_in_prompt:>12,} bytes  "
            f"ruleweave = {self.ratio(self.all_in_prompt):.3f} of it",
            f"  re-inject every call  {self.reinject_every_call:>12,} bytes  "
            f"ruleweave = {self.ratio(self.reinject_every_call):.3f} of it",
        ]
        if self.top:
            lines.append(f"  the {len(self.top)} rules that cost most:")
            lines.extend(f"    {c.bytes:>10,}  {c.name} ({c.where})" for c in self.top)
        return "\n".join(lines)


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def session_economy(logged: LoggedSession, ruleset: RuleSet, old_root: str) -> Economy:
    """The economy of one logged session, replayed against ``ruleset``.

    Args:
        logged: The session's events.
        ruleset: The rule set to replay against.
        old_root: The logged project root (paths in the log are re-spelled under today's).
    """
    parts = ruleset.prompt_parts()
    notices = ruleset.notices
    cost: dict[tuple[str, str], int] = {}
    cuts = {(c.name or c.path): c.bytes_dropped for b in parts.budget.blocks for c in b.cut}
    rules = {p.path: p.where for p in ruleset.blob.parts if p.level == "rule"}
    for file in ruleset.blob.files:
        dropped = cuts.get(file.path, cuts.get(rules.get(file.path, "").removeprefix("rule://"), 0))
        cost[(rules.get(file.path, file.path), "prompt")] = file.original_bytes - dropped
    generic = {rule.name: rule for rule in ruleset.buckets.generic}
    for name in parts.generic_rules:
        cost[(f"rule://{name}", "prompt")] = _size(generic[name].content) - cuts.get(name, 0)
    always_on = sum(len(p.body) for p in ruleset.blob.parts) + _size(parts.domain) + sum(
        _size(rule.content) for rule in generic.values()
    )
    everything = sum(len(p.body) for p in ruleset.blob.parts if p.level != "rule") + sum(
        _size(rule.content) for rule in ruleset.rules
    )
    claimed: set[str] = set()
    met: dict[str, int] = {}
    delivered = count = calls = reinjected = 0
    for step in logged.steps:
        if step.get("event") == "compacted":
            claimed.clear()
            continue
        calls += 1
        args = rebase(step.get("args"), old_root, str(ruleset.config.root)) if old_root else step.get("args")
        call = notices.for_call(str(step.get("tool", "")), args)
        reinjected += sum(_size(m.body) for m in call.matches)
        for m in call.matches:
            if m.kind != "rule" or m.name not in ruleset.resolvable:
                met.setdefault(m.key, _size(m.body))
        won = [m for m in call.matches if m.key not in claimed]
        claimed.update(m.key for m in won)
        rendered = notices.render_each(won)
        if rendered:
            count += 1
            delivered += _size("\n\n".join(text for _, text in rendered))
        for m, text in rendered:
            key = (f"rule://{m.name}" if m.kind == "rule" else m.name, "notice")
            cost[key] = cost.get(key, 0) + _size(text)
    top = sorted((RuleCost(n, w, b) for (n, w), b in cost.items() if b > 0), key=lambda c: (-c.bytes, c.name))
    return Economy(
        session=str(logged.start.get("session", "")),
        calls=calls,
        prompt=_size(parts.text),
        notices=delivered,
        notice_count=count,
        all_in_prompt=everything + sum(met.values()),
        reinject_every_call=always_on + reinjected,
        top=tuple(top[:TOP]),
    )


def economy(
    log: str | Path, *, cwd: str | Path | None = None, root: str | Path | None = None
) -> tuple[Economy, ...]:
    """The context economy of every session of an event log.

    Args:
        log: The JSON-lines event log.
        cwd: Where to replay (default: the logged cwd).
        root: The project root (default: found from ``cwd`` the way it was logged).

    Returns:
        One ``Economy`` per session, in log order.

    Raises:
        ReplayError: The log is unreadable or malformed, or a session's options or paths
            cannot be used.
    """
    sessions, _ = read_log(Path(log))
    rulesets: dict[str, RuleSet] = {}
    out: list[Economy] = []
    for logged in sessions:
        config, old_root, _ = replay_config(
            logged.start,
            Path(cwd).resolve() if cwd is not None else None,
            Path(root).resolve() if root is not None else None,
        )
        key = config.fingerprint()
        ruleset = rulesets.get(key) or rulesets.setdefault(key, RuleSet.load(config))
        out.append(session_economy(logged, ruleset, old_root))
    return tuple(out)


def to_json(reports: tuple[Economy, ...]) -> Mapping[str, Any]:
    """Every session's report as plain JSON."""
    return {"sessions": [report.to_json() for report in reports]}
