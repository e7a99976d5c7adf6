"""What text the server takes (mummy.server.text, issue 32): control characters refused
with a 422 that names the field, the same on SQLite and PostgreSQL (a NUL made PostgreSQL
answer 503), and bidirectional controls removed from the names shown to others."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from mummy.server.text import control_fault, shown_name
from tests.server.test_maps_routes import small_map

NUL = "\x00"


def test_control_characters_are_named_and_a_files_line_ends_allowed() -> None:
    assert control_fault("Ann") is None and control_fault("Ann\u202e") is None
    assert control_fault(f"An{NUL}n") == "no control characters (U+0000 at character 3)"
    assert control_fault("a\nb") is not None and control_fault("a\r\n\tb", multiline=True) is None
    assert control_fault("a\x1bb", multiline=True) is not None and control_fault("\x85") is not None


def test_bidi_controls_are_removed_from_names() -> None:
    assert shown_name("Ann\u202e nosnaJ\u202c") == "Ann nosnaJ"
    assert shown_name("\u2067Bob\u2069 ") == "Bob"


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/games", {"game": "tomb", "seats": [{"name": f"Ann{NUL}"}]}, "name"),
    ("/api/games", {"game": "tomb", "seats": [{"name": "Ann"}], "mode": f"standard{NUL}"}, "mode"),
    ("/api/daily/tomb", {"name": f"A{NUL}"}, "name"),
    ("/api/my-games", {"tokens": [f"x{NUL}"]}, "tokens"),
    ("/api/maps", {"text": small_map().replace("title: Tiny", f"title: Ti{NUL}ny")}, "text"),
])
def test_a_nul_in_a_body_is_a_422_naming_its_field(client: TestClient, path: str, body: dict[str, object],
                                                   field: str) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == 422, answer.json()
    assert field in str(answer.json()) and "no control characters (U+0000" in str(answer.json())


def test_a_nul_in_an_action_or_an_address_is_refused_the_same_on_every_database(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Ann"}], "seed": 4}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    act = client.post(f"/api/games/{game_id}/actions", headers=auth,
                      json={"client_id": f"c{NUL}", "version": 0, "action": "roll"})
    assert act.status_code == 422 and "client_id" in str(act.json())
    with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "client_id": "c1", "version": 0, "action": f"A1{NUL}"})
        refused = ws.receive_json()
        assert refused["type"] == "error" and "action: no control characters" in refused["error"]["message"]
    for address in ("/api/games/x%00y", "/api/leaderboards/tomb?where=map%001", "/api/daily/tomb?day=2026%00",
                    "/api/content/tomb/maps/custom-%00"):
        answer = client.get(address)
        assert answer.status_code == 422, (address, answer.status_code)
        assert "no control characters (U+0000" in answer.json()["error"]["message"]


def test_names_shown_to_others_carry_no_bidi_override(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Eve\u202eyrraH"},
                                                                        {"name": "\u202e", "bot": "greedy"}]}).json()
    assert [s["name"] for s in created["seats"]] == ["EveyrraH", "player 2"]
