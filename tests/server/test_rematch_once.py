"""A rematch is made once (contracts §3, ``GameService.rematch``): asked twice, or by two
players, it is one game; each caller gets only its own seat's token; a spectator starts
nothing and joins no seat; the old game's views name the rematch; and "my games" carries
each finished game's result for the asking seat (the results screen asks once)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from mummy.server.play.service import GameService
from mummy.server.store.models import GameRow
from tests.server.test_rematch import ask_rematch, play_to_finish


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _finished_pair(client: TestClient) -> tuple[str, list[str]]:
    """A finished Treasure game of two people and a bot: (id, the people's tokens)."""
    body = {"game": "treasure", "seats": [{"name": "Ann"}, {"name": "Sphinx", "bot": "greedy"}, {"name": "Bob"}],
            "sites": ["temple", "oasis", "valley"], "first": 1}
    old = client.post("/api/games", json=body).json()
    tokens = [old["seats"][0]["token"], old["seats"][2]["token"]]
    play_to_finish(client, old["id"], *tokens)
    return old["id"], tokens


def _games(service: GameService) -> int:
    with Session(service.engine) as s:
        return s.scalar(select(func.count()).select_from(GameRow)) or 0


@pytest.mark.slow
def test_two_calls_make_one_game_and_each_seat_gets_only_its_own_token(client: TestClient,
                                                                      service: GameService) -> None:
    old_id, (ann, bob) = _finished_pair(client)
    before = _games(service)
    first = ask_rematch(client, old_id, ann)
    assert first.status_code == 201 and first.json()["new"] is True
    again = ask_rematch(client, old_id, ann)  # a second click
    assert again.status_code == 200 and again.json()["new"] is False
    joined = ask_rematch(client, old_id, bob)  # the other player
    assert joined.status_code == 200
    assert _games(service) == before + 1  # one game, however often it is asked for
    made = first.json()
    assert again.json()["id"] == joined.json()["id"] == made["id"] and made["rematch_of"] == old_id
    assert again.json()["commitment"] == made["commitment"]
    # Ann's answers hold Ann's token only, the same each time; Bob's, Bob's only.
    tokens = [[s["token"] for s in r.json()["seats"]] for r in (first, again, joined)]
    assert tokens[0][1:] == [None, None] and tokens[0] == tokens[1] and tokens[0][0]
    assert tokens[2][0] is None and tokens[2][1] is None and tokens[2][2]
    assert [s.get("invite") for s in made["seats"]] == [f"/play/{made['id']}#token={tokens[0][0]}", None, None]
    # Each token is its own seat in the new game, where the bot stays a bot.
    for seat, token in ((0, tokens[0][0]), (2, tokens[2][2])):
        view = client.get(f"/api/games/{made['id']}", headers=_auth(token)).json()
        assert view["you"] == seat
        assert [(s["name"], s["bot"]) for s in view["seats"]] == [("Ann", None), ("Sphinx", "greedy"), ("Bob", None)]
    assert {tokens[0][0], tokens[2][2]}.isdisjoint({ann, bob})  # new tokens, not the old ones


def test_a_seat_token_leaks_to_no_other_seat(client: TestClient) -> None:
    old_id, (ann, bob) = _finished_pair(client)
    made = ask_rematch(client, old_id, bob).json()  # Bob starts it
    bob_new = made["seats"][2]["token"]
    # Bob's new token is no other seat: not Ann's, and it cannot act as her.
    assert [s["token"] is not None for s in made["seats"]] == [False, False, True]
    ann_new = ask_rematch(client, old_id, ann).json()["seats"][0]["token"]
    assert ann_new and ann_new != bob_new
    assert client.get(f"/api/games/{made['id']}", headers=_auth(bob_new)).json()["you"] == 2
    # Bob's new token does not get Ann's seat either, nor does the old game's by another seat.
    assert ask_rematch(client, made["id"], bob_new).status_code == 409  # the rematch is not over: nothing else


@pytest.mark.slow
def test_a_spectator_cannot_start_or_join_a_rematch(client: TestClient, service: GameService) -> None:
    old_id, (ann, _bob) = _finished_pair(client)
    before = _games(service)
    r = ask_rematch(client, old_id, None)
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    assert _games(service) == before  # nothing was started
    assert "rematch" not in client.get(f"/api/games/{old_id}").json()
    made = ask_rematch(client, old_id, ann).json()
    r = ask_rematch(client, old_id, None)  # once it exists, still no seat for a spectator
    assert r.status_code == 401 and "seats" not in r.json()
    other = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Max"}]}).json()
    r = ask_rematch(client, old_id, other["seats"][0]["token"])  # a seat of another game
    assert r.status_code == 403 and "seats" not in r.json()
    # A spectator sees that there is a rematch (to watch it), and no token.
    watched = client.get(f"/api/games/{old_id}").json()
    assert watched["rematch"] == made["id"] and watched["you"] is None


def test_the_old_games_views_name_the_rematch_and_its_sockets_are_told(client: TestClient) -> None:
    old_id, (ann, bob) = _finished_pair(client)
    with client.websocket_connect(f"/ws/games/{old_id}?token={bob}") as ws:
        state = ws.receive_json()
        assert state["type"] == "state" and "rematch" not in state["state"]
        made = ask_rematch(client, old_id, ann).json()
        update = ws.receive_json()  # Bob's page learns of it, at the same version
        assert update["type"] == "update" and update["state"]["rematch"] == made["id"]
        assert update["state"]["version"] == state["state"]["version"]
    assert client.get(f"/api/games/{old_id}", headers=_auth(bob)).json()["rematch"] == made["id"]


@pytest.mark.slow
def test_a_rematch_stands_when_the_game_is_loaded_again(client: TestClient, service: GameService) -> None:
    """The rematch's id is stored with the old game, not only in memory: a process that
    loads it afresh answers the same game."""
    old_id, (ann, bob) = _finished_pair(client)
    made = ask_rematch(client, old_id, ann).json()
    fresh = GameService(service.engine)  # another process on the same database
    try:
        again = fresh.rematch(old_id, bob)
        assert again["id"] == made["id"] and not again["new"]
        assert fresh.view(old_id, None)["rematch"] == made["id"]
    finally:
        fresh.close()


def test_concurrent_requests_make_one_rematch(service: GameService) -> None:
    """Two processes asking at once (two services on one database, each with the game in
    memory): the old game's row is claimed in the transaction that stores the rematch."""
    created = service.create("tomb", [{"name": "Ann"}, {"name": "Bob"}])
    tokens = [s["token"] for s in created["seats"]]
    with TestClient_for(service) as client:
        play_to_finish(client, created["id"], *tokens)
    others = [GameService(service.engine) for _ in range(2)]
    for svc in others:
        svc.view(created["id"])  # in memory, with no rematch yet
    answers: list[dict[str, Any]] = []
    barrier = threading.Barrier(2)

    def ask(svc: GameService, token: str) -> None:
        barrier.wait()
        answers.append(svc.rematch(created["id"], token))

    threads = [threading.Thread(target=ask, args=(svc, t)) for svc, t in zip(others, tokens, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for svc in others:
        svc.close()
    assert len({a["id"] for a in answers}) == 1 and sorted(a["new"] for a in answers) == [False, True]
    by_seat = {next(s["seat"] for s in a["seats"] if s["token"]): a for a in answers}
    assert set(by_seat) == {0, 1}
    for seat, answer in by_seat.items():
        token = answer["seats"][seat]["token"]
        assert service.view(answer["id"], token)["you"] == seat


def TestClient_for(service: GameService) -> TestClient:
    from mummy.server.app import create_app
    from tests.server.conftest import TEST_LIMITS

    return TestClient(create_app(service=service, limits=TEST_LIMITS))


@pytest.mark.slow
def test_my_games_carries_each_finished_games_result_for_the_asking_seat(client: TestClient) -> None:
    old_id, (ann, bob) = _finished_pair(client)
    solo = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Jane"}], "map": "map2"}).json()
    jane = solo["seats"][0]["token"]
    play_to_finish(client, solo["id"], jane)
    running = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Jane"}]}).json()
    held = client.post("/api/my-games", json={"tokens": [ann, bob, jane, running["seats"][0]["token"]]}).json()["games"]
    by = {(g["id"], g["seat"]): g for g in held}
    assert "result" not in by[(running["id"], 0)] and "place" not in by[(running["id"], 0)]
    # The solo Tomb game: its score and lines, place 1 of 1, on its map.
    tomb = client.get(f"/api/games/{solo['id']}", headers=_auth(jane)).json()["result"]
    mine = by[(solo["id"], 0)]
    assert (mine["players"], mine["place"], mine["where"]) == (1, 1, "map2")
    assert mine["result"] == {"scores": tomb["scores"][0], "places": 1, "lines": tomb["lines"][0],
                              "achievements": tomb["achievements"][0]}
    # Each seat of the Treasure game gets its own share (and no board place: not solo).
    result = client.get(f"/api/games/{old_id}", headers=_auth(ann)).json()["result"]
    for seat in (0, 2):
        got = by[(old_id, seat)]
        assert (got["players"], got["place"], got["where"]) == (3, result["places"][seat], None)
        assert got["result"] == {"squares": result["squares"][seat], "places": result["places"][seat],
                                 "turns": result["turns"][seat], "reason": result["reason"],
                                 "winner": result["winner"]}
