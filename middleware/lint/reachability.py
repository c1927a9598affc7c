"""Never reachable: rules that no agent or session will use as written.

* a manual rule (no globs, no description, not always applied) that no rule or
  instruction file mentions (``rule://name``, ``@name`` or its file name): only
  a person typing its name reaches it (info); a mode's rule (Roo Code's
  ``.roo/rules-<mode>/``) is not one: it is always applied in its mode;
* a description-only rule whose description is empty: nothing tells the agent
  when to read it (warning);
* a rule shadowed in ruleweave sessions by a same-named rule with other text (info);
* a rule every agent that reads its format skips (``agents.Ignore``: a Cursor
  ``.md`` file in ``.cursor/rules``; not Copilot ``excludeAgent: coding-agent``,
  which Copilot code review still reads) (warning),
  whether discovery read it or skipped it with a warning (then this finding replaces
  that warning).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from functools import lru_cache

from ruleweave import frontmatter as fm
from ruleweave.globs import compile_glob
from ruleweave.lint.agents import Agent, Ignore, readers
from ruleweave.lint.drift import documents
from ruleweave.lint.findings import Finding
from ruleweave.lint.sources import LintSources
from ruleweave.rules import Rule

_DESCRIPTION_KEYS = ("description", "trigger", "inclusion")
_DESCRIPTION_MODES = {("trigger", "model_decision"), ("inclusion", "auto")}


def check_reachability(sources: LintSources) -> list[Finding]:
    """``unreachable`` findings.

    Args:
        sources: What lint looks at.

    Returns:
        The findings.
    """
    findings: list[Finding] = []
    texts = {doc.path: "\n".join(doc.paragraphs) for doc in documents(sources)}
    seen: set[str] = set()
    for rule in sources.rules:
        path = sources.relative(rule.path)
        if rule.source.level != "project" or path in seen:
            continue
        seen.add(path)
        data = _frontmatter(sources, path)
        manual = not rule.globs and not rule.always_apply and not rule.joins_instructions
        manual = manual and not rule.condition and not rule.ast_condition
        if manual and not (rule.description or "").strip() and not _mode_rule(path):
            if _asks_for_description(data):
                findings.append(Finding(
                    "unreachable", "warning", path, _key_line(sources, path, _DESCRIPTION_KEYS),
                    f"rule {rule.name!r} is meant to be picked by its description, but the description is "
                    "empty, so no agent knows when to read it.",
                ))
            elif not _mentioned(rule, path, texts):
                findings.append(Finding(
                    "unreachable", "info", path, 1,
                    f"manual rule {rule.name!r} is read only when asked for by name, and no rule or "
                    f"instruction file mentions it (rule://{rule.name}).",
                ))
        findings += _ignored(sources, rule.source.provider, rule.name, path, data)
    for warning in sources.warnings:
        # A file its provider skipped with a warning (Copilot's excludeAgent) never became a rule.
        path = sources.relative(warning.path) if warning.path else ""
        if warning.provider and path and path not in seen and not path.startswith("/"):
            seen.add(path)
            name = posixpath.basename(path).split(".", 1)[0]
            findings += _ignored(
                sources, warning.provider, name, path, _frontmatter(sources, path), loaded=False
            )
    findings += _shadowed(sources)
    return findings


_MODE_RULE = re.compile(
    r"(?:^|/)\.(?:roo|kilocode)/rules-[^/]+/|(?:^|/)\.(?:roorules|clinerules|kilocoderules)-[^/]+$"
)
"""A mode's rule file (Roo Code, Kilo Code): always applied in its mode, manual only outside it."""


def _mode_rule(path: str) -> bool:
    """Whether the rule file at ``path`` belongs to one agent mode (``.roo/rules-code/x.md``)."""
    return _MODE_RULE.search(path) is not None


def _frontmatter(sources: LintSources, path: str) -> dict[str, object]:
    text = sources.text(path)
    return fm.parse(text.text).data if text is not None else {}


def _asks_for_description(data: dict[str, object]) -> bool:
    if "description" in data:
        return True
    return any(str(data.get(key, "")).lower().replace("-", "_") == value for key, value in _DESCRIPTION_MODES)


def _mentioned(rule: Rule, path: str, texts: dict[str, str]) -> bool:
    name = rule.name.rsplit(":", 1)[-1]
    stem = posixpath.basename(path).split(".", 1)[0]
    needles = {f"rule://{rule.name}", f"rule://{name}", f"@{name}", f"@{stem}", posixpath.basename(path)}
    return any(
        needle in text for other, text in texts.items() if other != path for needle in needles
    )


def _key_line(sources: LintSources, path: str, keys: tuple[str, ...]) -> int:
    text = sources.text(path)
    if text is None:
        return 1
    for number, line in enumerate(text.text.split("\n")[: text.body_line], 1):
        if fm.snake_key(line.split(":", 1)[0].strip()) in keys:
            return number
    return 1


@lru_cache(maxsize=64)
def _path_test(pattern: str) -> Callable[[str], bool]:
    """An ``Ignore.path_glob`` compiled once (it is tried against every rule file of its format)."""
    return compile_glob(pattern)


def _skips(ignore: Ignore, path: str, data: dict[str, object]) -> bool:
    if ignore.path_glob and _path_test(ignore.path_glob)(path):
        return True
    if ignore.key:
        values = {str(v).strip().lower() for v in fm.as_strings(data.get(ignore.key))}
        return bool(values & set(ignore.values))
    return False


def skip_reason(
    sources: LintSources, agent: Agent, path: str, data: dict[str, object] | None = None
) -> str | None:
    """Why ``agent`` never reads the rule file at ``path`` (an ``agents.Ignore`` of its own), if it does not.

    Args:
        sources: What lint looks at (the file's text).
        agent: The agent.
        path: The rule file, relative to the project root.
        data: Its frontmatter, when already parsed.

    Returns:
        The ignore's reason (``Cursor reads only .mdc files in .cursor/rules``), or ``None``.
    """
    if not agent.ignores:
        return None
    found = _frontmatter(sources, path) if data is None else data
    return next((i.reason for i in agent.ignores if _skips(i, path, found)), None)


def _ignored(
    sources: LintSources, provider: str, name: str, path: str, data: dict[str, object],
    *, loaded: bool = True,
) -> list[Finding]:
    agents = readers(provider)
    if not agents:
        return []
    reasons: list[str] = []
    for entry in agents:
        reason = skip_reason(sources, entry, path, data)
        if reason is None:
            return []
        reasons.append(reason)
    keys = tuple(i.key for entry in agents for i in entry.ignores if i.key)
    line = _key_line(sources, path, keys) if keys and any(k in data for k in keys) else 1
    return [Finding(
        "unreachable", "warning", path, line,
        f"{'; '.join(reasons)}: no agent that reads this format loads rule {name!r} "
        + ("(only ruleweave sessions do)." if loaded else "(and ruleweave sessions skip it too)."),
        agent=agents[0].id,
    )]


def _shadowed(sources: LintSources) -> list[Finding]:
    winners = {rule.name: rule for rule in sources.ruleset.discovery.rules}
    out: list[Finding] = []
    for loser in sources.ruleset.discovery.shadowed:
        winner = winners.get(loser.name)
        if winner is None or loser.source.level != "project":
            continue
        if " ".join(winner.content.split()) == " ".join(loser.content.split()):
            continue  # the same text: a duplicate, not a lost rule
        out.append(Finding(
            "unreachable", "info", sources.relative(loser.path), 1,
            f"in ruleweave sessions rule {loser.name!r} from {loser.source.provider} is shadowed by "
            f"{winner.source.provider}'s ({sources.relative(winner.path)}), whose text differs.",
        ))
    return out
