"""Finished games: replays step by step, leaderboards, and the daily challenge."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from mummy.server import clock
from mummy.server.play.service import GameService, ServiceError
from tests.server.conftest import day_after


def finish(service: GameService, game_id: str, token: str, pick: int = 0) -> None:
    while not service.view(game_id, token)["over"]:
        view = service.view(game_id, token)
        legal = view["legal"]
        service.act(game_id, token, f"c{view['version']}", view["version"], legal[pick % len(legal)])


def solo(service: GameService, kind: str, seed: int, **config: object) -> tuple[str, str]:
    created = service.create(kind, [{"name": f"n{seed}"}], dict(config), seed=seed)
    return created["id"], created["seats"][0]["token"]


def test_replay_step_by_step_once_over(service: GameService) -> None:
    game_id, token = solo(service, "treasure", 4)
    with pytest.raises(ServiceError):
        service.replay(game_id, 0)  # not before the end
    finish(service, game_id, token)
    total = service.view(game_id)["version"]
    start = service.replay(game_id, 0)
    assert start["action"] is None and start["steps"] == total and start["state"]["rolls"] == 0
    one = service.replay(game_id, 1)
    assert one["action"] == {"seat": 0, "action": "roll"} and one["state"]["rolls"] == 1
    assert service.replay(game_id, total)["state"]["over"] is True
    with pytest.raises(ServiceError):
        service.replay(game_id, total + 1)


def test_leaderboards_rank_solo_games_of_people_on_secret_seeds(service: GameService) -> None:
    full = 0
    for i in range(4):
        created = service.create("treasure", [{"name": f"n{i}"}], {})
        finish(service, created["id"], created["seats"][0]["token"])
        full += service.view(created["id"])["result"]["reason"] == "full"  # R4.3: turns count when full
    board = service.leaderboard("treasure", "oasis")
    turns = [r["turns"] for r in board]
    assert len(board) == full and turns == sorted(turns) and all(r["site"] == "oasis" for r in board)
    tomb_game = service.create("tomb", [{"name": "t"}], {})
    finish(service, tomb_game["id"], tomb_game["seats"][0]["token"])
    assert [r["id"] for r in service.leaderboard("tomb", "map1")] == [tomb_game["id"]]
    finish(service, *solo(service, "tomb", 1))  # a chosen seed: known dice, no record
    assert len(service.leaderboard("tomb", "map1")) == 1
    assert service.leaderboard("treasure", "temple") == []
    two = service.create("treasure", [{"name": "a"}, {"name": "b"}], {}, seed=9)
    assert all(r["id"] != two["id"] for r in service.leaderboard("treasure"))  # solo only


@pytest.mark.daily
def test_daily_challenge_same_dice_for_all_and_secret_until_the_day_ends(
        service: GameService, today: str, monkeypatch: pytest.MonkeyPatch) -> None:
    a = service.create_daily("tomb", "ann")
    b = service.create_daily("tomb", "bob")
    va, vb = service.view(a["id"], a["seats"][0]["token"]), service.view(b["id"], b["seats"][0]["token"])
    assert va["state"]["dice"] == vb["state"]["dice"] and va["daily"] == today
    assert a["commitment"] != b["commitment"]  # each game its own nonce
    finish(service, a["id"], a["seats"][0]["token"], pick=-1)
    assert "reveal" not in service.view(a["id"], a["seats"][0]["token"])
    with pytest.raises(ServiceError, match="seen only by its player"):  # nor watched by others
        service.view(a["id"])
    with pytest.raises(ServiceError, match="until the day is over"):
        service.record(a["id"])
    assert [r["name"] for r in service.leaderboard("tomb", daily=today)] == ["ann"]
    monkeypatch.setattr(clock, "today", lambda: day_after(today))
    assert service.view(a["id"])["reveal"]["seed"] == service.daily_seed("tomb", today)
    assert service.daily_seed("tomb", day_after(today)) != service.daily_seed("tomb", today)


@pytest.mark.daily
def test_routes(client: TestClient, today: str) -> None:
    created = client.post("/api/daily/treasure", json={"name": "me"})
    assert created.status_code == 201 and created.json()["seats"][0]["invite"].startswith("/play/")
    board = client.get("/api/daily/treasure").json()
    assert board["leaderboard"] == [] and board["day"] == today
    assert client.get("/api/leaderboards/tomb?where=map1").json()["leaderboard"] == []
    assert client.get(f"/api/games/{created.json()['id']}/replay?step=0").status_code == 409
    assert client.get("/api/leaderboards/chess").status_code == 422


@pytest.mark.daily
def test_finished_and_expired_games_take_no_more_actions(service: GameService, today: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, token = solo(service, "treasure", 4)
    finish(service, game_id, token)
    version = service.view(game_id)["version"]
    for text in ("undo", "roll"):
        with pytest.raises(ServiceError) as info:
            service.act(game_id, token, f"late-{text}", version, text)
        assert info.value.code == "over"
    daily = service.create_daily("tomb", "ann")
    monkeypatch.setattr(clock, "today", lambda: day_after(today))
    with pytest.raises(ServiceError, match="has ended"):
        service.act(daily["id"], daily["seats"][0]["token"], "x", service.view(daily["id"])["version"], "1:5a.r0@J1")


def test_online_treasure_takes_and_passes_stand(service: GameService) -> None:
    game_id, token = solo(service, "treasure", 4)
    while True:  # play until a tile is taken
        v = service.view(game_id, token)
        takes = [a for a in v["legal"] if a.startswith("take:")]
        service.act(game_id, token, f"c{v['version']}", v["version"], (takes or v["legal"])[0])
        if takes:
            break
    with pytest.raises(ServiceError) as info:
        service.act(game_id, token, "u", v["version"] + 1, "undo")
    assert info.value.rule == "undo"  # it would show the pile's next tile, then take it back
