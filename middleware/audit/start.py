"""Which rules a recorded start context held: the record names the piece, the rules' start context says.

The delivery record (``ruleweave._kernel.delivery``) keeps the start context as one
piece per part (``kind: prompt``, ``name: "start context"`` or ``"start context, part
K of N"``, with its UTF-8 ``bytes``), not per rule. So the audit builds the start
context the host's hooks send for the rules as they are now — the hooks' own
configuration (``hosts._core.native.hook_config``), split as the hooks split it
(``hosts._core.delivery.prompt_piece``), plain and after a compaction (under
``COMPACTED_HEADER``), and whole as the SDK adapter's system prompt records it — and
takes a recorded part's rules from the part of the same number and the same size.
A part of another size (the rules changed since, or a steering block rode along) is
left unmatched: its rules are then joined by what the transcript shows alone.
"""

from __future__ import annotations

import re

from ruleweave.audit.received import rules_in
from ruleweave.config import RuleweaveConfig

Layout = tuple[tuple[int, tuple[str, ...]], ...]
"""One way the start context goes out: per part, its UTF-8 bytes and the rules it holds."""

FORMAT_HOSTS = {"claude-code": "claude-code", "codex": "codex"}
"""The host whose hooks serve the sessions of each transcript format."""

_PIECE = re.compile(r"^start context(?:, part ([0-9]{1,6}) of ([0-9]{1,6}))?$")


class StartContexts:
    """The start contexts each host's hooks would send for a project's rules, built once per host.

    Args:
        config: The project's configuration (the one the audit loaded its rules with).
    """

    def __init__(self, config: RuleweaveConfig) -> None:
        self.config = config
        self._layouts: dict[str, tuple[Layout, ...]] = {}

    def rules_of(self, session_format: str, piece: str, size: int) -> tuple[str, ...] | None:
        """The rules a recorded start-context piece held, or ``None`` when no layout matches it.

        Args:
            session_format: The transcript's format (it names the host).
            piece: The record entry's ``name`` (``start context, part 2 of 3``).
            size: The entry's ``bytes``.

        Returns:
            The rules' names, in order.
        """
        found = _PIECE.match(piece)
        if found is None:
            return None
        number, total = (int(found.group(1)), int(found.group(2))) if found.group(1) else (1, 1)
        for layout in self._for(FORMAT_HOSTS.get(session_format, "")):
            if len(layout) == total and layout[number - 1][0] == size:
                return layout[number - 1][1]
        return None

    def _for(self, name: str) -> tuple[Layout, ...]:
        if name not in self._layouts:
            self._layouts[name] = _layouts(self.config, name)
        return self._layouts[name]


def _layouts(config: RuleweaveConfig, name: str) -> tuple[Layout, ...]:
    from ruleweave.hosts import HOSTS, host
    from ruleweave.hosts._core.delivery import prompt_piece
    from ruleweave.hosts._core.hooks import COMPACTED_HEADER
    from ruleweave.hosts._core.native import hook_config
    from ruleweave.ruleset import RuleSet

    if name not in HOSTS:
        return ()
    agent = host(name)
    ruleset = RuleSet.load(hook_config(config, agent))
    text = ruleset.prompt_parts().text
    if not text:
        return ()
    out: list[Layout] = []
    for body in (text, f"{COMPACTED_HEADER}\n\n{text}"):
        for limit in (agent.context_limit, None):
            pieces = prompt_piece(ruleset, body, limit, agent.context_unit)
            out.append(tuple((_size(p.text), _names(p.text)) for p in pieces))
    return tuple(out)


def _names(text: str) -> tuple[str, ...]:
    return tuple(name for name, _, _ in rules_in(text, "start"))


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))
