"""Start a throw-away ``redis-server`` on a free loopback port (tests and benchmarks share this)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

INSTALL_HINT = "install it with `apt-get install redis-server` (or `make test`, which does so)"


class RedisServerError(RuntimeError):
    """redis-server is missing or would not start."""


def find_redis_server() -> str | None:
    """The redis-server executable: on PATH, or in /usr/bin or /usr/sbin; None if absent."""
    found = shutil.which("redis-server")
    if found:
        return found
    for candidate in (Path("/usr/bin/redis-server"), Path("/usr/sbin/redis-server")):
        if candidate.is_file():
            return str(candidate)
    return None


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def answers_ping(port: int) -> bool:
    """Whether a Redis server on the loopback ``port`` answers PING with PONG."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class RedisServer:
    """A running redis-server child process."""

    process: subprocess.Popen[bytes]
    port: int
    workdir: Path

    @property
    def url(self) -> str:
        """The server's ``redis://`` URL (database 0)."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def socket_path(self) -> Path:
        """The server's unix socket (it listens there too)."""
        return self.workdir / "redis.sock"

    def stop(self) -> None:
        """Terminate the server and wait for it to exit."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_redis_server(workdir: Path, *, timeout: float = 10.0, attempts: int = 3) -> RedisServer:
    """Start redis-server (no persistence) on a free loopback port and wait until it answers PING.

    Args:
        workdir: A private directory for the server's files and log.
        timeout: Seconds to wait for PONG.
        attempts: Ports to try (another process may take the free port first).

    Returns:
        The running server.

    Raises:
        RedisServerError: redis-server is missing or did not start.
    """
    executable = find_redis_server()
    if executable is None:
        raise RedisServerError(f"redis-server is not installed; {INSTALL_HINT}.")
    workdir.mkdir(parents=True, exist_ok=True)
    log = workdir / "redis.log"
    for _ in range(attempts):
        port = free_port()
        process = subprocess.Popen(
            [
                executable, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--daemonize", "no", "--dir", str(workdir), "--logfile", str(log),
                "--unixsocket", str(workdir / "redis.sock"), "--unixsocketperm", "700",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        server = RedisServer(process, port, workdir)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and process.poll() is None:
            if answers_ping(port):
                return server
            time.sleep(0.02)
        server.stop()
    tail = log.read_text(errors="replace")[-500:] if log.exists() else "(no log)"
    raise RedisServerError(f"redis-server ({executable}) did not start; {INSTALL_HINT}. Log tail: {tail}")
