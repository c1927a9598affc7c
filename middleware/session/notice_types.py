"""The values notices pass around: a candidate ``Match``, a call's ``CallNotices``, and the ``Injection``.

``ruleweave.session.notices`` makes them; sessions, hosts and adapters read
them. NamedTuples, not dataclasses: a hook process creates several per tool
call and must not import ``dataclasses`` at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple, Protocol

from ruleweave._kernel import ledger

NoticeKind = Literal["rule", "instructions", "listing"]
"""A notice carries a ``rule``, a nested ``instructions`` file, or the ``listing`` of a nested
rule folder's description-only rules (as ``rule://`` addresses)."""


class Match(NamedTuple):
    """One notice a touched path calls for.

    NamedTuple, not dataclass (so are ``CallNotices``, ``InjectionItem`` and ``Injection``): ~5×
    cheaper to create in a hook process, which must not import ``dataclasses`` at all.

    Attributes:
        kind: ``rule`` or ``instructions``.
        name: The rule name, or the instruction file's display path.
        path: The file the notice comes from (its identity for at-most-once).
        trigger: The touched path that matched.
        glob: The glob that matched (rules only).
        body: The text to inject.
        provider: The rule's provider ('' for instruction files).
    """

    kind: NoticeKind
    name: str
    path: str
    trigger: str
    glob: str | None
    body: str
    provider: str = ""

    @property
    def key(self) -> str:
        """The store key that makes this notice at-most-once per session.

        An instruction file is keyed by its path; a rule by its path and name, as
        one source (a plugin's policy file) may hold several rules; a nested
        folder's listing by its directory.
        """
        if self.kind == "instructions":
            return ledger.instructions_key(self.path)
        if self.kind == "listing":
            return ledger.listing_key(self.path)
        return ledger.rule_key(self.path, self.name)

    @property
    def record(self) -> str:
        """What the notice ledger keeps for this notice (everything but the body)."""
        return ledger.record(self.kind, self.name, self.path, self.trigger, self.glob)


class Claim(Protocol):
    """A match's store key and ledger record, as ``CallNotices.claims`` holds them."""

    @property
    def key(self) -> str:
        """``Match.key``."""

    @property
    def record(self) -> str:
        """``Match.record``."""


class CallNotices(NamedTuple):
    """What one tool call calls for, before any claim.

    Attributes:
        args: The call's arguments, decoded once.
        paths: The absolute paths it touched.
        matches: Every candidate notice, each source at most once, in path order.
    """

    args: Mapping[str, Any]
    paths: tuple[str, ...]
    matches: tuple[Match, ...]
    claims: Sequence[Claim] = ()
    """Each match's store key and ledger record (``Match.key``, ``Match.record``), made once per path."""


class InjectionItem(NamedTuple):
    """One rule, instruction file or streamed-rule reminder in a notice.

    Immutable, like ``Injection``: derive one with ``item._replace(...)``.

    Attributes:
        kind: ``rule``, ``instructions`` or ``ttsr`` (a streamed rule's reminder).
        name: The rule's name, or the instruction file's path relative to the project.
        path: The file the notice came from.
        trigger: The touched path (relative to the project when inside it); for
            ``ttsr``, the stream it matched in.
        glob: The glob that matched (rules only).
        key: The notice's at-most-once key ('' for a ``ttsr`` reminder).
    """

    kind: Literal["rule", "instructions", "listing", "ttsr"]
    name: str
    path: str
    trigger: str
    glob: str | None
    key: str = ""


class InjectionPart(NamedTuple):
    """One piece of a notice rendered alone: a rule, an instruction file, a listing, or a reminder.

    A host whose answers have a size limit sends the pieces that fit and keeps the
    rest for its next answer (``ruleweave.hosts._core.delivery``).

    Attributes:
        text: The piece, within ``notice_max_bytes`` on its own (not shared with the others).
        items: What it carries: one notice, or the rules of one streamed-rule reminder.
        cut: Bytes of its body left out to fit ``notice_max_bytes`` (its marker names the whole).
    """

    text: str
    items: tuple[InjectionItem, ...]
    cut: int = 0


class Injection(NamedTuple):
    """What to append to a tool result.

    Attributes:
        text: The notice text (its rules share ``notice_max_bytes``).
        items: Each rule or instruction file it carries, with what triggered it.
        parts: The same notices and reminders as pieces, each rendered alone, in order.
    """

    text: str
    items: tuple[InjectionItem, ...]
    parts: tuple[InjectionPart, ...] = ()
