"""Crash recovery: the server as a separate process, killed with SIGKILL at random points
while it is being played, then restarted. Every acknowledged action must be there, and
the game must replay (no half-applied action)."""

from __future__ import annotations

import os
import random
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from mummy.server.deploy.process import CUT_OFF, UNLIMITED, call, free_port, kill, start
from tests.server.players import asked_again

#: Kills in the test (``make bench`` kills 50 times: server_bench.py).
CYCLES = 10


@pytest.mark.slow
def test_kill_9_at_random_points_loses_no_acknowledged_action(tmp_path: Path) -> None:
    rng = random.Random(2026)
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(db, port, args=UNLIMITED)
    created = call(f"{base}/api/games", {"game": "tomb", "seats": [{"name": "me"}, {"bot": "greedy"}], "seed": 5})
    game_id, token = created["id"], created["seats"][0]["token"]
    acknowledged: dict[str, dict[str, Any]] = {}
    checked = 0  # the acknowledged actions asked again so far
    try:
        for cycle in range(CYCLES):
            killer = threading.Timer(rng.uniform(0.05, 0.6), lambda p=proc: os.kill(p.pid, signal.SIGKILL))
            killer.start()
            try:
                for _ in range(50):
                    view = call(f"{base}/api/games/{game_id}", token=token)
                    if view["over"] or not view.get("legal"):
                        break
                    client_id = f"c{cycle}-{view['version']}"
                    move = {"client_id": client_id, "version": view["version"], "action": rng.choice(view["legal"])}
                    answer = call(f"{base}/api/games/{game_id}/actions", move, token)
                    acknowledged[client_id] = answer["result"]  # the server said yes: it must last
            except CUT_OFF:
                pass  # killed mid-request: that action was never acknowledged
            finally:
                killer.cancel()
                kill(proc)
            proc = start(db, port, args=UNLIMITED)
            view = call(f"{base}/api/games/{game_id}", token=token)  # the log replays
            assert view["version"] >= max((r["version"] for r in acknowledged.values()), default=0)
            # Each cycle asks its own again, and the end all of them (asking every one after
            # every kill made the test quadratic).
            entries = [(game_id, client_id, token, result) for client_id, result in acknowledged.items()]
            asked_again(entries[checked:], lambda: base)
            checked = len(entries)
        assert len(acknowledged) >= CYCLES  # the kills did not stop all progress
        asked_again(entries, lambda: base)  # and none of them was lost to a later kill
    finally:
        proc.kill()
        proc.wait()
