"""A real server on loopback: HTTP and a websocket over real sockets; and `mummy verify`."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from mummy.cli import main
from mummy.server.app import create_app
from mummy.server.play.service import GameService
from tests.server.conftest import listening, running


@pytest.fixture
def server(service: GameService) -> Iterator[str]:
    with running(create_app(service=service), listening()) as address:
        yield address


def post(url: str, body: dict[str, object], token: str | None = None) -> dict[str, object]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())  # type: ignore[no-any-return]


def test_play_over_real_sockets(server: str) -> None:
    created = post(f"http://{server}/api/games", {"game": "tomb", "seats": [{"name": "me"}], "seed": 99})
    game_id, token = created["id"], created["seats"][0]["token"]  # type: ignore[index]
    with connect(f"ws://{server}/ws/games/{game_id}?token={token}") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send(json.dumps({"type": "action", "client_id": "a", "version": 0, "action": "1:5a.r0@J1"}))
        assert json.loads(ws.recv(timeout=10))["result"]["version"] == 1
        assert json.loads(ws.recv(timeout=10))["type"] == "delta"


def test_verify_a_finished_online_game(service: GameService, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    created = service.create("treasure", [{"name": "solo"}], {}, seed=77)
    game_id, token = created["id"], created["seats"][0]["token"]
    while not service.view(game_id)["over"]:
        view = service.view(game_id, token)
        service.act(game_id, token, f"c{view['version']}", view["version"], view["legal"][-1])
    path = tmp_path / "record.json"
    record = service.record(game_id)
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == 0
    assert "VALID: the seed matches the commitment" in capsys.readouterr().out
    path.write_text(json.dumps(dict(record, seed=78)))
    assert main(["verify", str(path)]) == 1
    assert "do not match the commitment" in capsys.readouterr().out
    path.write_text(json.dumps({"format": "mummy.tomb.record"}))
    assert main(["verify", str(path)]) == 1
