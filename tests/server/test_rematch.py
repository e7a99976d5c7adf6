"""A rematch (contracts §3): the same game, set-up and seats on a new secret seed, asked
by a seat of the finished game; refused while the game runs, without a seat, and for a
daily challenge; and limited like creating a game."""

from __future__ import annotations

from fastapi.testclient import TestClient
from httpx import Response

from mummy.server.admission.limits import Limits
from mummy.server.app import create_app
from mummy.server.play.service import GameService


def play_to_finish(client: TestClient, game_id: str, *tokens: str) -> None:
    """Play each seat's last legal action, whoever's turn it is, until the game ends
    (quick, and always legal); the bots play their own turns."""
    auths = [{"Authorization": f"Bearer {token}"} for token in tokens]
    for n in range(2000):
        views = [client.get(f"/api/games/{game_id}", headers=auth).json() for auth in auths]
        if views[0]["over"]:
            return
        seat, view = next((i, v) for i, v in enumerate(views) if v.get("legal"))
        body = {"client_id": f"s{seat}-{n}", "version": view["version"], "action": view["legal"][-1]}
        assert client.post(f"/api/games/{game_id}/actions", json=body, headers=auths[seat]).status_code == 200
    raise AssertionError("the game did not end")


def ask_rematch(client: TestClient, game_id: str, token: str | None) -> Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(f"/api/games/{game_id}/rematch", headers=headers)


def test_a_rematch_has_the_same_setup_and_seats_on_a_new_seed(client: TestClient, service: GameService) -> None:
    body = {"game": "treasure", "seats": [{"name": "Ann"}, {"name": "Sphinx", "bot": "greedy"}, {"name": "Bob"}],
            "sites": ["temple", "oasis", "oasis"], "first": 2, "movable": True, "seed": 77}
    old = client.post("/api/games", json=body).json()
    ann, bob = old["seats"][0]["token"], old["seats"][2]["token"]
    r = ask_rematch(client, old["id"], ann)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"  # not while it runs
    play_to_finish(client, old["id"], ann, bob)
    r = ask_rematch(client, old["id"], bob)  # any seat of the game may ask
    assert r.status_code == 201
    new = r.json()
    assert new["id"] != old["id"] and new["commitment"] != old["commitment"]
    assert [(s["seat"], s["name"], s["bot"]) for s in new["seats"]] == \
        [(0, "Ann", None), (1, "Sphinx", "greedy"), (2, "Bob", None)]
    # Bob's token only, with its invitation (each player asks for their own seat: Ann's
    # is hers, test_rematch_once.py); none for the bot.
    assert [bool(s["token"]) for s in new["seats"]] == [False, False, True]
    assert all(s["invite"] == f"/play/{new['id']}#token={s['token']}" for s in new["seats"] if s["token"])
    assert new["seats"][2]["token"] not in {ann, bob}
    ann_new = ask_rematch(client, old["id"], ann).json()["seats"][0]["token"]
    view = client.get(f"/api/games/{new['id']}", headers={"Authorization": f"Bearer {ann_new}"}).json()
    assert view["you"] == 0 and not view["over"] and view["version"] <= 3  # at most the bot's first moves
    # The same set-up, but a new secret seed: the chosen seed 77 is not carried over, so
    # the rematch is not marked as played on known dice.
    assert view["config"] == {"sites": ["temple", "oasis", "oasis"], "first": 2, "movable": True}
    row = service.repo.read_game(new["id"])
    assert row is not None and row[0].seed != 77


def test_a_tomb_rematch_keeps_map_and_mode(client: TestClient, service: GameService) -> None:
    old = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Jane"}], "map": "map2",
                                          "mode": "kids"}).json()
    token = old["seats"][0]["token"]
    play_to_finish(client, old["id"], token)
    new = ask_rematch(client, old["id"], token).json()
    assert [s["name"] for s in new["seats"]] == ["Jane"]
    view = client.get(f"/api/games/{new['id']}", headers={"Authorization": f"Bearer {new['seats'][0]['token']}"}).json()
    assert view["config"] == {"map": "map2", "mode": "kids"} and view["version"] == 0
    new_row, old_row = service.repo.read_game(new["id"]), service.repo.read_game(old["id"])
    assert new_row is not None and old_row is not None and new_row[0].seed != old_row[0].seed


def test_a_rematch_needs_a_seat_of_the_game(client: TestClient) -> None:
    old = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Jane"}]}).json()
    play_to_finish(client, old["id"], old["seats"][0]["token"])
    r = ask_rematch(client, old["id"], None)
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    other = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Max"}]}).json()
    r = ask_rematch(client, old["id"], other["seats"][0]["token"])  # another game's seat
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert ask_rematch(client, "no-such-game", old["seats"][0]["token"]).status_code == 404


def test_a_daily_challenge_has_no_rematch(client: TestClient, today: str) -> None:
    daily = client.post("/api/daily/tomb", json={"name": "ann"}).json()
    token = daily["seats"][0]["token"]
    play_to_finish(client, daily["id"], token)
    r = ask_rematch(client, daily["id"], token)
    error = r.json()["error"]
    assert r.status_code == 409 and error["code"] == "daily"
    assert "daily challenge has no rematch" in error["message"] and today in error["message"]


def test_rematches_are_rate_limited_like_new_games(service: GameService) -> None:
    limits = Limits(games_per_address="2/minute", actions_per_address="100000/second",
                    actions_overall="100000/second")
    client = TestClient(create_app(service=service, limits=limits), client=("10.0.0.9", 1))
    old = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Jane"}]}).json()
    token = old["seats"][0]["token"]
    play_to_finish(client, old["id"], token)
    assert ask_rematch(client, old["id"], token).status_code == 201
    r = ask_rematch(client, old["id"], token)  # the third request for a new game from this address this minute
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_requests"
