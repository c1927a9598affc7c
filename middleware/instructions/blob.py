"""``build_instructions``: the user tier, the root→cwd walk and Claude rules, within budget."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from ruleweave._files.paths import normalise
from ruleweave._files.reading import cut_utf8, read_bytes, read_text
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.instructions.agent_settings import read_agent_names
from ruleweave.instructions.budget import SEPARATOR, Part, fit_ordered, keeps_whole
from ruleweave.instructions.formats import FileFormat, plan, present, user_files
from ruleweave.instructions.imports import Expander
from ruleweave.instructions.markdown import normalise_text, one_line_folded
from ruleweave.instructions.model import (
    BudgetCut,
    InstructionBlob,
    InstructionBudget,
    InstructionFile,
    InstructionLevel,
)
from ruleweave.prompt import neutralise
from ruleweave.rules import DiscoveryWarning, Level, Rule


def build_instructions(
    config: RuleweaveConfig, claude_rules: Sequence[Rule] = (), *, ctx: DiscoveryContext | None = None
) -> InstructionBlob:
    """Assemble the instruction blob within ``config.instructions_max_bytes``.

    Never raises for anything found on disk: unreadable, binary or missing
    files and imports become warnings and the blob is built from the rest.

    Args:
        config: The configuration (walk, file list, limits, import policy).
        claude_rules: Unscoped Claude rules (``Buckets.instructions``), in order.
        ctx: The context to read in (default: a new one for ``config``); ``RuleSet.load``
            passes discovery's ``sharing_paths()``, so the walk's directories, already
            resolved, cost no ``lstat`` again. Its warnings become the blob's.

    Returns:
        The blob: text, per-file report, budget report and warnings.
    """
    ctx = ctx if ctx is not None else DiscoveryContext(config)
    names = read_agent_names(ctx)
    formats = plan(config, names.codex, names.gemini, names.qwen)
    expander = Expander(config, ctx)
    parts: list[Part] = []

    def add(path: Path, level: InstructionLevel, fmt: FileFormat, base: Path | None = None) -> None:
        tier: Level = "project" if level == "project" else "user"
        body = expander.file(path, tier, imports=fmt.imports, base=base, checked=True, depth=fmt.import_depth)
        if body:
            shown = expander.display(path, tier)
            parts.append(Part(f"[file: {shown}]", body.encode("utf-8"), shown, str(path), level))

    taken: set[str] = set()
    native_user = frozenset(config.native_user_files)  # the agent reads these itself
    for path, fmt in user_files(config, names.gemini, names.qwen):
        path = normalise(path)
        if fmt.group and fmt.group in taken:
            continue
        if str(path) in native_user:
            taken.add(fmt.group)  # the agent has it: its alternatives stay out too
            continue
        # In its home Codex passes over a blank AGENTS.override.md (``load_from_codex_home``: the first
        # candidate with text wins); in a project directory the first present one wins (``present``).
        if ctx.is_file(path, "user") and (not fmt.group or _has_text(path, config.max_file_bytes)):
            taken.add(fmt.group)
            add(path, "user", fmt, base=path.parent)
    if config.parent_instructions:
        above = [f for f in formats if f.above_root]
        for directory in reversed(normalise(config.root).parents):
            for fmt in above:
                path = directory / fmt.name
                if _parent_file(path, config):
                    add(path, "parent", fmt, base=directory)
    root = normalise(config.root)
    native = frozenset(config.native_walk_files)  # the agent reads these on the walk itself
    budget = config.native_walk_budget  # ... within this many bytes, root first (None: whole)
    for directory in ctx.walk:
        for path, fmt in present(ctx, directory, formats, root_dir=directory == root):
            if fmt.name not in native:
                add(path, "project", fmt)
            elif budget is not None:
                budget = _past_budget(path, budget, config.max_file_bytes, expander, parts, add, fmt)
    for rule in claude_rules:
        spelled = os.path.normpath(rule.path)  # a string: a Path per rule cost more than its part
        rule_tier: Level = "user" if rule.source.level == "user" else "project"
        body = expander.body(spelled, ctx.real(spelled), normalise_text(rule.content), rule_tier)
        if body:
            name = one_line_folded(rule.name)
            parts.append(Part(f"[rule: {name}]", body.encode("utf-8"), expander.display(spelled, rule_tier),
                              spelled, "rule", where=f"rule://{name}"))

    seen = frozenset(expander.seen)
    blob = _assemble(parts, config.instructions_max_bytes, tuple(ctx.warnings), seen,
                     whole=keeps_whole(config.keep_whole))
    notes = tuple(
        DiscoveryWarning(path=path, message=f"same text as {kept}; included once, there", severity="info")
        for path, _, kept in expander.merged
    )
    merged = tuple((shown, kept) for _, shown, kept in expander.merged)
    return blob._replace(warnings=blob.warnings + notes, merged=merged,
                         scoped=tuple(expander.scoped), formats=tuple(formats))


def _past_budget(
    path: Path, budget: int, limit: int, expander: Expander, parts: list[Part],
    add: Callable[[Path, InstructionLevel, FileFormat], None], fmt: FileFormat,
) -> int:
    """A walk file the agent reads itself within ``budget`` bytes, as Codex reads its project docs
    (``agents_md.rs``): what it leaves out goes into the blob. Returns the budget left.

    Root first, each file's raw bytes are charged, a blank one charges nothing; the file that
    crosses the budget is cut there (its part past the cut comes from here, from the character
    the cut falls in), and once the budget is spent Codex reads no further file (they come whole).
    """
    if budget <= 0:
        add(path, "project", fmt)
        return 0
    raw, _, oversized = read_bytes(path, limit, regular=True)
    if raw is None:
        return budget  # unreadable: the agent's read fails too, and charges nothing
    if oversized:
        raw = cut_utf8(raw, limit)  # ruleweave's cap on one file, as every read here keeps it
    if len(raw) <= budget:
        return budget - len(raw) if raw.strip() else budget
    if not raw[:budget].strip():
        add(path, "project", fmt)  # a blank head is dropped whole: none of the file reaches the agent
        return budget
    cut = len(cut_utf8(raw, budget))  # from the start of the character the agent's cut splits
    tail = raw[cut:].decode("utf-8", "replace").strip("\n")
    shown = expander.display(path, "project")
    real = os.path.realpath(path)
    if tail.strip() and "\x00" not in tail and expander.claim(real, tail, shown, path=str(path)):
        body = neutralise(normalise_text(tail)).encode("utf-8")
        parts.append(Part(f"[file: {shown}, from byte {cut:,}]", body, shown, str(path), "project"))
    return 0


def _has_text(path: Path, limit: int) -> bool:
    """Whether a regular file holds more than white space (unreadable: left to the read that reports it)."""
    text = read_text(path, limit, regular=True).text
    return text is None or bool(text.strip())


def _parent_file(path: Path, config: RuleweaveConfig) -> bool:
    """A regular file above the project root that Claude Code would read (links: not when ignored)."""
    try:
        if config.symlinks == "ignore" and path.is_symlink():
            return False
        return path.is_file()
    except OSError:
        return False


def refit(
    blob: InstructionBlob, limit: int, rules_limit: int | None = None,
    whole: Callable[[Part], bool] | None = None,
) -> InstructionBlob:
    """``blob`` fitted again to a smaller ``limit`` (its share of the prompt budget); no I/O.

    Args:
        blob: A blob from ``build_instructions``.
        limit: The new byte limit.
        rules_limit: At most this much for the Claude rules (after the files, ``fit_ordered``).
        whole: Parts never cut (``budget.keeps_whole``).

    Returns:
        ``blob`` itself when it fits, else the blob re-assembled from the same parts.
    """
    if blob.budget.used <= limit and rules_limit is None:
        return blob
    fitted = _assemble(list(blob.parts), limit, blob.warnings, blob.seen, rules_limit, whole)
    return fitted._replace(merged=blob.merged, scoped=blob.scoped, formats=blob.formats)


def _assemble(
    parts: list[Part], limit: int, warnings: tuple[DiscoveryWarning, ...], seen: frozenset[str],
    rules_limit: int | None = None, whole: Callable[[Part], bool] | None = None,
) -> InstructionBlob:
    """The blob of ``parts`` within ``limit`` (files first, then rules): text, per-file report, budget."""
    placed = fit_ordered(parts, limit, rules_limit, whole)
    found = list(warnings)
    files: list[InstructionFile] = []
    cuts: list[BudgetCut] = []
    chunks: list[str] = []
    by_part = {id(part): (placed_body, dropped) for part, placed_body, dropped in placed}
    for part in parts:
        placed_body, dropped = by_part.get(id(part), (b"", len(part.body)))
        if id(part) in by_part:
            chunks.append(part.header + "\n" + placed_body.decode("utf-8"))
        else:
            where = f"; the whole text is at {part.where}" if part.where else ""
            found.append(DiscoveryWarning(
                path=part.abs_path,
                message=f"dropped whole: the blob's {limit}-byte budget cannot hold it{where}",
            ))
        if dropped:
            cuts.append(BudgetCut(part.path, dropped))
        files.append(
            InstructionFile(part.path, part.abs_path, part.level, len(part.body) - dropped,
                            len(part.body), bool(dropped), dropped)
        )
    text = SEPARATOR.join(chunks)
    budget = InstructionBudget(limit, len(text.encode("utf-8")), tuple(cuts))
    return InstructionBlob(text, tuple(files), budget, tuple(found), seen, tuple(parts))
