"""The ``ruleweave hook claude-code`` process: one hook event on stdin, its answer on stdout.

It never fails the agent: whatever goes wrong (a bad option, malformed
input, a broken rule set, a store that cannot be opened) ends with exit 0,
no output and a ``hook_error`` line in the hook log (``--event-log``, else
``claude-code-hook.jsonl`` in the state directory). A non-zero exit would
make Claude Code show an error, and exit 2 on PreToolUse would block the
tool.

The answer comes from the snapshot when it is warm (``snapshot``: no
pydantic, structlog or rule machinery imported) and otherwise from
``ClaudeCodeHooks`` over a freshly loaded rule set, which then refreshes
the snapshot. Both print through ``emit``, so they are byte-identical.
"""

from __future__ import annotations

import gc
import json
import os
import sys

from ruleweave.hosts.claude_code.hook_log import HookLog
from ruleweave.hosts.claude_code.options import HookOptions

TYPE_CHECKING = False  # not typing's: this module is on the hook's fast path (see ``snapshot``)
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from ruleweave.hosts.claude_code.handlers import ClaudeCodeHooks

MAX_STDIN_BYTES = 16 * 1024 * 1024
"""The largest hook input read; a larger one is answered with nothing."""

HOOK_LOG_NAME = "claude-code-hook.jsonl"
"""The hook log's file name in the state directory (when no ``--event-log`` is given)."""

USAGE = (
    "usage: ruleweave hook claude-code [--cwd DIR] [--root DIR] [--store URL] [--event-log PATH] "
    "[--include-native] [--no-snapshot]"
)


MAX_CWD_CHARS = 4096
"""The longest event ``cwd`` taken (the kernel's ``PATH_MAX``): finding the project root above a
longer one would cost time quadratic in its length."""

BAD_CWD = f"the event's cwd is not an absolute path of at most {MAX_CWD_CHARS} characters; nothing answered"


class HookUsageError(ValueError):
    """An option the hook does not know (reported on stderr and in the log; the exit stays 0)."""


def parse_options(argv: Sequence[str]) -> HookOptions:
    """The options after ``hook claude-code`` (argparse costs start-up time the hook does not have).

    Raises:
        HookUsageError: An unknown option, or one missing its value.
    """
    values: dict[str, Any] = {}
    flags = {"--include-native": ("include_native", True), "--no-snapshot": ("snapshot", False)}
    valued = {"--cwd": "cwd", "--root": "root", "--store": "store", "--event-log": "event_log"}
    items = list(argv)
    while items:
        item = items.pop(0)
        name, eq, value = item.partition("=")
        if name in flags and not eq:
            key, flag = flags[name]
            values[key] = flag
        elif name in valued:
            if not eq:
                if not items:
                    raise HookUsageError(f"the option {name} needs a value.")
                value = items.pop(0)
            values[valued[name]] = value
        else:
            raise HookUsageError(f"unknown option {item!r}; {USAGE}")
    return HookOptions(**values)


def state_dir() -> str:
    """The state directory: ``$RULEWEAVE_STATE_DIR``, else the default ``state.db``'s directory."""
    from ruleweave.hosts.claude_code.snapshot import state_directory

    return state_directory(os.environ)


def read_payload(stream: Any) -> Mapping[str, Any] | None:
    """The hook input, or ``None`` when it is not one JSON object of UTF-8 text (or too large)."""
    data = stream.read(MAX_STDIN_BYTES + 1)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > MAX_STDIN_BYTES:
        return None
    try:
        payload = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return payload if isinstance(payload, dict) else None


def usable_cwd(cwd: Any) -> bool:
    """Whether the event's ``cwd`` can name the project: absent (the process's own is used), or an
    absolute path within ``MAX_CWD_CHARS`` and without NUL (a relative one would depend on where
    the hook happens to run)."""
    if cwd is None or cwd == "":
        return True
    return isinstance(cwd, str) and len(cwd) <= MAX_CWD_CHARS and "\x00" not in cwd and os.path.isabs(cwd)


def emit(answer: Mapping[str, Any] | None, stream: Any) -> None:
    """Print the answer as one JSON line (nothing for ``None``)."""
    if answer is not None:
        stream.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stream.flush()


def run(argv: Sequence[str], stdin: Any = None, stdout: Any = None) -> int:
    """Answer one hook event; always returns 0.

    Args:
        argv: The options after ``hook claude-code``.
        stdin: Where the event is read (default: ``sys.stdin``'s bytes).
        stdout: Where the answer is written (default: ``sys.stdout``).

    Returns:
        0, whatever happened.
    """
    stdin = stdin if stdin is not None else getattr(sys.stdin, "buffer", sys.stdin)
    stdout = stdout if stdout is not None else sys.stdout
    # One event, then the process exits: the cyclic collector would only walk the modules and
    # rules being loaded (~5% of a cold start) to free nothing. Paused for this call alone.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run(argv, stdin, stdout)
    finally:
        if collecting:
            gc.enable()


def _run(argv: Sequence[str], stdin: Any, stdout: Any) -> int:
    log = HookLog(None)
    payload: Mapping[str, Any] | None = None
    try:
        log = HookLog(os.path.join(state_dir(), HOOK_LOG_NAME))
        options = parse_options(argv)
        if options.event_log:
            log = HookLog(options.event_log)
        payload = read_payload(stdin)
        if payload is None:
            return 0
        if options.cwd is None and not usable_cwd(payload.get("cwd")):
            log.write("hook_error", hook_event=_event_of(payload), error=BAD_CWD)
            return 0
        emit(answer(payload, options, log), stdout)
    except HookUsageError as exc:
        print(f"ruleweave: {exc}", file=sys.stderr)
        log.write("hook_error", hook_event=_event_of(payload), error=f"usage: {exc}")
    except Exception as exc:  # the agent must never fail because of its rules
        log.write("hook_error", hook_event=_event_of(payload), error=f"{type(exc).__name__}: {exc}")
    return 0


def answer(payload: Mapping[str, Any], options: HookOptions, log: HookLog) -> dict[str, Any] | None:
    """The answer: from the snapshot when it is current, else from a loaded rule set."""
    if options.snapshot:
        from ruleweave.hosts.claude_code import snapshot

        try:
            found = snapshot.answer(payload, options)
        except Exception as exc:  # a damaged snapshot: the full path answers (and rewrites it)
            log.write("hook_error", hook_event="snapshot", error=f"{type(exc).__name__}: {exc}")
            found = snapshot.MISS
        if found is not snapshot.MISS:
            return found  # type: ignore[return-value]
        if options.event_log is None:
            from ruleweave.hosts.claude_code.snapshot_build import answer_and_snapshot

            return answer_and_snapshot(
                payload, options, log, state_dir(), lambda: load_hooks(payload, options, log)
            )
    return load_hooks(payload, options, log).handle(payload)


def load_hooks(payload: Mapping[str, Any], options: HookOptions, log: HookLog) -> ClaudeCodeHooks:
    """``ClaudeCodeHooks`` over the rule set loaded now for the event's directory."""
    from ruleweave.config import RuleweaveConfig
    from ruleweave.hosts.claude_code.handlers import ClaudeCodeHooks
    from ruleweave.hosts.claude_code.native import hook_config
    from ruleweave.ruleset import RuleSet

    cwd = options.cwd or payload.get("cwd")
    config = RuleweaveConfig(
        cwd=cwd if isinstance(cwd, str) and cwd else os.getcwd(),
        project_root=options.root,
        event_log=options.event_log,
        store=options.store,
    )
    ruleset = RuleSet.load(hook_config(config, leave_out_native=not options.include_native))
    return ClaudeCodeHooks(ruleset, leave_out_native=not options.include_native, log=log)


def _event_of(payload: Mapping[str, Any] | None) -> str:
    event = payload.get("hook_event_name") if payload is not None else None
    return event if isinstance(event, str) else ""
