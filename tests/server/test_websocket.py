"""Websockets: live state, actions, spectators, hostile frames and limits."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mummy.server import app as app_module


def game(client: TestClient, seats: int = 1) -> tuple[str, list[str]]:
    r = client.post("/api/games", json={"game": "tomb", "seats": [{"name": f"p{i}"} for i in range(seats)],
                                        "seed": 99}).json()
    return r["id"], [s["token"] for s in r["seats"]]


def test_state_on_connect_then_result_and_update(client: TestClient) -> None:
    game_id, (token,) = game(client)
    with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["version"] == 0 and first["state"]["you"] == 0
        ws.send_json({"type": "action", "client_id": "a", "version": 0, "action": "1:5a.r0@J1"})
        assert ws.receive_json() == {"type": "result", "client_id": "a",
                                     "result": {"version": 1, "seat": 0, "action": "1:5a.r0@J1", "over": False}}
        update = ws.receive_json()
        assert update["type"] == "delta" and update["base"] == 0 and update["version"] == 1
        ws.send_json({"type": "action", "client_id": "a", "version": 0, "action": "1:5a.r0@J1"})
        assert ws.receive_json()["result"]["repeated"] is True  # applied once
        ws.send_json({"type": "action", "client_id": "b", "version": 0, "action": "2:5b.r3@J4"})
        stale = ws.receive_json()
        assert stale["type"] == "error" and stale["error"]["code"] == "stale" and stale["state"]["version"] == 1
        ws.send_json({"type": "sync", "version": 0})
        resync = ws.receive_json()
        assert resync["version"] == 1  # the current state, and what it missed
        assert resync["missed"] == [{"version": 1, "seat": 0, "action": "1:5a.r0@J1"}]


def test_other_seats_and_spectators_see_updates_and_spectators_cannot_act(client: TestClient) -> None:
    game_id, tokens = game(client, 2)
    with client.websocket_connect(f"/ws/games/{game_id}") as spectator, \
            client.websocket_connect(f"/ws/games/{game_id}?token={tokens[0]}") as seat:
        assert spectator.receive_json()["state"]["you"] is None
        seat.receive_json()
        spectator.send_json({"type": "action", "client_id": "s", "version": 0, "action": "1:5a.r0@J1"})
        refused = spectator.receive_json()
        assert refused["error"]["code"] == "forbidden"
        seat.send_json({"type": "action", "client_id": "a", "version": 0, "action": "1:5a.r0@J1"})
        assert seat.receive_json()["type"] == "result"
        assert spectator.receive_json()["version"] == 1


@pytest.mark.parametrize(("send", "code"), [
    (lambda ws: ws.send_text("x" * 5000), 1009),
    (lambda ws: ws.send_text("{not json"), 1007),
    (lambda ws: ws.send_bytes(b"\x00\x01"), 1003),
    (lambda ws: ws.send_text(json.dumps({"type": "dance"})), 1008),
])
def test_hostile_frames_close_that_connection_only(client: TestClient, send, code: int) -> None:  # type: ignore[no-untyped-def]
    game_id, (token,) = game(client)
    with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
        ws.receive_json()
        send(ws)
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == code
    assert client.get("/api/health").json()["ok"] is True
    with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:  # the game is fine
        assert ws.receive_json()["version"] == 0


def test_flooding_is_cut_off(client: TestClient) -> None:
    game_id, (token,) = game(client)
    with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
        ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as info:
            for _ in range(app_module.MAX_RATE * 3):
                ws.send_json({"type": "sync", "version": 0})
            for _ in range(app_module.MAX_RATE * 3):
                ws.receive_json()
        assert info.value.code == 1008


def test_bad_token_is_refused(client: TestClient) -> None:
    game_id, _ = game(client)
    with client.websocket_connect(f"/ws/games/{game_id}?token=wrong") as ws:
        assert ws.receive_json()["error"]["code"] == "forbidden"
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 1008


def test_echo(client: TestClient) -> None:
    with client.websocket_connect("/ws/echo") as ws:
        ws.send_text("ping")
        assert ws.receive_text() == "ping"
