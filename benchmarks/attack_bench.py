"""Server figures under attack, for `make bench` (issue 12).

The load test's honest players (server_bench.py: each the only person in a Tomb game,
an action every 0.5-1.5 s, the round trip timed) play while, against the same server:

* 50 silent readers: spectators that send ``sync`` about 19 times a second (under the
  rate limit) and never read what comes back, each watching an honest player's game;
* a game-creation flood: one address creating games as fast as it is answered;
* an undo spammer: one address placing and undoing over HTTP as fast as it is answered.

Every client has its own loopback address (127.0.0.0/8 is all this machine's), as
people on their own computers would: the honest players 127.0.1.x, the attackers
127.0.9.x, so limits per address fall on the attackers. The figure is the honest
players' action p99 (goal under 50 ms).

Then memory: 10,000 games are created on a fresh server (without the rate limits), and
the server's resident memory is read (goal under 300 MB: games idle in memory must be
evicted).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import socket
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import uvloop
from server_bench import honest_load, new_games, post, round_trip_figures
from websockets.asyncio.client import connect

from mummy.server.process import UNLIMITED, free_port, start

SILENT_READERS = 50
SYNC_EVERY = 1 / 19  # seconds: just under the websocket's rate limit of 20 a second


async def _silent_reader(port: int, game_id: str, source: str, stop: asyncio.Event) -> None:
    """A spectator that asks for the state 19 times a second and never reads a byte of
    the answers (its receive buffer is small, so the server's sends back up at once)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((source, 0))
    sock.setblocking(False)
    loop = asyncio.get_running_loop()
    try:
        await loop.sock_connect(sock, ("127.0.0.1", port))
        async with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}", sock=sock, max_queue=1) as ws:
            # The client library reads on its own: pause its transport so nothing is read.
            ws.transport.pause_reading()
            while not stop.is_set():
                await ws.send('{"type": "sync"}')
                await asyncio.sleep(SYNC_EVERY)
    except Exception:  # closed by the server, as it should be: come back, as an attacker would
        if not stop.is_set():
            await asyncio.sleep(0.5)
            await _silent_reader(port, game_id, source, stop)


def _flood(port: int, stop: threading.Event, counts: dict[int, int]) -> None:
    while not stop.is_set():
        try:
            status, _ = post(port, "/api/games", {"game": "tomb", "seats": [{"name": "flood"}]}, "127.0.9.1")
        except OSError:
            status = 0
        counts[status] = counts.get(status, 0) + 1


def _undo_spam(port: int, stop: threading.Event, counts: dict[int, int]) -> None:
    status, created = post(port, "/api/games", {"game": "tomb", "seats": [{"name": "spam"}], "seed": 99},
                            "127.0.9.2")
    game_id, token = created["id"], created["seats"][0]["token"]
    version, n = 0, 0
    while not stop.is_set():
        for action in ("1:5a.r0@J1", "undo"):
            n += 1
            try:
                status, answer = post(port, f"/api/games/{game_id}/actions",
                                       {"client_id": f"s{n}", "version": version, "action": action},
                                       "127.0.9.2", token)
            except OSError:
                status, answer = 0, None
            counts[status] = counts.get(status, 0) + 1
            if status == 200:
                version = answer["result"]["version"]
            elif isinstance(answer, dict) and isinstance(answer.get("state"), dict):
                version = answer["state"]["version"]


async def _readers(port: int, game_ids: list[str], seconds: float) -> None:
    stop = asyncio.Event()
    rng = random.Random(1)
    readers = [asyncio.create_task(_silent_reader(port, rng.choice(game_ids), f"127.0.9.{10 + i % 10}", stop))
               for i in range(SILENT_READERS)]
    await asyncio.sleep(seconds)
    stop.set()
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)


def _attacker(kind: str, port: int, game_ids: list[str], seconds: float, out: Any) -> None:
    """One attacker in a process of its own: the players' measuring process shares no
    interpreter lock with it (as attackers on other computers would not)."""
    if kind == "readers":
        uvloop.run(_readers(port, game_ids, seconds))
        return
    stop = threading.Event()
    counts: dict[int, int] = {}
    worker = threading.Thread(target=_flood if kind == "flood" else _undo_spam, args=(port, stop, counts), daemon=True)
    worker.start()
    worker.join(timeout=seconds)
    stop.set()
    worker.join(timeout=30)
    out.put((kind, counts))


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def attack_figures(clients: int = 200, actions: int = 30) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start(f"sqlite:///{Path(tmp) / 'attack.db'}", port)
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        attackers: list[Any] = []
        try:
            games = new_games(port, clients)
            seconds = actions * 1.0 + 5  # the players' pace: about a second an action
            attackers = [context.Process(target=_attacker, args=(kind, port, [g for g, _ in games], seconds, results))
                         for kind in ("readers", "flood", "undo")]
            for p in attackers:
                p.start()
            time.sleep(2.0)  # the readers are in place before the players start
            rtts, echoes = uvloop.run(honest_load(f"127.0.0.1:{port}", games, actions))
            rss_under_attack = _rss_mb(proc.pid)
            counts = dict(results.get(timeout=60) for _ in range(2))
            flood, spam = counts["flood"], counts["undo"]
        finally:
            for p in attackers:
                p.join(timeout=30)
                if p.is_alive():
                    p.kill()
            proc.kill()
            proc.wait()
    return {
        **round_trip_figures("server.attack_", rtts, echoes),
        "server.attack_flood_created": float(flood.get(201, 0)),
        "server.attack_flood_refused": float(flood.get(429, 0)),
        "server.attack_undo_spam_applied": float(spam.get(200, 0)),
        "server.attack_undo_spam_refused": float(sum(v for k, v in spam.items() if k != 200)),
        "server.attack_rss_mb": round(rss_under_attack, 1),
    }


def memory_figures(games: int = 10_000) -> dict[str, float]:
    """The server's resident memory after ``games`` games were created (and one move
    made in each of a tenth of them), idle games evicted as they should be."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start(f"sqlite:///{Path(tmp) / 'memory.db'}", port, args=UNLIMITED)
        try:
            before = _rss_mb(proc.pid)

            def one(i: int) -> None:
                _, created = post(port, "/api/games", {"game": "tomb", "seats": [{"name": f"m{i}"}], "seed": 99},
                                   "127.0.4.1")
                if i % 10 == 0:
                    post(port, f"/api/games/{created['id']}/actions",
                          {"client_id": "m", "version": 0, "action": "1:5a.r0@J1"}, "127.0.4.1",
                          created["seats"][0]["token"])

            started = time.perf_counter()
            with ThreadPoolExecutor(4) as pool:
                list(pool.map(one, range(games)))
            seconds = time.perf_counter() - started
            after = _rss_mb(proc.pid)
        finally:
            proc.kill()
            proc.wait()
    return {"server.rss_mb_at_start": round(before, 1), "server.rss_mb_after_10k_games": round(after, 1),
            "server.games_created_per_s": round(games / seconds, 1)}


def bench_attack(quick: bool) -> dict[str, float]:
    figures = attack_figures(clients=50 if quick else 200, actions=5 if quick else 30)
    figures.update(memory_figures(1000 if quick else 10_000))
    return figures


if __name__ == "__main__":
    import sys

    for key, value in bench_attack("--quick" in sys.argv).items():
        print(f"{key:<34} {value}")
