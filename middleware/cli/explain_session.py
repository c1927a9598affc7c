"""``ruleweave explain --session ID``: a session's delivery record, per rule and file, then entry by entry.

The store is the hooks' own (``sqlite://``: the state directory's
``state.db``) unless ``--store`` names another. Reading never creates a state
file: a missing one is a session with no record.
"""

from __future__ import annotations

import os
import time
from typing import Any

from ruleweave.cli.common import print_json
from ruleweave.store.record import session_record
from ruleweave.store.url import open_store

DEFAULT_STORE = "sqlite://"
"""Where the Claude Code hooks keep their sessions unless told otherwise."""


def run_session(session_id: str, store_url: str | None, *, as_json: bool) -> int:
    """Print the delivery record of ``session_id``; exit 0 (an empty record is not an error).

    Args:
        session_id: The agent's session id.
        store_url: The store (default ``DEFAULT_STORE``).
        as_json: Print ``session_record``'s dict as JSON.

    Returns:
        0.

    Raises:
        StoreError: The URL is malformed or the store cannot be opened or read.
    """
    url = store_url or DEFAULT_STORE
    if _missing_file(url):
        report: dict[str, Any] = {"session": session_id, "entries": [], "rules": []}
    else:
        store = open_store(url)
        try:
            report = session_record(store, session_id)
        finally:
            store.close()
    if as_json:
        print_json(report)
        return 0
    _print(report)
    return 0


def _missing_file(url: str) -> bool:
    """Whether ``url`` names a SQLite file that does not exist (opening it would create it)."""
    from ruleweave._kernel.state import STATE_FILE, parse_store_url, state_directory

    try:
        parsed = parse_store_url(url)
    except ValueError:
        return False  # open_store reports it
    if parsed.scheme != "sqlite":
        return False
    # The one place this command reads the environment: where the hooks' default store is.
    path = parsed.location or os.path.join(state_directory(os.environ, os.path.expanduser("~")), STATE_FILE)
    return not os.path.exists(path)


def _print(report: dict[str, Any]) -> None:
    rules, entries = report["rules"], report["entries"]
    if not entries:
        print(f"session {report['session']}: no delivery record")
        return
    print(f"session {report['session']}: {len(entries)} entries, {len(rules)} rules and files")
    print()
    print(f"  {'delivered':>9} {'bytes':>8} {'cut':>7}  {'waits':<5}  what")
    for row in rules:
        what = f"{row['kind']} {row['name']}".strip()
        waits = "yes" if row["waiting"] else ""
        print(f"  {row['delivered']:>9} {row['bytes']:>8,} {row['cut']:>7,}  {waits:<5}  {what}")
    print()
    for entry in entries:
        at = time.strftime("%H:%M:%S", time.localtime(float(entry.get("at") or 0)))
        call = f" {entry['call']}" if entry.get("call") else ""
        agent = f" agent {entry['agent']}" if entry.get("agent") else ""
        cut = f", {entry['cut']:,} cut" if entry.get("cut") else ""
        what = f"{entry.get('kind')} {entry.get('name')}".strip()
        size = f"{entry.get('bytes', 0):,} bytes{cut}"
        print(f"  {at} {entry['action']:<9} {what} ({size}) at {entry.get('event')}{call}{agent}")
