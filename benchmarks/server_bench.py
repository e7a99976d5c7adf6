"""Server figures for `make bench`: action round trips under load, and crash restarts.

The server runs as its own process on loopback (uvicorn, SQLite in WAL mode). 200
websocket clients, each the only person in its own Tomb game, play at once: each waits a
moment (``THINK``), sends an action, and times the round trip to its result; 30 actions
each, 6,000 in all, so that the 99th percentile rests on 60 of them and not on a single
hiccup of a shared machine. A bare websocket echo on the same server, measured in the
same run, is the floor. The players share the server's machine (two cores here), so they
are kept light, as 200 people on their own computers would be to the server: an event
loop written in C (uvloop, which the server uses too) and orjson to read the messages.
Then the server is killed with SIGKILL at random points while it is played, restarted,
and every acknowledged action checked.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import orjson
import uvloop
from websockets.asyncio.client import connect

from mummy.server.process import CUT_OFF, UNLIMITED, call, free_port, kill, start

#: Seconds a player waits between actions: a quick player, not a flood (the server cuts
#: floods off). 200 players at this pace send about 200 actions a second.
THINK = (0.5, 1.5)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def honest_address(i: int) -> str:
    """Player i's own loopback address (127.0.0.0/8 is all this machine's): 200 people
    come from 200 computers, and the server's limits per address treat them so."""
    return f"127.0.{1 + i // 250}.{i % 250 + 1}"


def post(port: int, path: str, body: dict[str, Any], source: str, token: str | None = None) -> tuple[int, Any]:
    """POST JSON from the loopback address ``source``: the status and the answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request("POST", path, json.dumps(body), headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()


def new_games(port: int, clients: int) -> list[tuple[str, str]]:
    """One solo Tomb game per player, each created from the player's own address."""
    games = []
    for i in range(clients):
        status, created = post(port, "/api/games", {"game": "tomb", "seats": [{"name": f"p{i}"}]}, honest_address(i))
        assert status == 201, created
        games.append((created["id"], created["seats"][0]["token"]))
    return games


async def _player(base: str, game_id: str, token: str, actions: int, out: list[float], seed: int) -> None:
    rng = random.Random(seed)
    async with connect(f"ws://{base}/ws/games/{game_id}?token={token}", max_size=2**22,
                       local_addr=(honest_address(seed), 0)) as ws:
        state = orjson.loads(await ws.recv())["state"]
        for n in range(actions):
            await asyncio.sleep(rng.uniform(*THINK))  # a quick player, not a flood
            if state["over"] or not state.get("legal"):
                return
            move = {"type": "action", "client_id": f"a{n}", "version": state["version"], "action": state["legal"][0]}
            started = time.perf_counter()
            await ws.send(orjson.dumps(move).decode())
            while True:
                message = orjson.loads(await ws.recv())
                if message["type"] in ("result", "error"):
                    break
            out.append((time.perf_counter() - started) * 1000)
            while True:  # the update that follows carries the new state
                message = orjson.loads(await ws.recv())
                if message["type"] in ("update", "state"):
                    state = message["state"]
                    break


async def _echo(base: str, count: int, pace: float, out: list[float], seed: int = 0) -> None:
    rng = random.Random(seed)
    async with connect(f"ws://{base}/ws/echo") as ws:
        for _ in range(count):
            await asyncio.sleep(rng.uniform(*THINK) / pace)
            started = time.perf_counter()
            await ws.send("x" * 200)
            await ws.recv()
            out.append((time.perf_counter() - started) * 1000)


async def honest_load(base: str, games: list[tuple[str, str]], actions: int) -> tuple[list[float], list[float]]:
    """Every game's player plays ``actions`` moves at a person's pace while echo sockets
    measure the bare round trip beside them: (action round trips, echo round trips), in ms.
    The attack benchmark runs the same load under attack."""
    rtts: list[float] = []
    echoes: list[float] = []
    # The echo runs through the whole load, so that its p99 rests on hundreds of samples
    # taken under the same load, not on a handful: as many echo sockets as a fifth of the
    # players, each at a player's pace times four (under the websocket's rate limit).
    await asyncio.gather(*(_player(base, g, t, actions, rtts, i) for i, (g, t) in enumerate(games)),
                         *(_echo(base, actions * 4, 4.0, echoes, i) for i in range(max(1, len(games) // 20))))
    return rtts, echoes


def load_figures(clients: int = 200, actions: int = 30) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start(f"sqlite:///{Path(tmp) / 'bench.db'}", port)
        try:
            base = f"127.0.0.1:{port}"
            games = new_games(port, clients)
            rtts, echoes = uvloop.run(honest_load(base, games, actions))
        finally:
            proc.kill()
            proc.wait()
    return round_trip_figures("server.", rtts, echoes)


def round_trip_figures(prefix: str, rtts: list[float], echoes: list[float]) -> dict[str, float]:
    """The players' action round trips (p50, p99, how many) and the bare echo's p99."""
    return {
        f"{prefix}action_p50_ms": round(statistics.median(rtts), 2),
        f"{prefix}action_p99_ms": round(_percentile(rtts, 0.99), 2),
        f"{prefix}echo_p99_ms": round(_percentile(echoes, 0.99), 2),
        f"{prefix}actions_measured": float(len(rtts)),
    }


def crash_figures(cycles: int = 50, seed: int = 7) -> dict[str, float]:
    rng = random.Random(seed)
    tried = ok = 0
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'crash.db'}"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = start(db, port, args=UNLIMITED)  # faster than a person: a test of durability
        created = call(f"{base}/api/games", {"game": "tomb", "seats": [{"name": "me"}, {"bot": "greedy"}]})
        game_id, token = created["id"], created["seats"][0]["token"]
        acknowledged: dict[str, dict[str, Any]] = {}
        try:
            for cycle in range(cycles):
                tried += 1
                killer = threading.Timer(rng.uniform(0.05, 0.5), lambda p=proc: os.kill(p.pid, signal.SIGKILL))
                killer.start()
                try:
                    for _ in range(40):
                        view = call(f"{base}/api/games/{game_id}", token=token)
                        if view["over"]:
                            created = call(f"{base}/api/games", {"game": "tomb", "seats": [{"name": "me"}]})
                            game_id, token = created["id"], created["seats"][0]["token"]
                            acknowledged.clear()
                            continue
                        cid = f"c{cycle}-{view['version']}"
                        body = {"client_id": cid, "version": view["version"], "action": view["legal"][0]}
                        acknowledged[cid] = call(f"{base}/api/games/{game_id}/actions", body, token)["result"]
                except CUT_OFF:
                    pass
                finally:
                    killer.cancel()
                    kill(proc)
                proc = start(db, port, args=UNLIMITED)
                intact = all(
                    call(f"{base}/api/games/{game_id}/actions",
                          {"client_id": cid, "version": 0, "action": r["action"]}, token)["result"]
                    == dict(r, repeated=True) for cid, r in acknowledged.items())
                ok += intact
        finally:
            proc.kill()
            proc.wait()
    return {"server.crash_restarts_tried": float(tried), "server.crash_restarts_ok": float(ok)}


def bench_server(quick: bool) -> dict[str, float]:
    figures = load_figures(clients=50 if quick else 200, actions=5 if quick else 30)
    if not quick:
        figures.update(crash_figures())
    return figures


if __name__ == "__main__":
    for key, value in bench_server("--quick" in sys.argv).items():
        print(f"{key:<28} {value}")
