"""The normalised timeline every reader produces: one ``Session`` of ``Received`` and ``Action`` items.

``seq`` orders items within a session (transcript order); ``at`` is wall-clock
seconds when the transcript says (``None`` otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass, field

HOW = ("start", "compaction", "prompt", "pretool", "tool-result", "ttsr-interrupt", "ttsr-reminder",
       "read-rule", "stop", "other")
"""How a rule's text reached the model:

* ``start`` — the start context (SessionStart, the prompt contribution);
* ``compaction`` — the start context sent again after a compaction;
* ``prompt`` — context added to a user prompt (UserPromptSubmit);
* ``pretool`` — PreToolUse context, shown with the tool's result;
* ``tool-result`` — a notice in a tool result (PostToolUse, the library's notice);
* ``ttsr-interrupt`` / ``ttsr-reminder`` — a streamed rule's interrupt or reminder;
* ``read-rule`` — the model asked for it (``read_rule``, ``rule://``);
* ``stop`` — a Stop hook's feedback; ``other`` — anywhere else."""


@dataclass(frozen=True, slots=True)
class Received:
    """A rule's text as the model received it.

    Attributes:
        seq: Position in the session.
        at: Wall-clock seconds, or ``None``.
        rule: The rule's name.
        how: One of ``HOW``.
        event: The hook event that carried it, when known.
        call: The tool call it rode with, when known.
        cut: Bytes of its text left out, as the cut marker that ends it says (0: whole).
    """

    seq: int
    at: float | None
    rule: str
    how: str
    event: str | None = None
    call: str | None = None
    cut: int = 0


@dataclass(frozen=True, slots=True)
class Action:
    """A write, edit or command the model made, or its reply text.

    Attributes:
        seq: Position in the session.
        at: Wall-clock seconds, or ``None``.
        tool: The tool's name.
        call: The tool call id.
        path: The file written or edited ('' for a command or a reply).
        text: What it wrote (Write content, Edit new_string, MultiEdit edits joined,
            a patch's added lines), ran (the command) or said (a reply's text).
        kind: ``write``, ``command`` or ``reply`` (only a streamed rule watching ``text`` checks
            replies).
    """

    seq: int
    at: float | None
    tool: str
    call: str
    path: str
    text: str
    kind: str


@dataclass(slots=True)
class Session:
    """One session read from a file.

    Attributes:
        file: The file it was read from.
        format: ``claude-code``, ``codex`` or ``event-log``.
        id: The agent's session id ('' when the file names none).
        cwd: The working directory the transcript names ('' when none).
        started: Wall-clock seconds of its first dated item, or ``None``.
        received: What reached the model, in order.
        actions: What the model did and said, in order.
        touched: Every path a tool call named (reads too), in order.
    """

    file: str
    format: str
    id: str = ""
    cwd: str = ""
    started: float | None = None
    received: list[Received] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)

    def note_time(self, at: float | None) -> None:
        """Keep the earliest dated item as the session's start."""
        if at is not None and (self.started is None or at < self.started):
            self.started = at
