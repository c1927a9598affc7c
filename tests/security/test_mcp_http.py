"""``ruleweave mcp --http``: a loopback alias checks Host and Origin; other addresses need a flag and a token.

Issue #29 item 8: bound to ``0.0.0.0``, ``127.0.0.2``, ``[::]`` or a LAN
address, the server gave every rule (project, home tier, parent ``CLAUDE.md``)
to anyone, with no authentication and no Host/Origin check: ``mcp``'s
``MCPServer.streamable_http_app`` turns DNS-rebinding protection on only for
the exact hosts ``127.0.0.1``, ``localhost`` and ``::1``
(``mcp/server/mcpserver/server.py``). Real servers, real HTTP requests.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from ruleweave.adapters.mcp_http import is_loopback
from tests.conftest import WriteTree
from tests.security.helpers import RULEWEAVE

INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"},
    },
}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(root: Path, address: str, *args: str, **env: str) -> Iterator[subprocess.Popen[str]]:
    """``ruleweave mcp --http address`` running until the block ends (it answers TCP first)."""
    host, _, port = address.rpartition(":")
    process = subprocess.Popen(
        [RULEWEAVE, "mcp", "--cwd", str(root), "--http", address, *args], stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, env={**os.environ, **env},
    )
    try:
        deadline = time.monotonic() + 30
        target = "127.0.0.1" if host in ("0.0.0.0", "[::]") else host.strip("[]")
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                socket.create_connection((target, int(port)), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=30)


def post(url: str, **headers: str) -> httpx.Response:
    """An MCP ``initialize`` request with extra headers."""
    return httpx.post(url, json=INITIALIZE, headers={**HEADERS, **headers}, timeout=30)


def test_a_loopback_alias_checks_host_and_origin(write_tree: WriteTree) -> None:
    """On 127.0.0.2 a DNS-rebinding request (a foreign Host or Origin) is refused; its own name is served."""
    root = write_tree({".cursor/rules/a.mdc": "---\nalwaysApply: true\n---\nSecret rule.\n"})
    port = free_port()
    url = f"http://127.0.0.2:{port}/mcp"
    with serving(root, f"127.0.0.2:{port}"):
        assert post(url, host=f"evil.example:{port}").status_code == 421
        assert post(url, origin="http://evil.example").status_code == 403
        assert post(url).status_code == 200


def test_a_wildcard_address_needs_the_flag(write_tree: WriteTree) -> None:
    """``--http 0.0.0.0:PORT`` without ``--allow-remote`` exits 2 with one sentence, serving nothing."""
    root = write_tree({})
    done = subprocess.run([RULEWEAVE, "mcp", "--cwd", str(root), "--http", f"0.0.0.0:{free_port()}"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "add --allow-remote" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_remote_address_needs_the_token(write_tree: WriteTree) -> None:
    """With ``--allow-remote`` and ``RULEWEAVE_MCP_TOKEN``, a request without the token (or with another)
    gets 401, and one with it is served."""
    root = write_tree({})
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    with serving(root, f"0.0.0.0:{port}", "--allow-remote", RULEWEAVE_MCP_TOKEN="s3cret-token"):
        assert post(url).status_code == 401
        assert post(url, authorization="Bearer wrong").status_code == 401
        assert post(url, authorization="Bearer s3cret-token").status_code == 200


def test_a_generated_token_is_printed_once(write_tree: WriteTree) -> None:
    """Without the variable, a token is generated and printed once on stderr; it opens the server."""
    root = write_tree({})
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "RULEWEAVE_MCP_TOKEN"}
    with serving(root, f"0.0.0.0:{port}", "--allow-remote", **env) as process:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert line.startswith("Bearer token (shown once")
        token = line.rsplit(" ", 1)[-1].strip()
        assert len(token) >= 32
        assert post(f"http://127.0.0.1:{port}/mcp", authorization=f"Bearer {token}").status_code == 200


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.0.0.2", True), ("127.255.0.9", True), ("::1", True), ("[::1]", True),
     ("localhost", True), ("LOCALHOST.", True), ("0.0.0.0", False), ("::", False), ("[::]", False),
     ("192.168.1.20", False), ("example.com", False)],
)
def test_loopback_addresses(host: str, loopback: bool) -> None:
    """Every loopback spelling counts as loopback; wildcard, LAN and other names do not."""
    assert is_loopback(host) is loopback
