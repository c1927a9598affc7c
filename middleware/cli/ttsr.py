"""``ruleweave ttsr check``: run a recorded stream through the TTSR watcher.

The stream is a plain text file, cut into deltas of ``--chunk`` characters
and fed as ``--source``, or JSON lines, one delta per line:
``{"source", "delta", "tool", "call_id", "args"}`` (``source`` defaults to
``--source``); a line ``{"event": "turn_start"}`` starts a new turn. It
prints each hit — where in the file, which rules, interrupt or reminder —
then the warnings of the streamed rules. A hit's ``line:column`` is where
the match starts (1-based; in a JSON-lines file, the line of the delta it
starts in and the column within that delta), whatever the chunking. Exit 0:
nothing fired; 1: some rule fired; 2: usage or unreadable input.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

from ruleweave.cli.common import (
    UsageError,
    add_cwd,
    add_json,
    add_store,
    config_from,
    print_json,
    print_warnings,
    read_input,
    read_stdin,
)
from ruleweave.ruleset import RuleSet
from ruleweave.ttsr import TtsrHit, TtsrIndex, TtsrWatcher
from ruleweave.ttsr.render import rule_path
from ruleweave.ttsr.scope import SOURCES, Source


@dataclass(frozen=True, slots=True)
class Step:
    """One recorded delta (or a turn start): where it ends in the input file, and where it starts
    (``start``: its offset in a text file; a JSON-lines delta starts on its own ``line``)."""

    line: int
    column: int
    source: str = "text"
    delta: str = ""
    tool: str | None = None
    call_id: str | None = None
    args: Any = None
    turn_start: bool = False
    start: int = 0


class Streams:
    """The text of each stream since the turn started, to find where a match starts."""

    def __init__(self, text: str, jsonl: bool) -> None:
        self.text = text
        self.jsonl = jsonl
        self._streams: dict[tuple[str, str | None, str | None], tuple[list[str], list[tuple[int, Step]]]] = {}

    def turn_start(self) -> None:
        """Stream buffers start again, as the watcher's do."""
        self._streams.clear()

    def add(self, step: Step) -> None:
        """Record a delta of its stream."""
        chunks, steps = self._streams.setdefault((step.source, step.tool, step.call_id), ([], []))
        offset = steps[-1][0] + len(chunks[-1]) if steps else 0
        steps.append((offset, step))
        chunks.append(step.delta)

    def where(self, step: Step, matched: str) -> tuple[int, int]:
        """``(line, column)``, 1-based, where ``matched`` starts in ``step``'s stream (the last
        occurrence so far), or where ``step`` ends when there is no matched text."""
        chunks, steps = self._streams.get((step.source, step.tool, step.call_id), ([], []))
        stream = "".join(chunks)
        position = stream.rfind(matched) if matched else -1
        if position < 0:
            return step.line, step.column
        offset, first = next((o, s) for o, s in reversed(steps) if o <= position)
        if self.jsonl:
            return first.line, position - offset + 1
        at = first.start + position - offset
        return self.text.count("\n", 0, at) + 1, at - self.text.rfind("\n", 0, at)


def register(subparsers: Any) -> None:
    """Add the ``ttsr`` subcommand and its ``check`` action."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "ttsr", help="streamed rules: run a recorded stream through the watcher"
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    check = actions.add_parser("check", help="print which streamed rules a recorded stream fires")
    check.add_argument(
        "file", metavar="FILE", help="a text file or JSON lines of deltas ('-': stdin)"
    )
    check.add_argument("--source", choices=SOURCES, default="text",
                       help="the source of a text file's deltas (default: text)")
    check.add_argument("--tool", default=None, help="the tool name when --source is tool")
    check.add_argument("--chunk", type=int, default=20, metavar="N",
                       help="characters per delta for a text file (default: 20)")
    check.add_argument("--format", choices=("auto", "text", "jsonl"), default="auto",
                       help="how to read FILE (default: JSON lines if it looks like them)")
    check.add_argument("--show-text", action="store_true", help="print each hit's injection text")
    check.add_argument(
        "--session", default="ruleweave-ttsr-check", metavar="ID",
        help="the session whose repeat state applies (with --store: an agent's real session)",
    )
    add_cwd(check)
    add_json(check)
    add_store(check)
    check.set_defaults(func=run)


def _looks_like_jsonl(path: str, text: str) -> bool:
    if path.endswith((".jsonl", ".ndjson")):
        return True
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        record = json.loads(first)
    except ValueError:
        return False
    return isinstance(record, dict) and bool({"delta", "event"} & set(record))


def _text_steps(text: str, chunk: int, source: str, tool: str | None) -> Iterator[Step]:
    line, column = 1, 0
    for start in range(0, len(text), chunk):
        delta = text[start : start + chunk]
        breaks = delta.count("\n")
        line += breaks
        column = len(delta) - delta.rfind("\n") - 1 if breaks else column + len(delta)
        yield Step(line, column, source, delta, tool, start=start)


def _jsonl_steps(text: str, source: str, tool: str | None) -> Iterator[Step]:
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError as exc:
            raise UsageError(f"line {number} is not JSON ({exc}).") from exc
        if not isinstance(record, dict):
            raise UsageError(f"line {number} is not a JSON object.")
        if record.get("event") == "turn_start":
            yield Step(number, 0, turn_start=True)
            continue
        delta, src = record.get("delta", ""), record.get("source", source)
        if not isinstance(delta, str) or src not in SOURCES:
            raise UsageError(f"line {number}: 'delta' must be a string and 'source' one of "
                             f"{', '.join(SOURCES)}.")
        yield Step(number, len(raw), src, delta, record.get("tool", tool),
                   record.get("call_id"), record.get("args"))


def _hit_json(
    step: Step, number: int, hit: TtsrHit, show_text: bool, index: TtsrIndex, streams: Streams
) -> dict[str, Any]:
    rules = [
        {"name": m.rule, "path": rule_path(rule, index.config), "kind": m.kind,
         "condition": m.condition, "matched": m.matched, "file": m.path,
         **dict(zip(("line", "column"), streams.where(step, m.matched), strict=True))}
        for rule, m in zip(hit.rules, hit.matches, strict=True)
    ]
    line, column = min(((r["line"], r["column"]) for r in rules), default=(step.line, step.column))
    data: dict[str, Any] = {
        "delta": number, "line": line, "column": column, "source": hit.source,
        "tool": hit.tool, "call_id": hit.call_id, "offset": hit.offset, "interrupt": hit.interrupt,
        "rules": rules,
    }
    if show_text:
        data["text"] = hit.text
    return data


def run(args: argparse.Namespace) -> int:
    """Replay the stream; 1 when some rule fired."""
    if args.chunk < 1:
        raise UsageError("--chunk must be at least 1.")
    config = config_from(args)
    text = read_stdin() if args.file == "-" else read_input(args.file)
    jsonl = args.format == "jsonl" or (args.format == "auto" and _looks_like_jsonl(args.file, text))
    steps = (_jsonl_steps(text, args.source, args.tool) if jsonl
             else _text_steps(text, args.chunk, args.source, args.tool))
    ruleset = RuleSet.load(config)
    index = ruleset.ttsr
    watcher = TtsrWatcher(index, ruleset.store, args.session)
    hits: list[dict[str, Any]] = []
    deltas = 0
    streams = Streams(text, jsonl)
    for step in steps:
        if step.turn_start:
            watcher.turn_start()
            streams.turn_start()
            continue
        deltas += 1
        streams.add(step)
        hit = watcher.watch(cast(Source, step.source), step.delta, tool=step.tool,
                            call_id=step.call_id, args=step.args)
        if hit is not None:
            hits.append(_hit_json(step, deltas, hit, args.show_text, index, streams))
    warnings = [*ruleset.buckets.warnings, *index.template_warnings]
    if args.json:
        print_json({
            "rules": [
                {"name": c.rule.name, "path": rule_path(c.rule, config),
                 "scope": [str(e) for e in c.scope], "interrupt_mode": c.interrupt_mode(config),
                 "repeat": str(c.repeat)}
                for c in index.compiled
            ],
            "deltas": deltas,
            "hits": hits,
            "warnings": [{"path": w.path, "message": w.message} for w in warnings],
        })
        return 1 if hits else 0
    for item in hits:
        where = f"line {item['line']}:{item['column']} (delta {item['delta']}, {item['source']}"
        where += f" {item['tool']})" if item["tool"] else ")"
        print(f"{where}  {'INTERRUPT' if item['interrupt'] else 'reminder'}")
        for rule in item["rules"]:
            detail = f"matched {rule['matched']!r}" if rule["matched"] else f"path {rule['file']}"
            print(f"  {rule['name']} ({rule['path']}): {rule['kind']} {rule['condition']!r}, "
                  + detail)
        if args.show_text:
            print("  " + item["text"].replace("\n", "\n  "))
    fired = sum(len(item["rules"]) for item in hits)
    print(f"{deltas} deltas, {len(hits)} hits firing {fired} rules, "
          f"{len(index.compiled)} streamed rules watched")
    print_warnings(warnings, config.root)
    return 1 if hits else 0
