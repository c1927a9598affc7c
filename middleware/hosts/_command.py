"""The ``ruleweave hook <agent>`` process: one hook event on stdin, its answer on stdout, for any host.

It never fails the agent: whatever goes wrong (a bad option, malformed
input, a broken rule set) ends with exit 0, no output and a ``hook_error``
line in the hook log (``--event-log``, else ``<agent>-hook.jsonl`` in the
state directory). A non-zero exit would make the agent show an error, and
some agents block the tool on exit 2. A store that cannot be opened is not
such an error: the hook answers without it (``memory://``: no claims across
events), and store trouble is told to the user once (``_store_notes``).

The host (``ruleweave.hosts.host``) decides everything agent-specific: how
its input reads as a ``HookEvent``, the answer from its snapshot when that
is warm (``Host.answer_warm``), and otherwise from a freshly loaded rule set
(``Host.answer_cold``), which then refreshes the snapshot; a host that declares
neither gets the shared engine's (``ruleweave.hosts._core.answer``). This module
reads the input within a byte cap, checks its ``cwd``, chooses the path and
prints the answer.
"""

from __future__ import annotations

import gc
import os
import sys

from ruleweave._kernel import jsontext
from ruleweave.hosts import MISS, NOTE, host
from ruleweave.hosts._hook_log import HookLog
from ruleweave.hosts._options import HOOK_OPTIONS, HookOptions, parse

TYPE_CHECKING = False  # not typing's: this module is on the hook's fast path
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from ruleweave.hosts import HookEvent, Host

MAX_STDIN_BYTES = 16 * 1024 * 1024
"""The largest hook input read; a larger one is answered with nothing."""

MAX_CWD_CHARS = 4096
"""The longest event ``cwd`` taken (the kernel's ``PATH_MAX``): finding the project root above a
longer one would cost time quadratic in its length."""

BAD_CWD = f"the event's cwd is not an absolute path of at most {MAX_CWD_CHARS} characters; nothing answered"


def run(
    name: str,
    argv: Sequence[str] = (),
    *,
    options: HookOptions | None = None,
    stdin: Any = None,
    stdout: Any = None,
) -> int:
    """Answer one hook event of the agent ``name``; always returns 0.

    Args:
        name: The host, one of ``ruleweave.hosts.HOSTS``.
        argv: The options after ``hook <agent>``, read with ``HOOK_OPTIONS`` (when ``options`` is not given).
        options: The options, already parsed (``ruleweave.cli.hook`` hands argparse's values here).
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
        return _run(name, argv, options, stdin, stdout)
    finally:
        if collecting:
            gc.enable()


def _run(name: str, argv: Sequence[str], options: HookOptions | None, stdin: Any, stdout: Any) -> int:
    log = HookLog(None)
    event: HookEvent | None = None
    try:
        agent = host(name)  # first: the log's file name is the host's
        state = state_dir()
        log = HookLog(os.path.join(state, f"{agent.name}-hook.jsonl"))
        if options is None:
            options = HookOptions(**parse(argv, HOOK_OPTIONS, f"hook {name}"))
        if options.event_log:
            log = HookLog(options.event_log)
        payload = read_payload(stdin)
        if payload is None:
            return 0
        event = agent.read_event(payload)
        if options.cwd is None and not usable_cwd(event.cwd):
            log.write("hook_error", hook_event=event.name or "", error=BAD_CWD)
            return 0
        emit(answer(agent, payload, options, log, state), stdout)
    except Exception as exc:  # the agent must never fail because of its rules
        from ruleweave.errors import HookUsageError  # only now: the fast path skips the import

        hook_event = (event.name or "") if event is not None else ""
        if isinstance(exc, HookUsageError):
            print(f"ruleweave: {exc}", file=sys.stderr)
            log.write("hook_error", hook_event=hook_event, error=f"usage: {exc}")
        else:
            log.write("hook_error", hook_event=hook_event, error=f"{type(exc).__name__}: {exc}")
    return 0


def answer(
    agent: Host, payload: Mapping[str, Any], options: HookOptions, log: HookLog, state: str
) -> dict[str, Any] | None:
    """The host's answer: from its snapshot when that is current, else from a loaded rule set.

    Args:
        agent: The host.
        payload: The hook input.
        options: The hook's options.
        log: The hook log.
        state: The state directory.

    Returns:
        The JSON object to print, or ``None``.
    """
    if options.snapshot:
        try:
            if agent.answer_warm is not None:
                found = agent.answer_warm(payload, options)
            else:
                from ruleweave.hosts._core.answer import answer_warm

                found = answer_warm(agent, payload, options)
        except Exception as exc:  # a damaged snapshot: the full path answers (and rewrites it)
            log.write("hook_error", hook_event="snapshot", error=f"{type(exc).__name__}: {exc}")
            found = MISS
        if found is not MISS:
            return found  # type: ignore[return-value]
    return answer_cold(agent, payload, options, log, state)


def answer_cold(
    agent: Host, payload: Mapping[str, Any], options: HookOptions, log: HookLog, state: str
) -> dict[str, Any] | None:
    """The full path's answer, with a note for the user about any store trouble met (said once).

    A store that cannot be opened is replaced by ``memory://`` for this answer: notices
    still go out, without the claims that make them once per session.

    Args:
        agent: The host.
        payload: The hook input.
        options: The hook's options.
        log: The hook log.
        state: The state directory.

    Returns:
        The JSON object to print, or ``None``.
    """
    from ruleweave.errors import StoreError
    from ruleweave.hosts._store_notes import FALLBACK, StoreNotes

    # An event log wants every event of the full path, and a snapshot built then would record its file.
    write_snapshot = options.snapshot and options.event_log is None
    if agent.answer_cold is not None:
        cold = agent.answer_cold
    else:
        from ruleweave.hosts._core.answer import answer_cold as shared

        def cold(payload: Mapping[str, Any], opts: HookOptions, log: HookLog, state: str, snap: bool) -> Any:
            return shared(agent, payload, opts, log, state, snap)

    with StoreNotes(options.store, state, log) as notes:
        try:
            found = cold(payload, options, log, state, write_snapshot)
        except StoreError as exc:
            notes.unavailable(exc)
            fallback = HookOptions(**{o.dest: getattr(options, o.dest) for o in HOOK_OPTIONS})
            fallback.store = FALLBACK
            found = cold(payload, fallback, log, state, False)
        notes.moved_files()
    event = agent.read_event(payload)
    text = notes.message(event.kind)
    note = agent.encode(event, NOTE, text) if text else None
    return found if note is None else {**(found or {}), **note}


def state_dir() -> str:
    """The state directory: ``$RULEWEAVE_STATE_DIR``, else the default ``state.db``'s directory."""
    from ruleweave._kernel.state import state_directory

    return state_directory(os.environ, os.path.expanduser("~"))


def read_payload(stream: Any) -> Mapping[str, Any] | None:
    """The hook input, or ``None`` when it is not one JSON object of UTF-8 text (or too large)."""
    data = stream.read(MAX_STDIN_BYTES + 1)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > MAX_STDIN_BYTES:
        return None
    try:
        payload = jsontext.loads(data)
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
        stream.write(jsontext.dumps(answer, ensure_ascii=False) + "\n")
        stream.flush()
