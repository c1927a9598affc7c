"""Dead globs: a glob that matches no file of the project, so its rule never fires from it.

One pass over the listing: every glob of every rule goes into one
``GlobIndex`` (each compiled once), and each file is looked up once, so the
cost follows the files, not files × rules. A glob is matched in its agent's
dialect: discovery writes every glob in the matcher's reading
(``placement.dialect_glob``: Cursor's bare ``*.py`` becomes ``**/*.py``), so
a glob still without ``/`` is a root-dialect one (Claude Code, Copilot,
Cline) and matches files in the root only; lint says so when that is why a
glob is dead. A rule whose globs are all dead is also a ``dead-rule``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ruleweave import frontmatter as fm
from ruleweave.globs import GlobIndex, PathSpellings, glob_problem
from ruleweave.lint.agents import format_label
from ruleweave.lint.findings import Finding
from ruleweave.lint.sources import LintSources
from ruleweave.rules import Rule

_KEYS = ("globs", "paths", "apply_to", "file_match_pattern", "apply")


def check_dead_globs(sources: LintSources) -> list[Finding]:
    """Findings for globs no project file matches, and rules all of whose globs are so.

    Args:
        sources: What lint looks at.

    Returns:
        ``dead-glob`` and ``dead-rule`` findings.
    """
    rules = [rule for rule in sources.rules if rule.globs]
    if not rules:
        return []
    matched = match_globs(sources, rules)
    alive, elsewhere = matched.alive, matched.elsewhere
    findings: list[Finding] = []
    for r, rule in enumerate(rules):
        dead = [g for g in range(len(rule.globs)) if (r, g) not in alive]
        for g in dead:
            findings.append(_dead_glob(sources, rule, g, (r, g) in elsewhere))
        if dead and len(dead) == len(rule.globs):
            shown = ", ".join(repr(_glob_line(sources, rule, g)[1]) for g in range(len(rule.globs)))
            findings.append(Finding(
                "dead-rule", "warning", sources.relative(rule.path), _glob_line(sources, rule, 0)[0],
                f"rule {rule.name!r} never fires: none of its globs ({shown}) matches a file in the project.",
            ))
    return findings


@dataclass(frozen=True, slots=True)
class GlobMatches:
    """Which globs of which rules match project files.

    Attributes:
        alive: ``(rule index, glob index)`` of every glob that matches a file.
        elsewhere: Globs that match only files below the root in a root-only dialect.
        files: Per rule, the files any of its globs matches (counted only when asked).
    """

    alive: frozenset[tuple[int, int]]
    elsewhere: frozenset[tuple[int, int]]
    files: tuple[int, ...] = ()


def match_globs(
    sources: LintSources,
    rules: Sequence[Rule],
    *,
    count: bool = False,
    on_file: Callable[[str, list[tuple[int, int]]], None] | None = None,
) -> GlobMatches:
    """Match every glob of ``rules`` against the project's files in one pass.

    A glob without ``/`` (a root-dialect one, see the module docstring) matches root files only.

    Args:
        sources: What lint looks at (the file listing).
        rules: The rules.
        count: Also count, per rule, the files it attaches to (else the pass stops
            as soon as every glob has matched).
        on_file: Called with each file some glob attaches a rule to and the
            ``(rule index, glob index)`` pairs that do, each rule once, with its first
            matching glob (``ruleweave map`` places rules on directories with it);
            implies a pass over every file, as ``count`` does.

    Returns:
        The matches.
    """
    keys = [(r, g) for r, rule in enumerate(rules) for g in range(len(rule.globs))]
    index: GlobIndex[tuple[int, int]] = GlobIndex(((r, g), rules[r].globs[g]) for r, g in keys)
    root_only = {(r, g) for r, g in keys if "/" not in rules[r].globs[g] and "**" not in rules[r].globs[g]}
    alive: set[tuple[int, int]] = set()
    elsewhere: set[tuple[int, int]] = set()
    files = [0] * len(rules)
    prefix = sources.root.rstrip("/") + "/"
    remaining = len(keys)
    for path in sources.listing.paths:
        name = path.rsplit("/", 1)[-1]
        hit: dict[int, int] = {}
        for key, _ in index.lookup(PathSpellings(path, prefix + path, name)):
            if key in root_only and "/" in path:
                elsewhere.add(key)
                continue
            hit[key[0]] = min(hit.get(key[0], key[1]), key[1])
            if key not in alive:
                alive.add(key)
                remaining -= 1
        for r in hit:
            files[r] += 1
        if on_file is not None:
            if hit:
                on_file(path, sorted(hit.items()))
        elif not remaining and not count:
            break
    return GlobMatches(frozenset(alive), frozenset(elsewhere - alive), tuple(files) if count else ())


def attached_files(sources: LintSources, rules: Sequence[Rule]) -> dict[Rule, int]:
    """Per rule, how many project files its globs attach it to, all counted in one pass.

    Args:
        sources: What lint looks at (the file listing).
        rules: The rules (those without globs count 0).

    Returns:
        Rule → files.
    """
    globbed = [rule for rule in rules if rule.globs]
    counts = match_globs(sources, globbed, count=True).files if globbed else ()
    return {**dict.fromkeys(rules, 0), **dict(zip(globbed, counts, strict=True))}


def _dead_glob(sources: LintSources, rule: Rule, index: int, only_below_root: bool) -> Finding:
    line, glob = _glob_line(sources, rule, index)
    problem = glob_problem(rule.globs[index])
    if problem is not None:
        why = f"it {problem}"
    elif only_below_root:
        label = format_label(rule.source.provider)
        why = f"{label} matches a bare glob against files in the project root only (write '**/{glob}')"
    else:
        why = "no file in the project matches it"
    return Finding(
        "dead-glob", "warning", sources.relative(rule.path), line,
        f"glob {glob!r} of rule {rule.name!r} never fires: {why}.",
    )


def _glob_line(sources: LintSources, rule: Rule, index: int) -> tuple[int | None, str]:
    """The frontmatter line that writes glob ``index`` of ``rule``, and the glob as written there.

    Discovery rewrote it (a bare ``*.py`` of an ``anywhere`` agent is ``**/*.py``; a nested
    folder's globs are prefixed with its directory), so the written forms are tried in turn.
    """
    glob = rule.globs[index]
    rest = glob.split("/", rule.base.count("/") + 1)[-1] if rule.base else glob
    written = list(dict.fromkeys((glob, rest, rest.removeprefix("**/"))))
    text = sources.text(sources.relative(rule.path))
    if text is None:
        return None, written[0]
    head = text.text.split("\n")[: max(text.body_line - 1, 1)]
    for candidate in written:
        for number, line in enumerate(head, 1):
            if candidate in line.split(":", 1)[-1]:
                return number, candidate
    for number, line in enumerate(head, 1):
        if fm.snake_key(line.split(":", 1)[0].strip()) in _KEYS:
            return number, rest
    return 1, rest
