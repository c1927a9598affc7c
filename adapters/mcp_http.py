"""MCP over streamable HTTP, guarded: loopback binds check Host and Origin, other binds need a bearer token.

``MCPServer`` turns on its DNS-rebinding protection (Host and Origin checked)
only for the exact hosts ``127.0.0.1``, ``localhost`` and ``::1``; bound to
``127.0.0.2`` or ``0.0.0.0`` it serves every rule — project, home tier,
parent ``CLAUDE.md`` — to whoever asks. ``serve_http`` gives every loopback
address (the whole ``127.0.0.0/8``, ``::1``, ``localhost``) the same
protection, and serves any other address only with a bearer token: a request
without ``Authorization: Bearer <token>`` gets 401, compared in constant time.
Whether a non-loopback bind is wanted at all is the caller's question
(``ruleweave mcp --http … --allow-remote``).
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

LOOPBACK_NAMES = ("localhost",)
"""Host names that always mean this machine."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (``127.0.0.0/8``, ``::1``, ``localhost``).

    Args:
        host: A bind address or name, IPv6 with or without brackets.

    Returns:
        True for a loopback address; False for ``0.0.0.0``, ``::``, a LAN address or another name.
    """
    spelled = host.strip("[]").lower().rstrip(".")
    if spelled in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(spelled).is_loopback
    except ValueError:
        return False


def _netloc(host: str) -> str:
    spelled = host.strip("[]")
    return f"[{spelled}]" if ":" in spelled else spelled


def loopback_security(host: str) -> Any:
    """The Host/Origin checks ``MCPServer`` applies to ``127.0.0.1``, widened to ``host`` itself.

    Args:
        host: The loopback address served.

    Returns:
        ``mcp``'s ``TransportSecuritySettings`` with DNS-rebinding protection on.
    """
    from mcp.server.transport_security import TransportSecuritySettings

    names = list(dict.fromkeys(["127.0.0.1", "localhost", "[::1]", _netloc(host)]))
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:*" for name in names],
        allowed_origins=[f"http://{name}:*" for name in names],
    )


class BearerToken:
    """ASGI middleware: an HTTP request without ``Authorization: Bearer <token>`` gets 401.

    Args:
        app: The application guarded.
        token: The token every request must carry.
    """

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") == "http":
            given = dict(scope.get("headers") or ()).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                await send({
                    "type": "http.response.start", "status": 401,
                    "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")],
                })
                await send({"type": "http.response.body", "body": b"A bearer token is required.\n"})
                return
        await self.app(scope, receive, send)


def serve_http(server: MCPServer, host: str, port: int, *, token: str | None = None) -> None:
    """Serve ``server`` over streamable HTTP at ``http://host:port/mcp`` until stopped.

    Args:
        server: The MCP server (``ruleweave.adapters.mcp.create_server``).
        host: The bind address.
        port: The port.
        token: Required for a non-loopback ``host``; every request must carry it.

    Raises:
        ValueError: A non-loopback ``host`` without a token.
    """
    import uvicorn

    if is_loopback(host):
        app: Any = server.streamable_http_app(host=host, transport_security=loopback_security(host))
    else:
        if not token:
            raise ValueError("a non-loopback address is served only with a bearer token")
        from mcp.server.transport_security import TransportSecuritySettings

        # Remote hosts and browsers reach it by any name: the token, not the Host header, guards it.
        open_names = TransportSecuritySettings(enable_dns_rebinding_protection=False)
        app = BearerToken(server.streamable_http_app(host=host, transport_security=open_names), token)
    uvicorn.Server(uvicorn.Config(app, host=host.strip("[]"), port=port, log_level="warning")).run()
