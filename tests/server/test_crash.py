"""Crash recovery: the server as a separate process, killed with SIGKILL at random points
while it is being played, then restarted. Every acknowledged action must be there, and
the game must replay (no half-applied action)."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CYCLES = 20


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _call(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers=headers, method="POST" if body is not None else "GET")
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def _start(db: str, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "mummy.cli", "serve", "--port", str(port), "--db", db],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):
        try:
            _call(f"http://127.0.0.1:{port}/api/health")
            return proc
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.025)
    proc.kill()
    raise AssertionError("the server did not start")


def test_kill_9_at_random_points_loses_no_acknowledged_action(tmp_path: Path) -> None:
    rng = random.Random(2026)
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _start(db, port)
    created = _call(f"{base}/api/games", {"game": "tomb", "seats": [{"name": "me"}, {"bot": "greedy"}], "seed": 5})
    game_id, token = created["id"], created["seats"][0]["token"]
    acknowledged: dict[str, dict[str, Any]] = {}
    try:
        for cycle in range(CYCLES):
            killer = threading.Timer(rng.uniform(0.05, 0.6), lambda p=proc: os.kill(p.pid, signal.SIGKILL))
            killer.start()
            try:
                for _ in range(50):
                    view = _call(f"{base}/api/games/{game_id}", token=token)
                    if view["over"] or not view.get("legal"):
                        break
                    client_id = f"c{cycle}-{view['version']}"
                    move = {"client_id": client_id, "version": view["version"], "action": rng.choice(view["legal"])}
                    answer = _call(f"{base}/api/games/{game_id}/actions", move, token)
                    acknowledged[client_id] = answer["result"]  # the server said yes: it must last
            except (urllib.error.URLError, ConnectionError, OSError):
                pass  # killed mid-request: that action was never acknowledged
            finally:
                killer.cancel()
                if proc.poll() is None:
                    os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
            proc = _start(db, port)
            view = _call(f"{base}/api/games/{game_id}", token=token)  # the log replays
            assert view["version"] >= max((r["version"] for r in acknowledged.values()), default=0)
            for client_id, result in acknowledged.items():
                # Repeating an acknowledged id answers with the stored result: it is in the log.
                again = _call(f"{base}/api/games/{game_id}/actions",
                              {"client_id": client_id, "version": 0, "action": result["action"]}, token)
                assert again["result"] == dict(result, repeated=True)
        assert len(acknowledged) >= CYCLES  # the kills did not stop all progress
    finally:
        proc.kill()
        proc.wait()
