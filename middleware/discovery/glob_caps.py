"""Caps on globs, per rule and per file: a repository that writes 100,000 globs loads, with a warning.

Each brace alternative counts as one glob (``*.{ts,tsx}`` is two), since that
is what the glob index files and matches. A rule keeps its globs in order up
to ``max_globs_per_rule``; the rules one file holds (a plugin's policy file
may hold many) keep theirs, in order, up to ``max_globs_per_file``. Every
glob dropped is reported in one warning per rule, naming its file. A rule
left with no globs falls to the bucket its other fields give it (description
only → rulebook, else manual).

There is no cap on all rules together: a monorepo of 10,000 rules keeps every
glob. What bounds a hostile flood is its cost: these caps per rule and per
file, ``max_rule_files`` per provider root, and a lookup whose cost follows
the globs a path could match (RE2, linear in the path), not their number.
"""

from __future__ import annotations

from collections.abc import Sequence

from ruleweave._text.echo import shown
from ruleweave.globs._shapes import alternatives
from ruleweave.rules import DiscoveryWarning, Rule


def glob_weight(pattern: str) -> int:
    """How many index entries ``pattern`` costs: its brace alternatives (at least one)."""
    if "{" not in pattern:
        return 1
    expanded = alternatives(pattern)
    return max(1, len(expanded)) if expanded is not None else 1


def cap_globs(
    rules: Sequence[Rule], per_rule: int, per_file: int
) -> tuple[tuple[Rule, ...], list[DiscoveryWarning]]:
    """The rules with their globs cut to the caps, and a warning per rule that lost any.

    Args:
        rules: Rules in precedence order (a file's earlier rules keep their globs first).
        per_rule: Most globs (brace alternatives) one rule keeps.
        per_file: Most globs the rules of one file keep together.

    Returns:
        The rules (unchanged objects when nothing was cut) and the warnings.
    """
    out: list[Rule] = []
    warnings: list[DiscoveryWarning] = []
    left: dict[str, int] = {}  # per file: what its rules may still keep
    for rule in rules:
        if not rule.globs:
            out.append(rule)
            continue
        file_left = left.get(rule.path, per_file)
        limit = min(per_rule, file_left)
        kept: list[str] = []
        used = 0
        for glob in rule.globs:
            weight = glob_weight(glob)
            if used + weight > limit:
                break
            kept.append(glob)
            used += weight
        left[rule.path] = file_left - used
        if len(kept) == len(rule.globs):
            out.append(rule)
            continue
        dropped = len(rule.globs) - len(kept)
        weight_all = sum(glob_weight(glob) for glob in rule.globs)
        which = (
            f"the limit of {per_rule} per rule" if weight_all > per_rule and limit == per_rule
            else f"the limit of {per_file} for the rules of one file"
        )
        warnings.append(
            DiscoveryWarning(
                path=rule.path, provider=rule.source.provider,
                message=(
                    f"rule {shown(rule.name)} has {weight_all} globs (brace alternatives counted), "
                    f"past {which}; {dropped} of its {len(rule.globs)} globs were dropped"
                ),
            )
        )
        out.append(rule._replace(globs=tuple(kept)))
    return tuple(out), warnings
