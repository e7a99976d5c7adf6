"""Websocket hardening (issue 12): a client that never reads, admission caps, the echo's
limits, and hostile JSON. docs/server.md §4, "Limits and close codes".

The slow-reader test runs a real uvicorn on loopback: the test client has no transport
buffers, and the stall only happens when a kernel buffer is full.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator, MutableMapping
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.sync.client import ClientConnection, connect

from mummy.server import app as app_module
from mummy.server.app import create_app
from mummy.server.play.hub import Connection, Hub, SocketLimits
from mummy.server.play.service import GameService
from mummy.server.play.wire import followed
from tests.server.conftest import listening, running

#: Seconds within which the player's every action must be answered. Loose on purpose
#: (a noisy 2-core machine); a stalled game never answers at all.
ANSWER_BOUND = 10.0


def game(client: TestClient, seats: int = 1) -> tuple[str, list[str]]:
    r = client.post("/api/games", json={"game": "tomb", "seats": [{"name": f"p{i}"} for i in range(seats)],
                                        "seed": 99}).json()
    return r["id"], [s["token"] for s in r["seats"]]


def limit(client: TestClient, **changes: Any) -> None:
    """Small caps for one test: they are settings of the app's hub."""
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.limits = replace(hub.limits, **changes)


def refused(client: TestClient, path: str) -> int:
    """The close code of a connection refused before its first message."""
    with client.websocket_connect(path) as ws, pytest.raises(WebSocketDisconnect) as info:
        ws.receive_json()
    return info.value.code


# -- a client that never reads ------------------------------------------------------------------

@pytest.fixture
def tight_server(service: GameService) -> Iterator[str]:
    """uvicorn on 127.0.0.1 with small kernel send buffers: set on the listening socket,
    inherited by every accepted one (which also turns the kernel's autotuning off), so a
    client that stops reading fills them in a fraction of a second, not after megabytes."""
    with running(create_app(service=service), listening(send_buffer=16 * 1024),
                 ws_per_message_deflate=False, timeout_graceful_shutdown=2) as address:
        yield address


class SilentReader(threading.Thread):
    """A websocket client on a raw socket with a small receive buffer: it sends ``sync``
    about 12 times a second (under the rate limit) and never reads a byte after the
    handshake. ``dropped`` is set when the server has let it go (a send fails)."""

    def __init__(self, address: str, path: str) -> None:
        super().__init__(daemon=True)
        host, port = address.split(":")
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while not head.endswith(b"\r\n\r\n"):  # the handshake's answer, and not a byte more
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.stop = threading.Event()
        self.dropped = threading.Event()

    @staticmethod
    def frame(text: str) -> bytes:
        payload, mask = text.encode(), os.urandom(4)
        assert len(payload) < 126
        return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

    def run(self) -> None:
        frame = self.frame(json.dumps({"type": "sync", "version": 0}))  # the state and the whole log
        self.sock.settimeout(1.0)
        while not self.stop.is_set():
            try:
                self.sock.sendall(frame)
            except TimeoutError:  # the server stopped reading from us: still held
                continue
            except OSError:
                self.dropped.set()
                return
            self.stop.wait(1 / 12)  # well under the rate limit, even when the server reads in bursts


class Watcher(threading.Thread):
    """A spectator that reads everything: the versions of the updates it was sent."""

    def __init__(self, ws: ClientConnection) -> None:
        super().__init__(daemon=True)
        self.ws = ws
        self.versions: list[int] = []
        self.over = threading.Event()
        self.view: dict[str, Any] | None = None

    def run(self) -> None:
        try:
            while True:
                message = json.loads(self.ws.recv(timeout=30))
                self.view = followed(self.view, message)
                if message["type"] in ("update", "delta"):
                    self.versions.append(message["version"])
                    if self.view is not None and self.view["over"]:
                        self.over.set()
        except Exception:  # closed at the end of the test
            return


def post(url: str, body: dict[str, object]) -> Any:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


@pytest.mark.slow
def test_a_silent_reader_never_stalls_the_game(tight_server: str) -> None:
    created = post(f"http://{tight_server}/api/games",
                   {"game": "tomb", "seats": [{"name": "me"}, {"bot": "random"}], "seed": 5})
    game_id, token = created["id"], created["seats"][0]["token"]
    silent = SilentReader(tight_server, f"/ws/games/{game_id}")
    with connect(f"ws://{tight_server}/ws/games/{game_id}", max_size=2**22) as spectator_ws, \
            connect(f"ws://{tight_server}/ws/games/{game_id}?token={token}", max_size=2**22) as ws:
        watcher = Watcher(spectator_ws)
        watcher.view = json.loads(spectator_ws.recv(timeout=ANSWER_BOUND))["state"]  # its first state
        watcher.start()
        silent.start()
        state = json.loads(ws.recv(timeout=ANSWER_BOUND))["state"]
        seen: list[int] = []
        actions = after_drop = 0
        while not state["over"]:
            if not state.get("legal"):  # the bot's turn: its move comes as an update
                message = json.loads(ws.recv(timeout=ANSWER_BOUND))
                if message["type"] in ("update", "delta"):
                    seen.append(message["version"])
                    state = followed(state, message)
                    assert state is not None, "a patch that does not follow the client's view"
                continue
            client_id = f"a{actions}"
            ws.send(json.dumps({"type": "action", "client_id": client_id, "version": state["version"],
                                "action": state["legal"][0]}))
            actions += 1
            after_drop += silent.dropped.is_set()
            committed: int | None = None
            while committed is None or state["version"] < committed:  # the answer, and its update
                message = json.loads(ws.recv(timeout=ANSWER_BOUND))
                if message["type"] in ("update", "delta"):
                    seen.append(message["version"])
                    state = followed(state, message)
                    assert state is not None, "a patch that does not follow the client's view"
                elif message.get("client_id") == client_id and message["type"] == "error":
                    state = message["state"]  # stale: the bot moved first
                    break
                elif message.get("client_id") == client_id:
                    committed = message["result"]["version"]
            # A person's pace while the silent reader fills up; then under the rate limit.
            time.sleep(0.06 if silent.dropped.is_set() else 0.1)
        assert silent.dropped.wait(ANSWER_BOUND), "the silent reader was never let go"
        assert after_drop > 0, "the game ended before the silent reader filled its buffers"
        assert watcher.over.wait(ANSWER_BOUND)
        assert set(seen) <= set(watcher.versions)  # the other spectator missed nothing
        assert watcher.versions == sorted(watcher.versions)
    silent.stop.set()
    silent.join(timeout=5)
    silent.sock.close()


class _Blocked:
    """An ASGI server's side of a connection whose peer never reads: every send waits for
    ever, until the transport is aborted."""

    def __init__(self) -> None:
        self.transport = self  # what the hub looks for, as on uvicorn's protocols
        self.aborted = asyncio.Event()
        self.connected = False

    def abort(self) -> None:
        self.aborted.set()

    def is_closing(self) -> bool:
        return self.aborted.is_set()

    async def receive(self) -> dict[str, Any]:
        if not self.connected:
            self.connected = True
            return {"type": "websocket.connect"}
        await self.aborted.wait()
        return {"type": "websocket.disconnect", "code": 1006}

    async def send(self, message: MutableMapping[str, Any]) -> None:
        if message["type"] != "websocket.accept":
            await self.aborted.wait()
            raise OSError("aborted")


def test_a_broadcast_never_waits_and_a_stuck_peer_is_aborted(service: GameService) -> None:
    created = service.create("tomb", [{"name": "me"}], {}, seed=99)
    game_id = created["id"]

    class Workers:
        async def run(self, fn: Any, *args: object) -> Any:
            return fn(*args)

    async def scenario() -> None:
        hub = Hub(Workers())
        hub.limits = replace(hub.limits, send_timeout=0.3)
        peer = _Blocked()
        ws = WebSocket({"type": "websocket", "path": "/", "headers": [], "client": ("10.0.0.1", 1)},
                       receive=peer.receive, send=peer.send)
        conn = await hub.admit(ws)
        assert isinstance(conn, Connection)
        assert hub.join(conn, game_id) is None
        async with asyncio.timeout(1):  # queued, not sent: returns at once, whatever the peer does
            for _ in range(3):
                await hub.broadcast(service, game_id)
        async with asyncio.timeout(5):
            await peer.aborted.wait()  # the stuck send timed out: the transport was aborted
            await hub.leave(conn)
        assert not hub.rooms and hub.open == 0

    try:
        asyncio.run(scenario())
    finally:
        service.close()


class _Slow:
    """A peer that reads only when told to (``go``): what it has read is ``got``."""

    def __init__(self) -> None:
        self.transport = self
        self.go = asyncio.Event()
        self.got: list[str] = []

    def abort(self) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    async def receive(self) -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(self, message: MutableMapping[str, Any]) -> None:
        if message["type"] == "websocket.send":
            await self.go.wait()
            self.got.append(message["text"])


def test_unsent_updates_give_way_to_newer_ones_and_never_to_older_ones() -> None:
    """A client slow for a moment is sent the newest state, not every stale one before it
    (each carries the whole view), and is not closed for a backlog of stale views; other
    messages (a reply to its own request) are never dropped, and an update older than one
    queued (two broadcasts finishing out of order) does not replace the newer one."""

    async def scenario() -> list[str]:
        peer = _Slow()
        ws = WebSocket({"type": "websocket", "path": "/", "headers": [], "client": ("10.0.0.1", 1)},
                       receive=peer.receive, send=peer.send)
        await ws.accept()
        conn = Connection(ws, SocketLimits(outbox=100))
        conn.send_update(1, "u1" * 20)  # taken by the sender at once, stuck in the peer
        await asyncio.sleep(0)
        for version in (2, 3, 4):  # each in place of the last: the outbox never fills
            assert conn.send_update(version, f"u{version}" * 20)
        conn.send_text("reply")
        assert conn.send_update(5, "u5")
        assert not conn.send_update(4, "late")  # older than one queued: dropped
        conn.send_state(7, "state7")  # a resync's answer...
        assert not conn.send_update(6, "late6")  # ...is not followed by an older update
        assert conn.send_update(8, "u8") and conn.send_text("reply2")
        assert not conn.closing
        peer.go.set()
        for _ in range(10):
            await asyncio.sleep(0)
        conn.left()
        return peer.got

    assert asyncio.run(scenario()) == ["u1" * 20, "u4" * 20, "reply", "u5", "state7", "u8", "reply2"]


# -- admission ----------------------------------------------------------------------------------

def test_a_seat_takes_at_most_its_share_and_others_still_find_room(client: TestClient) -> None:
    game_id, (mine, theirs) = game(client, 2)
    per_seat = SocketLimits().per_seat
    path = f"/ws/games/{game_id}?token={mine}"
    held = [client.websocket_connect(path) for _ in range(per_seat)]
    try:
        for ws in held:
            assert ws.__enter__().receive_json()["type"] == "state"
        assert refused(client, path) == 1013
        with client.websocket_connect(f"/ws/games/{game_id}?token={theirs}") as other, \
                client.websocket_connect(f"/ws/games/{game_id}") as spectator:
            assert other.receive_json()["state"]["you"] == 1
            assert spectator.receive_json()["state"]["you"] is None
    finally:
        for ws in held:
            ws.__exit__(None, None, None)
    with client.websocket_connect(path) as ws:  # closed ones make room again
        assert ws.receive_json()["type"] == "state"


def test_caps_per_process_and_per_address_refuse_before_any_work(client: TestClient) -> None:
    game_id, (token,) = game(client)
    limit(client, sockets=3, per_address=1000, seats_reserved=0)
    with client.websocket_connect(f"/ws/games/{game_id}") as a, client.websocket_connect("/ws/echo") as b, \
            client.websocket_connect(f"/ws/games/{game_id}?token={token}") as c:
        a.receive_json()
        c.receive_json()
        b.send_text("x")
        assert b.receive_text() == "x"
        # Over the cap, even an unknown game is refused with 1013, not looked up.
        assert refused(client, "/ws/games/nope") == 1013
        assert refused(client, "/ws/echo") == 1013
    limit(client, sockets=1000, per_address=2)
    with client.websocket_connect(f"/ws/games/{game_id}") as a, client.websocket_connect("/ws/echo"):
        a.receive_json()
        assert refused(client, f"/ws/games/{game_id}?token={token}") == 1013
    limit(client, per_address=2, unmetered=frozenset({"testclient"}))  # e.g. loopback
    with client.websocket_connect(f"/ws/games/{game_id}") as a, client.websocket_connect("/ws/echo"), \
            client.websocket_connect(f"/ws/games/{game_id}") as c:
        a.receive_json()
        c.receive_json()


def test_spectators_per_address_per_game(client: TestClient) -> None:
    game_id, (token,) = game(client)
    other_game, _ = game(client)
    limit(client, spectators_per_address=2)
    path = f"/ws/games/{game_id}"
    with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
        a.receive_json()
        b.receive_json()
        assert refused(client, path) == 1013
        with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as seat, \
                client.websocket_connect(f"/ws/games/{other_game}") as elsewhere:
            assert seat.receive_json()["state"]["you"] == 0  # the seat still finds room
            assert elsewhere.receive_json()["type"] == "state"


def closed_with(ws: Any) -> tuple[int, str]:
    """Read a connection until the server closes it: its close code and reason."""
    with pytest.raises(WebSocketDisconnect) as info:
        while True:
            ws.receive_json()
    return info.value.code, info.value.reason


def test_spectators_leave_room_for_seats_and_a_seat_sheds_the_oldest_spectator(client: TestClient) -> None:
    """Issue 32: idle spectators filled the process's sockets and the seated player's own
    websocket closed 1013. Spectators may not take the sockets kept for seats, and a seat
    that finds the process full closes the oldest spectator instead."""
    game_id, (token,) = game(client)
    limit(client, sockets=3, seats_reserved=1, per_address=1000)
    with client.websocket_connect(f"/ws/games/{game_id}") as oldest, \
            client.websocket_connect(f"/ws/games/{game_id}") as newer:
        oldest.receive_json()
        newer.receive_json()
        assert refused(client, f"/ws/games/{game_id}") == 1013  # the last socket is a seat's
        assert refused(client, f"/ws/games/{game_id}?token=made-up") == 1013  # a token that holds no seat
        assert refused(client, "/ws/echo") == 1013  # (the echo watches nothing, and waits likewise)
        with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as seat:
            assert seat.receive_json()["state"]["you"] == 0  # the reserved socket
            with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as again:  # a second tab
                assert again.receive_json()["state"]["you"] == 0  # full: a spectator made room
                assert closed_with(oldest) == (1013, "the server needed room for a player; watch again later")
                hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
                assert hub.open == 3 and len(hub.watchers) == 1  # two seats and the newer spectator
                with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as third:
                    assert third.receive_json()["state"]["you"] == 0
                    assert closed_with(newer)[0] == 1013
                    assert refused(client, f"/ws/games/{game_id}?token={token}") == 1013  # no spectator left


def test_spectators_per_address_over_all_games(client: TestClient) -> None:
    """Issue 32: one address watching game after game is capped across games, not only per game."""
    games = [game(client)[0] for _ in range(3)]
    limit(client, spectating_per_address=2, spectators_per_address=5)
    with client.websocket_connect(f"/ws/games/{games[0]}") as a, client.websocket_connect(f"/ws/games/{games[1]}") as b:
        a.receive_json()
        b.receive_json()
        assert refused(client, f"/ws/games/{games[2]}") == 1013
    with client.websocket_connect(f"/ws/games/{games[2]}") as c:  # the count goes down as they leave
        assert c.receive_json()["type"] == "state"


# -- the echo -----------------------------------------------------------------------------------

def test_echo_has_the_game_sockets_rate_and_size_limits(client: TestClient) -> None:
    with client.websocket_connect("/ws/echo") as ws, pytest.raises(WebSocketDisconnect) as info:
        for _ in range(app_module.MAX_RATE * 3):
            ws.send_text("ping")
        for _ in range(app_module.MAX_RATE * 3):
            ws.receive_text()
    assert info.value.code == 1008
    with client.websocket_connect("/ws/echo") as ws, pytest.raises(WebSocketDisconnect) as info:
        ws.send_text("é" * (app_module.MAX_MESSAGE // 2 + 1))  # few characters, too many bytes
        ws.receive_text()
    assert info.value.code == 1009
    with client.websocket_connect("/ws/echo") as ws, pytest.raises(WebSocketDisconnect) as info:
        ws.send_bytes(b"\x00")
        ws.receive_text()
    assert info.value.code == 1003


# -- hostile JSON -------------------------------------------------------------------------------

DEEP = "[" * 1000 + "]" * 1000


@pytest.mark.parametrize("text", [
    DEEP,
    '{"type": "sync", "version": ' + DEEP + "}",
    '{"type": "action", "client_id": "\\ud800", "version": 0, "action": "1:5a.r0@J1"}',
    '{"type": "action", "client_id": "a", "version": 0, "action": "1:5a.r0@J1\\udfff"}',
    '{"type": "sync\\ud800"}',
])
def test_hostile_json_is_closed_with_1007_and_one_log_line(client: TestClient, caplog: pytest.LogCaptureFixture,
                                                          text: str) -> None:
    game_id, (token,) = game(client)
    caplog.set_level(logging.DEBUG)
    with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as other:
        other.receive_json()
        with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
            ws.receive_json()
            ws.send_text(text)
            with pytest.raises(WebSocketDisconnect) as info:
                ws.receive_json()
            assert info.value.code == 1007
        # The server carries on: the other connection of the same seat plays.
        other.send_json({"type": "action", "client_id": "a", "version": 0, "action": "1:5a.r0@J1"})
        assert other.receive_json()["type"] == "result"
        assert other.receive_json()["version"] == 1
    ours = [r for r in caplog.records if r.name.startswith("mummy")]
    assert len(ours) <= 1 and not any(r.exc_info for r in caplog.records), [r.getMessage() for r in ours]


def test_websocket_handshakes_are_rate_limited_per_address_and_refusals_write_no_line(
        service: GameService, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 32: a client opening refused websockets in a loop wrote a log line each."""
    from mummy.server.admission.limits import Limits

    app = create_app(service=service, limits=Limits(sockets_per_address="3/minute"))
    with TestClient(app, client=("10.0.0.5", 1)) as c, caplog.at_level(logging.INFO, logger="mummy"):
        for _ in range(3):
            with c.websocket_connect("/ws/echo") as ws:
                ws.send_text("x")
                assert ws.receive_text() == "x"
        lines = len(caplog.records)
        for _ in range(5):
            with pytest.raises(WebSocketDisconnect) as info, c.websocket_connect("/ws/echo"):
                pass
            assert info.value.code == 1013 and "too many websocket connections" in info.value.reason
        assert len(caplog.records) == lines  # refused before the app: no line
    with TestClient(app, client=("10.0.0.6", 1)) as other, other.websocket_connect("/ws/echo") as ws:
        ws.send_text("y")
        assert ws.receive_text() == "y"  # another address is served
