"""Every hook answer under its agent's context limit, and nothing silently lost: send, queue, record.

Each host declares how much context one hook answer may add (``Host.context_limit``).
Claude Code, for one, takes at most ``CONTEXT_LIMIT`` (10,000) UTF-16 code units of
``additionalContext`` per hook answer; a longer one is not cut but saved to a
file, and the model sees a pointer and a 2,000-character preview (the bundled
CLI 2.1.332: threshold ``1e4`` on the string's ``length``, preview ``2000``).
So an answer is packed from whole pieces — the start context, the steering
block, one piece per rule, instruction file or listing notice, one per
streamed-rule reminder — in this order:

1. the event's own context for the turn (start context, steering), then the
   pieces waiting in the session's queue (oldest first), then the event's notices;
2. pieces go in while they fit, joined by blank lines; the first one that does
   not fit and every one after it wait in the queue (put back at its front) for
   the next event of the session that can add context;
3. only a piece that alone exceeds the limit is cut (``native.fit_context``: on
   a line boundary, with a marker naming where the whole text is).

The start context is never cut: ``split_start`` makes parts of it that each
fit the limit — split between paragraphs (so between blocks and files), else
between lines, and only a line longer than a part inside it — each under a
``CONTINUED`` line that numbers it and names the block and file it continues.
The first parts go out with SessionStart (or SubagentStart), the rest wait in
the queue like any piece; a new start context replaces the parts of an older
one still waiting (``rearmed``).

Every piece sent, queued, taken from the queue or re-armed is written to the
session's delivery record (``ruleweave._kernel.delivery``). On ``clear`` the
queue is dropped: its notices were re-armed with all the others and come with
the next touch of their files (``rearmed``). Store failures never reach the
agent: a queue that cannot be read is taken as empty, one that cannot be written
loses its pieces with a ``hook_error`` line, a record that cannot be written is
skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ruleweave._kernel.delivery import (
    SEPARATOR,
    UNITS,
    entry,
    head_within,
    item,
    queue_id,
    read_item,
    set_mark,
)
from ruleweave.hosts import (
    PRE_COMPACT,
    SESSION_CLEAR,
    SESSION_COMPACT,
    SESSION_RESUME,
    SESSION_START,
    USER_PROMPT,
)
from ruleweave.hosts._core.native import fit_context

if TYPE_CHECKING:
    from ruleweave.hosts import HookEvent
    from ruleweave.session._core import SessionRules
    from ruleweave.session._session import RuleSession
    from ruleweave.session.notices import Injection

    Content = str | Injection | list["Piece"] | None
    """What an event adds: the start context or steering (text), a notice, or pieces."""

Cut = tuple[str, str, str, int]
"""``(kind, name, path, bytes dropped)`` of a file or rule a budget shortened inside a piece."""

_STARTS = frozenset({SESSION_START, SESSION_RESUME, SESSION_CLEAR, SESSION_COMPACT, PRE_COMPACT})

CONTEXT_LIMIT = 10_000
"""The default limit of one answer (Claude Code's; every ``Delivery`` is given its host's)."""


class Piece(NamedTuple):
    """One whole piece of an answer: it goes out entire, or waits entire.

    Attributes:
        kind: ``prompt``, ``steering``, ``rule``, ``instructions``, ``listing``, ``ttsr``,
            ``reminder`` (a delivery record ``kind``).
        name: The rule's name or the file's display path ('' when none).
        path: The file it comes from ('' when none).
        text: The text.
        key: Its at-most-once store key ('' when none): a piece already waiting is not queued twice.
        cut: Bytes its text already lost to a budget.
        cuts: The files or rules a budget shortened inside it (the start context's), recorded
            as ``cut`` entries when it goes out.
    """

    kind: str
    name: str
    path: str
    text: str
    key: str = ""
    cut: int = 0
    cuts: tuple[Cut, ...] = ()


class Plan(NamedTuple):
    """What one answer does: its text, what goes back to the queue's front, what the record gains."""

    text: str
    back: list[str]
    entries: list[str]
    cut: bool


def notice_pieces(injection: Injection | None) -> list[Piece]:
    """The pieces of a notice: one per rule, instruction file or listing, one per reminder."""
    if injection is None:
        return []
    pieces = []
    for part in injection.parts:
        first = part.items[0] if part.items else None
        if first is None or first.kind == "ttsr":
            names = ", ".join(i.name for i in part.items)
            pieces.append(Piece("ttsr", names, first.path if first else "", part.text))
        else:
            pieces.append(Piece(first.kind, first.name, first.path, part.text, first.key, part.cut))
    return pieces


def pieces_for(
    event: HookEvent, session: RuleSession, content: Content, limit: int = CONTEXT_LIMIT, unit: str = "utf16"
) -> tuple[list[Piece], list[Piece]]:
    """What an event adds, as pieces: its own context for the turn, and its notices.

    Args:
        event: The event answered.
        session: Its session.
        content: The start context (a session event) or steering (a user prompt) as text, a
            notice (``Injection``), or pieces.
        limit: The most units of one answer (the start context is split to fit).
        unit: How the agent counts them (``Host.context_unit``).

    Returns:
        ``(turn, notices)``.
    """
    if isinstance(content, str):
        if not content:
            return [], []
        if event.kind in _STARTS:
            return prompt_piece(session.ruleset, content, limit, unit), []
        return [Piece("steering" if event.kind == USER_PROMPT else "context", "", "", content)], []
    if content is None or isinstance(content, list):
        return [], list(content or ())
    return [], notice_pieces(content)


def prompt_piece(
    ruleset: SessionRules, text: str, limit: int | None = CONTEXT_LIMIT, unit: str = "utf16"
) -> list[Piece]:
    """The start context as pieces, each within ``limit`` (``split_start``); the first one carries the
    files and rules the prompt budget cut.

    Args:
        ruleset: The rule set whose prompt contribution ``text`` is.
        text: The start context.
        limit: The most units of one piece; ``None``: one piece, however long
            (a system prompt has no such limit).
        unit: How the agent counts them (``utf16`` or ``utf8``).

    Returns:
        The pieces, in order (none for an empty text).
    """
    if not text:
        return []
    report = ruleset.prompt_parts().budget
    cuts = tuple(
        ("instructions" if block.block == "instructions" and not cut.name else "rule", cut.name, cut.path,
         cut.bytes_dropped)
        for block in report.blocks
        for cut in block.cut
    )
    parts = [text] if limit is None else split_start(text, limit, unit)
    if len(parts) == 1:
        return [Piece("prompt", "start context", "", text, cut=sum(c[3] for c in cuts), cuts=cuts)]
    return [
        Piece("prompt", f"start context, part {n} of {len(parts)}", "", part,
              cut=sum(c[3] for c in cuts) if n == 1 else 0, cuts=cuts if n == 1 else ())
        for n, part in enumerate(parts, 1)
    ]


CONTINUED = "[ruleweave: start context, part "
"""How the line above each part of a split start context begins (``split_start``). The same words at the
start of a line of the start context itself are escaped (``hooks._unforged``): no rule can pass for it."""

_WITHIN_CHARS = 160
"""The most characters of the header line of the file or rule a ``CONTINUED`` line names."""


def split_start(text: str, limit: int = CONTEXT_LIMIT, unit: str = "utf16") -> list[str]:
    """The start context in parts of at most ``limit`` UTF-16 code units each, nothing left out.

    Parts end between paragraphs where they can (blocks and instruction files are
    paragraphs), else between lines; only a line longer than a whole part is split
    inside it. Each part starts with a ``CONTINUED`` line: ``[ruleweave: start context,
    part 2 of 3; it continues <generic-rules>, in "[rule: style] …"]``. Joined again,
    without those lines, the parts are ``text`` (the separator at each split aside).

    Args:
        text: The start context.
        limit: The most units of one part, its ``CONTINUED`` line included.
        unit: ``utf16`` (UTF-16 code units) or ``utf8`` (bytes).

    Returns:
        ``[text]`` when it fits, else its parts in order.
    """
    if UNITS[unit](text) <= limit:
        return [text]
    width = 1
    while True:  # the line numbers the parts: pack again while their count needs more digits
        packed = _Packer(limit, width, unit).pack(text)
        if len(str(len(packed))) <= width:
            return [f"{_head(n, len(packed), within)}\n{body}" for n, (within, body) in enumerate(packed, 1)]
        width = len(str(len(packed)))


def _head(number: int | str, total: int | str, within: str) -> str:
    return f"{CONTINUED}{number} of {total}{within}]"


def _within(block: str, section: str) -> str:
    """What a part starting here continues: the open block, and the file's or rule's header line."""
    if len(section) > _WITHIN_CHARS:
        section = section[: _WITHIN_CHARS - 1] + "…"
    named = [name for name in (block, f'"{section}"' if section else "") if name]
    return f"; it continues {', in '.join(named)}" if named else ""


class _Packer:
    """Fills parts greedily: whole paragraphs, else lines, else pieces of a line."""

    def __init__(self, limit: int, width: int, unit: str = "utf16") -> None:
        self.limit, self.width, self.unit = limit, width, unit
        self.length = UNITS[unit]
        self.parts: list[tuple[str, str]] = []  # (what it continues, body)
        self.body: list[str] = []
        self.block = self.section = ""  # where the text packed so far ends
        self.within = ""
        self.used = 0
        self.room = self._room(self.within)

    def _room(self, within: str) -> int:
        digits = "9" * self.width
        return max(self.limit - self.length(_head(digits, digits, within)) - 1, 2)

    def pack(self, text: str) -> list[tuple[str, str]]:
        for paragraph in text.split(SEPARATOR):
            if self._place(SEPARATOR, paragraph):
                self._track(paragraph)
                continue
            for index, line in enumerate(paragraph.split("\n")):
                joiner = SEPARATOR if index == 0 else "\n"
                if not self._place(joiner, line):
                    self._split_line(joiner, line)
                self._track(line)
        if self.body or not self.parts:
            self._close()
        return self.parts

    def _fits(self, joiner: str, text: str) -> bool:
        return self.used + self.length(text) + (len(joiner) if self.body else 0) <= self.room

    def _place(self, joiner: str, text: str) -> bool:
        """Add ``text`` to this part, or to a new one when it fits a whole part; whether it went in."""
        if not self._fits(joiner, text):
            if not self.body or self.length(text) > self._room(_within(self.block, self.section)):
                return False
            self._close()
        self._add(joiner, text)
        return True

    def _split_line(self, joiner: str, line: str) -> None:
        """A line longer than a part: as much as fits in each part, never between a surrogate pair."""
        while line:
            free = self.room - self.used - (len(joiner) if self.body else 0)
            head = head_within(line, free, self.unit)
            if not head and not self.body:
                head = line[0]  # a part too small for one character: never loop
            if head:
                self._add(joiner, head)
                line, joiner = line[len(head):], ""
            if line:
                self._close()

    def _add(self, joiner: str, text: str) -> None:
        if self.body:
            self.body.append(joiner)
            self.used += len(joiner)
        self.body.append(text)
        self.used += self.length(text)

    def _close(self) -> None:
        self.parts.append((self.within, "".join(self.body)))
        self.body, self.used = [], 0
        self.within = _within(self.block, self.section)
        self.room = self._room(self.within)

    def _track(self, text: str) -> None:
        """Follow the blocks (``<generic-rules>`` …) and the file and rule headers ``text`` opens or closes.

        Rule and file text cannot open or close them: their tags and header lines are escaped
        where they are read (``ruleweave.prompt.escape_headers``, ``neutralise_tags``)."""
        for line in text.split("\n"):
            if line.startswith("</") and line.endswith(">"):
                self.block = self.section = ""
            elif line.startswith("<") and line.endswith(">") and " " not in line:
                self.block, self.section = line, ""
            elif line.startswith(("[file: ", "[rule: ")):
                self.section = line


def plan(
    event: HookEvent,
    turn: Sequence[Piece],
    waiting: Sequence[str],
    notices: Sequence[Piece],
    *,
    now: float,
    limit: int = CONTEXT_LIMIT,
    agent: str = "Claude Code",
    hold: bool = False,
    address: Callable[[str], str] | None = None,
    unit: str = "utf16",
) -> Plan:
    """Pack one answer (see the module docstring); pure: the caller takes and writes the queue.

    Args:
        event: The event answered.
        turn: The event's own context for this turn (first).
        waiting: The queue's items, as taken from the store (oldest first).
        notices: The event's notices and reminders (last).
        now: Wall-clock seconds, for the record.
        limit: The most UTF-16 code units of the answer.
        agent: The agent's name, for the marker of a piece cut to the limit.
        hold: Send nothing: every piece waits in the queue (an event that cannot add context the
            next one must carry, e.g. the start context before a compaction).
        address: A rule's name → where the model reads it whole (the host's templates), for the marker
            of a rule cut to the limit; default ``rule://<name>``.
        unit: How the agent counts ``limit`` (``utf16`` or ``utf8``).

    Returns:
        The ``Plan``.
    """
    where = (now, event.name, event.call_id, event.agent_id)
    length = UNITS[unit]

    def note(action: str, piece: Piece, text: str, cut: int = 0) -> str:
        return entry(action, piece.kind, piece.name, piece.path, where, size=_size(text), cut=cut)

    entries: list[str] = []
    queued: list[tuple[Piece, str | None]] = []  # (piece, its queue item when it was waiting)
    for waited in waiting:
        fields = read_item(waited)
        if fields is not None:
            key, kind, name, path, body, cut, *_ = fields
            queued.append((Piece(kind, name, path, body, key, cut), waited))
    if event.kind == SESSION_CLEAR:  # a fresh conversation: re-armed, they come again on the next touch
        entries.extend(note("rearmed", piece, piece.text, piece.cut) for piece, _ in queued)
        queued = []
    if any(piece.kind == "prompt" for piece in turn):  # a new start context replaces an older one's parts
        entries.extend(note("rearmed", piece, piece.text) for piece, _ in queued if piece.kind == "prompt")
        queued = [(piece, raw) for piece, raw in queued if piece.kind != "prompt"]
    held = {piece.key for piece, _ in queued if piece.key}
    ordered: list[tuple[Piece, str | None]] = [(piece, None) for piece in turn]
    ordered += queued
    ordered += [(piece, None) for piece in notices if not piece.key or piece.key not in held]
    sent: list[str] = []
    back: list[str] = []
    used, cut_any = 0, False
    for index, (piece, raw) in enumerate(ordered):
        text, extra = piece.text, 0
        if not hold and length(text) > limit:  # alone over the limit: the one cut this module makes
            text = fit_context(text, where=_where(piece, address), limit=limit, agent=agent, unit=unit)[0]
            extra, cut_any = _size(piece.text) - _size(text), True
        need = length(text) + (len(SEPARATOR) if sent else 0)
        if hold or used + need > limit:  # this one and all after it wait, in order
            for rest, rest_raw in ordered[index:]:
                if rest_raw is not None:
                    back.append(rest_raw)
                    continue
                entries.append(note("queued", rest, rest.text, rest.cut))
                back.append(item(rest.key, rest.kind, rest.name, rest.path, rest.text, rest.cut,
                                 event.name, event.call_id, now))
            break
        used += need
        sent.append(text)
        if raw is not None:
            entries.append(note("dequeued", piece, text))
        entries.append(note("delivered", piece, text, piece.cut + extra))
        entries.extend(entry("cut", *cut[:3], where, cut=cut[3]) for cut in piece.cuts)
    return Plan(SEPARATOR.join(sent), back, entries, cut_any)


class Delivery:
    """Sends one answer's pieces through a session's store: takes its queue, packs, queues, records.

    Args:
        on_error: Called with a store failure (the hook's log); the answer goes on without the store.
        marks: A directory where a session whose queue holds pieces is marked
            (``ruleweave._kernel.delivery.set_mark``), for the hook's warm path.
        limit: The most UTF-16 code units of one answer.
        agent: The agent's name, for the marker of a piece cut to the limit.
        address: A rule's name → where the model reads it whole, for that marker.
        unit: How the agent counts ``limit`` (``Host.context_unit``).
        clock: Wall-clock time source.
    """

    def __init__(
        self,
        on_error: Callable[[Exception], None],
        *,
        marks: str | None = None,
        limit: int = CONTEXT_LIMIT,
        agent: str = "Claude Code",
        address: Callable[[str], str] | None = None,
        unit: str = "utf16",
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.on_error = on_error
        self.marks = marks
        self.limit = limit
        self.agent = agent
        self.address = address
        self.unit = unit
        self.clock = clock

    def send(
        self,
        session: RuleSession,
        event: HookEvent,
        turn: Sequence[Piece],
        notices: Sequence[Piece],
        *,
        hold: bool = False,
    ) -> Plan:
        """The answer's text; the queue (the main agent's or the subagent's) and the record are written
        before it returns (``hold``: every piece waits for the next answer)."""
        store, sid, queue = session.store, session.session_id, queue_id(session.session_id, event.agent_id)
        try:
            waiting = store.take_queue(queue)
        except Exception as exc:  # fail open: what waits stays there, this answer goes without it
            self.on_error(exc)
            waiting = []
        done = plan(
            event, turn, waiting, notices, now=self.clock(), limit=self.limit, agent=self.agent, hold=hold,
            address=self.address, unit=self.unit,
        )
        try:
            store.enqueue(queue, done.back, front=True)
        except Exception as exc:
            self.on_error(exc)
        try:
            store.record(sid, done.entries)
        except Exception as exc:
            self.on_error(exc)
        if self.marks is not None:
            set_mark(self.marks, queue, bool(done.back))
        return done

    def record_prompt(self, session: RuleSession, text: str) -> None:
        """Record the start context given outside a hook answer (the SDK's system prompt: ``SystemPrompt``
        events)."""
        where = (self.clock(), "SystemPrompt", None, None)
        record = []
        for piece in prompt_piece(session.ruleset, text, limit=None):
            size, cut = _size(text), piece.cut
            record.append(entry("delivered", piece.kind, piece.name, piece.path, where, size=size, cut=cut))
            record.extend(entry("cut", k, n, p, where, cut=lost) for k, n, p, lost in piece.cuts)
        try:
            session.store.record(session.session_id, record)
        except Exception as exc:
            self.on_error(exc)

    async def asend(
        self,
        session: RuleSession,
        event: HookEvent,
        turn: Sequence[Piece],
        notices: Sequence[Piece],
        *,
        hold: bool = False,
    ) -> Plan:
        """Async twin of ``send``."""
        store, sid, queue = session.store, session.session_id, queue_id(session.session_id, event.agent_id)
        try:
            waiting = await store.atake_queue(queue)
        except Exception as exc:
            self.on_error(exc)
            waiting = []
        done = plan(
            event, turn, waiting, notices, now=self.clock(), limit=self.limit, agent=self.agent, hold=hold,
            address=self.address, unit=self.unit,
        )
        try:
            await store.aenqueue(queue, done.back, front=True)
        except Exception as exc:
            self.on_error(exc)
        try:
            await store.arecord(sid, done.entries)
        except Exception as exc:
            self.on_error(exc)
        if self.marks is not None:
            set_mark(self.marks, queue, bool(done.back))
        return done


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _where(piece: Piece, address: Callable[[str], str] | None = None) -> str | None:
    """Where the whole text of a piece is, for its cut marker."""
    if piece.kind in ("rule", "ttsr") and piece.name:
        name = piece.name.split(", ")[0]
        return address(name) if address is not None else f"rule://{name}"
    return piece.path or None
