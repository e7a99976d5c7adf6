"""Running the server as its own process, for the crash tests and the load benchmark:
a free loopback port, a JSON call over HTTP, start-and-wait-until-healthy, and a kill -9
with what a call raises when the server dies under it."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

#: What a call raises when the server died under it: no answer, so nothing acknowledged.
CUT_OFF: tuple[type[Exception], ...] = (urllib.error.URLError, http.client.HTTPException, ConnectionError, OSError)


def kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the server (if a timer has not already) and reap it: a crash, not a stop."""
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


#: Where the kernel takes the ports of outgoing connections from (Linux's default).
EPHEMERAL: Final = "/proc/sys/net/ipv4/ip_local_port_range"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now, for a server started
    next. It lies below the kernel's range of ephemeral ports: a port freed in that range
    may be taken by any outgoing connection (a client, a database's) before the server
    binds it. It is drawn at random, so that processes drawing at once (the tests'
    workers) rarely draw alike: from a generator of its own, seeded by the system (the
    tests' workers share the seed of ``random``), and checked by binding it."""
    try:
        low = int(Path(EPHEMERAL).read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    draw = random.Random()
    for _ in range(100):
        port = draw.randrange(min(20000, low // 2), low)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:  # all taken (never seen): any port the kernel gives
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


#: For tests and benchmarks that play faster than any person from one address.
UNLIMITED: Final = ("--games-per-address", "1000000/minute", "--actions-per-address", "1000000/second",
                    "--games-overall", "1000000/minute", "--actions-overall", "1000000/second",
                    "--previews-per-address", "1000000/second", "--previews-overall", "1000000/second",
                    "--prints-per-address", "1000000/minute", "--prints-overall", "1000000/minute",
                    "--sockets-per-address", "1000000/minute", "--sockets-overall", "1000000/minute")


def start(db: str, port: int, wait: float = 15.0, args: Sequence[str] = ()) -> subprocess.Popen[bytes]:
    """``mummy serve`` on ``port`` with database ``db`` (and more ``args``), once it
    answers /api/health."""
    proc = subprocess.Popen([sys.executable, "-m", "mummy.cli", "serve", "--port", str(port), "--db", db, *args],
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
