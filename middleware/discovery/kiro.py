"""kiro (priority 30): Kiro steering files.

User tier ``~/.kiro/steering`` first, then ``.kiro/steering/*.md`` in each
directory of the root→cwd walk. Name: the stem. ``inclusion``: ``always``
(the default) → always, ``fileMatch`` → ``fileMatchPattern`` as globs (a bare
``*.tsx`` matches anywhere), ``auto`` → ``description``, ``manual`` → manual.
A ``fileMatch`` file of the user tier (``~/.kiro/steering``) never fires in
Kiro today (its tracker: https://github.com/kirodotdev/Kiro/issues/9176), so
ruleweave keeps it manual (``rule://`` only) and warns; ``lint`` says so too.

A ``#[[file:relative/path]]`` reference pulls that file's text into the
steering file, as Kiro does: the path is relative to the directory holding
``.kiro`` (the workspace root), must stay inside the project (links
resolved), is read within ``max_file_bytes`` and never blocks; the text goes
in a fenced block right after the reference, at most 16 (``MAX_REFERENCES``) per
file, and the whole rule is capped at ``max_rule_bytes`` again. A reference
that cannot be read is left as written, with a warning naming the steering
file and the reference. Referenced files are not searched for references. A
project steering file's reference to a git-ignored file or a secret-looking
name (``.env``, ``*.pem``: ``ruleweave._files.secrets``) is refused with a
warning unless ``allow_secret_imports``.

Follows: Kiro's steering docs, https://kiro.dev/docs/steering/.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ruleweave import frontmatter as fm
from ruleweave._files.paths import is_within, normalise
from ruleweave._files.reading import truncate_text
from ruleweave._files.secrets import ImportGuard
from ruleweave._text.lazy_regex import LazyRegex
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, standard_fields
from ruleweave.rules import Level, Rule

ID, PRIORITY = "kiro", 30
MAX_REFERENCES = 16
"""File references expanded in one steering file; more stay as written (with a warning)."""
_REFERENCE = LazyRegex(r"#\[\[file:([^\]\n]+)\]\]")
_BACKTICKS = LazyRegex(r"`{3,}")


GLOBAL_FILE_MATCH = (
    "inclusion: fileMatch in the user tier never fires in Kiro (kirodotdev/Kiro#9176); "
    "kept manual (rule:// only): move it to the project's .kiro/steering to have it fire"
)
"""The warning for a user-tier ``fileMatch`` steering file."""


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    fields = standard_fields(data)
    inclusion = (fm.as_text(data.get("inclusion")) or "always").lower().replace("_", "")
    if inclusion == "filematch":
        fields.update(always_apply=False, globs=fm.as_globs(data.get("file_match_pattern")))
    elif inclusion == "auto":
        fields.update(always_apply=False, globs=())
    elif inclusion == "manual":
        fields.update(always_apply=False, globs=(), description=None)
    else:
        fields["always_apply"] = True
    return fields


def _fenced(shown: str, text: str) -> str:
    """``text`` in a fence longer than any backtick run inside it, so it cannot close early."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=2)
    fence = "`" * max(3, longest + 1)
    return f"Contents of {shown}:\n{fence}\n{text.rstrip()}\n{fence}"


def _read_reference(ctx: DiscoveryContext, rule: Rule, base: Path, target: str, level: Level) -> str | None:
    """The text of one referenced file, or ``None`` with a warning naming the steering file."""
    path = normalise(base / target.strip())
    bound = base if level == "user" else normalise(ctx.config.root)
    if os.path.isabs(target.strip()) or not is_within(path, bound):
        ctx.warn(rule.path, f"#[[file:{target}]] points outside the project; not included")
        return None
    if not ctx.is_file(path, level):
        ctx.warn(rule.path, f"#[[file:{target}]] is not a readable file; not included")
        return None
    if level == "project" and (refused := ImportGuard(ctx.config).refusal(str(path))) is not None:
        ctx.warn(rule.path, f"#[[file:{target}]]: {refused}; not included")
        return None
    return ctx.read(path)


def expand_references(ctx: DiscoveryContext, rule: Rule, base: Path, level: Level) -> Rule:
    """``rule`` with each ``#[[file:…]]`` followed by the referenced file's text (see the module)."""
    matches = list(_REFERENCE.finditer(rule.content))
    if not matches:
        return rule
    if len(matches) > MAX_REFERENCES:
        ctx.warn(
            rule.path, f"has {len(matches)} file references; only the first {MAX_REFERENCES} were included"
        )
    parts: list[str] = []
    end = 0
    for match in matches[:MAX_REFERENCES]:
        text = _read_reference(ctx, rule, base, match.group(1), level)
        line_end = rule.content.find("\n", match.end())
        line_end = len(rule.content) if line_end < 0 else line_end
        if text is None or line_end < end:
            continue
        parts.append(rule.content[end:line_end])
        parts.append("\n\n" + _fenced(match.group(1).strip(), text) + "\n")
        end = line_end
    parts.append(rule.content[end:])
    content, dropped = truncate_text("".join(parts), ctx.config.max_rule_bytes)
    if dropped:
        ctx.warn(rule.path, f"with its file references included the rule is over "
                 f"{ctx.config.max_rule_bytes} bytes; {dropped} bytes were cut")
        content += f"\n[ruleweave: rule truncated, {dropped} bytes dropped]"
    return rule._replace(content=content, truncated=rule.truncated or bool(dropped))


def _user_fields(data: dict[str, Any]) -> dict[str, Any]:
    """``_fields`` for the user tier, where Kiro never fires a ``fileMatch`` file."""
    fields = _fields(data)
    inclusion = (fm.as_text(data.get("inclusion")) or "").lower().replace("_", "")
    if inclusion == "filematch":
        fields.update(globs=(), description=None, warnings=(GLOBAL_FILE_MATCH,))
    return fields


def _load_steering(ctx: DiscoveryContext, home: Path, level: Level) -> list[Rule]:
    rules = load_dir(
        ctx, under(home, ".kiro/steering"), provider=ID, priority=PRIORITY,
        level=level, recursive=False, mapper=_user_fields if level == "user" else _fields,
    )
    return [expand_references(ctx, rule, home, level) for rule in rules]


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Kiro steering files, user tier first."""
    rules = _load_steering(ctx, ctx.config.user_home, "user")
    for directory in ctx.walk:
        rules += _load_steering(ctx, directory, "project")
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "~/.kiro/steering, .kiro/steering/*.md", places=True)
