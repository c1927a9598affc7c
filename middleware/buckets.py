"""Splitting discovered rules into the buckets a session uses (docs/rules.md#buckets).

In order: disabled names and (optionally) builtins are dropped by
discovery; a rule with a usable ``condition``/``ast_condition`` → ttsr;
``always_apply`` → generic; an unscoped Claude rule → instructions; globs →
scoped (also listed in ``<domain-rules>`` when it has a description);
description only → rulebook; nothing → manual (``rule://`` only).

A glob that can never match (an unclosed ``[``, braces expanding past the
limit) is a warning naming the rule's file and the glob, for the rules whose
globs decide when they fire (scoped, and TTSR path gates): such a rule would
be listed as scoped and never fire.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from ruleweave._text.echo import shown
from ruleweave.globs import glob_problem
from ruleweave.rules import Bucket, DiscoveryWarning, Rule

if TYPE_CHECKING:
    from ruleweave.ttsr.compile import CompiledRule


def bucket_of(rule: Rule, is_ttsr: bool) -> Bucket:
    """The bucket ``rule`` belongs in, given whether it registered as TTSR."""
    if is_ttsr:
        return Bucket.TTSR
    if rule.always_apply:
        return Bucket.GENERIC
    if rule.joins_instructions:
        return Bucket.INSTRUCTIONS
    if rule.globs:
        return Bucket.SCOPED
    if rule.description:
        return Bucket.RULEBOOK
    return Bucket.MANUAL


class Buckets(NamedTuple):
    """Rules by bucket, each tuple in precedence order.

    NamedTuple, not dataclass: the class is ~5× cheaper to create in a hook process (one per tool call).

    Attributes:
        by_rule: The bucket of each rule name.
        warnings: Conditions that could not be compiled, naming the rule's file.
        ttsr_compiled: The ``ttsr`` rules as the watcher runs them, compiled here once
            (a rule is in that bucket exactly when it compiles).
    """

    ttsr: tuple[Rule, ...]
    generic: tuple[Rule, ...]
    scoped: tuple[Rule, ...]
    rulebook: tuple[Rule, ...]
    manual: tuple[Rule, ...]
    instructions: tuple[Rule, ...]
    by_rule: dict[str, Bucket]
    warnings: tuple[DiscoveryWarning, ...]
    ttsr_compiled: tuple[CompiledRule, ...] = ()

    @property
    def domain(self) -> tuple[Rule, ...]:
        """Rules listed in ``<domain-rules>``: the rulebook and described scoped rules."""
        return self.rulebook + tuple(r for r in self.scoped if r.description)


def assign(rules: Iterable[Rule]) -> Buckets:
    """Assign every rule to its bucket, compiling each streamed rule once.

    Args:
        rules: Rules in precedence order.

    Returns:
        The buckets, with a warning for every condition that cannot compile.
    """
    groups: dict[Bucket, list[Rule]] = {bucket: [] for bucket in Bucket}
    by_rule: dict[str, Bucket] = {}
    warnings: list[DiscoveryWarning] = []
    compiled: list[CompiledRule] = []
    for rule in rules:
        is_ttsr = False
        if rule.condition or rule.ast_condition:
            # Imported here: a rule set without streamed rules never loads the TTSR compiler (re2).
            from ruleweave.ttsr.compile import compile_rule

            result, problems = compile_rule(rule)
            if result is not None:
                is_ttsr = True
                compiled.append(result)
            for problem in problems:
                warnings.append(
                    DiscoveryWarning(
                        path=rule.path, provider=rule.source.provider,
                        message=f"rule {rule.name!r}: {problem}",
                    )
                )
        bucket = bucket_of(rule, is_ttsr)
        if bucket in (Bucket.SCOPED, Bucket.TTSR):
            warnings.extend(_glob_warnings(rule))
        groups[bucket].append(rule)
        by_rule[rule.name] = bucket
    return Buckets(
        ttsr=tuple(groups[Bucket.TTSR]),
        generic=tuple(groups[Bucket.GENERIC]),
        scoped=tuple(groups[Bucket.SCOPED]),
        rulebook=tuple(groups[Bucket.RULEBOOK]),
        manual=tuple(groups[Bucket.MANUAL]),
        instructions=tuple(groups[Bucket.INSTRUCTIONS]),
        by_rule=by_rule,
        warnings=tuple(warnings),
        ttsr_compiled=tuple(compiled),
    )


def _glob_warnings(rule: Rule) -> list[DiscoveryWarning]:
    """One warning per glob of ``rule`` that can never match a path."""
    out: list[DiscoveryWarning] = []
    for glob in rule.globs:
        problem = glob_problem(glob)
        if problem is not None:
            out.append(
                DiscoveryWarning(
                    path=rule.path, provider=rule.source.provider,
                    message=f"rule {shown(rule.name)}: glob {shown(glob)} {problem}, so it never matches",
                )
            )
    return out
