"""A loaded rule set as data: every rule, its provider, bucket and shadowed copies, its warnings and
instruction files — what ``ruleweave scan --json`` prints and ``ruleweave map`` joins with lint.

Plain dictionaries in a stable key order, built from the rule set without
reading anything again; the JSON writer is the caller's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ruleweave.discovery.nested import NestedFolder
from ruleweave.rules import Bucket, Rule
from ruleweave.ruleset import RuleSet
from ruleweave.ttsr import describe


def rule_record(
    rule: Rule, bucket: Bucket | None, ttsr: tuple[list[str], str] | None = None
) -> dict[str, Any]:
    """One rule as ``scan --json`` spells it.

    Args:
        rule: The rule.
        bucket: Its bucket in a session (``None`` for a copy that lost a name clash).
        ttsr: A streamed rule's scope tokens and interrupt mode (``ttsr.describe``).

    Returns:
        ``name``, ``provider``, ``bucket``, ``path``, ``globs``, ``always_apply``,
        ``description``, ``shadowed`` (and ``scope``, ``interrupt_mode`` for a streamed rule).
    """
    return {
        "name": rule.name,
        "provider": rule.source.provider,
        "bucket": bucket.value if bucket is not None else None,
        "path": rule.path,
        "globs": list(rule.globs),
        "always_apply": rule.always_apply,
        "description": rule.description,
        "shadowed": [{"provider": s.provider, "path": s.path} for s in rule.shadowed],
        **({"scope": ttsr[0], "interrupt_mode": ttsr[1]} if ttsr is not None else {}),
    }


def streamed(ruleset: RuleSet) -> dict[str, tuple[list[str], str]]:
    """Scope tokens and interrupt mode of each streamed (TTSR) rule that registers, by name."""
    buckets = ruleset.buckets.by_rule
    return {
        rule.name: info
        for rule in ruleset.discovery.rules
        if buckets[rule.name] is Bucket.TTSR and (info := describe(rule, ruleset.config)) is not None
    }


def nested_record(folder: NestedFolder) -> dict[str, Any]:
    """A nested rule folder as ``scan --all --json`` spells it: its directory, rules and warnings."""
    return {
        "directory": folder.prefix,
        "rules": [
            {
                "name": name, "provider": rule.source.provider,
                "bucket": folder.buckets.get(name, Bucket.MANUAL).value, "path": rule.path,
                "globs": list(rule.globs), "description": rule.description,
            }
            for name, rule in folder.rules.items()
        ],
        "warnings": [{"path": w.path, "message": w.message} for w in folder.warnings],
    }


def inventory(ruleset: RuleSet, nested: Sequence[NestedFolder] | None = None) -> dict[str, Any]:
    """The ``scan --json`` document.

    Args:
        ruleset: The loaded rule set.
        nested: Nested rule folders to list (``scan --all``), or ``None`` to leave the key out.

    Returns:
        ``rules``, ``warnings``, ``info`` (when any), ``instructions``, ``scoped_instructions``
        (when any) and ``nested`` (when asked for).
    """
    buckets = ruleset.buckets.by_rule
    ttsr = streamed(ruleset)
    warnings = [w for w in ruleset.warnings if w.severity != "info"]
    notes = [w for w in ruleset.warnings if w.severity == "info"]
    blob = ruleset.blob
    return {
        "rules": [rule_record(r, buckets[r.name], ttsr.get(r.name)) for r in ruleset.discovery.rules],
        "warnings": [
            {"path": w.path, "message": w.message if not w.line else f"line {w.line}: {w.message}"}
            for w in warnings
        ],
        **({"info": [{"path": w.path, "message": w.message} for w in notes]} if notes else {}),
        "instructions": [{"path": f.path, "bytes": f.bytes, "truncated": f.truncated} for f in blob.files],
        **(
            {"scoped_instructions": [{"path": s.file.display, "globs": list(s.globs)} for s in blob.scoped]}
            if blob.scoped else {}
        ),
        **({"nested": [nested_record(f) for f in nested]} if nested is not None else {}),
    }
