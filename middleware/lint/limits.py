"""Over a limit: each agent's documented limits (``agents.AGENTS``) and ruleweave's own budgets.

Per agent limit scope:

* ``rule-file`` / ``instruction-file`` — each file of the agent's own format
  (Windsurf: 12,000 characters per rule file; Copilot code review: 4,000);
* ``chain`` — the agent's session-start files concatenated root first, for
  every directory a session may start in (Codex: ``project_doc_max_bytes``,
  32 KiB over the ``AGENTS.md`` chain);
* ``hook-context`` — what a hook hands the agent: a rule of another format
  that ruleweave delivers through Claude Code's hooks (10,000 characters).

ruleweave's budgets (``max_rule_bytes``, ``instructions_max_bytes``,
``prompt_max_bytes``, ``notice_max_bytes``) are read from the config. Every
finding names the limit and says where the cut falls (file and line) and
how much is lost.
"""

from __future__ import annotations

from ruleweave.lint.agents import AGENTS, Agent, Limit, names_in
from ruleweave.lint.findings import Finding
from ruleweave.lint.sources import LintSources
from ruleweave.rules import Bucket, Rule

_SNIPPET = 60


def check_limits(sources: LintSources) -> list[Finding]:
    """Findings for every file, chain or rule over an agent's limit or a ruleweave budget.

    Args:
        sources: What lint looks at.

    Returns:
        ``over-limit`` findings.
    """
    findings: list[Finding] = []
    for entry in AGENTS:
        for limit in entry.limits:
            if limit.scope in ("rule-file", "instruction-file"):
                findings += _per_file(sources, entry, limit)
            elif limit.scope == "chain":
                findings += _chains(sources, entry, limit)
            else:
                findings += _hook_context(sources, entry, limit)
    findings += _ruleweave_budgets(sources)
    return findings


def _size(text: str, limit: Limit) -> int:
    return len(text) if limit.unit == "characters" else len(text.encode("utf-8"))


def _cut_at(text: str, keep: int, limit: Limit) -> tuple[int, str]:
    """The line where a cut after ``keep`` units falls, and the text that starts there."""
    if limit.unit == "bytes":
        keep = len(text.encode("utf-8")[:keep].decode("utf-8", "ignore"))
    line = text.count("\n", 0, keep) + 1
    rest = text[keep:].lstrip()
    return line, rest[:_SNIPPET].split("\n", 1)[0]


def _amount(limit: Limit) -> str:
    return f"{limit.amount:,} {limit.unit}"


def _per_file(sources: LintSources, agent: Agent, limit: Limit) -> list[Finding]:
    out: list[Finding] = []
    seen: set[str] = set()
    for rule in sources.rules:
        if rule.source.provider not in agent.providers:
            continue
        path = sources.relative(rule.path)
        text = sources.text(path)
        if path in seen or text is None:
            continue
        seen.add(path)
        size = _size(text.text, limit)
        if size <= limit.amount:
            continue
        line, start = _cut_at(text.text, limit.amount, limit)
        out.append(Finding(
            "over-limit", limit.severity, path, line,
            f"{agent.label}'s {limit.name} is {_amount(limit)} per file and this file has {size:,}, "
            f"so {limit.consequence}: {size - limit.amount:,} {limit.unit} from line {line} on.",
            agent=agent.id, details=(f"cut starts at: {start}",) if start else (),
        ))
    return out


def _chains(sources: LintSources, agent: Agent, limit: Limit) -> list[Finding]:
    """Every directory holding one of the agent's files: its chain from the root, root first."""
    by_dir = session_files(sources, agent)
    out: list[Finding] = []
    reported: set[tuple[str, int]] = set()
    for directory in sorted(by_dir, key=lambda d: (d.count("/"), d)):
        chain = [path for d in _ancestors(directory) for path in by_dir.get(d, ())]
        texts = [(path, read.text) for path in chain if (read := sources.text(path)) is not None]
        total = sum(_size(text, limit) for _, text in texts)
        if total <= limit.amount:
            continue
        used = 0
        for index, (path, text) in enumerate(texts):
            size = _size(text, limit)
            if used + size > limit.amount:
                line, start = _cut_at(text, limit.amount - used, limit)
                if (path, line) not in reported:
                    reported.add((path, line))
                    dropped = [p for p, _ in texts[index + 1 :]]
                    where = f"the chain down to {directory or 'the root'}"
                    out.append(Finding(
                        "over-limit", limit.severity, path, line,
                        f"{where} is {total:,} {limit.unit} and {agent.label}'s {limit.name} is "
                        f"{_amount(limit)}, root first, so {limit.consequence}: from line {line} of this "
                        f"file on" + (f" and {len(dropped)} more file(s)." if dropped else "."),
                        agent=agent.id,
                        details=(
                            *(f"{p}: {_size(t, limit):,} {limit.unit}" for p, t in texts),
                            *((f"cut starts at: {start}",) if start else ()),
                        ),
                    ))
                break
            used += size
    return out


def session_files(sources: LintSources, agent: Agent) -> dict[str, list[str]]:
    """Per directory ('' for the root) the agent's session-start files present there, in its order.

    Args:
        sources: What lint looks at.
        agent: The agent (its ``instruction_files`` and ``first_only``).

    Returns:
        Directory → paths relative to the project root.
    """
    present = set(sources.instruction_files)
    names = names_in(agent, sources.agent_names)
    by_dir: dict[str, list[str]] = {}
    for path in sorted(present):
        for name in names:
            if path == name or path.endswith("/" + name):
                by_dir.setdefault(path[: len(path) - len(name)].rstrip("/"), [])
    for directory, found in by_dir.items():
        for name in names:
            candidate = f"{directory}/{name}" if directory else name
            if candidate in present:
                found.append(candidate)
                if agent.first_only:
                    break
    return by_dir


def _ancestors(directory: str) -> list[str]:
    """'' (the root), then each directory down to ``directory``."""
    out = [""]
    parts = directory.split("/") if directory else []
    for index in range(len(parts)):
        out.append("/".join(parts[: index + 1]))
    return out


def _hook_context(sources: LintSources, agent: Agent, limit: Limit) -> list[Finding]:
    """Rules of other formats, which reach the agent only through ruleweave's hooks, over the limit."""
    out: list[Finding] = []
    buckets = sources.ruleset.buckets.by_rule
    for rule in sources.ruleset.discovery.rules:
        if rule.source.provider in agent.providers or rule.source.level != "project":
            continue
        if buckets.get(rule.name) not in (Bucket.SCOPED, Bucket.GENERIC, Bucket.TTSR):
            continue
        size = _size(rule.content, limit)
        if size <= limit.amount:
            continue
        out.append(Finding(
            "over-limit", limit.severity, sources.relative(rule.path), _body_line(sources, rule),
            f"rule {rule.name!r} is {size:,} {limit.unit} and {agent.label}'s {limit.name} is "
            f"{_amount(limit)}, so through a hook ruleweave cuts it to fit (else {limit.consequence}); "
            f"the whole text stays at rule://{rule.name}.",
            agent=agent.id,
        ))
    return out


def _body_line(sources: LintSources, rule: Rule) -> int | None:
    text = sources.text(sources.relative(rule.path))
    return text.body_line if text is not None else None


def _body_bytes(sources: LintSources, rule: Rule) -> int:
    text = sources.text(sources.relative(rule.path))
    if text is None:
        return 0
    return len("\n".join(text.text.split("\n")[text.body_line - 1 :]).strip().encode("utf-8"))


def _ruleweave_budgets(sources: LintSources) -> list[Finding]:
    config = sources.config
    out: list[Finding] = []
    for rule in sources.rules:
        # ``truncated`` is also set by a provider cutting at its agent's limit (Windsurf): check the size.
        if rule.truncated and _body_bytes(sources, rule) > config.max_rule_bytes:
            out.append(Finding(
                "over-limit", "warning", sources.relative(rule.path), _body_line(sources, rule),
                f"rule {rule.name!r} is longer than ruleweave's max_rule_bytes ({config.max_rule_bytes:,} "
                "bytes), so ruleweave keeps only its start.",
                agent="ruleweave",
            ))
    notice = config.notice_max_bytes
    for rule in sources.ruleset.buckets.scoped:
        size = len(rule.content.encode("utf-8"))
        if rule.source.level == "project" and size > notice:
            out.append(Finding(
                "over-limit", "warning", sources.relative(rule.path), _body_line(sources, rule),
                f"rule {rule.name!r} is {size:,} bytes and ruleweave's notice_max_bytes is {notice:,}, so "
                f"the notice after a tool call carries only its start (the rest at rule://{rule.name}).",
                agent="ruleweave",
            ))
    parts = sources.ruleset.prompt_parts()
    largest = _largest_parts(sources)
    for block in parts.budget.blocks:
        for cut in block.cut:
            what = f"rule {cut.name!r}" if cut.name else "this file"
            option = "instructions_max_bytes" if block.block == "instructions" else "prompt_max_bytes"
            out.append(Finding(
                "over-limit", "warning", cut.path, None,
                f"ruleweave's prompt budget ({option}, {block.block} block limit {block.limit or 0:,} bytes) "
                f"leaves {cut.bytes_dropped:,} bytes of {what} out of the session-start prompt"
                + (f" (the whole text stays at rule://{cut.name})" if cut.name else "") + "; "
                + _trim_hint(cut.path, bool(cut.name), largest),
                agent="ruleweave",
            ))
    return out


def _largest_parts(sources: LintSources) -> list[tuple[str, int]]:
    """The session-start prompt's files and always-on rules, largest first: ``(path, bytes)``."""
    ruleset = sources.ruleset
    sizes = {f.path: f.original_bytes for f in ruleset.blob.files}
    for rule in ruleset.buckets.generic:
        if rule.source.level == "project":
            path = sources.relative(rule.path)
            sizes[path] = max(sizes.get(path, 0), len(rule.content.encode("utf-8")))
    return sorted(sizes.items(), key=lambda item: (-item[1], item[0]))


def _trim_hint(path: str, rule: bool, largest: list[tuple[str, int]]) -> str:
    """Which file to trim so that ``path`` fits (the largest other part), or how to keep it whole."""
    other = next(((p, size) for p, size in largest if p != path), None)
    keep = "" if rule else f", or name {path} in keep_whole"
    if other is None:
        return f"trim it or raise {'prompt_max_bytes' if rule else 'instructions_max_bytes'}{keep}."
    return f"trim {other[0]} ({other[1]:,} bytes, the largest other part of the prompt){keep}."
