"""The blob's byte budget: max-min fair shares (water-filling) and truncation markers.

The same water-filling shares the whole prompt contribution between its blocks
(``prompt_budget``), the rules of ``<generic-rules>``, and the rules of one
after-tool notice (``notices``); cuts and markers are ``cuts``.

The headers, the newline after each header and the blank lines between parts
are fixed overhead, taken off the limit first. What is left is shared
max-min fairly over the bodies (water-filling): a body no bigger than its
fair share stays whole, the others are cut to equal shares. A cut body's
share pays for its marker too, so the blob never exceeds the limit. When
not even the overhead and markers fit, parts are dropped whole, farthest from
cwd first.
"""

from __future__ import annotations

from collections.abc import Sequence

from ruleweave.instructions.model import Part
from ruleweave.prompt._cuts import cut_to_share, marker

__all__ = ["SEPARATOR", "Part", "cut_to_share", "fair_shares", "fit", "marker"]

SEPARATOR = "\n\n"
"""Between two parts of the blob."""


def fair_shares(sizes: Sequence[int], available: int) -> list[int | None]:
    """Max-min fair shares: None keeps a body whole, an int is the cut body's share."""
    shares: list[int | None] = [None] * len(sizes)
    if sum(sizes) <= available:
        return shares
    order = sorted(range(len(sizes)), key=lambda i: (sizes[i], i))
    remaining = available
    for position, index in enumerate(order):
        fair = remaining // (len(order) - position)
        if sizes[index] > fair:
            for rest in order[position:]:
                shares[rest] = fair
            break
        remaining -= sizes[index]
    return shares


def fit(parts: Sequence[Part], limit: int) -> list[tuple[Part, bytes, int]]:
    """Each part kept in the blob with its placed body and bytes dropped; the rest drop whole."""
    parts = list(parts)
    while parts:
        headers = sum(p.overhead for p in parts)
        overhead = headers + len(SEPARATOR) * (len(parts) - 1)
        shares = fair_shares([len(p.body) for p in parts], limit - overhead)
        placed: list[tuple[Part, bytes, int]] = []
        for part, share in zip(parts, shares, strict=True):
            if share is None:
                placed.append((part, part.body, 0))
                continue
            cut = cut_to_share(part.body, share, part.where or part.path)
            if cut is None:
                break
            placed.append((part, *cut))
        else:
            return placed
        parts.pop(0)  # headers and markers alone do not fit: the part farthest from cwd goes
    return []
