"""Decision traces on disk, in the reference implementation's layout.

``write_trace(decision, spec, DIR)`` creates ``DIR/run-<unix ms>-<pid>/`` with:

- ``events/000001.input_received.json``, ... — one pretty-printed envelope
  per event, each written to a temporary file and renamed into place;
- ``trace.jsonl`` — the envelopes in order, one compact JSON per line;
- ``summary.json`` — ``{schema, run_id, skill_id, spec_fingerprint,
  input_sha256, event_count, events: {kind: count}}``.

An envelope is ``{schema: "skillspec.trace/v0", run_id, seq,
timestamp_unix_ms, skill_id, spec_schema, spec_fingerprint, input_sha256,
event, event_name, data}`` where ``data`` is the event's payload
(:meth:`~ruleweave.steering.decision.TraceEvent.payload`). Only the kinds in
the spec's ``trace.record`` are written (all of them when it is empty or
absent). ``input_sha256`` is ``sha256:`` and the hex digest of the input's
UTF-8 bytes, as in the reference; ``spec_fingerprint`` is ``sha256:`` over
ruleweave's canonical JSON of the spec and the digests of its imported
files, so it changes exactly when the resolved spec does, but its digits
differ from the reference's (which hashes its own serialisation).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleweave.errors import ConfigError
from ruleweave.steering.decision import Decision, TraceEvent
from ruleweave.steering.imports import ImportGraph
from ruleweave.steering.model import SkillSpec
from ruleweave.steering.sections import TRACE_EVENT_KINDS

TRACE_SCHEMA = "skillspec.trace/v0"
"""The envelope schema."""


@dataclass(frozen=True, slots=True)
class TraceWriteResult:
    """Where a trace was written.

    Attributes:
        run_id: The run's id (its folder name).
        run_dir: The run folder.
        event_count: How many events were written.
        trace_jsonl: The compacted event stream.
        summary_json: The summary.
    """

    run_id: str
    run_dir: Path
    event_count: int
    trace_jsonl: Path
    summary_json: Path


def require_trace(spec: SkillSpec, trace_dir: str | Path | None) -> None:
    """Refuse to decide untraced when the spec sets ``trace.required``.

    Args:
        spec: The document.
        trace_dir: Where the trace will be written, or None.

    Raises:
        ConfigError: The spec requires a trace and no directory was given.
    """
    if spec.trace is not None and spec.trace.required and trace_dir is None:
        raise ConfigError(
            f"The SkillSpec {spec.id!r} sets trace.required: true; pass a trace directory "
            "(--trace-dir DIR) or use a spec that does not require tracing."
        )


def recorded_events(spec: SkillSpec, decision: Decision) -> tuple[TraceEvent, ...]:
    """The decision's events that the spec's ``trace.record`` selects (all when it is empty).

    Args:
        spec: The document.
        decision: The decision.

    Returns:
        The events, in order.
    """
    record = set(spec.trace.record) if spec.trace is not None else set()
    if not record:
        return decision.trace
    return tuple(event for event in decision.trace if event.event in record)


def input_sha256(text: str) -> str:
    """``sha256:`` and the hex digest of ``text``'s UTF-8 bytes.

    Args:
        text: The user's input.

    Returns:
        The digest string.
    """
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def spec_fingerprint(spec: SkillSpec, imports: ImportGraph | None = None) -> str:
    """A digest of the resolved spec: the document and the files it imports.

    Args:
        spec: The document.
        imports: Its resolved imports, when known.

    Returns:
        ``sha256:`` and the hex digest.
    """
    digest = hashlib.sha256(b"skillspec.resolved_spec/v0\n")
    document = spec.model_dump(mode="json", by_alias=True)
    digest.update(json.dumps(document, sort_keys=True, separators=(",", ":"), default=str).encode())
    for item in sorted(imports.imports if imports else (), key=lambda entry: entry.id):
        digest.update(f"\nimport\n{item.id}\n{item.path}\n{item.section or ''}\ncontent\n".encode())
        digest.update((item.digest or "").encode())
    return "sha256:" + digest.hexdigest()


def write_trace(
    decision: Decision,
    spec: SkillSpec,
    directory: str | Path,
    *,
    imports: ImportGraph | None = None,
    clock: Callable[[], int] | None = None,
) -> TraceWriteResult:
    """Write one decision's trace as a new run folder under ``directory``.

    Args:
        decision: The decision (its ``trace`` holds the events).
        spec: The document it was made with (``trace.record`` selects events).
        directory: The trace root; created when missing.
        imports: The spec's resolved imports, for the fingerprint.
        clock: Unix time in milliseconds (default: the system clock).

    Returns:
        Where the run was written.

    Raises:
        ConfigError: The trace cannot be written there.
    """
    now = clock or (lambda: time.time_ns() // 1_000_000)
    root = Path(directory)
    try:
        run_id, run_dir = _new_run(root, now())
        events_dir = run_dir / "events"
        events_dir.mkdir()
        common = {
            "skill_id": spec.id,
            "spec_schema": spec.schema_,
            "spec_fingerprint": spec_fingerprint(spec, imports),
            "input_sha256": input_sha256(decision.input),
        }
        for seq, event in enumerate(recorded_events(spec, decision), start=1):
            envelope = {
                "schema": TRACE_SCHEMA,
                "run_id": run_id,
                "seq": seq,
                "timestamp_unix_ms": now(),
                "skill_id": common["skill_id"],
                "spec_schema": common["spec_schema"],
                "spec_fingerprint": common["spec_fingerprint"],
                "input_sha256": common["input_sha256"],
                "event": event.event,
                "event_name": event.event,
                "data": event.payload(),
            }
            final = events_dir / f"{seq:06d}.{event.event}.json"
            temporary = final.with_suffix(".json.tmp")
            temporary.write_text(_pretty(envelope), encoding="utf-8")
            os.replace(temporary, final)
        return compact(run_dir)
    except OSError as exc:
        raise ConfigError(f"Cannot write the trace under {root} ({exc.strerror or exc}).") from exc


def compact(run_dir: str | Path) -> TraceWriteResult:
    """Write ``trace.jsonl`` and ``summary.json`` from a run's sorted event files.

    Args:
        run_dir: A run folder holding ``events/``.

    Returns:
        Where the files were written.

    Raises:
        ConfigError: The run folder cannot be read or written, or holds a broken event.
    """
    folder = Path(run_dir)
    try:
        files = sorted(p for p in (folder / "events").iterdir() if p.suffix == ".json" and p.is_file())
        envelopes = [json.loads(path.read_text(encoding="utf-8")) for path in files]
        trace_jsonl = folder / "trace.jsonl"
        lines = "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in envelopes)
        trace_jsonl.write_text(lines, encoding="utf-8")
        summary_json = folder / "summary.json"
        summary_json.write_text(_pretty(_summary(envelopes)), encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise ConfigError(f"Cannot compact the trace in {folder} ({exc}).") from exc
    return TraceWriteResult(folder.name, folder, len(envelopes), trace_jsonl, summary_json)


def _summary(envelopes: list[dict[str, Any]]) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for envelope in envelopes:
        counts[envelope["event"]] = counts.get(envelope["event"], 0) + 1
    order = {kind: index for index, kind in enumerate(TRACE_EVENT_KINDS)}
    first = envelopes[0] if envelopes else {}
    summary: dict[str, Any] = {
        "schema": TRACE_SCHEMA,
        "run_id": first.get("run_id", "empty"),
        "skill_id": first.get("skill_id", "unknown"),
    }
    for key in ("spec_fingerprint", "input_sha256"):
        value = next((e[key] for e in envelopes if e.get(key)), None)
        if value is not None:
            summary[key] = value
    summary["event_count"] = len(envelopes)
    summary["events"] = dict(sorted(counts.items(), key=lambda item: order.get(item[0], len(order))))
    return summary


def _new_run(root: Path, millis: int) -> tuple[str, Path]:
    """A fresh run folder (a suffix keeps two runs in one millisecond apart)."""
    root.mkdir(parents=True, exist_ok=True)
    base = f"run-{millis}-{os.getpid()}"
    for attempt in range(1000):
        run_id = base if attempt == 0 else f"{base}-{attempt}"
        try:
            (root / run_id).mkdir()
        except FileExistsError:
            continue
        return run_id, root / run_id
    raise FileExistsError(f"too many runs named {base}")


def _pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)
