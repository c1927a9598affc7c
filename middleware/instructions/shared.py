"""Text several agents' files share, included once (docs/instructions.md#the-instruction-blob).

A repository often carries one text as ``AGENTS.md``, ``CLAUDE.md``,
``GEMINI.md`` and ``.github/copilot-instructions.md``. The blob already keeps
one instruction file per text (``Expander.claim``); ``drop_shared`` does the
same for always-on rules (``<generic-rules>``, Copilot's instructions, a
legacy ``.cursorrules``): a rule whose body is the text of a file in the blob,
whitespace and line endings aside, is left out of the block and counted in the
``instructions`` bucket (``rule://`` still reads it), and an ``info`` note in
``scan`` says where its text is.
"""

from __future__ import annotations

from ruleweave.buckets import Buckets
from ruleweave.instructions.imports import content_key
from ruleweave.instructions.model import InstructionBlob
from ruleweave.rules import Bucket, DiscoveryWarning


def drop_shared(buckets: Buckets, blob: InstructionBlob) -> tuple[Buckets, tuple[DiscoveryWarning, ...]]:
    """``buckets`` without the always-on rules whose text the blob already holds.

    Args:
        buckets: The rules by bucket.
        blob: The session-start instruction blob.

    Returns:
        The buckets (the same object when nothing is shared) and an ``info`` note per rule left out.
    """
    if not buckets.generic or not blob.files:
        return buckets, ()
    kept: dict[str, str] = {}
    for part in blob.parts:
        if part.level != "rule":
            kept.setdefault(content_key(part.body.decode("utf-8")), part.path)
    generic: list[str] = []
    notes: list[DiscoveryWarning] = []
    for rule in buckets.generic:
        key = content_key(rule.content)
        where = kept.get(key) or ("an instruction file" if key in blob.seen else None)
        if where is None or rule.truncated:
            continue
        generic.append(rule.name)
        notes.append(DiscoveryWarning(
            path=rule.path, provider=rule.source.provider, severity="info",
            message=f"rule {rule.name!r} has the same text as {where}; included once, there",
        ))
    if not generic:
        return buckets, ()
    dropped = set(generic)
    rest = tuple(r for r in buckets.generic if r.name not in dropped)
    # Its text is in the blob: ``scan`` shows it in the instructions bucket; ``rule://`` still reads it.
    by_rule = dict(buckets.by_rule)
    by_rule.update(dict.fromkeys(dropped, Bucket.INSTRUCTIONS))
    return buckets._replace(generic=rest, by_rule=by_rule), tuple(notes)
