"""The prompt contribution's byte budget: blocks fitted to their caps and to one shared limit.

``prompt_max_bytes`` is shared in order of precedence (``ordered``): the
instruction files first, up to their own cap (``instructions_max_bytes``),
because every agent loads a project's main ``AGENTS.md`` / ``CLAUDE.md``
whole; then the always-on rules (Claude rules without ``paths`` in the blob,
and ``<generic-rules>``), max-min fairly (``instructions.budget.fair_shares``)
so one huge rule cannot starve the rest; then the ``<domain-rules>`` listing.
The listing keeps a small floor whatever comes first (``listing_floor``: 1/16
of the budget, at least its marker line), so the model always learns which
rules exist or how to list them. Each block may also have a cap of its own
(``generic_max_bytes``, ``domain_max_bytes``), applied first, and a file named
in ``keep_whole`` is never cut. Inside ``<generic-rules>`` the rules share the block's bytes
the same way; a cut rule keeps its first part and ends with a marker naming
``rule://<name>``. The listing keeps whole lines, in order, and says how many
it left out. Nothing here does I/O.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ruleweave.instructions.blob import refit
from ruleweave.instructions.budget import SEPARATOR, Part, fair_shares, fit
from ruleweave.instructions.model import InstructionBlob
from ruleweave.prompt import address, neutralise, one_line_escaped, template
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
                    where=address(templates, name), frame=frame)
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


def listing_marker(count: int, dropped: int, where: str = "rule://") -> str:
    """The line that ends a cut ``<domain-rules>`` listing (``where``: the host's address of a rule, with
    no name, which lists every rule)."""
    return (
        f"{MARKER_PREFIX}{count} more rules ({dropped} bytes) left out of this listing; "
        f"{where} with no name lists every rule]"
    )


def fit_listing(
    rules: Sequence[Rule],
    entries: Sequence[str],
    render: Callable[[str], str],
    joiner: str,
    limit: int | None,
    where: str = "rule://",
) -> Fitted:
    """A listing block within ``limit`` bytes: whole entries in order, then a marker line.

    Args:
        rules: The listed rules.
        entries: One rendered entry per rule.
        render: The block around its joined entries.
        joiner: Between two entries.
        limit: The block's byte limit (``None``: none).
        where: How a rule is read, for the marker (``prompt.address`` with no name).

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
        shown = [*entries[:keep], listing_marker(len(entries) - keep, left, where)]
        text = render(joiner.join(shown))
        if len(text.encode("utf-8")) <= limit:
            cut = tuple(BlockCut(r.path, sizes[keep + i], r.name) for i, r in enumerate(rules[keep:]))
            # With no entry left the marker alone still says the rules exist and how to list them.
            return Fitted(text, tuple(rules[:keep]), cut)
    return Fitted("", (), _all(rules, sizes))


LISTING_SHARE = 16
"""The listing keeps at least 1/16 of ``prompt_max_bytes`` (or its marker line, or its whole size)."""


def listing_floor(
    entries: Sequence[str], render: Callable[[str], str], joiner: str, limit: int, where: str = "rule://"
) -> int:
    """Bytes the listing keeps whatever comes first: its whole size when under ``limit // LISTING_SHARE``,
    else that much, but never less than the block holding only its marker line (0 without entries)."""
    if not entries:
        return 0
    whole = len(render(joiner.join(entries)).encode("utf-8"))
    total = sum(len(e.encode("utf-8")) for e in entries)
    marker_only = len(render(listing_marker(len(entries), total, where)).encode("utf-8"))
    return min(whole, max(marker_only, limit // LISTING_SHARE))


def _all(rules: Sequence[Rule], sizes: Sequence[int]) -> tuple[BlockCut, ...]:
    return tuple(BlockCut(r.path, size, r.name) for r, size in zip(rules, sizes, strict=True))


def ordered(
    limit: int,
    caps: Sequence[int | None],
    blob: InstructionBlob,
    generic: Callable[[int | None], Fitted],
    listing: Callable[[int | None], Fitted],
    floor: int,
    whole: Callable[[Part], bool] | None = None,
) -> tuple[InstructionBlob, Fitted, Fitted, list[int | None]]:
    """The three blocks within ``limit``, in order of precedence (the module's docstring).

    Args:
        limit: ``prompt_max_bytes``.
        caps: Each block's cap of its own (instructions, generic, domain).
        blob: The instruction blob as loaded (within its own cap).
        generic: ``<generic-rules>`` fitted to a limit.
        listing: ``<domain-rules>`` fitted to a limit.
        floor: Bytes the listing keeps whatever comes first (``listing_floor``).
        whole: Blob parts never cut (``keep_whole``).

    Returns:
        The blob, the two blocks, and each block's limit as reported.
    """
    sep = len(SEPARATOR)
    cap = caps[0] if caps[0] is not None else UNLIMITED
    reserve = floor + sep if floor else 0
    blob_cap = max(min(cap, limit - reserve), 0)
    files = refit(blob, blob_cap, rules_limit=0, whole=whole)
    used = len(files.text.encode("utf-8"))
    room = max(limit - used - (sep if used else 0) - reserve, 0)
    rules_wanted = sum(p.overhead + len(p.body) + sep for p in blob.parts if p.level == "rule")
    generic_whole = generic(caps[1])
    generic_wanted = len(generic_whole.text.encode("utf-8")) + (sep if generic_whole.text else 0)
    shares = fair_shares([rules_wanted, generic_wanted], room)
    rules_limit = room if shares[0] is None else shares[0]
    placed = refit(blob, blob_cap, rules_limit=rules_limit, whole=whole)
    generic_limit = caps[1] if shares[1] is None else smaller(caps[1], max(shares[1] - sep, 0))
    fitted = generic_whole if shares[1] is None else generic(generic_limit)
    taken = [len(text.encode("utf-8")) for text in (placed.text, fitted.text) if text]
    left = limit - sum(taken) - sep * len(taken)
    listing_limit = smaller(caps[2], max(left, 0))
    return placed, fitted, listing(listing_limit), [blob_cap, generic_limit, listing_limit]
