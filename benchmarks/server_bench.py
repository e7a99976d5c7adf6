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
import gc
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
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson
import uvloop
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from mummy.server.deploy.process import CUT_OFF, UNLIMITED, call, free_port, kill, start
from mummy.server.play.wire import followed

#: Seconds a player waits between actions: a quick player, not a flood (the server cuts
#: floods off). 200 players at this pace send about 200 actions a second.
THINK = (0.5, 1.5)


def percentile(values: list[float], q: float) -> float:
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


def new_games(port: int, clients: int, people: int = 1, game: str = "tomb") -> list[tuple[str, str]]:
    """A game (the Tomb by default) for every ``people`` players (each player alone in a
    game by default), each created from its first player's own address: (game id, seat
    token) per player, the players of a game next to each other."""
    games = []
    for i in range(0, clients, people):
        seats = [{"name": f"p{j}"} for j in range(i, min(clients, i + people))]
        status, created = post(port, "/api/games", {"game": game, "seats": seats}, honest_address(i))
        assert status == 201, created
        games.extend((created["id"], seat["token"]) for seat in created["seats"])
    return games


#: Seconds a player waits for its turn (the others' end of a Tomb round) before it leaves.
TURN_WAIT = 30.0
#: What a player saw, for figures across players (multi_bench.py): ("made", version,
#: when its action was sent) for each of its actions that stood, and ("got", version,
#: when it came) for each state it was sent; times from ``time.perf_counter``.
Seen = list[tuple[str, int, float]]
#: The size (bytes of text) of each message a player was sent for another player's move,
#: in the last load (``honest_load``): what ``server.update_bytes_p50`` is the median of.
UPDATE_BYTES: list[int] = []


def _newer(state: dict[str, Any], message: dict[str, Any], seen: Seen | None) -> dict[str, Any]:
    """The newest state a player knows, after ``message`` (an update, a patch of the
    state it has, a state, a refusal with the current state, or something else), read as
    the browser reads them (``wire.followed``). The patch of another version is a bug of
    the server's: it fails the benchmark."""
    view = followed(state if "over" in state else None, message)
    if view is None and message["type"] == "delta":
        raise AssertionError(f"a patch from version {message.get('base')} reached a player at {state['version']}")
    if view is None or view is state or view["version"] < state["version"]:
        return state
    if seen is not None:
        seen.append(("got", view["version"], time.perf_counter()))
    return view


def _my_turn(state: dict[str, Any]) -> bool:
    return bool(state["over"] or state.get("legal"))


async def _read_until(ws: Any, state: dict[str, Any], deadline: float, seen: Seen | None,
                      done: Callable[[dict[str, Any]], bool] = lambda _: False) -> dict[str, Any]:
    """Read what comes (the others' moves, in a game of several people) until the loop's
    time ``deadline``, or until the state is ``done``: the newest state. Cancelling
    ``recv`` loses no message."""
    loop = asyncio.get_running_loop()
    while not done(state) and (left := deadline - loop.time()) > 0:
        try:
            async with asyncio.timeout(left):
                raw = await ws.recv()
        except TimeoutError:
            break
        message = orjson.loads(raw)
        if message["type"] in ("update", "delta"):  # another player's move (one's own is read in _act)
            UPDATE_BYTES.append(len(raw.encode() if isinstance(raw, str) else raw))
        state = _newer(state, message, seen)
    return state


async def _player(base: str, game_id: str, token: str, actions: int, out: list[float], seed: int,
                  seen: Seen | None = None, playing: Counter[str] | None = None,
                  think: tuple[float, float] = THINK) -> None:
    """One person: thinks, sends an action (the first legal one), times the round trip to
    its result, reads the update that follows; ``actions`` times. In a game of several
    people the others' updates come at any time: they are read while the player thinks
    (so it acts on the newest state), and a player without a legal action waits for its
    turn, untimed: ``TURN_WAIT`` at most, and not once it is the last one ``playing`` its
    game (the others may have made their moves sooner, in fewer actions a round)."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    try:
        async with connect(f"ws://{base}/ws/games/{game_id}?token={token}", max_size=2**22,
                           local_addr=(honest_address(seed), 0)) as ws:
            state = _newer({"version": -1}, orjson.loads(await ws.recv()), seen)
            for n in range(actions):
                # a quick player, not a flood
                state = await _read_until(ws, state, loop.time() + rng.uniform(*think), seen)
                deadline = loop.time() + TURN_WAIT
                while not _my_turn(state) and playing is not None and playing[game_id] > 1 \
                        and loop.time() < deadline:
                    state = await _read_until(ws, state, min(deadline, loop.time() + 0.25), seen, _my_turn)
                if state["over"] or not state.get("legal"):
                    return
                state = await _act(ws, state, f"p{seed}a{n}", out, seen)  # a game's client ids: its players'
    finally:
        if playing is not None:
            playing[game_id] -= 1


async def _act(ws: Any, state: dict[str, Any], client_id: str, out: list[float],
               seen: Seen | None) -> dict[str, Any]:
    """Send the first legal action and time the round trip to its answer (into ``out``);
    the newest state then, read on until the one that carries the action."""
    move = {"type": "action", "client_id": client_id, "version": state["version"], "action": state["legal"][0]}
    started = time.perf_counter()
    await ws.send(orjson.dumps(move).decode())
    while True:
        message = orjson.loads(await ws.recv())
        if message["type"] in ("result", "error") and message.get("client_id") == client_id:
            break
        state = _newer(state, message, seen)
    out.append((time.perf_counter() - started) * 1000)
    state = _newer(state, message, seen)  # a refusal carries the current state
    if message["type"] == "result":
        version = message["result"]["version"]
        if seen is not None:
            seen.append(("made", version, started))
        while state["version"] < version:  # the update that follows carries the new state
            state = _newer(state, orjson.loads(await ws.recv()), seen)
    return state


async def _echo(base: str, count: int, pace: float, out: list[float], seed: int = 0) -> None:
    """``count`` round trips of the bare echo. A socket without a seat, so it waits as a
    spectator does when the server has no room for one (the attack benchmark's spectator
    fill): refused or shed, it comes back after a growing pause, as the browser does."""
    rng = random.Random(seed)
    pause, done = 0.25, 0
    while done < count:
        try:
            async with connect(f"ws://{base}/ws/echo") as ws:
                pause = 0.25
                while done < count:
                    await asyncio.sleep(rng.uniform(*THINK) / pace)
                    started = time.perf_counter()
                    await ws.send("x" * 200)
                    await ws.recv()
                    out.append((time.perf_counter() - started) * 1000)
                    done += 1
        except (InvalidStatus, ConnectionClosed):
            await asyncio.sleep(pause)
            pause = min(8.0, pause * 2)


async def honest_load(bases: str | Sequence[str], games: list[tuple[str, str]], actions: int,
                      seen: list[Seen] | None = None,
                      think: tuple[float, float] = THINK) -> tuple[list[float], list[float]]:
    """Every game's player plays ``actions`` moves at a person's pace while echo sockets
    measure the bare round trip beside them: (action round trips, echo round trips), in ms.
    The attack benchmark runs the same load under attack. With several servers
    (``bases``, ``host:port``), player i and echo socket i use server i modulo their
    number; ``seen`` gets what each player saw (``Seen``), in the players' order."""
    servers = [bases] if isinstance(bases, str) else list(bases)
    # The measuring instrument's own garbage collections (a full one took 220 ms here with
    # the 200 players' sockets) would be counted as the server's round trips: off while
    # it measures.
    gc.disable()
    try:
        return await _honest_load(servers, games, actions, seen, think)
    finally:
        gc.enable()


async def _honest_load(servers: list[str], games: list[tuple[str, str]], actions: int,
                       seen: list[Seen] | None, think: tuple[float, float]) -> tuple[list[float], list[float]]:
    rtts: list[float] = []
    echoes: list[float] = []
    if seen is not None:
        seen[:] = [[] for _ in games]
    UPDATE_BYTES.clear()
    playing = Counter(game_id for game_id, _ in games)
    # The echo runs through the whole load, so that its p99 rests on hundreds of samples
    # taken under the same load, not on a handful: as many echo sockets as a fifth of the
    # players, each at a player's pace times four (under the websocket's rate limit).
    await asyncio.gather(*(_player(servers[i % len(servers)], g, t, actions, rtts, i,
                                   None if seen is None else seen[i], playing, think)
                           for i, (g, t) in enumerate(games)),
                         *(_echo(servers[i % len(servers)], actions * 4, 4.0, echoes, i)
                           for i in range(max(1, len(games) // 20))))
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
        f"{prefix}action_p99_ms": round(percentile(rtts, 0.99), 2),
        f"{prefix}echo_p99_ms": round(percentile(echoes, 0.99), 2),
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


#: A person's pace for the capacity figure: an action every 5 s (4 to 6), as people play.
HUMAN = (4.0, 6.0)
#: The round trip's 99th percentile one process must keep at that pace.
CAPACITY_P99_MS = 100.0


def capacity_figures(steps: Sequence[int] = (250, 500, 750, 1000), actions: int = 6) -> dict[str, float]:
    """How many players one server process holds at a person's pace (``HUMAN``) with the
    round trip's p99 under ``CAPACITY_P99_MS``: loads of ``steps`` players, each alone in a
    game, ``actions`` actions each, until one fails; the largest that held, and the p99
    of each step. One process is one core's worth of Python (its event loop): the figure
    is players per core. (A process takes 1,024 websockets at most, ``hub.MAX_SOCKETS``:
    the last step is that cap's, and reaching it means "at least".) The rate limits are
    off: a thousand games are created in a few seconds from the players' process."""
    figures: dict[str, float] = {}
    held = 0
    for players in steps:
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            proc = start(f"sqlite:///{Path(tmp) / 'capacity.db'}", port, args=UNLIMITED)
            try:
                games = new_games(port, players)
                rtts, _ = uvloop.run(honest_load(f"127.0.0.1:{port}", games, actions, think=HUMAN))
            finally:
                proc.kill()
                proc.wait()
        p99 = percentile(rtts, 0.99)
        figures[f"server.capacity_{players}_p99_ms"] = round(p99, 2)
        if p99 >= CAPACITY_P99_MS:
            break
        held = players
    figures["server.players_per_process_at_5s"] = float(held)
    return figures


def bench_server(quick: bool) -> dict[str, float]:
    figures = load_figures(clients=50 if quick else 200, actions=5 if quick else 30)
    if not quick:
        figures.update(crash_figures())
        figures.update(capacity_figures())
    return figures


if __name__ == "__main__":
    for key, value in bench_server("--quick" in sys.argv).items():
        print(f"{key:<28} {value}")
