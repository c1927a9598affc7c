"""Assembly of the prompt contribution: ``PromptParts``, its budget report, template checks.

``prompt`` renders blocks; this module puts a rule set's blocks together
(instruction blob, ``<generic-rules>``, ``<domain-rules>``, the turn's
``<steering>``), remembers the result per custom system prompt, and checks
template overrides when a rule set loads.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ruleweave._files.paths import display
from ruleweave._lru import LruCache
from ruleweave.buckets import Buckets
from ruleweave.config import RuleweaveConfig
from ruleweave.errors import ConfigError
from ruleweave.instructions import InstructionBlob, refit
from ruleweave.prompt import dedupe_generic, domain_entries, join_blocks
from ruleweave.prompt._budget import (
    BlockBudget,
    BlockCut,
    Fitted,
    block_shares,
    fit_generic,
    fit_listing,
    smaller,
)
from ruleweave.rules import DiscoveryWarning, Rule
from ruleweave.ttsr.render import TEMPLATE_FIELDS

_FIELDS: Mapping[str, frozenset[str]] = {
    "generic": frozenset({"rules"}),
    "generic_rule": frozenset({"name", "path", "body"}),
    "domain": frozenset({"rules"}),
    "domain_line": frozenset({"name", "globs", "description"}),
    "rule_protocol": frozenset(),
    "custom_rules": frozenset({"rules"}),
    "custom_rule": frozenset({"name", "description", "globs"}),
    "custom_glob": frozenset({"glob"}),
    "notice": frozenset({"name", "body"}),
    "instructions_notice": frozenset({"path", "body"}),
    "listing_notice": frozenset({"path", "body"}),
}


def check_templates(templates: Mapping[str, str]) -> None:
    """Refuse template overrides that would fail when rendered (prompt, notice and TTSR templates).

    Args:
        templates: ``RuleweaveConfig.templates``.

    Raises:
        ConfigError: An unknown template name, a ``str.format`` field the template does not
            offer, or a malformed format string; the message names the template.
    """
    known = {**_FIELDS, **TEMPLATE_FIELDS}
    for name, text in sorted(templates.items()):
        fields = known.get(name)
        if fields is None:
            raise ConfigError(
                f"Unknown template {name!r} in templates; known: {', '.join(sorted(known))}."
            )
        try:
            used = {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}
        except ValueError as exc:
            raise ConfigError(f"Template {name!r} is not a valid format string: {exc}.") from exc
        for field in sorted(used):
            base = field.split(".", 1)[0].split("[", 1)[0]
            if base not in fields:
                offered = ", ".join("{" + f + "}" for f in sorted(fields)) or "no fields"
                raise ConfigError(
                    f"Template {name!r} uses the unknown field {{{field}}}; it offers {offered}."
                )


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

        def blocks(blob_limit: int | None, generic_limit: int | None, domain_limit: int | None) -> tuple[
            InstructionBlob, Fitted, Fitted
        ]:
            blob = self.blob if blob_limit is None else refit(self.blob, blob_limit)
            generic = fit_generic(kept, templates, generic_limit, self._shown_path)
            domain = fit_listing(domain_rules, entries, block, joiner, domain_limit)
            return blob, generic, domain

        caps = (config.instructions_max_bytes, config.generic_max_bytes, config.domain_max_bytes)
        blob, generic, domain = blocks(None, caps[1], caps[2])
        sizes = [len(text.encode("utf-8")) for text in (blob.text, generic.text, domain.text)]
        shares = block_shares(sizes, config.prompt_max_bytes)
        limits = [
            cap if share is None else smaller(cap, share) for cap, share in zip(caps, shares, strict=True)
        ]
        if any(share is not None for share in shares):
            blob, generic, domain = blocks(
                shares[0], limits[1] if shares[1] is not None else caps[1],
                limits[2] if shares[2] is not None else caps[2],
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
