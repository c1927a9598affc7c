"""Small helpers shared by the discovery tests: run discovery, index the result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruleweave.buckets import assign
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import Discovery, discover
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.registry import PROVIDERS
from ruleweave.rules import Bucket, Rule


def run(
    root: Path,
    *,
    cwd: Path | str | None = None,
    only: Provider | tuple[Provider, ...] | None = None,
    **options: Any,
) -> Discovery:
    """Discover from ``cwd`` (default: ``root``), builtins off unless asked for.

    Args:
        root: The fixture repository (holds ``.git``).
        cwd: The working directory, absolute or relative to ``root``.
        only: Run just these providers instead of the whole registry.
        **options: Further ``RuleweaveConfig`` fields.
    """
    where = root if cwd is None else root / cwd
    options.setdefault("builtin_rules", False)
    config = RuleweaveConfig(cwd=where, **options)
    providers = PROVIDERS if only is None else ((only,) if isinstance(only, Provider) else only)
    return discover(config, providers)


def named(found: Discovery) -> dict[str, Rule]:
    """The winning rules by name."""
    return {rule.name: rule for rule in found.rules}


def buckets(found: Discovery) -> dict[str, Bucket]:
    """The bucket of every winning rule, by name."""
    return dict(assign(found.rules).by_rule)


def messages(found: Discovery) -> list[str]:
    """Every warning as ``path: message`` text."""
    return [str(warning) for warning in found.warnings]


def rel(rule: Rule, root: Path) -> str:
    """The rule's file relative to ``root`` (posix)."""
    return Path(rule.path).relative_to(root).as_posix()
