"""Real server processes on one PostgreSQL (issue 16): two ``mummy serve`` on two ports
(as on two machines), and ``mummy serve --workers 2`` on one; people connected to
different processes play a Tomb round on the same dice and a Treasure game to its end.

People act over HTTP through their own process (the websocket's own rate, 20 messages a
second, is for people; HTTP's is lifted for tests) and watch over its websocket. SQLite
serves one process: ``--workers`` on it is refused."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest

from mummy.server.deploy.process import CUT_OFF, UNLIMITED, call, free_port, kill, start
from tests.server.players import WAIT, Seat, asked_again, play_to_the_end, post

FIVE_FIVE = 99  # map1 round 1 rolls 5 and 5


class HttpSeat(Seat):
    """A person who acts over HTTP through their process, and watches its websocket."""

    def __init__(self, address: str, game_id: str, token: str) -> None:
        super().__init__(address, game_id, token)
        self.address, self.game_id, self.token = address, game_id, token

    def act(self, client_id: str, action: str, version: int | None = None) -> dict[str, Any]:
        body = {"client_id": client_id, "action": action,
                "version": self.state["version"] if version is None else version}
        try:
            answer = post(f"http://{self.address}/api/games/{self.game_id}/actions", body, self.token)
        except urllib.error.HTTPError as exc:
            return {"type": "error", **json.loads(exc.read())}
        self.wait_version(answer["result"]["version"])
        return {"type": "result", "result": answer["result"]}


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()  # SIGTERM: a graceful stop
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def pg(db_url: str) -> str:
    if not db_url.startswith("postgresql"):
        pytest.skip("several processes need PostgreSQL")
    return db_url


@pytest.fixture
def two_servers(pg: str) -> Iterator[tuple[str, str]]:
    """Two ``mummy serve`` processes on two ports, one database."""
    ports = [free_port(), free_port()]
    procs = [start(pg, port, wait=30, args=UNLIMITED) for port in ports]
    try:
        yield f"127.0.0.1:{ports[0]}", f"127.0.0.1:{ports[1]}"
    finally:
        for proc in procs:
            _stop(proc)


def _pair(one: str, two: str, game_id: str, tokens: list[str]) -> list[Seat]:
    return [HttpSeat(one, game_id, tokens[0]), HttpSeat(two, game_id, tokens[1])]


@pytest.mark.slow
def test_a_tomb_round_on_the_same_dice_through_two_processes(two_servers: tuple[str, str]) -> None:
    one, two = two_servers
    assert call(f"http://{one}/api/health")["process"] != call(f"http://{two}/api/health")["process"]
    created = post(f"http://{one}/api/games", {"game": "tomb", "seed": FIVE_FIVE,
                                               "seats": [{"name": "Ann"}, {"name": "Bob"}]})
    seats = _pair(one, two, created["id"], [s["token"] for s in created["seats"]])
    try:
        assert seats[0].state["state"]["dice"] == seats[1].state["state"]["dice"]
        while seats[0].state["state"]["round"] == 1:  # each plays their sheet, in their process
            mover = next((s for s in seats if s.state.get("legal")), None)
            assert mover is not None, "the round ended for nobody"
            answer = mover.act(f"c{mover.state['version']}", mover.state["legal"][0])
            assert answer["type"] == "result", answer
            for seat in seats:
                seat.wait_version(answer["result"]["version"])
        ann, bob = (seat.state for seat in seats)
        assert ann["version"] == bob["version"] and ann["state"] == bob["state"]  # round 2, the same dice
        assert ann["state"]["round"] == 2 and ann["to_act"] == [0, 1]
        for seat in seats:
            assert seat.versions == sorted(seat.versions)  # never a step back
    finally:
        for seat in seats:
            seat.close()


@pytest.mark.slow
def test_a_treasure_game_to_its_end_through_two_processes(two_servers: tuple[str, str]) -> None:
    one, two = two_servers
    created = post(f"http://{two}/api/games", {"game": "treasure", "seed": 5,
                                               "seats": [{"name": "Ann"}, {"name": "Bob"}]})
    seats = _pair(one, two, created["id"], [s["token"] for s in created["seats"]])
    try:
        final = play_to_the_end(seats)
        assert seats[0].state["result"] == seats[1].state["result"]
        record = call(f"http://{one}/api/games/{created['id']}/record")
        assert record == call(f"http://{two}/api/games/{created['id']}/record")
        assert final == max(seat.versions[-1] for seat in seats)
    finally:
        for seat in seats:
            seat.close()


@pytest.mark.slow
def test_a_player_against_a_bot_on_the_other_process(two_servers: tuple[str, str]) -> None:
    """The bot moves in the process that holds its lease (the one that created the game);
    its person plays through the other."""
    one, two = two_servers
    created = post(f"http://{one}/api/games", {"game": "treasure", "seed": 5, "first": 1,
                                               "seats": [{"name": "Ann"}, {"name": "Sphinx", "bot": "greedy"}]})
    ann = HttpSeat(two, created["id"], created["seats"][0]["token"])
    try:
        play_to_the_end([ann])
        assert ann.state["over"]
    finally:
        ann.close()


@pytest.mark.slow
def test_workers_share_one_port_and_serve_every_game(pg: str) -> None:
    port = free_port()
    proc = start(pg, port, wait=60, args=("--workers", "2", *UNLIMITED))
    address = f"127.0.0.1:{port}"
    try:
        # Both workers answer once both are up (the kernel hands each connection to one of
        # them); the first may be serving alone for a while on a busy machine.
        seen: set[int] = set()
        deadline = time.monotonic() + 60
        while len(seen) < 2 and time.monotonic() < deadline:
            seen |= {call(f"http://{address}/api/health")["process"] for _ in range(20)}
        assert len(seen) == 2 and proc.pid not in seen  # two workers answer, not the parent
        created = post(f"http://{address}/api/games", {"game": "treasure", "seed": 5,
                                                       "seats": [{"name": "Ann"}, {"name": "Bob"}]})
        seats = _pair(address, address, created["id"], [s["token"] for s in created["seats"]])
        try:
            play_to_the_end(seats)
        finally:
            for seat in seats:
                seat.close()
    finally:
        _stop(proc)
    assert proc.returncode == 0


def test_workers_on_sqlite_are_refused_with_the_reason(tmp_path: Any) -> None:
    done = subprocess.run([sys.executable, "-m", "mummy.cli", "serve", "--workers", "2", "--port", str(free_port()),
                           "--db", f"sqlite:///{tmp_path / 'one.db'}"], capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 2
    assert "--workers needs PostgreSQL" in done.stderr and "SQLite" in done.stderr


@pytest.mark.slow
def test_kill_9_either_of_two_processes_loses_no_acknowledged_action(pg: str) -> None:
    """Two processes on one database, people acting through both, one of them killed with
    SIGKILL at a random moment, 10 times: every acknowledged action is in the log (asked
    again through either process, it is answered as a repeat), and the survivor serves
    throughout. (``make bench`` kills 50 times: server_bench.py.)"""
    rng = random.Random(16)
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    procs = [start(pg, port, wait=30, args=UNLIMITED) for port in ports]
    acknowledged: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}  # (game, client id) -> (token, result)
    game: tuple[str, list[str]] | None = None
    checked = 0  # the acknowledged actions asked again so far
    try:
        for cycle in range(10):
            victim = rng.randrange(2)
            killer = threading.Timer(rng.uniform(0.05, 0.4), os.kill, (procs[victim].pid, signal.SIGKILL))
            killer.start()
            try:
                for n in range(40):
                    if game is None:
                        created = call(f"{bases[1 - victim]}/api/games", {
                            "game": "tomb", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": rng.randrange(10**6)})
                        game = created["id"], [s["token"] for s in created["seats"]]
                    through, token = rng.randrange(2), rng.choice(game[1])
                    try:
                        view = call(f"{bases[through]}/api/games/{game[0]}", token=token)
                        if view["over"]:
                            game = None
                            continue
                        if not view.get("legal"):
                            continue
                        client_id = f"c{cycle}-{n}"
                        answer = call(f"{bases[through]}/api/games/{game[0]}/actions", {
                            "client_id": client_id, "version": view["version"], "action": rng.choice(view["legal"])},
                            token)
                        acknowledged[(game[0], client_id)] = (token, answer["result"])
                    except urllib.error.HTTPError as exc:
                        assert exc.code == 409, exc.read()  # stale: the other process moved it meanwhile
                    except CUT_OFF:
                        assert through == victim, "the survivor stopped serving"
            finally:
                killer.cancel()
                kill(procs[victim])
            procs[victim] = start(pg, ports[victim], wait=30, args=UNLIMITED)
            # Each cycle asks its own again, each through either process, and the end all of
            # them (asking every one after every kill made the test quadratic).
            entries = [(g, client_id, token, result) for (g, client_id), (token, result) in acknowledged.items()]
            asked_again(entries[checked:], lambda: bases[rng.randrange(2)])
            checked = len(entries)
        assert len(acknowledged) >= 10  # the kills did not stop all progress
        asked_again(entries, lambda: bases[rng.randrange(2)])  # none was lost to a later kill
    finally:
        for proc in procs:
            kill(proc)
