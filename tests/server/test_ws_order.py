"""Updates to one connection never go back a version (issue 16's carry-over; hub.py).

What a connection is sent is made in many places that finish in any order: a broadcast of
this process's move or of another's (heard by the relay), the answer to a resync made in a
worker thread, the current state that comes with a refusal. Whatever the order they finish
in, the states one connection is sent never go back a version, and each connection ends
on the game's last version.

The first tests drive one connection's outbox directly, in the orders that went wrong;
the last plays a Tomb game through two server processes on one PostgreSQL, people moving
on both at once, while spectators on both and a client that keeps asking to resync read
every message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Iterator, MutableMapping
from typing import Any

import pytest
from starlette.websockets import WebSocket

from mummy.server.play.hub import CLOSE_TRY_LATER, Connection, SocketLimits
from mummy.server.play.service import GameService
from mummy.server.play.wire import view_message
from tests.server.conftest import two_processes
from tests.server.players import Seat, post

FIVE_FIVE = 99  # map1 round 1 rolls 5 and 5


class _Peer:
    """A client at the other end of one connection: it reads when told to (``go``), and
    keeps what it read; ``closed`` is the close code it was sent, if any."""

    def __init__(self) -> None:
        self.transport = self
        self.go = asyncio.Event()
        self.got: list[dict[str, Any]] = []
        self.closed: int | None = None

    def abort(self) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    async def receive(self) -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(self, message: MutableMapping[str, Any]) -> None:
        if message["type"] == "websocket.send":
            await self.go.wait()
            self.got.append(json.loads(message["text"]))
        elif message["type"] == "websocket.close":
            self.closed = message["code"]

    def versions(self) -> list[int]:
        """The version of every state it was sent (states, updates, refusals' states)."""
        return [m["state"]["version"] for m in self.got if isinstance(m.get("state"), dict)]


def _view(version: int) -> str:
    return json.dumps({"version": version, "board": "x" * 40})


def _scenario(steps: Any, outbox: int = 64 * 1024) -> _Peer:
    """Run ``steps(conn, peer)`` (a coroutine) on a connection to a fresh peer, let the
    peer read everything, and return it."""

    async def run() -> _Peer:
        peer = _Peer()
        ws = WebSocket({"type": "websocket", "path": "/", "headers": [], "client": ("10.0.0.1", 1)},
                       receive=peer.receive, send=peer.send)
        await ws.accept()
        conn = Connection(ws, SocketLimits(outbox=outbox))
        await steps(conn, peer)
        peer.go.set()
        for _ in range(50):
            await asyncio.sleep(0)
        conn.left()
        return peer

    return asyncio.run(run())


def test_a_resync_answered_late_never_steps_back_after_a_newer_update() -> None:
    """A resync's state, made in a worker thread at version 5 while a broadcast of version 6
    went out on the loop, is not sent after it: the client has a newer state."""

    async def steps(conn: Connection, peer: _Peer) -> None:
        conn.send_state(3, view_message("state", 3, _view(3)))  # on joining
        peer.go.set()
        conn.send_update(6, view_message("update", 6, _view(6)))
        await asyncio.sleep(0)
        assert not conn.send_state(5, view_message("state", 5, _view(5)))  # the late resync answer
        assert conn.send_state(6, view_message("state", 6, _view(6)))  # a resync at the same version is sent

    peer = _scenario(steps)
    assert peer.versions() == [3, 6, 6]


def test_a_refusals_state_counts_as_a_state_of_its_version() -> None:
    """A refusal carries the current state: an older one than the client has is left out
    (the refusal itself is sent: its action was refused), and a broadcast older than the
    refusal's state, finishing late, is not sent after it."""

    async def steps(conn: Connection, peer: _Peer) -> None:
        conn.send_state(2, view_message("state", 2, _view(2)))
        peer.go.set()
        conn.send_update(4, view_message("update", 4, _view(4)))
        await asyncio.sleep(0)
        conn.send({"type": "error", "client_id": "a", "error": {"code": "stale"}, "state": json.loads(_view(3))})
        conn.send({"type": "error", "client_id": "b", "error": {"code": "stale"}, "state": json.loads(_view(7))})
        assert not conn.send_update(5, view_message("update", 5, _view(5)))  # a broadcast begun before
        assert conn.send_update(7, view_message("update", 7, _view(7)))  # the same version again (par came)
        for _ in range(5):
            await asyncio.sleep(0)
        assert conn.send_update(8, view_message("update", 8, _view(8)))

    peer = _scenario(steps)
    assert peer.versions() == [2, 4, 7, 7, 8]
    errors = [m for m in peer.got if m["type"] == "error"]
    assert [e["client_id"] for e in errors] == ["a", "b"] and "state" not in errors[0]


def test_a_connection_too_slow_to_read_is_closed_with_its_versions_in_order() -> None:
    """Updates give way to newer ones in the outbox; what fills it is the rest (replies to
    the client's own requests): then the connection is closed (1013, too slow to read),
    what was queued is dropped, and the client reconnects to the current state."""

    async def steps(conn: Connection, peer: _Peer) -> None:
        conn.send_state(1, view_message("state", 1, _view(1)))
        await asyncio.sleep(0)  # taken by the sender, which waits on the peer
        version = 1
        while not conn.closing:
            version += 1
            conn.send_update(version, view_message("update", version, _view(version)))
            conn.send({"type": "result", "client_id": f"c{version}", "result": {"version": version}})
        assert version > 3

    peer = _scenario(steps, outbox=600)
    assert peer.closed == CLOSE_TRY_LATER
    assert peer.versions() == [1]  # what was queued went with the close: nothing older after anything newer


def test_a_move_broadcast_while_a_connection_joins_still_reaches_it() -> None:
    """A joining connection's first view is made (in a worker thread) at version 3; a move
    to version 4 is broadcast meanwhile to the room, which the connection is not in yet.
    Once in, it is sent version 4 as well, instead of waiting a version behind for the
    next move."""
    from mummy.server.api.sockets import joined

    class Game:  # the game's newest version, moved on by a broadcast during the first view
        version = 3

    class Play:
        async def view_text(self, game_id: str, token: str | None) -> tuple[int, str]:
            seen = Game.version
            Game.version = 4  # the move broadcast while this view was being made
            return seen, _view(seen)

    class Hub:
        def join(self, conn: Connection, game_id: str) -> str | None:
            return None

    async def steps(conn: Connection, peer: _Peer) -> None:
        assert await joined(conn, Hub(), Play(), "g", None)  # type: ignore[arg-type]

    peer = _scenario(steps)
    assert peer.versions() == [3, 4]
    assert [m["type"] for m in peer.got] == ["state", "state"]


# -- two processes, moves on both, read on both --------------------------------------------------

@pytest.fixture
def servers(service: GameService, db_url: str) -> Iterator[tuple[str, str]]:
    with two_processes(service, db_url) as (one, two, _apps):
        yield one, two


class Reader(threading.Thread):
    """Reads a connection until told to stop; ``resync``: asks for the state again after
    every message it reads (its answers race the broadcasts)."""

    def __init__(self, seat: Seat, resync: bool = False) -> None:
        super().__init__(daemon=True)
        self.seat = seat
        self.resync = resync
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(TimeoutError):
                self.seat.read(0.05)
                if self.resync:
                    self.seat.ws.send(json.dumps({"type": "sync", "version": self.seat.state["version"]}))


def _play_round(seat: Seat, tag: str, errors: list[BaseException]) -> None:
    """A person's round: a few moves (their first legal one), each on the newest state the
    seat was sent, then ``end``. A refusal comes with the current state: play on from it."""
    try:
        for n in range(20):
            legal = [a for a in seat.state.get("legal") or [] if a != "end"]
            action = legal[0] if legal and n < 3 else "end"
            answer = seat.act(f"{tag}{n}", action)
            if answer["type"] == "result" and action == "end":
                return
    except BaseException as exc:  # the test's thread raises it
        errors.append(exc)


def test_every_connection_sees_the_versions_in_order_with_moves_on_both_processes(
        servers: tuple[str, str]) -> None:
    one, two = servers
    created = post(f"http://{one}/api/games", {"game": "tomb", "seed": FIVE_FIVE,
                                               "seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]})
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    seats = [Seat(one, game_id, tokens[0]), Seat(two, game_id, tokens[1]), Seat(one, game_id, tokens[2])]
    readers = [Reader(Seat(one, game_id, None)), Reader(Seat(two, game_id, None)),
               Reader(Seat(one, game_id, None), resync=True), Reader(Seat(two, game_id, None), resync=True)]
    everyone = [*seats, *(r.seat for r in readers)]
    try:
        for r in readers:
            r.start()
        errors: list[BaseException] = []
        for round_no in (1, 2, 3):  # everyone plays each round at once: Ann and Cy on one, Bob on two
            movers = [threading.Thread(target=_play_round, args=(s, f"{i}-{round_no}-", errors))
                      for i, s in enumerate(seats)]
            for t in movers:
                t.start()
            for t in movers:
                t.join(60)
            assert not errors, errors
            for s in seats:  # the last end started the next round: everyone is told
                deadline = time.monotonic() + 15
                while s.state["state"]["round"] == round_no:
                    s.read(max(0.01, deadline - time.monotonic()))
        last = max(s.state["version"] for s in seats)
        assert last >= 12  # moves from both processes, interleaved
        deadline = time.monotonic() + 15
        while any(r.seat.state["version"] < last for r in readers) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        for r in readers:
            r.stop.set()
        for r in readers:
            r.join(5)
    try:
        for who in everyone:
            assert who.versions == sorted(who.versions), who.versions  # never a step back
            assert who.versions[-1] == last
        assert len(readers[2].seat.versions) > len(readers[0].seat.versions)  # its resyncs were answered too
    finally:
        for who in everyone:
            who.close()
