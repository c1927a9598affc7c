"""The prompt contribution's byte budget: blocks fitted to their caps and to one shared limit.

``prompt_max_bytes`` is shared max-min fairly (the blob's water-filling,
``instructions.budget.fair_shares``) by the instruction blob,
``<generic-rules>`` and the ``<domain-rules>`` listing: a block under its
fair share stays whole, the others are cut to equal shares, so one huge
always-on rule cannot starve the rest. Each block may also have a cap of its
own (``instructions_max_bytes``, ``generic_max_bytes``, ``domain_max_bytes``),
applied first. Inside ``<generic-rules>`` the rules share the block's bytes
the same way; a cut rule keeps its first part and ends with a marker naming
``rule://<name>``. The listing keeps whole lines, in order, and says how many
it left out. Nothing here does I/O.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ruleweave.instructions.budget import SEPARATOR, Part, fair_shares, fit
from ruleweave.prompt import neutralise, one_line_escaped, template
from ruleweave.prompt._cuts import MARKER_PREFIX
from ruleweave.rules import Rule

UNLIMITED = sys.maxsize
"""The limit of a block with no cap of its own and no share to keep to."""


@dataclass(frozen=True, slots=True)
class BlockCut:
    """One file or rule a block cut.

    Attributes:
        path: The file's path (relative to the project when inside it).
        bytes_dropped: Body bytes left out.
        name: The rule's name ('' for an instruction file).
    """

    path: str
    bytes_dropped: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class BlockBudget:
    """How one block of the prompt fit its bytes.

    Attributes:
        block: ``instructions``, ``generic`` or ``domain``.
        limit: The bytes it was allowed: its own cap, or its fair share of
            ``prompt_max_bytes`` when that is smaller (``None``: no limit of its own and no cut).
        used: UTF-8 bytes of the block as rendered.
        cut: Each file or rule cut, in block order.
    """

    block: str
    limit: int | None
    used: int
    cut: tuple[BlockCut, ...] = ()


@dataclass(frozen=True, slots=True)
class Fitted:
    """A block rendered within a limit: its text, the rules it shows, what it cut."""

    text: str
    rules: tuple[Rule, ...]
    cut: tuple[BlockCut, ...]


def smaller(a: int | None, b: int | None) -> int | None:
    """The smaller of two optional limits (``None`` is no limit)."""
    if a is None:
        return b
    return a if b is None else min(a, b)


def fit_generic(
    rules: Sequence[Rule],
    templates: Mapping[str, str],
    limit: int | None,
    shown_path: Callable[[Rule], str],
) -> Fitted:
    """``<generic-rules>`` within ``limit`` bytes, each rule under a header line with its name and path.

    Args:
        rules: The generic rules kept, in precedence order.
        templates: Template overrides.
        limit: The block's byte limit (``None``: none).
        shown_path: A rule's path as the header shows it.

    Returns:
        The block ('' when empty or when not even headers fit), the rules it shows and
        the rules it cut. When headers and markers alone do not fit, rules are dropped
        whole, last in precedence first.
    """
    if not rules:
        return Fitted("", (), ())
    entry = template(templates, "generic_rule")
    wrapper = template(templates, "generic")
    parts: list[Part] = []
    by_part: dict[int, Rule] = {}
    for rule in rules:
        name, path = one_line_escaped(rule.name), one_line_escaped(shown_path(rule))
        frame = len(entry.format(name=name, path=path, body="").encode("utf-8"))
        part = Part(name, neutralise(rule.content).encode("utf-8"), path, rule.path, "rule",
                    where=f"rule://{name}", frame=frame)
        parts.append(part)
        by_part[id(part)] = rule
    room = (UNLIMITED if limit is None else limit) - len(wrapper.format(rules="").encode("utf-8"))
    placed = list(reversed(fit(list(reversed(parts)), room))) if room >= 0 else []
    if not placed:
        return Fitted("", (), tuple(BlockCut(p.path, len(p.body), by_part[id(p)].name) for p in parts))
    placed_by = {id(part): (body, dropped) for part, body, dropped in placed}
    cuts: list[BlockCut] = []
    entries: list[str] = []
    for part in parts:
        rule = by_part[id(part)]
        got = placed_by.get(id(part))
        if got is None:
            cuts.append(BlockCut(part.path, len(part.body), rule.name))
            continue
        body, dropped = got
        if dropped:
            cuts.append(BlockCut(part.path, dropped, rule.name))
        entries.append(entry.format(name=part.header, path=part.path, body=body.decode("utf-8")))
    text = wrapper.format(rules=SEPARATOR.join(entries))
    return Fitted(text, tuple(by_part[id(part)] for part, _, _ in placed), tuple(cuts))


def listing_marker(count: int, dropped: int) -> str:
    """The line that ends a cut ``<domain-rules>`` listing."""
    return (
        f"{MARKER_PREFIX}{count} more rules ({dropped} bytes) left out of this listing; "
        "rule:// with no name lists every rule]"
    )


def fit_listing(
    rules: Sequence[Rule],
    entries: Sequence[str],
    render: Callable[[str], str],
    joiner: str,
    limit: int | None,
) -> Fitted:
    """A listing block within ``limit`` bytes: whole entries in order, then a marker line.

    Args:
        rules: The listed rules.
        entries: One rendered entry per rule.
        render: The block around its joined entries.
        joiner: Between two entries.
        limit: The block's byte limit (``None``: none).

    Returns:
        The block ('' when not even one entry and the marker fit), the rules it
        lists and those it left out (each as a cut of its whole entry).
    """
    if not rules:
        return Fitted("", (), ())
    whole = render(joiner.join(entries))
    if limit is None or len(whole.encode("utf-8")) <= limit:
        return Fitted(whole, tuple(rules), ())
    sizes = [len(e.encode("utf-8")) for e in entries]
    for keep in range(len(entries) - 1, -1, -1):
        left = sum(sizes[keep:])
        shown = [*entries[:keep], listing_marker(len(entries) - keep, left)]
        text = render(joiner.join(shown))
        if len(text.encode("utf-8")) <= limit:
            cut = tuple(BlockCut(r.path, sizes[keep + i], r.name) for i, r in enumerate(rules[keep:]))
            return Fitted(text if keep else "", tuple(rules[:keep]), cut if keep else _all(rules, sizes))
    return Fitted("", (), _all(rules, sizes))


def _all(rules: Sequence[Rule], sizes: Sequence[int]) -> tuple[BlockCut, ...]:
    return tuple(BlockCut(r.path, size, r.name) for r, size in zip(rules, sizes, strict=True))


def block_shares(sizes: Sequence[int], limit: int) -> list[int | None]:
    """Each block's share of ``limit`` (None: it stays whole); blank lines between blocks are paid first."""
    present = sum(1 for size in sizes if size)
    available = limit - len(SEPARATOR) * max(present - 1, 0)
    return fair_shares(list(sizes), max(available, 0))
