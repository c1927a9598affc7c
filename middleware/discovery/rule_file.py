"""Markdown rule files → ``Rule``: the one path every file-based provider shares.

A provider hands over a file and a ``Mapper`` that turns the frontmatter
mapping into rule fields (or ``Skipped``: the agent does not read the file);
this module reads the file safely, parses the frontmatter, caps the body,
names the rule and records every repair — a warning when a setting was lost,
a debug event on the ``ruleweave.discovery`` logger when nothing was (the
unquoted Cursor globs everybody writes).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from ruleweave import frontmatter as fm
from ruleweave._files.reading import truncate_text
from ruleweave._text.lazy_regex import LazyRegex
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.placement import placed_name, written
from ruleweave.rules import DiscoveryWarning, Level, Rule, SourceMeta


class Skipped(NamedTuple):
    """What a mapper returns for a file its agent does not read: the file gives no rule.

    NamedTuple, not dataclass: the class is ~5× cheaper to create in a hook process (one per tool call).

    Attributes:
        reason: One sentence for ``scan``'s info line naming the file.
    """

    reason: str


Mapper = Callable[[dict[str, Any]], dict[str, Any] | Skipped]
"""Frontmatter mapping (snake-case keys) → ``Rule`` keyword arguments, or ``Skipped``.

The arguments may carry ``warnings``: messages about the file's frontmatter, each
recorded as a warning naming the file (a mapper never sees the path)."""



def note(ctx: DiscoveryContext, path: Path | str, message: str) -> None:
    """Record an info line naming ``path``: worth knowing, nothing lost (``scan --strict`` passes)."""
    ctx.warnings.append(
        DiscoveryWarning(path=str(path), message=message, provider=ctx.provider, severity="info")
    )

_MODES = ("never", "prose-only", "tool-only", "always")
_REPEAT = LazyRegex(r"^(once|after-gap\s+\d+)$")


def standard_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The shared mapping: globs, alwaysApply, description, TTSR fields."""
    condition = fm.as_strings(data.get("condition")) or fm.as_strings(data.get("ttsr_trigger"))
    return {
        "globs": fm.as_globs(data.get("globs")),
        "always_apply": fm.as_bool(data.get("always_apply")),
        "description": fm.as_text(data.get("description")),
        "condition": condition,
        "ast_condition": fm.as_strings(data.get("ast_condition")),
        "scope": fm.as_strings(data.get("scope")),
        "interrupt_mode": fm.as_text(data.get("interrupt_mode")),
        "repeat": fm.as_text(data.get("repeat")),
    }


def rule_stem(path: Path | str, suffixes: tuple[str, ...] = (".mdc", ".md")) -> str:
    """The file name without its rule suffix (``a.instructions.md`` keeps ``.instructions``)."""
    return _stem(os.path.basename(path), suffixes)


def _stem(name: str, suffixes: tuple[str, ...]) -> str:
    for suffix in suffixes:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return os.path.splitext(name)[0]


def rule_name_in(root: Path | str, path: Path | str, suffixes: tuple[str, ...] = (".mdc", ".md")) -> str:
    """A rule file's name inside its folder: the relative path, ``/``-separated, without the suffix."""
    return _name_in(os.fspath(root).rstrip(os.sep) + os.sep, os.fspath(path), suffixes)


def _name_in(folder: str, where: str, suffixes: tuple[str, ...]) -> str:
    """``rule_name_in`` for the folder spelled ``folder`` (with a trailing separator)."""
    # Strings, not pathlib: this runs once per rule file at every load.
    relative = where[len(folder) :] if where.startswith(folder) else os.path.basename(where)
    inner, _, name = relative.rpartition(os.sep)
    stem = _stem(name, suffixes)
    return f"{inner.replace(os.sep, '/')}/{stem}" if inner else stem


def load_markdown_rule(
    ctx: DiscoveryContext,
    path: Path | str,
    *,
    provider: str,
    priority: int,
    level: Level,
    mapper: Mapper = standard_fields,
    name: str | None = None,
    name_from_frontmatter: bool = False,
    text: str | None = None,
    body_filter: Callable[[str], str] | None = None,
) -> Rule | None:
    """Read ``path`` and build its ``Rule``; ``None`` (with a warning) when unusable.

    Args:
        ctx: The discovery context (config, warnings).
        path: The rule file.
        provider: Provider id for ``SourceMeta``.
        priority: Provider priority for ``SourceMeta``.
        level: ``user``, ``project`` or ``builtin``.
        mapper: Frontmatter → rule fields.
        name: A fixed name (legacy single files); default is the file stem.
        name_from_frontmatter: Prefer a frontmatter ``name`` over the stem.
        text: The file's text when the caller already read it.
        body_filter: The body as its agent reads it (Qwen Code drops HTML comments), before
            the check for an empty one.

    Returns:
        The rule, or ``None`` when the file is unreadable or has no body. Under a provider
        that ``places`` (``ctx.places``) its globs are already in the matcher's reading and
        a project rule is placed (``placement``): discovery hands it on as built.
    """
    if text is None:
        if not ctx.first_visit(path):
            return None
        text = ctx.read(path)
    if text is None:
        return None
    parsed = fm.parse(text)
    for line, message in parsed.problems:
        ctx.warn(path, message, line=line)
    if parsed.repairs:
        import logging  # only here: most loads repair nothing, and a hook process counts every import

        debug = logging.getLogger("ruleweave.discovery")
        for line, message in parsed.repairs:
            debug.debug("frontmatter_repaired path=%s line=%d message=%s", path, line, message)
    body = parsed.body if body_filter is None else body_filter(parsed.body)
    if not body:
        ctx.warn(path, "has no rule text after its frontmatter; skipped")
        return None
    mapped = mapper(parsed.data)
    if isinstance(mapped, Skipped):
        note(ctx, path, mapped.reason)
        return None
    fields = dict(mapped)  # completed below: never the mapper's own object
    for message in fields.pop("warnings", ()):
        ctx.warn(path, message)
    mode = fields.get("interrupt_mode")
    if mode is not None and mode not in _MODES:
        ctx.warn(path, f"interruptMode {mode!r} is not one of {', '.join(_MODES)}; ignored")
        fields["interrupt_mode"] = None
    repeat = fields.get("repeat")
    if repeat is not None and not _REPEAT.match(repeat):
        ctx.warn(path, f"repeat {repeat!r} is not 'once' or 'after-gap N'; using once")
        fields["repeat"] = None
    rule_name = name or rule_stem(path)
    if name_from_frontmatter:
        rule_name = fm.as_text(parsed.data.get("name")) or rule_name
    body, dropped = truncate_text(body, ctx.config.max_rule_bytes)
    if dropped:
        limit = ctx.config.max_rule_bytes
        ctx.warn(path, f"rule text is over {limit} bytes; {dropped} bytes were cut")
        body += f"\n[ruleweave: rule truncated, {dropped} bytes dropped]"
    where = str(path)
    if ctx.places:  # built as discovery hands it on: no copy per rule to place it afterwards
        prefix = ctx.prefix_of(where) if level == "project" else ""
        for key in ("globs", "exclude_globs"):
            if fields.get(key):
                fields[key] = written(fields[key], ctx.dialect, prefix)
        if prefix:
            rule_name = placed_name(rule_name, prefix)
            fields["base"] = prefix
    fields.update(
        name=rule_name, path=where, content=body, truncated=bool(dropped),
        source=SourceMeta(provider=provider, priority=priority, level=level, path=where),
    )
    return Rule(**fields)


def load_dir(
    ctx: DiscoveryContext,
    root: Path | str,
    *,
    provider: str,
    priority: int,
    level: Level,
    suffixes: tuple[str, ...] = (".md",),
    recursive: bool = True,
    mapper: Mapper = standard_fields,
    name_from_frontmatter: bool = False,
    stem_suffixes: tuple[str, ...] = (".mdc", ".md"),
    skip_dirs: tuple[str, ...] = (),
    name_prefix: str = "",
    body_filter: Callable[[str], str] | None = None,
) -> list[Rule]:
    """Every rule file in one provider root, sorted by path.

    A rule's name is its path relative to ``root`` without the suffix
    (``backend/testing``), so rules grouped in subfolders never collide;
    a format's frontmatter ``name`` still wins when ``name_from_frontmatter``.
    Files under a subfolder of ``root`` named in ``skip_dirs`` are not rules
    (Cline's ``workflows/`` and ``hooks/``). ``name_prefix`` goes before each name
    (Roo's ``rules-<mode>/``), inside the placement's ``<dir>:``. ``body_filter``: as
    for ``load_markdown_rule``.
    """
    if level == "user" and ctx.nested:
        return []
    rules: list[Rule] = []
    paths = ctx.rule_files(root, suffixes, level=level, recursive=recursive)
    if skip_dirs:
        skipped = tuple(os.path.join(root, name) + os.sep for name in skip_dirs)
        paths = [path for path in paths if not str(path).startswith(skipped)]
    folder = os.fspath(root).rstrip(os.sep) + os.sep
    for path in paths:
        rule = load_markdown_rule(
            ctx,
            path,
            provider=provider,
            priority=priority,
            level=level,
            mapper=mapper,
            name=name_prefix + _name_in(folder, path, stem_suffixes),
            name_from_frontmatter=name_from_frontmatter,
            body_filter=body_filter,
        )
        if rule is not None:
            rules.append(rule)
    return rules


def load_file(
    ctx: DiscoveryContext,
    path: Path | str,
    *,
    provider: str,
    priority: int,
    level: Level,
    name: str,
    mapper: Mapper = standard_fields,
) -> list[Rule]:
    """A single well-known rule file (``.cursorrules``), if present."""
    if level == "user" and ctx.nested:
        return []
    if not ctx.is_file(path, level):
        return []
    rule = load_markdown_rule(
        ctx, path, provider=provider, priority=priority, level=level, mapper=mapper, name=name
    )
    return [] if rule is None else [rule]
