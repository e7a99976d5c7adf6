"""Running the server as its own process, for the crash tests and the load benchmark:
a free loopback port, a JSON call over HTTP, and start-and-wait-until-healthy."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(url: str, body: dict[str, Any] | None = None, token: str | None = None, timeout: float = 30) -> Any:
    """GET (or POST ``body``) JSON, with the seat's token if given."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers=headers, method="POST" if body is not None else "GET")
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return json.loads(resp.read())


def start(db: str, port: int, wait: float = 15.0) -> subprocess.Popen[bytes]:
    """``mummy serve`` on ``port`` with database ``db``, once it answers /api/health."""
    proc = subprocess.Popen([sys.executable, "-m", "mummy.cli", "serve", "--port", str(port), "--db", db],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            call(f"http://127.0.0.1:{port}/api/health", timeout=2)
            return proc
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.025)
    proc.kill()
    raise RuntimeError(f"the server on port {port} did not start")
