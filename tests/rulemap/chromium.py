"""Drive a headless Chromium over the DevTools protocol on a pipe, with the standard library only.

``chromium --remote-debugging-pipe`` reads protocol commands on its file
descriptor 3 and writes answers and events on 4, each a JSON text ending in
a NUL byte. ``Browser`` starts it with a throw-away profile, opens a page,
evaluates JavaScript in it, and takes screenshots; it records exceptions the
page throws, console and log entries (a Content-Security-Policy violation is
one) and every request the page makes.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from types import TracebackType
from typing import Any

INSTALL_HINT = "install it with `apt-get install chromium` (or `make test`, which does so)"

TIMEOUT = 60.0
"""Seconds one protocol command may take (a loaded CI machine is slow to start a browser)."""


class ChromiumError(RuntimeError):
    """Chromium is missing, would not start, or a protocol command failed."""


def find_chromium() -> str | None:
    """Debian's ``chromium`` (or a ``chromium-browser`` / ``google-chrome``) on PATH; None if absent."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _high(fd: int) -> int:
    """A copy of ``fd`` numbered 10 or more (so that moving it to 3 or 4 in the child never clashes)."""
    copy = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return copy


class Browser:
    """One headless Chromium with one page, driven over the DevTools pipe.

    Args:
        profile: An empty directory for the browser's profile.
        width: The page's viewport width in CSS pixels.
        height: Its height.
    """

    def __init__(self, profile: Path, width: int = 1400, height: int = 900) -> None:
        program = find_chromium()
        if program is None:
            raise ChromiumError(f"chromium is not installed; {INSTALL_HINT}")
        commands_read, commands_write = (_high(fd) for fd in os.pipe())
        answers_read, answers_write = (_high(fd) for fd in os.pipe())

        def wire() -> None:  # in the child, before exec: the pipe ends become fds 3 and 4
            os.dup2(commands_read, 3)
            os.dup2(answers_write, 4)

        self.process = subprocess.Popen(
            [
                program, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--disable-component-update", "--mute-audio", f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=wire,
        )
        os.close(commands_read)
        os.close(answers_write)
        self._out = commands_write
        self._in = answers_read
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.exceptions: list[str] = []
        self.log: list[str] = []
        self.requests: list[str] = []
        self.session = ""
        try:
            targets = self.send("Target.getTargets")["targetInfos"]
            page = next(t["targetId"] for t in targets if t["type"] == "page")
            self.session = self.send("Target.attachToTarget", targetId=page, flatten=True)["sessionId"]
            for domain in ("Page", "Runtime", "Log", "Network"):
                self.send(f"{domain}.enable")
            self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                      deviceScaleFactor=1, mobile=False)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Browser:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the browser (politely, then by force) and the pipes."""
        try:
            if self.process.poll() is None:
                self._write({"id": self._take_id(), "method": "Browser.close"})
                self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        for fd in (self._out, self._in):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _take_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _write(self, message: dict[str, Any]) -> None:
        os.write(self._out, json.dumps(message).encode() + b"\0")

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._in], [], [], left)[0]:
                raise ChromiumError("chromium did not answer in time")
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                raise ChromiumError("chromium closed the DevTools pipe")
            self._buffer += chunk
        text, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(text)
        return message

    def _record(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.exceptions.append(details.get("exception", {}).get("description") or details.get("text", ""))
        elif method == "Log.entryAdded":
            self.log.append(f"{params['entry']['level']}: {params['entry']['text']}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning"):
            self.log.append(f"console {params['type']}: {params.get('args')}")
        elif method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command (to the page once attached) and return its result.

        Raises:
            ChromiumError: The command failed or timed out.
        """
        ident = self._take_id()
        message: dict[str, Any] = {"id": ident, "method": method, "params": params}
        if self.session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        self._write(message)
        deadline = time.monotonic() + TIMEOUT
        while True:
            answer = self._read(deadline)
            if answer.get("id") == ident:
                if "error" in answer:
                    raise ChromiumError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer.get("result", {})
                return result
            self._record(answer)

    def wait_for(self, method: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next event called ``method`` (events already received count).

        Raises:
            ChromiumError: None arrived in time.
        """
        for index, event in enumerate(self.events):
            if event.get("method") == method:
                found: dict[str, Any] = self.events.pop(index)
                return found
        deadline = time.monotonic() + timeout
        while True:
            event = self._read(deadline)
            self._record(event)
            if event.get("method") == method:
                self.events.remove(event)
                return event

    def open(self, url: str) -> None:
        """Navigate to ``url`` and wait for its load event (what was recorded before is forgotten)."""
        self.events.clear()
        self.exceptions.clear()
        self.log.clear()
        self.requests.clear()
        self.send("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (JSON-serialisable values only).

        Raises:
            ChromiumError: The expression threw.
        """
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise ChromiumError(details.get("exception", {}).get("description") or details.get("text", ""))
        return result["result"].get("value")

    def screenshot(self, path: Path) -> Path:
        """A PNG of the viewport, written to ``path``."""
        data = self.send("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path
