"""A rule → what the TTSR watcher needs: compiled conditions, scopes, gates, policies.

``compile_rule`` is the one place that decides whether a rule registers as
a streamed rule; ``ruleweave.buckets.assign`` calls it once per rule and
keeps the result, so a rule lands in the ``ttsr`` bucket exactly when the
watcher can watch it, and is compiled once per load. The choices, each reported as a
problem naming what went wrong:

* every regex must compile with re2 — one that does not keeps the whole rule
  from registering (an untrusted rule is never half applied);
* unknown scope tokens are ignored; a scope with no usable token keeps the
  rule from registering;
* ``astCondition`` needs ast-grep-py and a tool in the scope; without them the
  AST part is off and the rule registers only if it has a regex condition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from ruleweave.config import RuleweaveConfig
from ruleweave.rules import InterruptMode, Rule
from ruleweave.ttsr import ast_grep
from ruleweave.ttsr.conditions import compile_condition
from ruleweave.ttsr.scope import (
    DEFAULT_SCOPE,
    PathGate,
    ScopeEntry,
    glob_gate,
    glob_scope,
    glob_tokens,
    parse_scope,
)

_GAP = re.compile(r"^after-gap\s+(\d+)$")


@dataclass(frozen=True, slots=True)
class RepeatPolicy:
    """How often a rule may fire in one session.

    Attributes:
        gap: ``None`` for ``once`` per session; else the turns that must pass
            after the turn it last fired in (``after-gap N``). At most once a
            turn either way.
    """

    gap: int | None = None

    def __str__(self) -> str:
        return "once" if self.gap is None else f"after-gap {self.gap}"


_ONCE = RepeatPolicy()


def parse_repeat(value: str | None) -> RepeatPolicy:
    """``None``/``once`` → once; ``after-gap N`` → N turns (discovery already checked it)."""
    if not value:
        return _ONCE
    match = _GAP.match(value.strip().lower())
    return RepeatPolicy(int(match.group(1))) if match else _ONCE


@dataclass(frozen=True, slots=True)
class WatchCondition:
    """One condition of a rule, ready to match.

    Attributes:
        source: The condition as written in the rule.
        kind: ``regex``, or ``glob`` for a file-glob token (matches anything in scope).
        pattern: The text re2 compiled (``None`` for a glob token).
        regex: The compiled re2 pattern (``None`` for a glob token).
        scope: The streams it watches.
    """

    source: str
    kind: Literal["regex", "glob"]
    pattern: str | None
    regex: Any
    scope: tuple[ScopeEntry, ...]


@dataclass(frozen=True, slots=True)
class CompiledRule:
    """A rule the watcher can register.

    Attributes:
        rule: The rule.
        conditions: Its regex and glob-token conditions.
        ast_patterns: Its ast-grep patterns (empty when the AST part is off).
        ast_scope: The tool entries of its scope, where the AST patterns apply.
        path_gate: The rule's ``globs`` as a gate for tool streams (``None``: no gate).
        mode: Its own interrupt mode (``None``: the config default).
        repeat: Its repeat policy.
    """

    rule: Rule
    conditions: tuple[WatchCondition, ...]
    ast_patterns: tuple[str, ...]
    ast_scope: tuple[ScopeEntry, ...]
    path_gate: PathGate | None
    mode: InterruptMode | None
    repeat: RepeatPolicy

    def interrupt_mode(self, config: RuleweaveConfig) -> InterruptMode:
        """The effective interrupt mode under ``config``."""
        return self.mode or config.interrupt_mode

    @property
    def scope(self) -> tuple[ScopeEntry, ...]:
        """Every stream any part of the rule watches, in order."""
        entries: dict[ScopeEntry, None] = {}
        for condition in self.conditions:
            entries.update(dict.fromkeys(condition.scope))
        entries.update(dict.fromkeys(self.ast_scope))
        return tuple(entries)


def _regex_conditions(
    rule: Rule, scope: tuple[ScopeEntry, ...], problems: list[str]
) -> tuple[list[WatchCondition], bool]:
    conditions: list[WatchCondition] = []
    failed = False
    for token in rule.condition:
        globs = glob_tokens(token)
        if globs:
            conditions.extend(WatchCondition(g, "glob", None, None, glob_scope(g)) for g in globs)
            continue
        compiled, reason = compile_condition(token)
        if compiled is None:
            problems.append(reason or f"condition {token!r} cannot be compiled")
            failed = True
            continue
        problems.extend(f"condition {token!r}: {note}" for note in compiled.notes)
        if compiled.regex.search("") is not None:
            problems.append(
                f"condition {token!r} matches empty text, so it fires on any output in its scope"
            )
        conditions.append(WatchCondition(token, "regex", compiled.pattern, compiled.regex, scope))
    return conditions, failed


def compile_rule(
    rule: Rule, *, ast_available: bool | None = None
) -> tuple[CompiledRule | None, list[str]]:
    """Compile ``rule`` for the watcher.

    Args:
        rule: A rule with a ``condition`` and/or ``ast_condition``.
        ast_available: Whether ast-grep-py is importable (default: try the import).

    Returns:
        The compiled rule, or ``None`` when it cannot register; and every
        problem met, one sentence each (without the rule's name).
    """
    problems: list[str] = []
    if rule.scope:
        scope, scope_problems = parse_scope(rule.scope)
        problems.extend(scope_problems)
        if not scope:
            problems.append("its scope has no usable token, so the rule does not register")
            return None, problems
    else:
        scope = DEFAULT_SCOPE
    conditions, failed = _regex_conditions(rule, scope, problems)
    if failed:
        problems.append("a condition cannot be compiled, so the rule does not register")
        return None, problems
    patterns = tuple(p.strip() for p in rule.ast_condition if p.strip())
    ast_scope = tuple(entry for entry in scope if entry.source == "tool")
    if patterns:
        if ast_available is None:
            ast_available = ast_grep.available()
        if not ast_available:
            problems.append(
                "ast-grep-py is not installed, so its astCondition is off "
                f"(pip install 'ruleweave[{ast_grep.EXTRA}]')"
            )
            patterns = ()
        elif not ast_scope:
            problems.append(
                "astCondition watches tool calls and the scope names no tool; it is off"
            )
            patterns = ()
    if not conditions and not patterns:
        problems.append("no condition can be watched, so the rule does not register")
        return None, problems
    compiled = CompiledRule(
        rule=rule,
        conditions=tuple(conditions),
        ast_patterns=patterns,
        ast_scope=ast_scope if patterns else (),
        path_gate=glob_gate(rule.globs, bare_anywhere=False),
        mode=rule.interrupt_mode,
        repeat=parse_repeat(rule.repeat),
    )
    return compiled, problems


def describe(rule: Rule, config: RuleweaveConfig) -> tuple[list[str], str] | None:
    """A TTSR rule's scope tokens and effective interrupt mode, for listings.

    Args:
        rule: The rule.
        config: Supplies the default interrupt mode.

    Returns:
        ``(scope tokens, mode)``, or ``None`` when the rule does not register.
    """
    compiled, _ = compile_rule(rule)
    if compiled is None:
        return None
    return [str(entry) for entry in compiled.scope], compiled.interrupt_mode(config)
