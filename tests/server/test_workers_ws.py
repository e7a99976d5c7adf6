"""A dying process loses nothing, for people at websockets (issue 16): two ``mummy serve``
on one PostgreSQL, two players and a spectator of a Tomb game at websockets spread over
both, acting over their sockets; one process is SIGKILLed at a random moment, again and
again. The people connected to it reconnect to the other process and resynchronise
(``sync`` from the last version they saw, docs/server.md §4, "Reconnecting"); an action
sent without its answer is sent again with the same client id. Every acknowledged action
is in every client's history at its version, each client saw the versions in order and
none is missing, and the log holds each action once.

(test_workers.py kills processes under people acting over HTTP; here the clients are
websockets, which must notice the death, move and catch up.)"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from mummy.server.deploy.process import CUT_OFF, UNLIMITED, call, free_port, kill
from mummy.server.play.wire import followed

CYCLES = 6
#: Seconds between two messages of one connection: the server's allowance is 20 a second.
PACE = 0.06
#: Actions acknowledged after each kill before the cycle ends (the survivors keep serving).
AFTER = 8
WAIT = 15.0
DIED = (ConnectionClosed, OSError, InvalidHandshake)  # what a client sees when its process dies


def launch(db: str, port: int) -> subprocess.Popen[bytes]:
    """``mummy serve`` on ``port``, not waited for (:func:`ready`)."""
    return subprocess.Popen([sys.executable, "-m", "mummy.cli", "serve", "--port", str(port), "--db", db, *UNLIMITED],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def ready(proc: subprocess.Popen[bytes], port: int, wait: float = 60) -> None:
    """Wait until the server answers /api/health; one that does not is killed."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            call(f"http://127.0.0.1:{port}/api/health", timeout=2)
            return
        except CUT_OFF:
            time.sleep(0.05)
    kill(proc)
    raise AssertionError(f"the server on port {port} did not start (exit code {proc.returncode})")


class Person:
    """A player (with a seat's token) or a spectator at a websocket to one process: every
    log entry it has learnt (from the views it was sent, and the ``missed`` of a resync)
    and the version of every state it was sent, in order, over all its connections."""

    def __init__(self, name: str, ports: list[int], token: str | None) -> None:
        self.name, self.ports, self.token = name, ports, token
        self.ws: ClientConnection | None = None
        self._stack = contextlib.ExitStack()
        self.at = -1  # which process it is connected to
        self.state: dict[str, Any] = {}
        self.versions: list[int] = []
        self.entries: dict[int, tuple[int, str]] = {}  # version -> (seat, action)
        self.pending: dict[str, Any] | None = None  # an action sent, not answered
        self.answers: dict[str, dict[str, Any]] = {}
        self.sent = 0.0
        self.moves = 0  # times it reconnected elsewhere after its process died

    def join(self, game_id: str, at: int) -> None:
        """Connect to a game through process ``at``, from the start."""
        self.leave()
        self.game_id = game_id
        self.state, self.versions, self.entries, self.pending = {}, [], {}, None
        self.connect(at)

    def leave(self) -> None:
        self.ws = None
        self._stack.close()

    def connect(self, at: int) -> None:
        """A connection through process ``at``: its first message is the current state;
        then ``sync`` from the last version seen brings the entries missed meanwhile."""
        query = f"?token={self.token}" if self.token else ""
        self.ws = self._stack.enter_context(
            connect(f"ws://127.0.0.1:{self.ports[at]}/ws/games/{self.game_id}{query}", open_timeout=WAIT))
        self.at = at
        last = self.versions[-1] if self.versions else None
        first = self.read()
        assert first["type"] == "state", first
        if last is not None:
            self.resync(last)

    def resync(self, since: int) -> None:
        """``sync`` from ``since`` until no ``more``; the entries missed must be exactly the
        versions after ``since``, in order. (A sync that comes while an update is queued for
        the connection is not answered: the update is on its way, and it is sent again.)"""
        for _ in range(10):
            self.send({"type": "sync", "version": since})
            deadline = time.monotonic() + 2
            answer = None
            while answer is None and time.monotonic() < deadline:
                try:
                    message = self.read(max(0.01, deadline - time.monotonic()))
                except TimeoutError:
                    break
                if message["type"] == "state" and "missed" in message:
                    answer = message
            if answer is None:
                continue
            got = [entry["version"] for entry in answer["missed"]]
            assert got == list(range(since + 1, since + 1 + len(got))), (self.name, since, got)
            if not answer["more"]:
                return
            since = got[-1]
        raise AssertionError(f"{self.name}'s sync was not answered")

    def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        time.sleep(max(0.0, self.sent + PACE - time.monotonic()))
        self.ws.send(json.dumps(message))
        self.sent = time.monotonic()

    def read(self, timeout: float = WAIT) -> dict[str, Any]:
        """The next message, its state, versions and entries kept."""
        assert self.ws is not None
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] == "delta":
            state = followed(self.state, message)
            assert state is not None, f"a patch from {message['base']} reached a client at {self.state.get('version')}"
        else:
            state = message.get("state") if message["type"] in ("state", "update", "error") else None
        if state is not None:
            self.state = state
            self.versions.append(state["version"])
            for entry in state["log"]:
                self.learn(entry["version"], entry["seat"], entry["text"])
        for entry in message.get("missed", ()):
            self.learn(entry["version"], entry["seat"], entry["action"])
        if message["type"] in ("result", "error") and message.get("client_id"):
            self.answers[message["client_id"]] = message
        return message

    def learn(self, version: int, seat: int, text: str) -> None:
        known = self.entries.setdefault(version, (seat, text))
        assert known == (seat, text), (self.name, version, known, (seat, text))

    def drain(self) -> None:
        """Read what has come, without waiting."""
        while True:
            try:
                self.read(0)
            except TimeoutError:
                return

    def act(self, client_id: str, action: str) -> dict[str, Any]:
        """Send an action on the newest version seen; its answer (the result, or a refusal)."""
        self.pending = {"type": "action", "client_id": client_id, "action": action, "version": self.state["version"]}
        self.send(self.pending)
        return self.answer()

    def answer(self) -> dict[str, Any]:
        assert self.pending is not None
        client_id = self.pending["client_id"]
        deadline = time.monotonic() + WAIT
        while client_id not in self.answers:
            self.read(max(0.01, deadline - time.monotonic()))
        self.pending = None
        return self.answers.pop(client_id)

    def moved(self, survivor: int) -> dict[str, Any] | None:
        """Its process died under it: reconnect through the survivor, resynchronise, and
        send again the action that had no answer (the same client id: applied once); its
        answer, if there was one to wait for."""
        self.leave()  # (closing a connection that broke raises nothing)
        self.moves += 1
        self.connect(survivor)
        if self.pending is None:
            return None
        self.send(self.pending)
        return self.answer()


class Table:
    """Two processes on one database, and the game's people spread over them: Ann (seat
    0) and Sam (a spectator) on the first, Bob (seat 1) on the second."""

    def __init__(self, db: str, rng: random.Random) -> None:
        self.db, self.rng = db, rng
        self.ports = [free_port(), free_port()]
        self.procs: list[subprocess.Popen[bytes]] = []
        try:
            for port in self.ports:  # one after the other: the first migrates the new database
                self.procs.append(launch(db, port))
                ready(self.procs[-1], port)
        except BaseException:
            for proc in self.procs:
                kill(proc)
            raise
        self.people = [Person(name, self.ports, None) for name in ("Ann", "Bob", "Sam")]
        self.acknowledged: dict[str, dict[str, dict[str, Any]]] = {}  # game -> client id -> result
        self.game_id = ""
        self.count = 0

    def close(self) -> None:
        for person in self.people:
            with contextlib.suppress(Exception):  # its process may be gone
                person.leave()
        for proc in self.procs:
            kill(proc)

    def seat(self, through: int) -> None:
        """Everyone at their process: in a new game (made through ``through``) when there is
        none or it is over, else back where each started (leaving and coming back)."""
        ann, bob, _ = self.people
        if not self.game_id or any(p.state.get("over") for p in self.people):
            created = call(f"http://127.0.0.1:{self.ports[through]}/api/games", {
                "game": "tomb", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": self.rng.randrange(10**6)})
            self.game_id = created["id"]
            self.acknowledged[self.game_id] = {}
            ann.token, bob.token = (s["token"] for s in created["seats"])
            for n, person in enumerate(self.people):
                person.join(self.game_id, n % 2)
            return
        for n, person in enumerate(self.people):
            if person.at != n % 2:
                person.leave()
                person.connect(n % 2)

    def through_a_kill(self, victim: int) -> None:
        """Play while process ``victim`` is SIGKILLed, then start it again. The kill comes
        after a random number of acknowledged actions (0 to 5, or at once when the game is
        over), a random fraction of a pace later, so that it may land while an action waits
        for its answer; the cycle ends once ``AFTER`` actions have been acknowledged since
        (or the game is over) and everyone who was at the victim has moved to the survivor.

        Each step waits for an event (an answer, a death noticed), never for a moment: a
        kill on a timer could come after a short game had ended, with nobody left to move
        (the flake of issue 31)."""
        before, delay = self.rng.randrange(6), self.rng.uniform(0, PACE)
        killer: threading.Timer | None = None
        done = 0  # actions acknowledged in this cycle before the kill
        after: int | None = None  # actions acknowledged since the kill was noticed
        deadline = time.monotonic() + 20 * WAIT
        try:
            while after is None or (after < AFTER and not self.over()) or any(p.at == victim for p in self.people):
                assert time.monotonic() < deadline, f"the cycle did not end: {after} acknowledged after the kill"
                if killer is None and (done >= before or self.over()):
                    killer = threading.Timer(delay, os.kill, (self.procs[victim].pid, signal.SIGKILL))
                    killer.start()
                if after is None and self.procs[victim].poll() is not None:
                    after = 0
                acted = False
                for person in self.people:
                    answer, moved = self.turn(person, victim)
                    if moved and after is None:
                        after = 0
                    if answer is not None and answer["type"] == "result":
                        acted = True
                        if after is None:
                            done += 1
                        else:
                            after += 1
                if not acted:  # nobody could act (the game is over): wait for the death to show
                    time.sleep(0.01)
        finally:
            if killer is not None:
                killer.cancel()
            kill(self.procs[victim])
        self.procs[victim] = launch(self.db, self.ports[victim])

    def over(self) -> bool:
        return all(p.state.get("over") for p in self.people)

    def turn(self, person: Person, victim: int) -> tuple[dict[str, Any] | None, bool]:
        """What has come for the person, and a random legal action of a player's (sent
        again elsewhere if its process dies under it): its answer, and whether it moved."""
        answer, moved = None, False
        try:
            person.drain()
            legal = person.state.get("legal")
            if person.token and legal and not person.state["over"]:
                self.count += 1
                answer = person.act(f"{person.name}-{self.count}", self.rng.choice(legal))
        except DIED as exc:
            assert person.at == victim, f"{person.name}'s connection to the survivor broke: {exc!r}"
            if isinstance(exc, ConnectionClosed):  # no close frame: not a close for a reason
                assert exc.rcvd is None, f"{person.name} was closed for a reason: {exc!r}"
            self.procs[victim].wait(WAIT)  # it is dead (a connection may notice it first)
            answer, moved = person.moved(1 - victim), True
        if answer is not None and answer["type"] == "result":
            result = answer["result"]
            known = self.acknowledged[self.game_id].setdefault(answer["client_id"], result)
            assert {**known, "repeated": False} == {**result, "repeated": False}  # sent again: the same
        elif answer is not None:  # refused: only as stale (the other player moved first), or
            # as over when what came first ended the game (a move of the person's own, sent
            # again elsewhere after a kill, can be the one that left its state behind)
            assert answer["error"]["code"] == "stale" or (answer["error"]["code"] == "over"
                                                           and answer["state"]["over"]), answer
        return answer, moved

    def check(self, through: int) -> None:
        """Every client saw its states' versions in order and knows every entry up to the
        newest it saw; the log (read from version 0 by a new client, through ``through``)
        holds each acknowledged action once, at its version, and nothing else."""
        for person in self.people:
            assert person.versions == sorted(person.versions), (person.name, person.versions)
            newest = person.versions[-1]
            assert set(range(1, newest + 1)) <= set(person.entries), (person.name, newest, sorted(person.entries))
        reader = Person("reader", self.ports, None)
        reader.game_id = self.game_id
        reader.connect(through)
        reader.resync(0)
        reader.leave()
        log = reader.entries
        acknowledged = self.acknowledged[self.game_id]
        assert sorted(log) == list(range(1, len(log) + 1))
        assert len(log) == len(acknowledged)  # each action once: every entry is an acknowledged one
        for result in acknowledged.values():
            assert log[result["version"]] == (result["seat"], result["action"])
        for person in self.people:
            assert all(log[v] == entry for v, entry in person.entries.items()), person.name


@pytest.fixture
def pg(db_url: str) -> Iterator[str]:
    if not db_url.startswith("postgresql"):
        pytest.skip("several processes need PostgreSQL")
    yield db_url


@pytest.mark.slow
def test_websocket_clients_of_a_killed_process_resynchronise_elsewhere_and_miss_nothing(pg: str) -> None:
    rng = random.Random(1616)
    table = Table(pg, rng)
    try:
        for _ in range(CYCLES):
            victim = rng.randrange(2)
            table.seat(1 - victim)
            table.through_a_kill(victim)
            table.check(1 - victim)
            ready(table.procs[victim], table.ports[victim])  # started again while the survivor was checked
        assert sum(p.moves for p in table.people) >= CYCLES  # someone moved after every kill
        assert sum(len(a) for a in table.acknowledged.values()) >= CYCLES * AFTER
    finally:
        table.close()
