"""HTTP routes: shapes, statuses, errors as JSON, and the OpenAPI schema."""

from __future__ import annotations

from fastapi.testclient import TestClient

from mummy.games import games


def make(client: TestClient, **body: object) -> dict:  # type: ignore[type-arg]
    r = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "me"}], "seed": 99, **body})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_create_view_act_and_invite(client: TestClient) -> None:
    created = make(client)
    game_id, token = created["id"], created["seats"][0]["token"]
    assert created["seats"][0]["invite"] == f"/play/{game_id}#token={token}"
    view = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
    assert view["you"] == 0 and "1:5a.r0@J1" in view["legal"]
    r = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                    json={"client_id": "a", "version": 0, "action": "1:5a.r0@J1"})
    assert r.status_code == 200 and r.json()["result"]["version"] == 1
    assert r.json()["state"]["state"]["sheets"][0]["tiles"][0]["shape"] == "5a"


def test_errors_are_json_with_the_rule_and_the_state(client: TestClient) -> None:
    created = make(client)
    game_id, token = created["id"], created["seats"][0]["token"]
    url = f"/api/games/{game_id}/actions"
    r = client.post(url, headers=auth(token), json={"client_id": "a", "version": 0, "action": "1:5a.r0@E5"})
    assert r.status_code == 422 and r.json()["error"]["rule"] == "T3.2" and r.json()["state"]["version"] == 0
    client.post(url, headers=auth(token), json={"client_id": "b", "version": 0, "action": "1:5a.r0@J1"})
    r = client.post(url, headers=auth(token), json={"client_id": "c", "version": 0, "action": "2:5b.r3@J4"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale" and r.json()["state"]["version"] == 1
    assert client.post(url, json={"client_id": "d", "version": 1, "action": "end"}).status_code == 401
    end = {"client_id": "d", "version": 1, "action": "end"}
    assert client.post(url, headers=auth("x"), json=end).status_code == 403
    assert client.get("/api/games/nope").status_code == 404
    assert client.get(f"/api/games/{game_id}/record").status_code == 409
    for bad in ({}, {"client_id": "", "version": 0, "action": "end"},
                {"client_id": "e", "version": -1, "action": "end"},
                {"client_id": "e", "version": 0, "action": "x" * 65}):
        assert client.post(url, headers=auth(token), json=bad).status_code == 422
    assert client.post("/api/games", json={"game": "chess", "seats": [{}]}).status_code == 422
    assert client.post("/api/games", json={"game": "tomb", "seats": [{"bot": "genius"}]}).status_code == 422


def test_my_games_and_health_and_openapi(client: TestClient) -> None:
    created = make(client)
    r = client.post("/api/my-games", json={"tokens": [created["seats"][0]["token"]]})
    assert [g["id"] for g in r.json()["games"]] == [created["id"]]
    assert client.get("/api/health").json()["ok"] is True
    schema = client.get("/openapi.json").json()
    assert {"/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions"} <= set(schema["paths"])
    # A seat's bot is any of the registry's (the description said random, greedy or strong).
    described = schema["components"]["schemas"]["SeatIn"]["properties"]["bot"]["description"]
    assert all(bot.name in described for game in games().values() for bot in game.bots)


def test_a_treasure_game_against_a_bot_to_the_end(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "treasure", "seats": [{"name": "me"}, {"bot": "greedy"}],
                                              "seed": 3}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    for _ in range(2000):
        view = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
        if view["over"]:
            break
        move = {"client_id": f"c{view['version']}", "version": view["version"], "action": view["legal"][0]}
        r = client.post(f"/api/games/{game_id}/actions", headers=auth(token), json=move)
        assert r.status_code == 200, r.text
    assert view["over"] and view["result"]["reason"] in ("full", "stuck")
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["seed"] == 3 and record["commitment"] == created["commitment"]
