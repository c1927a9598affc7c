"""Assembly of the prompt contribution: ``PromptParts`` and its budget report.

``prompt`` renders blocks; this module puts a rule set's blocks together
(instruction blob, ``<generic-rules>``, ``<domain-rules>``, the turn's
``<steering>``) and remembers the result per custom system prompt. Template
overrides are checked when a rule set loads (``_templates``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ruleweave._files.paths import display
from ruleweave._lru import LruCache
from ruleweave.buckets import Buckets
from ruleweave.config import RuleweaveConfig
from ruleweave.instructions import InstructionBlob
from ruleweave.instructions.budget import SEPARATOR, keeps_whole
from ruleweave.prompt import address, dedupe_generic, domain_entries, join_blocks
from ruleweave.prompt._budget import (
    BlockBudget,
    BlockCut,
    fit_generic,
    fit_listing,
    listing_floor,
    ordered,
)
from ruleweave.rules import DiscoveryWarning, Rule


@dataclass(frozen=True, slots=True)
class BudgetReport:
    """How the prompt contribution fit its byte budget.

    Attributes:
        limit: ``prompt_max_bytes``, shared by the blob, ``<generic-rules>`` and ``<domain-rules>``.
        used: Bytes of the contribution as rendered (steering not counted).
        cut: ``(path, bytes_dropped)`` for every file or rule any block cut, in block order.
        blocks: Per block (``instructions``, ``generic``, ``domain``): limit, used and each cut.
    """

    limit: int
    used: int
    cut: tuple[tuple[str, int], ...] = ()
    blocks: tuple[BlockBudget, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The report as ``ruleweave prompt --json`` spells it (``budget``) and ``ruleweave map`` joins it."""
        return {
            "limit": self.limit,
            "used": self.used,
            "cut": [
                {"path": cut.path, "bytes_dropped": cut.bytes_dropped, "block": block.block,
                 "name": cut.name or None}
                for block in self.blocks
                for cut in block.cut
            ],
            "blocks": [
                {"block": block.block, "limit": block.limit, "used": block.used,
                 "cut": [{"path": c.path, "name": c.name or None, "bytes_dropped": c.bytes_dropped}
                         for c in block.cut]}
                for block in self.blocks
            ],
        }


@dataclass(frozen=True, slots=True)
class PromptParts:
    """Everything a session contributes to the system prompt.

    Attributes:
        text: The whole contribution (instructions, generic, domain, steering).
        generic: The ``<generic-rules>`` block ('' when empty).
        domain: The ``<domain-rules>`` block and rule:// paragraph ('' when empty).
        instructions: The instruction blob ('' when empty).
        steering: The current turn's ``<steering>`` block ('' when none).
        budget: The budget report: the whole contribution and each block.
        warnings: Problems met building the prompt (unreadable files, cut imports).
        generic_rules: Names in ``<generic-rules>``, in order.
        domain_rules: Names in ``<domain-rules>``, in order.
        deduplicated: Generic rules dropped because the prompt already holds them.
    """

    text: str
    generic: str
    domain: str
    instructions: str
    budget: BudgetReport
    steering: str = ""
    warnings: tuple[DiscoveryWarning, ...] = ()
    generic_rules: tuple[str, ...] = ()
    domain_rules: tuple[str, ...] = ()
    deduplicated: tuple[str, ...] = ()

    @property
    def sha256(self) -> str:
        """Hex digest of ``text``."""
        import hashlib  # here: a hook process that never asks for a digest never pays its import

        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


CACHED_PROMPTS = 32
"""Distinct custom system prompts whose assembled parts a rule set remembers."""


class PromptAssembly:
    """A rule set's prompt contribution, assembled once per custom system prompt.

    Args:
        config: Templates and the default custom prompt.
        buckets: The rule set's buckets.
        blob: The instruction blob.
        warnings: The rule set's warnings, reported with the parts.
    """

    def __init__(
        self,
        config: RuleweaveConfig,
        buckets: Buckets,
        blob: InstructionBlob,
        warnings: tuple[DiscoveryWarning, ...],
    ) -> None:
        self.config = config
        self.buckets = buckets
        self.blob = blob
        self.warnings = warnings
        self._cache: LruCache[str | None, PromptParts] = LruCache(CACHED_PROMPTS)

    def parts(self, custom_system_prompt: str | None = None, steering: str = "") -> PromptParts:
        """The prompt contribution (without steering it is the same for every session).

        Args:
            custom_system_prompt: The caller's own prompt, to drop generic rules it repeats
                (default: ``config.custom_system_prompt``).
            steering: A ``<steering>`` block to append.

        Returns:
            The parts; byte-identical for identical inputs.
        """
        if custom_system_prompt is None:
            custom_system_prompt = self.config.custom_system_prompt
        base = self._cache.get(custom_system_prompt)
        if base is None:
            base = self._cache.setdefault(custom_system_prompt, self._assemble(custom_system_prompt))
        if not steering:
            return base
        return replace(base, text=join_blocks((base.text, steering)), steering=steering)

    def _shown_path(self, rule: Rule) -> str:
        """A rule's path as ``<generic-rules>`` shows it: relative to the project, ``~/…``, or builtin."""
        if rule.source.level == "builtin":
            return f"(builtin) {rule.name}"
        return display(rule.path, self.config.root, self.config.home, home_first=rule.source.level == "user")

    def _assemble(self, custom_system_prompt: str | None) -> PromptParts:
        config = self.config
        templates = config.templates
        kept, dropped = dedupe_generic(self.buckets.generic, (custom_system_prompt or "", self.blob.text))
        domain_rules = self.buckets.domain
        entries, block, joiner = domain_entries(domain_rules, templates, custom=config.custom_template)
        where = address(templates, "")  # how this host reads a rule: with no name, every rule's name

        caps = (config.instructions_max_bytes, config.generic_max_bytes, config.domain_max_bytes)
        blob = self.blob  # within its own cap, files first (``instructions.budget.fit_ordered``)
        generic = fit_generic(kept, templates, caps[1], self._shown_path)
        domain = fit_listing(domain_rules, entries, block, joiner, caps[2], where)
        sizes = [len(text.encode("utf-8")) for text in (blob.text, generic.text, domain.text) if text]
        limits: list[int | None] = list(caps)
        if sum(sizes) + len(SEPARATOR) * max(len(sizes) - 1, 0) > config.prompt_max_bytes:
            # Files first, then always-on rules, then the listing (``prompt._budget.ordered``).
            blob, generic, domain, limits = ordered(
                config.prompt_max_bytes, caps, self.blob,
                lambda limit: fit_generic(kept, templates, limit, self._shown_path),
                lambda limit: fit_listing(domain_rules, entries, block, joiner, limit, where),
                listing_floor(entries, block, joiner, config.prompt_max_bytes, where),
                keeps_whole(config.keep_whole),
            )
        rule_names = {p.path: p.where.removeprefix("rule://") for p in self.blob.parts if p.level == "rule"}
        blob_cuts = tuple(
            BlockCut(c.path, c.bytes_dropped, rule_names.get(c.path, "")) for c in blob.budget.cut
        )
        report = (
            BlockBudget("instructions", limits[0], len(blob.text.encode("utf-8")), blob_cuts),
            BlockBudget("generic", limits[1], len(generic.text.encode("utf-8")), generic.cut),
            BlockBudget("domain", limits[2], len(domain.text.encode("utf-8")), domain.cut),
        )
        text = join_blocks((blob.text, generic.text, domain.text))
        return PromptParts(
            text=text,
            generic=generic.text,
            domain=domain.text,
            instructions=blob.text,
            budget=BudgetReport(
                limit=config.prompt_max_bytes,
                used=len(text.encode("utf-8")),
                cut=tuple((c.path, c.bytes_dropped) for b in report for c in b.cut),
                blocks=report,
            ),
            warnings=self.warnings,
            generic_rules=tuple(r.name for r in generic.rules),
            domain_rules=tuple(r.name for r in domain.rules),
            deduplicated=tuple(r.name for r in dropped),
        )
