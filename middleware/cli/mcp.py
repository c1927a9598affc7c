"""``ruleweave mcp``: serve the repository's rules to MCP hosts, over stdio or streamable HTTP.

Stdio (the default) is what a host's MCP configuration starts: one server
process per host session, speaking the protocol on stdin/stdout, so nothing
else is ever printed there. ``--http HOST:PORT`` serves streamable HTTP at
``http://HOST:PORT/mcp`` instead. ruleweave's events go to stderr only with
``--events`` (and to a JSON-lines file with ``--event-log PATH``). Needs the
``mcp`` extra (``pip install ruleweave[mcp]``).
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from ruleweave.cli.common import UsageError, add_cwd, add_store, config_from
from ruleweave.errors import MissingDependencyError
from ruleweave.log import EVENTS_LOGGER


def register(subparsers: Any) -> None:
    """Add the ``mcp`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "mcp", help="serve the rules to MCP hosts (stdio, or streamable HTTP with --http HOST:PORT)"
    )
    add_cwd(parser)
    add_store(parser)
    parser.add_argument(
        "--http", metavar="HOST:PORT", help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio"
    )
    parser.add_argument(
        "--session", metavar="ID",
        help="the session of requests that carry no MCP session (default: a new one per process)",
    )
    parser.add_argument("--name", default="ruleweave", help="the server name hosts show (default: ruleweave)")
    parser.add_argument("--events", action="store_true", help="log ruleweave's events to stderr")
    parser.add_argument(
        "--event-log", type=Path, metavar="PATH",
        help="also append the events to this JSON-lines file (for ruleweave replay)",
    )
    parser.set_defaults(func=run)


def host_port(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a pair.

    Raises:
        UsageError: No port, or a port outside 0-65535.
    """
    host, _, port = value.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise UsageError(f"--http {value}: expected HOST:PORT, e.g. 127.0.0.1:8765.")
    return host, int(port)


def run(args: argparse.Namespace) -> int:
    """Serve until the host closes stdin (or the HTTP server is stopped); exit 0."""
    address = host_port(args.http) if args.http else None
    config = config_from(args, **({"event_log": args.event_log} if args.event_log else {}))
    try:
        from ruleweave.adapters.mcp import create_server
    except MissingDependencyError as exc:
        raise UsageError(str(exc)) from exc
    if args.events:
        _events_to_stderr()
    server = create_server(config, session_id=args.session, name=args.name)
    try:
        if address is None:
            server.run()
        else:
            server.run("streamable-http", host=address[0], port=address[1])
    except KeyboardInterrupt:
        return 0
    return 0


def _events_to_stderr() -> None:
    """Send ruleweave's events (INFO on ``ruleweave.events``) to stderr, whatever the root logger does."""
    events = logging.getLogger(EVENTS_LOGGER)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    events.addHandler(handler)
    events.setLevel(logging.INFO)
    events.propagate = False
