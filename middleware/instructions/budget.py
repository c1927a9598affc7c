"""The blob's byte budget: max-min fair shares (water-filling) and truncation markers.

The same water-filling shares the whole prompt contribution between its blocks
(``prompt_budget``), the rules of ``<generic-rules>``, and the rules of one
after-tool notice (``notices``); cuts and markers are ``cuts``.

Instruction files come first (``fit_ordered``): they share the limit, and the
Claude rules without ``paths`` share what they leave, so always-on rules never
cut the project's main ``AGENTS.md`` / ``CLAUDE.md``; a ``keep_whole`` part is
never cut at all. The headers, the newline after each header and the blank
lines between parts are fixed overhead, taken off the limit first. What is left is shared
max-min fairly over the bodies (water-filling): a body no bigger than its
fair share stays whole, the others are cut to equal shares. A cut body's
share pays for its marker too, so the blob never exceeds the limit. When
not even the overhead and markers fit, parts are dropped whole, farthest from
cwd first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fnmatch import fnmatchcase

from ruleweave.instructions.model import Part
from ruleweave.prompt._cuts import cut_to_share, marker

__all__ = ["SEPARATOR", "Part", "cut_to_share", "fair_shares", "fit", "fit_ordered", "keeps_whole", "marker"]

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


def fit(
    parts: Sequence[Part], limit: int, whole: Callable[[Part], bool] | None = None
) -> list[tuple[Part, bytes, int]]:
    """Each part kept in the blob with its placed body and bytes dropped; the rest drop whole.

    Args:
        parts: The parts, in blob order.
        limit: Bytes they may take, headers and blank lines between them included.
        whole: Which parts are never cut (``keep_whole``): placed whole first, even past ``limit``;
            the others share what is left.

    Returns:
        ``(part, placed body, bytes dropped)`` per part kept, in blob order.
    """
    parts = list(parts)
    while parts:
        headers = sum(p.overhead for p in parts)
        overhead = headers + len(SEPARATOR) * (len(parts) - 1)
        kept = [whole is not None and whole(p) for p in parts]
        fixed = sum(len(p.body) for p, k in zip(parts, kept, strict=True) if k)
        free = [p for p, k in zip(parts, kept, strict=True) if not k]
        shares = iter(fair_shares([len(p.body) for p in free], limit - overhead - fixed))
        placed: list[tuple[Part, bytes, int]] = []
        for part, keep in zip(parts, kept, strict=True):
            share = None if keep else next(shares)
            if share is None:
                placed.append((part, part.body, 0))
                continue
            cut = cut_to_share(part.body, share, part.where or part.path)
            if cut is None:
                break
            placed.append((part, *cut))
        else:
            return placed
        # Headers and markers alone do not fit: the part farthest from cwd goes (never a whole one).
        victim = next((i for i, keep in enumerate(kept) if not keep), None)
        if victim is None:
            return [(part, part.body, 0) for part in parts]
        parts.pop(victim)
    return []


def fit_ordered(
    parts: Sequence[Part], limit: int, rules_limit: int | None = None,
    whole: Callable[[Part], bool] | None = None,
) -> list[tuple[Part, bytes, int]]:
    """``fit`` in two shares: instruction files first (up to ``limit``), then Claude rules with the rest.

    Every agent loads a project's main ``AGENTS.md`` / ``CLAUDE.md`` whole, so the files are
    fitted first (max-min among themselves, ``whole`` ones never cut); the rules without
    ``paths`` share what the files leave (and at most ``rules_limit``), each cut one ending
    with a marker that names ``rule://<name>``.

    Args:
        parts: The blob's parts in blob order (files, then ``level == "rule"`` parts).
        limit: The blob's bytes.
        rules_limit: A smaller share for the rules, when the prompt budget gives them less.
        whole: Parts never cut.

    Returns:
        As ``fit``, in blob order.
    """
    files = [p for p in parts if p.level != "rule"]
    rules = [p for p in parts if p.level == "rule"]
    placed = fit(files, limit, whole)
    used = sum(p.overhead + len(body) for p, body, _ in placed) + len(SEPARATOR) * max(len(placed) - 1, 0)
    room = limit - used - (len(SEPARATOR) if placed else 0)
    if rules_limit is not None:
        room = min(room, rules_limit)
    placed += fit(rules, room, whole) if room > 0 else [(p, p.body, 0) for p in rules if whole and whole(p)]
    order = {id(part): index for index, part in enumerate(parts)}
    return sorted(placed, key=lambda entry: order[id(entry[0])])


def keeps_whole(patterns: Iterable[str]) -> Callable[[Part], bool] | None:
    """The test for ``RuleweaveConfig.keep_whole``: a part whose path (project-relative, ``~/…``, or
    absolute) matches one of ``patterns`` (``fnmatch``, ``*`` crossing ``/``) is never cut.

    Args:
        patterns: Paths or patterns.

    Returns:
        The test, or ``None`` when no pattern is given.
    """
    wanted = tuple(patterns)
    if not wanted:
        return None

    def test(part: Part) -> bool:
        return any(fnmatchcase(part.path, p) or fnmatchcase(part.abs_path, p) for p in wanted)

    return test
