"""People at real websockets, each on a server of their own choosing: for the tests of
several server processes on one database (test_relay.py, test_workers.py)."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from typing import Any

from websockets.sync.client import ClientConnection, connect

from mummy.server.play.wire import followed

WAIT = 15.0  # seconds a test waits for a message it expects


def post(url: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=WAIT) as resp:
        return json.loads(resp.read())  # type: ignore[no-any-return]


def get(url: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=WAIT) as resp:
        return json.loads(resp.read())  # type: ignore[no-any-return]


class Seat:
    """One person's websocket to one server: the newest state it was sent, and every
    version it was sent, in order (states, updates, and the states of refusals)."""

    def __init__(self, address: str, game_id: str, token: str | None) -> None:
        query = f"?token={token}" if token else ""
        self._stack = contextlib.ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(f"ws://{address}/ws/games/{game_id}{query}", open_timeout=WAIT))
        self.state: dict[str, Any] = {}
        self.versions: list[int] = []
        self.results: dict[str, dict[str, Any]] = {}  # client id -> result or error
        while not self.state:
            self.read()

    def close(self) -> None:
        self._stack.close()

    def read(self, timeout: float = WAIT) -> dict[str, Any]:
        """The next message (the state it carries is kept)."""
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] in ("state", "update", "delta"):
            state = followed(self.state or None, message)
            assert state is not None, f"a patch from {message.get('base')} reached a client at " \
                                      f"{self.state.get('version')}"
            self.state = state
            self.versions.append(message["version"])
        elif message["type"] == "error" and "state" in message:
            self.state = message["state"]
            self.versions.append(message["state"]["version"])
            self.results[message.get("client_id") or ""] = message
        elif message["type"] == "result":
            self.results[message["client_id"]] = message
        return message

    def wait_version(self, version: int, timeout: float = WAIT) -> dict[str, Any]:
        """Read until the state is at ``version`` at least; that state."""
        deadline = time.monotonic() + timeout
        while self.state.get("version", -1) < version:
            self.read(max(0.01, deadline - time.monotonic()))
        return self.state

    def act(self, client_id: str, action: str, version: int | None = None) -> dict[str, Any]:
        """Send an action (on the newest version seen, unless told), and read until its
        answer (the result, or the refusal) and, for a result, the update that follows it."""
        self.ws.send(json.dumps({"type": "action", "client_id": client_id, "action": action,
                                 "version": self.state["version"] if version is None else version}))
        deadline = time.monotonic() + WAIT
        while client_id not in self.results:
            self.read(max(0.01, deadline - time.monotonic()))
        answer = self.results[client_id]
        if answer["type"] == "result":
            self.wait_version(answer["result"]["version"])
        return answer


def play_to_the_end(seats: list[Seat], limit: int = 3000) -> int:
    """Play each seat's last legal action, whoever's turn it is, each through its own
    connection, until the game is over; every seat sees every move before the next is
    made (bots, wherever they are played, move in between). The final version."""
    for n in range(limit):
        mover = your_turn(seats)
        if mover is None:
            version = max(seat.state["version"] for seat in seats)
            for seat in seats:
                seat.wait_version(version)
            return version
        answer = mover.act(f"m{n}", mover.state["legal"][-1])
        assert answer["type"] == "result", answer
        for seat in seats:
            seat.wait_version(answer["result"]["version"])
    raise AssertionError("the game did not end")


def your_turn(seats: list[Seat], timeout: float = WAIT) -> Seat | None:
    """The first seat with a legal action, once one has (bots may be moving meanwhile), or
    None once the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for seat in seats:
            if seat.state.get("over"):
                return None
            if seat.state.get("legal"):
                return seat
        for seat in seats:
            with contextlib.suppress(TimeoutError):
                seat.read(0.02)
    raise AssertionError("nobody's turn came")


def asked_again(acknowledged: list[tuple[str, str, str, dict[str, Any]]], base: Any) -> None:
    """Send acknowledged actions (game, client id, token, result) again, each to the server
    ``base()`` names: each must be answered as a repeat of its stored result, so it is in
    the log (the kill tests: test_crash.py, test_workers.py)."""
    for game_id, client_id, token, result in acknowledged:
        again = post(f"{base()}/api/games/{game_id}/actions",
                     {"client_id": client_id, "version": 0, "action": result["action"]}, token)
        assert again["result"] == dict(result, repeated=True)
