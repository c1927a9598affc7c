"""``build_map``: the map's data — what ``scan``, ``lint`` and ``prompt`` report, joined per rule, per
directory and per agent. ``ruleweave map --json`` prints it; the page is a view of it.

One load (``LintSources``), one lint run over it (``lint.run.lint_sources``,
with the chosen agents' views), and one pass of every rule's globs over the
file listing (``lint.dead_globs.match_globs``), which places each rule on
the directories whose files it attaches to. Nothing is discovered, matched
or checked a second way. What the join adds:

* per rule: the ``scan`` record, plus where it lives, its size, the
  directories it covers (with the glob that matched and how many files),
  a bounded excerpt of its text, each chosen agent's answer (``reach``) and
  the lint findings about its file;
* per directory (``tree``): files, and, through the rules' ``covers`` and the
  findings' ``node``, what applies and what is wrong there;
* the budget: the session-start prompt (``prompt --json``'s report) and the
  after-tool notice — the directories where touching one file fires more
  rule text than ``notice_max_bytes``, and what the fair shares would cut.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, NamedTuple

from ruleweave._files.paths import display, walk_down
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.placement import relative_dir
from ruleweave.instructions.budget import fair_shares
from ruleweave.lint.agents import AGENTS, Agent, format_label
from ruleweave.lint.agents import agent as agent_named
from ruleweave.lint.dead_globs import match_globs
from ruleweave.lint.limits import session_files
from ruleweave.lint.report import render_json
from ruleweave.lint.run import agents_named, lint_sources
from ruleweave.lint.sources import LintSources
from ruleweave.rulemap.inventory import inventory, rule_record
from ruleweave.rulemap.reach import RuleReach, instruction_reach
from ruleweave.rulemap.tree import Coverage, DirectoryTree, directory_counts, parent_of
from ruleweave.rules import Bucket, Rule

VERSION = 1
"""The data's format version (``version``); it changes when a key changes meaning."""

EXCERPT_BYTES = 4 * 1024
"""The most of one rule's text the map carries (the rest stays in its file)."""

EXCERPTS_BYTES = 512 * 1024
"""The most rule text the map carries in all, shared max-min fairly by the rules."""

NOTICE_ENTRIES = 100
"""Directories listed at most as over the notice budget (the largest notices first)."""


class Entry(NamedTuple):
    """A rule as the map lists it: the rule, ``rule``/``shadowed``/``nested``, its bucket, its shown path."""

    rule: Rule
    kind: str
    bucket: Bucket | None
    shown: str


def entries(sources: LintSources) -> list[Entry]:
    """Every rule the agents' views look at, labelled: the walk's winners, the copies they shadowed,
    then each nested rule folder's rules (``lint.agent_view.viewable``, in its order)."""
    config = sources.config
    found = sources.ruleset.discovery
    by_rule = sources.ruleset.buckets.by_rule

    def shown(rule: Rule) -> str:
        return display(rule.path, config.root, config.home, home_first=rule.source.level == "user")

    out = [Entry(r, "rule", by_rule.get(r.name), shown(r)) for r in found.rules]
    out += [Entry(r, "shadowed", None, shown(r)) for r in found.shadowed]
    for folder in sources.nested_folders:
        for name, rule in folder.rules.items():
            out.append(Entry(rule, "nested", folder.buckets.get(name, Bucket.MANUAL), shown(rule)))
    return out


def default_agents(sources: LintSources, rules: Sequence[Entry]) -> tuple[Agent, ...]:
    """ruleweave, then every agent that reads a rule format or an instruction file present here."""
    providers = {entry.rule.source.provider for entry in rules}
    present = [
        a for a in AGENTS
        if a.id != "ruleweave" and (providers.intersection(a.providers) or session_files(sources, a))
    ]
    ruleweave = agent_named("ruleweave")
    return (ruleweave, *present) if ruleweave is not None else tuple(present)


def build_map(config: RuleweaveConfig, agents: Sequence[str] = ()) -> dict[str, Any]:
    """The map's data for the project ``config`` reaches.

    Args:
        config: The configuration (root, cwd, budgets).
        agents: Agent ids (``lint.AGENT_IDS``) to show, the first one selected on the page;
            default: ruleweave, then every agent that reads something in this project.

    Returns:
        The data, as ``ruleweave map --json`` prints it (documented in ``docs/map.md``).

    Raises:
        ConfigError: An agent id is unknown.
    """
    chosen = agents_named(agents)
    sources = LintSources.load(config)
    rules = entries(sources)
    coverage, files, notices = _coverage(sources, rules)
    counted = {entry.rule: files[i] for i, entry in enumerate(rules)}  # the views' counts: no second pass
    report = lint_sources(sources, chosen or default_agents(sources, rules), counted)
    ruleset = sources.ruleset
    tree = DirectoryTree(directory_counts(sources.listing.paths), coverage)
    linted = render_json(report)
    by_path: dict[str, list[int]] = {}
    for index, finding in enumerate(linted["findings"]):
        finding["node"] = tree.node_of_file(finding["path"])
        by_path.setdefault(finding["path"], []).append(index)
    walk = [relative_dir(d, sources.root) for d in walk_down(config.root, config.cwd)]
    files_reach, places = instruction_reach(sources, report.views, walk)
    for view in linted["agents"]:
        view["instructions"] = [[tree.node_of(d), path] for d, path in places[view["agent"]]]
    scanned = inventory(ruleset)
    reach = RuleReach(sources, report.views, report.findings)
    records = _rule_records(sources, rules, scanned["rules"], tree, reach, files, by_path)
    instruction_files = [
        {
            "path": path,
            "bytes": len(text.text.encode("utf-8")) if (text := sources.text(path)) is not None else None,
            "node": tree.node_of_file(path),
            "agents": files_reach[path],
            "findings": by_path.get(path, []),
        }
        for path in sources.instruction_files
    ]
    return {
        "version": VERSION,
        "project": {
            "name": os.path.basename(sources.root) or sources.root,
            "cwd": relative_dir(config.cwd, sources.root),
            "files": len(sources.listing.paths),
            "listing": sources.listing.source,
            "directories": tree.total,
            "shown": len(tree.paths),
            "folded_below": tree.folded_below,
        },
        "agents": linted["agents"],
        "rules": records,
        "instruction_files": instruction_files,
        "tree": tree.as_json(),
        "findings": linted["findings"],
        "summary": linted["summary"],
        "budget": {
            "prompt": ruleset.prompt_parts().budget.as_json(),
            "notice": _notice_budget(notices, tree, rules, config.notice_max_bytes),
        },
        **{key: value for key, value in scanned.items() if key != "rules"},
    }


def _rule_records(
    sources: LintSources,
    rules: Sequence[Entry],
    scanned: list[dict[str, Any]],
    tree: DirectoryTree,
    reach: RuleReach,
    files: Sequence[int],
    findings: dict[str, list[int]],
) -> list[dict[str, Any]]:
    """Each rule's record: ``scan``'s (the walk's winners come first, in ``scanned``'s order), joined
    with where it lives, what it covers, its text, each agent's answer and the findings on its file."""
    covers = tree.covers(len(rules))
    texts = _excerpts([entry.rule.content for entry in rules])
    records: list[dict[str, Any]] = []
    for i, entry in enumerate(rules):
        rule = entry.rule
        record = scanned[i] if entry.kind == "rule" else rule_record(rule, entry.bucket)
        excerpt, dropped = texts[i]
        own = findings.get(sources.relative(rule.path), []) if rule.source.level == "project" else []
        record.update({
            "id": i,
            "kind": entry.kind,
            "level": rule.source.level,
            "file": entry.shown,
            "directory": rule.base,
            "node": tree.node_of(rule.base),
            "format": format_label(rule.source.provider),
            "bytes": len(rule.content.encode("utf-8")),
            "files": files[i],
            "covers": covers[i],
            **({"exclude_globs": list(rule.exclude_globs)} if rule.exclude_globs else {}),
            **({"content_regex": list(rule.content_regex)} if rule.content_regex else {}),
            "excerpt": excerpt,
            **({"excerpt_cut": dropped} if dropped else {}),
            "agents": reach.rule(rule, entry.shown, entry.kind, entry.bucket),
            "findings": own,
        })
        records.append(record)
    return records


_Worst = dict[str, tuple[int, str, tuple[int, ...]]]
"""Per directory, the largest notice a touch of one of its files fires: bytes, the file, the rules."""


def _coverage(sources: LintSources, rules: Sequence[Entry]) -> tuple[dict[str, Coverage], list[int], _Worst]:
    """One glob pass: per directory what its files attach, per rule its files, the worst notices."""
    globbed = [i for i, entry in enumerate(rules) if entry.rule.globs]
    limit = sources.config.notice_max_bytes
    notice = [
        len(rules[i].rule.content.encode("utf-8"))
        if rules[i].bucket is Bucket.SCOPED and rules[i].kind != "shadowed" else 0
        for i in globbed
    ]
    coverage: dict[str, Coverage] = {}
    worst: _Worst = {}

    def place(path: str, hits: list[tuple[int, int]]) -> None:
        directory = parent_of(path)
        cover = coverage.get(directory)
        if cover is None:
            cover = coverage[directory] = {}
        total = 0
        for r, g in hits:
            key = (globbed[r], g)
            cover[key] = cover.get(key, 0) + 1
            total += notice[r]
        if total > limit and total > worst.get(directory, (0,))[0]:
            worst[directory] = (total, path, tuple(globbed[r] for r, _ in hits if notice[r]))

    files = [0] * len(rules)
    if globbed:
        matched = match_globs(sources, [rules[i].rule for i in globbed], count=True, on_file=place)
        for r, i in enumerate(globbed):
            files[i] = matched.files[r]
    return coverage, files, worst


def _excerpts(texts: Sequence[str]) -> list[tuple[str, int]]:
    """Each text's start (``EXCERPT_BYTES`` at most; ``EXCERPTS_BYTES`` in all, shared fairly) and
    the bytes left out."""
    data = [text.encode("utf-8") for text in texts]
    wanted = [min(len(d), EXCERPT_BYTES) for d in data]
    shares = fair_shares(wanted, EXCERPTS_BYTES)
    out: list[tuple[str, int]] = []
    for body, want, share in zip(data, wanted, shares, strict=True):
        kept = body[: want if share is None else share].decode("utf-8", "ignore")
        out.append((kept, len(body) - len(kept.encode("utf-8"))))
    return out


def _notice_budget(worst: _Worst, tree: DirectoryTree, rules: Sequence[Entry], limit: int) -> dict[str, Any]:
    """The directories (nodes) where a touch fires more rule text than ``limit``, largest first."""
    by_node: dict[int, tuple[int, str, tuple[int, ...]]] = {}
    for directory, found in worst.items():
        node = tree.node_of(directory)
        if found[0] > by_node.get(node, (0,))[0]:
            by_node[node] = found
    ranked = sorted(by_node.items(), key=lambda item: (-item[1][0], item[0]))
    over = []
    for node, (total, path, ids) in ranked[:NOTICE_ENTRIES]:
        sizes = [len(rules[i].rule.content.encode("utf-8")) for i in ids]
        shares = fair_shares(sizes, limit)
        kept = zip(ids, sizes, shares, strict=True)
        over.append({
            "node": node, "path": path, "bytes": total,
            "rules": [{"rule": i, "bytes": size, "kept": share} for i, size, share in kept],
        })
    return {"limit": limit, "over": over, "more": max(len(ranked) - NOTICE_ENTRIES, 0)}
