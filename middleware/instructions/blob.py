"""``build_instructions``: the user tier, the root→cwd walk and Claude rules, within budget."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.instructions.budget import SEPARATOR, Part, fit
from ruleweave.instructions.imports import Expander
from ruleweave.instructions.markdown import normalise_text, one_line_folded
from ruleweave.instructions.model import (
    BudgetCut,
    InstructionBlob,
    InstructionBudget,
    InstructionFile,
)
from ruleweave.paths import is_within, normalise
from ruleweave.rules import DiscoveryWarning, Level, Rule


def build_instructions(
    config: RuleweaveConfig, claude_rules: Sequence[Rule] = ()
) -> InstructionBlob:
    """Assemble the instruction blob within ``config.instructions_max_bytes``.

    Never raises for anything found on disk: unreadable, binary or missing
    files and imports become warnings and the blob is built from the rest.

    Args:
        config: The configuration (walk, file list, limits, import policy).
        claude_rules: Unscoped Claude rules (``Buckets.instructions``), in order.

    Returns:
        The blob: text, per-file report, budget report and warnings.
    """
    ctx = DiscoveryContext(config)
    expander = Expander(config, ctx)
    parts: list[Part] = []

    def add(path: Path, level: Literal["user", "project"]) -> None:
        body = expander.file(path, level)
        if body:
            shown = expander.display(path, level)
            parts.append(Part(f"[file: {shown}]", body.encode("utf-8"), shown, str(path), level))

    add(normalise(config.claude_dir / "CLAUDE.md"), "user")
    for directory in ctx.walk:
        for name in config.instruction_files:
            path = normalise(directory / name)
            if not is_within(path, directory) or path == directory:
                ctx.warn(path, f"instruction file name {name!r} leaves its directory; ignored")
                continue
            add(path, "project")
    for rule in claude_rules:
        path = normalise(Path(rule.path))
        tier: Level = "user" if rule.source.level == "user" else "project"
        body = expander.body(path, os.path.realpath(path), normalise_text(rule.content), tier)
        if body:
            parts.append(Part(f"[rule: {one_line_folded(rule.name)}]", body.encode("utf-8"),
                               expander.display(path, tier), str(path), "rule",
                               where=f"rule://{one_line_folded(rule.name)}"))

    seen = frozenset(expander.seen)
    return _assemble(parts, config.instructions_max_bytes, tuple(ctx.warnings), seen)


def refit(blob: InstructionBlob, limit: int) -> InstructionBlob:
    """``blob`` fitted again to a smaller ``limit`` (its share of the prompt budget); no I/O.

    Args:
        blob: A blob from ``build_instructions``.
        limit: The new byte limit.

    Returns:
        ``blob`` itself when it fits, else the blob re-assembled from the same parts.
    """
    if blob.budget.used <= limit:
        return blob
    return _assemble(list(blob.parts), limit, blob.warnings, blob.seen)


def _assemble(
    parts: list[Part], limit: int, warnings: tuple[DiscoveryWarning, ...], seen: frozenset[str]
) -> InstructionBlob:
    """The blob of ``parts`` within ``limit``: text, per-file report, budget report."""
    placed = fit(parts, limit)
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
            found.append(DiscoveryWarning(
                path=part.abs_path, message=f"dropped whole: the blob's {limit}-byte budget cannot hold it"
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
