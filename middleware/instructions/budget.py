"""The blob's byte budget: max-min fair shares and truncation markers.

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
from dataclasses import dataclass

from ruleweave.instructions.model import InstructionLevel
from ruleweave.reading import cut_utf8

SEPARATOR = "\n\n"
"""Between two parts of the blob."""


@dataclass(frozen=True, slots=True)
class Part:
    """One part of the blob before the budget: header, processed body, where it came from."""

    header: str
    body: bytes
    path: str
    abs_path: str
    level: InstructionLevel


def marker(path: str, dropped: int) -> bytes:
    """The line appended to a cut body (with its leading newline), UTF-8 encoded."""
    return f"\n[ruleweave: {path} truncated, {dropped} bytes dropped]".encode()


def cut_to_share(body: bytes, share: int, path: str) -> tuple[bytes, int] | None:
    """``body`` cut so that it and its marker fit ``share``; (text, dropped) or None if not."""
    room = share - len(marker(path, len(body)))  # the widest marker this body can need
    if room < 0:
        return None
    kept = cut_utf8(body, room)
    dropped = len(body) - len(kept)
    return kept + marker(path, dropped), dropped


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
        headers = sum(len(p.header.encode("utf-8")) + 1 for p in parts)
        overhead = headers + len(SEPARATOR) * (len(parts) - 1)
        shares = fair_shares([len(p.body) for p in parts], limit - overhead)
        placed: list[tuple[Part, bytes, int]] = []
        for part, share in zip(parts, shares, strict=True):
            if share is None:
                placed.append((part, part.body, 0))
                continue
            cut = cut_to_share(part.body, share, part.path)
            if cut is None:
                break
            placed.append((part, *cut))
        else:
            return placed
        parts.pop(0)  # headers and markers alone do not fit: the part farthest from cwd goes
    return []
