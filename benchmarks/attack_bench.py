"""Server figures under attack, for `make bench` (issue 12).

The load test's honest players (server_bench.py: each the only person in a Tomb game,
an action every 0.5-1.5 s, the round trip timed) play while, against the same server:

* 50 silent readers: spectators that send ``sync`` about 19 times a second (under the
  rate limit) and never read what comes back, each watching an honest player's game;
* a game-creation flood: one address creating games as fast as it is answered;
* an undo spammer: one address placing and undoing over HTTP as fast as it is answered;
* a print flood (issue 32): 10 addresses asking for printable sheets of generated maps,
  each with a new seed, as fast as they are answered (a sheet is 15-20 ms of drawing);
* a map fill (issue 32): 10 addresses storing junk custom maps (each a valid map with
  another name) as fast as they are answered;
* a spectator fill (issue 32): 75 addresses each opening 16 idle spectators' websockets
  within 3.4 s, and opening each again a few seconds after it is closed or refused.

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
import http.client
import json
import multiprocessing
import os
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

from mummy.server.deploy.process import UNLIMITED, free_port, start

SILENT_READERS = 50
#: The attacks of issue 32, each an attacker process.
ISSUE_32 = ("print", "maps", "spectators")
#: Seconds after the attackers start by which the honest players have connected.
PLAYERS_IN = 5.0
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


#: As in the attacks of issue 32: 10 clients asking for sheets of generated maps, 10
#: addresses storing junk maps; each as fast as it is answered.
PRINTERS = 10
MAPPERS = 10
SPECTATOR_ADDRESSES = 75
SPECTATORS_EACH = 16
#: Seconds within which the spectators first connect (the attack filled 1,024 sockets in 3.4 s).
FILL_SECONDS = 3.4
#: Seconds a spectator closed or refused waits before it connects again.
REFILL_PAUSE = (2.0, 5.0)
#: A valid 8x8 custom map; each junk map gets another name (another id).
JUNK_MAP = ("name: junk-{n}\ntitle: Junk\ngrid:\n  ........\n  ..##....\n  ..##....\n  ........\n"
            "  .....#..\n  ........\n  ........\n  ........\nend\nentrance: A1 N\nentrance: H8 E\n"
            "room: C2 N sarcophagus\nroom: D3 E gem red\ncoins: E1 2\nkey: A4\nooze: H1\ngolem: A8 red\n"
            "mimic: G7\nitem: B6 shovel\nlog ooze: 1\nlog skeleton: 1\nlog zombie: 2\nlog golem: red 2\n"
            "log mimic: 1\nkey-track: 4\ncoin-track: 20\n")


def _get(port: int, path: str, source: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


def _count(counts: dict[int, int], call: Any) -> None:
    try:
        status = call()
    except OSError:
        status = 0
    counts[status] = counts.get(status, 0) + 1


def _printer(port: int, stop: threading.Event, counts: dict[int, int], i: int) -> None:
    n = 0
    while not stop.is_set():
        n += 1
        path = f"/api/print/tomb.svg?map=gen-hard-{i}-0&seed={n}"
        _count(counts, lambda path=path: _get(port, path, f"127.0.11.{i + 1}"))


def _mapper(port: int, stop: threading.Event, counts: dict[int, int], i: int) -> None:
    n = 0
    while not stop.is_set():
        n += 1
        text = JUNK_MAP.format(n=f"{i}-{n}")
        _count(counts, lambda text=text: post(port, "/api/maps", {"text": text}, f"127.0.12.{i + 1}")[0])


async def _spectator(port: int, game_id: str, source: str, stop: asyncio.Event, counts: dict[Any, int],
                     rng: random.Random) -> None:
    """An idle spectator: it connects (the 1,200 of them within FILL_SECONDS, as in the
    attack of issue 32), reads what comes, and connects again a few seconds after it is
    closed or refused, to keep the server full."""
    await asyncio.sleep(rng.uniform(0, FILL_SECONDS))
    while not stop.is_set():
        sock = socket.socket()
        sock.bind((source, 0))
        sock.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
            async with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}", sock=sock) as ws:
                first = json.loads(await ws.recv())
                counts[first.get("type") == "state"] = counts.get(first.get("type") == "state", 0) + 1
                async for _ in ws:
                    if stop.is_set():
                        break
        except Exception:
            counts[False] = counts.get(False, 0) + 1
            sock.close()
            await asyncio.sleep(rng.uniform(*REFILL_PAUSE))


async def _spectators(port: int, game_ids: list[str], seconds: float, counts: dict[Any, int]) -> None:
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))  # this attacker's own sockets
    stop = asyncio.Event()
    rng = random.Random(2)
    await asyncio.sleep(PLAYERS_IN)  # while people play: the players and their echo are in
    seconds -= PLAYERS_IN
    tasks = [asyncio.create_task(_spectator(port, rng.choice(game_ids), f"127.0.13.{a + 1}", stop, counts,
                                            random.Random(a * SPECTATORS_EACH + i)))
             for a in range(SPECTATOR_ADDRESSES) for i in range(SPECTATORS_EACH)]
    await asyncio.sleep(seconds)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


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
    counts: dict[Any, int] = {}
    if kind == "spectators":
        uvloop.run(_spectators(port, game_ids, seconds, counts))
        out.put((kind, counts))
        return
    stop = threading.Event()
    if kind in ("flood", "undo"):
        targets = [(_flood if kind == "flood" else _undo_spam, (port, stop, counts))]
    else:  # many addresses, a thread each
        one = _printer if kind == "print" else _mapper
        targets = [(one, (port, stop, counts, i)) for i in range(PRINTERS if kind == "print" else MAPPERS)]
    workers = [threading.Thread(target=t, args=a, daemon=True) for t, a in targets]
    for worker in workers:
        worker.start()
    time.sleep(seconds)
    stop.set()
    for worker in workers:
        worker.join(timeout=30)
    out.put((kind, counts))


def _cpu_s(pid: int) -> float:
    """Seconds of CPU the process has used (user and system)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
                         for kind in ("readers", "flood", "undo", *ISSUE_32)]
            for p in attackers:
                p.start()
            time.sleep(2.0)  # the readers are in place before the players start
            cpu_before = [_cpu_s(pid) for pid in (proc.pid, *(p.pid for p in attackers))]
            started = time.perf_counter()
            rtts, echoes = uvloop.run(honest_load(f"127.0.0.1:{port}", games, actions))
            elapsed = time.perf_counter() - started
            cpu = [_cpu_s(pid) - was for pid, was in zip((proc.pid, *(p.pid for p in attackers)), cpu_before,
                                                          strict=True)]
            rss_under_attack = _rss_mb(proc.pid)
            counts = dict(results.get(timeout=60) for _ in range(2 + len(ISSUE_32)))
            flood, spam = counts["flood"], counts["undo"]
            printed, mapped, watched = (counts.get(kind, {}) for kind in ("print", "maps", "spectators"))
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
        # The machine's two cores, shared: the server's share and the attackers' own.
        "server.attack_server_cores": round(cpu[0] / elapsed, 2),
        "server.attack_attackers_cores": round(sum(cpu[1:]) / elapsed, 2),
        "server.attack_print_drawn": float(printed.get(200, 0)),
        "server.attack_print_refused": float(sum(v for k, v in printed.items() if k != 200)),
        "server.attack_maps_stored": float(mapped.get(201, 0)),
        "server.attack_maps_refused": float(sum(v for k, v in mapped.items() if k != 201)),
        "server.attack_spectators_admitted": float(watched.get(True, 0)),
        "server.attack_spectators_refused": float(watched.get(False, 0)),
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
