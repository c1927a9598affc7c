"""``TtsrWatcher``: one session's output streams, matched as they arrive.

``watch(source, delta, ...)`` feeds one delta of one stream: ``text``,
``thinking``, or ``tool`` (keyed by ``call_id``, else the tool's name).
When a rule's condition matches and its repeat policy lets it fire, the
watcher returns a ``TtsrHit``: ``interrupt`` says whether the adapter should
abort the stream and retry it with ``text`` injected; otherwise ``text`` is
a reminder to append to the tool result (or the next turn). An
interrupting hit clears every buffer, since the response is being thrown
away; ``turn_start()`` clears them too. A tool stream's ``args`` may be
partial JSON text, or ``None`` while streaming: the watcher keeps the raw
argument text it was fed and parses it on a geometric schedule. A match
gated by paths the arguments do not name yet is kept, and fires once they
do (at the latest when the call completes).

Repeat state lives in the session store, so it survives with the session:
``once`` claims ``ttsr:once:<name>``; ``after-gap N`` keeps the turn counter
``ttsr:turn`` (advanced by ``turn_start()`` when any rule uses a gap) and
``ttsr:last:<name>``, and claims ``ttsr:fired:<name>:<turn>`` so that two
workers sharing the session cannot both fire it. The matching core does no
I/O; only the repeat gate has async twins (``awatch``, ``aturn_start``).
A watcher is for one session; ``RuleSession`` serialises calls into it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ruleweave.errors import ConfigError
from ruleweave.globs import PathSpellings
from ruleweave.rules import InterruptMode, Rule
from ruleweave.session.touch import parse_args
from ruleweave.store import SessionStore
from ruleweave.ttsr import ast_grep
from ruleweave.ttsr.index import Channel, TtsrIndex
from ruleweave.ttsr.keys import TURN_KEY
from ruleweave.ttsr.render import render
from ruleweave.ttsr.scope import SOURCES, Source, spellings
from ruleweave.ttsr.stream import JsonPrefix, JsonTextDecoder, complete_prefix

MAX_STREAMS = 256
"""Buffers kept at once; past this the oldest stream is dropped (``turn_start`` clears all)."""

_SNIPPET = 200
_REPARSE_ARGS_CHARS = 4096


@dataclass(frozen=True, slots=True)
class TtsrMatch:
    """Why one rule fired.

    Attributes:
        rule: The rule's name.
        kind: ``regex``, ``glob`` (a file-glob condition token) or ``ast``.
        condition: The regex (after the YAML repairs), glob token or ast-grep pattern.
        matched: The matched text (cut to 200 characters; '' for a glob token).
        path: The path the tool call names that passed the path gates (the first
            one when there is no gate), relative to the project when inside it.
    """

    rule: str
    kind: Literal["regex", "glob", "ast"]
    condition: str
    matched: str
    path: str | None = None


@dataclass(frozen=True, slots=True)
class TtsrHit:
    """What the adapter does about a delta that fired streamed rules.

    Attributes:
        interrupt: Abort the stream and retry it with ``text`` injected.
        rules: The rules that fired, de-duplicated, in precedence order.
        text: The interrupt message when interrupting, else the tool-result reminder.
        reminder: The tool-result reminder wording, always (for an adapter that
            cannot interrupt, e.g. on its last retry).
        source: The stream's source.
        tool: The tool's name (tool streams).
        call_id: The tool call's id (tool streams).
        matches: One ``TtsrMatch`` per rule, in the order of ``rules``.
        offset: Characters of the stream seen up to the end of this delta.
    """

    interrupt: bool
    rules: tuple[Rule, ...]
    text: str
    source: Source
    tool: str | None = None
    call_id: str | None = None
    matches: tuple[TtsrMatch, ...] = ()
    offset: int = 0
    reminder: str = ""


@dataclass(slots=True)
class _Stream:
    channel: Channel
    decoder: JsonTextDecoder | None
    idle: bool = False  # the channel watches nothing
    tail: str = ""
    consumed: int = 0
    paths: tuple[PathSpellings, ...] = ()
    args_size: int = -1
    deferred: dict[int, tuple[Any, Literal["regex", "glob", "ast"], str, str]] = field(default_factory=dict)
    ast_code: str | None = None
    ast_size: int = -1
    raw: list[str] = field(default_factory=list)
    raw_size: int = 0
    prefix: JsonPrefix = field(default_factory=JsonPrefix)
    parsed_mark: tuple[int, int] | None = None  # ``prefix.mark`` when the raw text was last parsed


@dataclass(slots=True)
class _Pending:
    source: Source
    tool: str | None
    call_id: str | None
    offset: int
    found: dict[int, TtsrMatch] = field(default_factory=dict)


def check_source(source: object) -> None:
    """Raise ``ConfigError`` unless ``source`` is ``text``, ``thinking`` or ``tool``."""
    if source not in SOURCES:
        raise ConfigError(f"A stream source must be one of {', '.join(SOURCES)}, not {source!r}.")


def interrupts(mode: InterruptMode, source: Source) -> bool:
    """Whether a rule in ``mode`` interrupts a stream of ``source``."""
    if mode == "always":
        return True
    if mode == "prose-only":
        return source in ("text", "thinking")
    if mode == "tool-only":
        return source == "tool"
    return False


def _clean(text: str) -> str:
    """Lone surrogates (which UTF-8 cannot hold) become U+FFFD."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


class TtsrWatcher:
    """A session's TTSR state: stream buffers here, repeat state in the store.

    Args:
        index: The shared compiled index.
        store: The session store.
        session_id: The session's id.
    """

    def __init__(self, index: TtsrIndex, store: SessionStore, session_id: str) -> None:
        self.index = index
        self.store = store
        self.session_id = session_id
        self._streams: dict[str | tuple[str, str], _Stream] = {}
        self._spent: set[int] = set()
        self._quiet: set[int] = set()
        self._keep = index.window + 1  # the tail kept per stream: the look-back and one of context

    # -- public API -----------------------------------------------------------

    def watch(
        self, source: Source, delta: str, *, tool: str | None = None,
        call_id: str | None = None, args: Any = None,
    ) -> TtsrHit | None:
        """Feed one delta of one stream.

        Args:
            source: ``text``, ``thinking`` or ``tool``.
            delta: The new characters (for tools: the streamed argument JSON).
                An empty delta with complete ``args`` marks a tool call's arguments
                complete; for a call that streamed nothing, those arguments are
                matched as their JSON text (adapters that see only whole calls).
            tool: The tool's name (tool streams).
            call_id: The tool call's id; keys the tool stream's buffer.
            args: The call's arguments so far (mapping or JSON text), for path
                gates and AST conditions.

        Returns:
            A hit when rules fire, else ``None``.

        Raises:
            ConfigError: ``source`` is not one of text, thinking, tool.
        """
        pending = self._scan(source, delta, tool, call_id, args)
        if pending is None:
            return None
        return self._finish(pending, [i for i in sorted(pending.found) if self._allow(i)])

    async def awatch(
        self, source: Source, delta: str, *, tool: str | None = None,
        call_id: str | None = None, args: Any = None,
    ) -> TtsrHit | None:
        """Async twin of ``watch`` (the repeat gate uses the store's async methods)."""
        pending = self._scan(source, delta, tool, call_id, args)
        if pending is None:
            return None
        fired = [i for i in sorted(pending.found) if await self._aallow(i)]
        return self._finish(pending, fired)

    def turn_start(self) -> None:
        """A new turn: clear every buffer and advance the turn counter (when a rule counts turns)."""
        self.new_turn()
        if self.index.has_gap_rules:
            self.store.incr(self.session_id, TURN_KEY)

    async def aturn_start(self) -> None:
        """Async twin of ``turn_start``."""
        self.new_turn()
        if self.index.has_gap_rules:
            await self.store.aincr(self.session_id, TURN_KEY)

    # -- matching (no I/O) ----------------------------------------------------

    def new_turn(self) -> None:
        """Clear every buffer (no store I/O: the caller keeps the turn counter)."""
        self._streams.clear()
        self._quiet = set(self._spent)

    def _stream(self, source: Source, tool: str, call_id: str | None) -> _Stream:
        key: str | tuple[str, str] = ("tool", call_id or tool) if source == "tool" else source
        stream = self._streams.get(key)
        if stream is None:
            if len(self._streams) >= MAX_STREAMS:
                del self._streams[next(iter(self._streams))]
            channel = self.index.channel(source, tool)
            stream = _Stream(channel, JsonTextDecoder() if source == "tool" else None, channel.empty)
            self._streams[key] = stream
        return stream

    def _scan(
        self, source: Source, delta: str, tool: str | None, call_id: str | None, args: Any
    ) -> _Pending | None:
        # Runs at every delta: what a delta without a match costs beyond the set's scan is
        # kept to a few attribute reads (bench_ttsr.py measures it against the bare set).
        if source not in SOURCES:
            check_source(source)
        name = tool or ""
        stream = self._stream(source, name, call_id)
        if stream.idle:
            return None
        channel = stream.channel
        found: dict[int, TtsrMatch] = {}
        quiet = self._quiet
        parsed: Mapping[str, Any] | None = None
        final = not delta
        if source == "tool":
            if final and not stream.consumed and args is not None:
                delta = _as_json(args)
            if delta:
                # The raw argument text, kept here so an adapter need not pass the
                # growing text at every delta (re-joining it each time is quadratic).
                stream.raw.append(delta)
                stream.raw_size += len(delta)
                stream.prefix.feed(delta)  # linear in the delta: no rescan of the text at a parse
            if args is not None or final or stream.prefix.mark != stream.parsed_mark:
                parsed = self._parsed(stream, args, final)
            if parsed is not None:
                self._update_paths(stream, name, parsed)
                if stream.deferred and stream.paths:
                    deferred, stream.deferred = stream.deferred, {}
                    for rule, (gate, kind, condition, matched) in deferred.items():
                        if rule not in quiet:
                            self._add(found, source, stream, rule, gate, kind, condition, matched)
        text = stream.decoder.feed(delta) if stream.decoder is not None else delta
        if not text.isascii():
            text = _clean(text)
        tail = stream.tail
        window = tail + text
        pos = 1 if stream.consumed > len(tail) else 0
        for watched, matched in channel.search(window, pos, quiet):
            if watched.rule not in found:
                condition = watched.condition.pattern or watched.condition.source
                self._add(found, source, stream, watched.rule, watched.scope_gate,
                          "regex", condition, matched[:_SNIPPET])
        if channel.anything and (text or args is not None):
            for watched in channel.anything:
                if watched.rule not in quiet and watched.rule not in found:
                    self._add(found, source, stream, watched.rule, watched.scope_gate,
                              "glob", watched.condition.source, "")
        if channel.ast and parsed is not None:
            self._scan_ast(found, source, stream, parsed, final=final)
        offset = stream.consumed = stream.consumed + len(text)
        keep = self._keep
        stream.tail = window[-keep:] if len(window) > keep else window
        return _Pending(source, tool, call_id, offset, found) if found else None

    def _add(
        self, found: dict[int, TtsrMatch], source: Source, stream: _Stream, rule: int, scope_gate: Any,
        kind: Literal["regex", "glob", "ast"], condition: str, matched: str,
    ) -> None:
        path: str | None = None
        if source == "tool":
            passed = self.index.gate_path(rule, scope_gate, stream.paths)
            if passed is None:
                if not stream.paths and kind != "ast":
                    # The call's paths are not known yet (partial JSON arguments):
                    # keep the match for when they are, even if it has left the window.
                    stream.deferred.setdefault(rule, (scope_gate, kind, condition, matched))
                return
            spelled = passed if isinstance(passed, PathSpellings) else next(iter(stream.paths), None)
            if spelled is not None:
                path = spelled.relative or spelled.absolute
        name = self.index.compiled[rule].rule.name
        found[rule] = TtsrMatch(name, kind, condition, matched, path)

    @staticmethod
    def _parsed(stream: _Stream, args: Any, final: bool) -> Mapping[str, Any] | None:
        """The call's arguments as a mapping, or ``None`` when they are not re-read at this delta.

        ``args`` may be a mapping, the argument text so far, or ``None`` (the
        text this stream was fed is used). Argument text grows with the stream,
        and parsing all of it at every delta would cost the square of its
        length: past ``_REPARSE_ARGS_CHARS`` it is parsed on ``ast_grep.due``'s
        geometric schedule (and when complete). Partial JSON is read up to its
        last complete member, so a path is known as soon as it has streamed; the
        watcher's own text is parsed again only once its ``JsonPrefix.mark`` has
        moved (a member ended), so a long string streaming costs no parse at all.
        """
        if args is None:  # first: most deltas come without args, and the ABC check costs
            mark = stream.prefix.mark
            if mark is None or (mark == stream.parsed_mark and not final):
                # Not JSON, or no member has ended since the last parse: it would read the same.
                return None
            size = stream.raw_size
        elif isinstance(args, Mapping):
            return args
        else:
            size = len(args) if isinstance(args, (str, bytes)) else 0
        if size > _REPARSE_ARGS_CHARS and not ast_grep.due(size, stream.args_size, final):
            return None
        stream.args_size = size
        if args is None:
            stream.parsed_mark = stream.prefix.mark
            text = "".join(stream.raw)
            stream.raw = [text]
        else:
            text = args.decode("utf-8", "replace") if isinstance(args, bytes) else args
        parsed = parse_args(text)
        if parsed or not isinstance(text, str):
            return parsed
        completed = stream.prefix.completed(text) if args is None else complete_prefix(text)
        return parse_args(completed) if completed else parsed

    def _update_paths(self, stream: _Stream, tool: str, args: Mapping[str, Any]) -> None:
        root = self.index.config.root
        found = tuple(spellings(p, root) for p in self.index.paths(tool, args))
        if found:
            stream.paths = found

    def _scan_ast(
        self, found: dict[int, TtsrMatch], source: Source, stream: _Stream, args: Mapping[str, Any],
        final: bool,
    ) -> None:
        code = ast_grep.code_of(args)
        size = len(code) if code is not None else 0
        if not ast_grep.due(size, stream.ast_size, final):
            return
        stream.ast_size = size
        if code is None or code == stream.ast_code:
            return
        language = next(
            (lang for lang in (ast_grep.language_for(p.name) for p in stream.paths) if lang), None
        )
        if language is None:
            return
        stream.ast_code = code
        wanted = [
            w for w in stream.channel.ast
            if w.rule not in self._quiet and w.rule not in found
            and self.index.gate_path(w.rule, w.scope_gate, stream.paths) is not None
        ]
        if not wanted:
            return
        patterns = list(dict.fromkeys(p for w in wanted for p in w.patterns))
        matched = dict(ast_grep.find(code, language, patterns))
        for w in wanted:
            first = next((p for p in w.patterns if p in matched), None)
            if first is not None:
                snippet = matched[first][:_SNIPPET]
                self._add(found, source, stream, w.rule, w.scope_gate, "ast", first, snippet)

    def _finish(self, pending: _Pending, fired: list[int]) -> TtsrHit | None:
        if not fired:
            return None
        config = self.index.config
        compiled = [self.index.compiled[i] for i in fired]
        interrupt = any(interrupts(c.interrupt_mode(config), pending.source) for c in compiled)
        rules = tuple(c.rule for c in compiled)
        if interrupt:
            self._streams.clear()
        reminder = render(rules, False, self.index.templates, config)
        return TtsrHit(
            interrupt=interrupt,
            rules=rules,
            text=render(rules, True, self.index.templates, config) if interrupt else reminder,
            reminder=reminder,
            source=pending.source,
            tool=pending.tool,
            call_id=pending.call_id,
            matches=tuple(pending.found[i] for i in fired),
            offset=pending.offset,
        )

    # -- the repeat gate (store I/O) -----------------------------------------

    def _allow(self, rule: int) -> bool:
        compiled = self.index.compiled[rule]
        name, gap, sid = compiled.rule.name, compiled.repeat.gap, self.session_id
        if gap is None:
            self._spent.add(rule)
            self._quiet.add(rule)
            return self.store.claim(sid, f"ttsr:once:{name}")
        self._quiet.add(rule)
        turn = _as_int(self.store.get(sid, TURN_KEY))
        last = self.store.get(sid, f"ttsr:last:{name}")
        if last is not None and turn - _as_int(last) < gap:
            return False
        if not self.store.claim(sid, f"ttsr:fired:{name}:{turn}"):
            return False
        self.store.put(sid, f"ttsr:last:{name}", str(turn))
        return True

    async def _aallow(self, rule: int) -> bool:
        compiled = self.index.compiled[rule]
        name, gap, sid = compiled.rule.name, compiled.repeat.gap, self.session_id
        if gap is None:
            self._spent.add(rule)
            self._quiet.add(rule)
            return await self.store.aclaim(sid, f"ttsr:once:{name}")
        self._quiet.add(rule)
        turn = _as_int(await self.store.aget(sid, TURN_KEY))
        last = await self.store.aget(sid, f"ttsr:last:{name}")
        if last is not None and turn - _as_int(last) < gap:
            return False
        if not await self.store.aclaim(sid, f"ttsr:fired:{name}:{turn}"):
            return False
        await self.store.aput(sid, f"ttsr:last:{name}", str(turn))
        return True


def _as_json(args: Any) -> str:
    """A call's complete arguments as the JSON text a stream of them would have carried."""
    if isinstance(args, str):
        return args
    if isinstance(args, bytes):
        return args.decode("utf-8", "replace")
    try:
        return json.dumps(args, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return ""


def _as_int(value: str | None) -> int:
    try:
        return int(value) if value is not None else 0
    except ValueError:
        return 0
