"""Rule discovery: providers → one list of rules, with shadowed rules and warnings.

``discover(config)`` runs every enabled provider in precedence order,
keeps the first rule of each name (project over user and nearest-cwd over
higher directories inside a provider), records the losers as shadowed,
and turns every problem, including a provider that raises, into a warning.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ruleweave._kernel.surrogates import escape_surrogates, has_surrogates
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.glob_caps import cap_globs
from ruleweave.discovery.placement import in_dialect, place
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.registry import PROVIDERS, ordered
from ruleweave.log import LibraryLogger
from ruleweave.rules import DiscoveryWarning, Rule

__all__ = ["FOLDER_PROVIDERS", "PROVIDERS", "Discovery", "DiscoveryContext", "Provider", "discover",
           "discover_directory"]

FOLDER_PROVIDERS: tuple[Provider, ...] = tuple(p for p in PROVIDERS if p.id not in ("plugins", "builtin"))
"""The providers that read rule folders in project directories (nested folders use these)."""

# Warnings go to the stdlib logger ``ruleweave.discovery`` rendered by structlog:
# silent unless the application enables it (structlog's default logger would
# print to stdout, into ``ruleweave scan --json`` and the users' own output).
_log = LibraryLogger("ruleweave.discovery")


class Discovery(NamedTuple):
    """What discovery found.

    A ``NamedTuple``, not a dataclass: a hook process with a cold snapshot must not import
    ``dataclasses`` (it imports ``inspect``, about 0.7× Python's own start-up).

    Attributes:
        rules: The winning rules, in precedence order (each carries ``shadowed``).
        shadowed: Every rule that lost a name clash.
        warnings: Every problem met, each naming its file.
    """

    rules: tuple[Rule, ...]
    shadowed: tuple[Rule, ...]
    warnings: tuple[DiscoveryWarning, ...]


def _provider_winners(rules: list[Rule]) -> tuple[list[Rule], list[Rule]]:
    """Inside one provider the last of a name wins (project after user, cwd last)."""
    last: dict[str, int] = {}
    for index, rule in enumerate(rules):
        last[rule.name] = index
    winners: list[Rule] = []
    losers: list[Rule] = []
    for index, rule in enumerate(rules):
        (winners if last[rule.name] == index else losers).append(rule)
    losers_by_name: dict[str, list[Rule]] = {}
    for rule in reversed(losers):
        losers_by_name.setdefault(rule.name, []).append(rule)
    merged = [
        rule._replace(shadowed=tuple(r.source for r in losers_by_name.get(rule.name, [])))
        if rule.name in losers_by_name
        else rule
        for rule in winners
    ]
    return merged, losers


def _placed(rules: list[Rule], ctx: DiscoveryContext) -> list[Rule]:
    """Project rules named and rebased for the directory whose folder holds them (``placement``)."""
    out: list[Rule] = []
    for rule in rules:
        if rule.source.level != "project" or rule.source.provider.startswith("plugins"):
            out.append(rule)
        else:
            out.append(place(rule, ctx.prefix_of(rule.path)))
    return out


def _decodable_names(rules: list[Rule], ctx: DiscoveryContext) -> list[Rule]:
    """Rules named after a file name that is not valid UTF-8, renamed with the bytes spelled ``\\xff``.

    The name is the rule's identity (``rule://``, store keys, headers): it must be one
    that can be encoded and typed. The file keeps its real path, so it is still read.
    """
    if all(not has_surrogates(rule.name) for rule in rules):
        return rules
    out: list[Rule] = []
    for rule in rules:
        if has_surrogates(rule.name):
            name = escape_surrogates(rule.name)
            ctx.warn(rule.path, f"the file name is not valid UTF-8; the rule is named {name}")
            rule = rule._replace(name=name)
        out.append(rule)
    return out


def discover(
    config: RuleweaveConfig,
    providers: tuple[Provider, ...] = PROVIDERS,
    *,
    ctx: DiscoveryContext | None = None,
) -> Discovery:
    """Find every rule the configuration reaches.

    Rules of a folder in a directory below the project root are named
    ``<dir>:<name>`` and their globs rebased onto that directory
    (``discovery.placement``).

    Args:
        config: Where to look and what to skip.
        providers: The providers to run (default: all registered).
        ctx: The context to run in (default: the root→cwd walk; ``discover_directory``
            passes one for a single nested directory).

    Returns:
        The ``Discovery``; never raises for bad files or failing providers.
    """
    ctx = ctx if ctx is not None else DiscoveryContext(config)
    kept: dict[str, Rule] = {}
    order: list[str] = []
    shadowed: list[Rule] = []
    for provider in ordered(providers):
        if provider.id in config.disabled_providers:
            continue
        ctx.provider, ctx.dialect, ctx.places = provider.id, provider.dialect, provider.places
        try:
            loaded = provider.load(ctx)
        except Exception as exc:
            ctx.warn("", f"provider {provider.id!r} failed: {exc.__class__.__name__}: {exc}")
            continue
        if not provider.places:  # its rules come as written: rewrite and place them now
            loaded = _placed(in_dialect(loaded, provider.dialect), ctx)
        loaded = _decodable_names(loaded, ctx)
        winners, losers = _provider_winners(loaded)
        shadowed.extend(losers)
        for rule in winners:
            if rule.name in config.disabled_rules:
                continue
            best = kept.get(rule.name)
            if best is None:
                kept[rule.name] = rule
                order.append(rule.name)
            else:
                kept[rule.name] = best._replace(shadowed=(*best.shadowed, rule.source, *rule.shadowed))
                shadowed.append(rule)
    ctx.provider, ctx.places = None, False
    rules, cap_warnings = cap_globs(
        [kept[name] for name in order], config.max_globs_per_rule, config.max_globs_per_file
    )
    ctx.warnings.extend(cap_warnings)
    for warning in ctx.warnings:
        log = _log.info if warning.severity == "info" else _log.warning  # a note loses nothing
        log("discovery_warning", path=warning.path, line=warning.line,
            provider=warning.provider, message=warning.message)
    return Discovery(
        rules=rules,
        shadowed=tuple(shadowed),
        warnings=tuple(ctx.warnings),
    )


def discover_directory(
    config: RuleweaveConfig, directory: Path, providers: tuple[Provider, ...] = FOLDER_PROVIDERS
) -> Discovery:
    """The rules of the rule folders in one directory below the walk (read on first touch).

    No user tier, plugins or built-ins: only the project folders of ``directory``,
    named and rebased for it.

    Args:
        config: The configuration (disabled providers and rules apply).
        directory: An absolute directory inside the project.
        providers: The folder providers (default: every file-based provider).

    Returns:
        The ``Discovery`` of that directory.
    """
    return discover(config, providers, ctx=DiscoveryContext(config, walk=[directory], nested=True))
