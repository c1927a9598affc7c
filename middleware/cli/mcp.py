"""``ruleweave mcp``: serve the repository's rules to MCP hosts, over stdio or streamable HTTP.

Stdio (the default) is what a host's MCP configuration starts: one server
process per host session, speaking the protocol on stdin/stdout, so nothing
else is ever printed there. ``--http HOST:PORT`` serves streamable HTTP at
``http://HOST:PORT/mcp`` instead: a loopback address (``127.0.0.0/8``, ``::1``,
``localhost``) with Host and Origin checked, any other only with
``--allow-remote`` and a bearer token (``$RULEWEAVE_MCP_TOKEN``, or one generated
and printed once). ruleweave's events go to stderr only with
``--events`` (and to a JSON-lines file with ``--event-log PATH``). Needs the
``mcp`` extra (``pip install ruleweave[mcp]``). ``--host claude-code`` serves
beside Claude Code's hooks (``ruleweave.adapters.mcp``): the server ``ruleweave
install claude-code`` registers, whose tool ``hook`` answers the ``mcp_tool`` hooks
with the command hook's store (``sqlite://`` unless ``--store`` says otherwise).
``--http 127.0.0.1:PORT --host opencode`` is the server OpenCode's plugin calls
once installed with ``ruleweave install opencode --server URL``.
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from ruleweave.cli.common import UsageError, add_cwd, add_store, config_from
from ruleweave.errors import MissingDependencyError
from ruleweave.hosts._core.served import SERVED_HOSTS
from ruleweave.log import EVENTS_LOGGER

TOKEN_ENV = "RULEWEAVE_MCP_TOKEN"
"""The environment variable holding the bearer token of a non-loopback ``--http`` address."""


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
        "--allow-remote", action="store_true",
        help=f"let --http bind an address other machines reach (0.0.0.0, a LAN address); every request "
        f"then needs a bearer token: ${TOKEN_ENV}, or one generated and printed once",
    )
    parser.add_argument(
        "--session", metavar="ID",
        help="the session of requests that carry no MCP session (default: a new one per process)",
    )
    parser.add_argument("--name", default="ruleweave", help="the server name hosts show (default: ruleweave)")
    parser.add_argument(
        "--host", choices=SERVED_HOSTS, metavar="AGENT",
        help="serve beside this agent's hooks (claude-code, opencode): repeat nothing they deliver, and "
        "answer its hook events with the tool `hook` (claude-code: its mcp_tool hooks, what `ruleweave "
        "install claude-code` registers; opencode: its plugin, installed with --server URL)",
    )
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
    token = remote_token(address[0], args.allow_remote) if address is not None else None
    config = config_from(args, **({"event_log": args.event_log} if args.event_log else {}))
    try:
        from ruleweave.adapters.mcp import create_server
    except MissingDependencyError as exc:
        raise UsageError(str(exc)) from exc
    if args.events:
        _events_to_stderr()
    hosted = {"host": args.host, "hook_store": args.store or "sqlite://"} if args.host else {}
    server = create_server(config, session_id=args.session, name=args.name, **hosted)
    try:
        if address is None:
            server.run()
        else:
            from ruleweave.adapters.mcp_http import serve_http

            serve_http(server, *address, token=token)
    except KeyboardInterrupt:
        return 0
    return 0


def remote_token(host: str, allow_remote: bool) -> str | None:
    """The bearer token a non-loopback ``--http`` address needs (``None`` for a loopback one).

    Raises:
        UsageError: A non-loopback address without ``--allow-remote``.
    """
    from ruleweave.adapters.mcp_http import is_loopback

    if is_loopback(host):
        return None
    if not allow_remote:
        raise UsageError(
            f"--http {host}: other machines could read every rule there; add --allow-remote to serve it "
            "with a bearer token, or bind 127.0.0.1."
        )
    token = os.environ.get(TOKEN_ENV)
    if not token:
        token = secrets.token_urlsafe(32)
        print(f"Bearer token (shown once; set ${TOKEN_ENV} to choose it): {token}", file=sys.stderr)
    return token


def _events_to_stderr() -> None:
    """Send ruleweave's events (INFO on ``ruleweave.events``) to stderr, whatever the root logger does."""
    events = logging.getLogger(EVENTS_LOGGER)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    events.addHandler(handler)
    events.setLevel(logging.INFO)
    events.propagate = False
