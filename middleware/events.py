"""The event schema: every event a session logs, and its fields.

Each public call of a session logs one event (``watch`` logs only its hits),
through the stdlib logger ``ruleweave.events`` and, with
``RuleweaveConfig(event_log=PATH)``, as JSON lines (keys sorted, plus
``ts``). Every event carries ``session``. ``ruleweave replay`` reads
``session_start``, ``tool_touch`` and ``injection``; the rest are for people
and dashboards. In tests, ``ruleweave.testing.capture_events()`` collects
events and checks them against this schema.

=================  ==========================================================
event              fields (besides ``session``)
=================  ==========================================================
``session_start``  cwd, project_root, prompt_sha256, prompt_bytes,
                   instructions_bytes, generic_rules, domain_rules,
                   budget_cut, options; plus the caller's context
                   (e.g. ``adapter``)
``prompt``         prompt_sha256, prompt_bytes
``tool_check``     tool, refused, rule, forbidden
``tool_touch``     tool, args, paths, injected
``injection``      tool, items
``forget_calls``   call_ids, rearmed
``compacted``      —
``ttsr``           source, tool, call_id, interrupt, rules, offset
``ttsr_route``     action, call_id, attempt, rules
``turn_start``     —
``steering``       route, route_order, forbid, elicit, matched_rules
``resolve``        name, found
``store_error``    operation, error
=================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, slots=True)
class EventSpec:
    """One event's documented shape.

    Attributes:
        name: The event name.
        description: When it is logged.
        fields: Its fields (besides ``session``), each with a description.
        open: Whether callers may add fields of their own (``session_start`` context).
    """

    name: str
    description: str
    fields: Mapping[str, str]
    open: bool = False


def _spec(event: str, description: str, /, *, open: bool = False, **fields: str) -> tuple[str, EventSpec]:
    return event, EventSpec(event, description, MappingProxyType(fields), open)


EVENTS: Mapping[str, EventSpec] = MappingProxyType(
    dict(
        [
            _spec(
                "session_start", "A session object was made (a new conversation, or one resumed).",
                open=True,
                cwd="The session's working directory.",
                project_root="The project root.",
                prompt_sha256="SHA-256 of the prompt contribution (no steering).",
                prompt_bytes="Its size in UTF-8 bytes.",
                instructions_bytes="The instruction blob's size.",
                generic_rules="Names in <generic-rules>.",
                domain_rules="Names in <domain-rules>.",
                budget_cut="[path, bytes dropped] per instruction file or rule the prompt budget cut.",
                options="The options that shape rules and prompts (replay rebuilds the config).",
            ),
            _spec(
                "prompt", "prompt_parts() or system_prompt() was called.",
                prompt_sha256="SHA-256 of the text returned (steering included).",
                prompt_bytes="Its size in UTF-8 bytes.",
            ),
            _spec(
                "tool_check", "check_tool() (or before_tool_call) looked at a call.",
                tool="The tool's name.",
                refused="Whether steering refused it.",
                rule="The steering rule that forbade it, or null.",
                forbidden="The forbidden id it matched, or null.",
            ),
            _spec(
                "tool_touch", "after_tool_call() read a call's paths (logged only when a sink is on).",
                tool="The tool's name.",
                args=(
                    "The decoded arguments as plain JSON, bounded (echo.loggable): strings cut at "
                    "4,096 characters, containers at 256 items and 8 levels, 4,096 values in all; "
                    "each cut, and each value JSON cannot hold, marked '[ruleweave: …]'."
                ),
                paths="Touched paths, relative to the project when inside it.",
                injected="Names of the notices this call won.",
            ),
            _spec(
                "injection", "after_tool_call() returned a notice.",
                tool="The tool's name.",
                items="[{kind, name, trigger, glob}] per rule, instruction file or reminder.",
            ),
            _spec(
                "forget_calls", "forget_calls() re-armed the notices of dropped tool calls.",
                call_ids="The call ids given.",
                rearmed="The store keys re-armed.",
            ),
            _spec("compacted", "compacted() re-armed every notice."),
            _spec(
                "ttsr", "watch() found streamed rules that fire.",
                source="text, thinking or tool.",
                tool="The tool's name (tool streams), or null.",
                call_id="The tool call's id, or null.",
                interrupt="Whether the hit asks to interrupt.",
                rules="Names of the rules that fired.",
                offset="Characters of the stream seen up to the end of the delta.",
            ),
            _spec(
                "ttsr_route", "route() decided what to do about a hit.",
                action="retry, append or refuse.",
                call_id="The tool call concerned, or null.",
                attempt="For retry, the retry's number within the turn; else 0.",
                rules="Names of the rules of the hit.",
            ),
            _spec("turn_start", "turn_start() began a model turn."),
            _spec(
                "steering", "steer() decided a user turn.",
                route="The selected route, or null.",
                route_order="The route order.",
                forbid="Forbidden ids.",
                elicit="Ids of the questions to ask.",
                matched_rules="Ids of the SkillSpec rules that matched.",
            ),
            _spec(
                "resolve", "resolve() looked up a rule:// address.",
                name="The name asked for.",
                found="Whether a rule has that name.",
            ),
            _spec(
                "store_error", "The store failed; the call went on as if nothing applied (fail-open).",
                operation="What the session asked of the store (claim, get, ledger, …).",
                error="The error's type and message.",
            ),
        ]
    )
)
"""Every event, by name."""


def check_event(event: str, fields: Mapping[str, Any]) -> list[str]:
    """The ways one logged event differs from its schema (empty when it conforms).

    Args:
        event: The event name.
        fields: Its fields as logged (``session`` and ``ts`` included or not).

    Returns:
        One sentence per problem.
    """
    spec = EVENTS.get(event)
    if spec is None:
        return [f"Unknown event {event!r}."]
    given = set(fields) - {"session", "ts", "event"}
    problems = [f"Event {event!r} lacks the field {name!r}." for name in sorted(set(spec.fields) - given)]
    if not spec.open:
        extra = sorted(given - set(spec.fields))
        problems.extend(f"Event {event!r} has the undocumented field {name!r}." for name in extra)
    if "session" not in fields:
        problems.append(f"Event {event!r} lacks the field 'session'.")
    return problems
