"""The daily challenge, once a player and day (issue 13): a second "play today's challenge"
resumes today's game; the day's board takes each player's first finished game and no
other; daily games stay off the all-time boards; "my games" labels them and lets go of
games nobody moved in; migration 0005 moves the games finished before it."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from mummy.games import KINDS
from mummy.server import clock
from mummy.server.play.service import NO_MOVE_LISTED, GameService
from mummy.server.store.db import migrate
from mummy.server.store.models import DailyEntryRow, GameRow
from tests.server.conftest import day_after


@pytest.fixture
def day(today: str) -> str:
    """The test's day (pinned by tests/server/conftest.py; the date sweep's, with --days)."""
    return today


def finish(service: GameService, created: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    """Play the game's only seat to its end (the ``pick``-th legal action each time)."""
    game_id, token = created["id"], created["seats"][0]["token"]
    view = service.view(game_id, token)
    while not view["over"]:
        legal = view["legal"]
        service.act(game_id, token, f"c{view['version']}", view["version"], legal[pick % len(legal)])
        view = service.view(game_id, token)
    return view


def ids(board: list[dict[str, Any]]) -> list[str]:
    return [r["id"] for r in board]


# -- 1. a second start resumes today's game -------------------------------------------------------


@pytest.mark.daily
def test_a_second_start_with_todays_token_resumes_todays_game(service: GameService, day: str) -> None:
    first = service.create_daily("tomb", "ann", "10.0.0.1")
    token = first["seats"][0]["token"]
    other = service.create("tomb", [{"name": "ann"}], {})["seats"][0]["token"]  # not a daily game
    again = service.create_daily("tomb", "ann", "10.0.0.1", [other, token])
    assert again["resumed"] is True and again["id"] == first["id"]
    assert again["seats"] == [{"seat": 0, "name": "ann", "bot": None, "token": token}]
    assert service.create_daily("treasure", "ann", "10.0.0.1", [token])["id"] != first["id"]  # per game
    tomorrow = day_after(day)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(clock, "today", lambda: tomorrow)
        assert "resumed" not in service.create_daily("tomb", "ann", "10.0.0.1", [token])  # a new day, a new game


@pytest.mark.daily
def test_the_daily_route_answers_200_when_it_resumes(client: TestClient, day: str) -> None:
    created = client.post("/api/daily/tomb", json={"name": "ann"})
    assert created.status_code == 201 and "resumed" not in created.json()
    token = created.json()["seats"][0]["token"]
    again = client.post("/api/daily/tomb", json={"name": "ann", "tokens": [token]})
    assert again.status_code == 200 and again.json()["id"] == created.json()["id"]
    assert again.json()["seats"][0]["invite"] == f"/play/{created.json()['id']}#token={token}"
    assert client.post("/api/daily/tomb", json={"name": "ann"}).json()["id"] != created.json()["id"]
    assert client.post("/api/daily/tomb", json={"tokens": ["x"] * 101}).status_code == 422


# -- 2. the day's board: each player's first finished game ----------------------------------------


@pytest.mark.daily
def test_the_days_board_keeps_each_players_first_finished_game(service: GameService, day: str) -> None:
    started_first = service.create_daily("tomb", "ann", "10.0.0.1")
    restarted = service.create_daily("tomb", " ANN ", "10.0.0.1")  # the same player: case and spaces aside
    housemate = service.create_daily("tomb", "bob", "10.0.0.1")  # the same address, another name
    namesake = service.create_daily("tomb", "ann", "10.9.9.9")  # the same name elsewhere
    finish(service, restarted, pick=-1)
    finish(service, started_first)  # finished second: not ann's entry, whatever its score
    for created in (housemate, namesake):
        finish(service, created)
    board = service.leaderboard("tomb", daily=day)
    assert sorted(ids(board)) == sorted([restarted["id"], housemate["id"], namesake["id"]])
    assert started_first["id"] not in ids(board)
    scores = [r["score"] for r in board]
    assert scores == sorted(scores, reverse=True)
    with service.engine.connect() as conn:
        entrants = conn.execute(select(DailyEntryRow.entrant)).scalars().all()
    assert len(entrants) == 3 and all(len(e) == 64 and "10.0.0.1" not in e for e in entrants)  # no address kept


@pytest.mark.daily
def test_daily_results_stay_off_the_all_time_boards(service: GameService, day: str) -> None:
    """Tomb: a daily game is on its day's board, never on the map's. Treasure (R4.3: a full
    site ranks): seeds are tried, in order, until one's game fills the site with the first legal action."""
    tomb = service.create_daily("tomb", "ann", "10.0.0.1")
    finish(service, tomb)
    assert ids(service.leaderboard("tomb", daily=day)) == [tomb["id"]]
    assert service.leaderboard("tomb") == [] and service.leaderboard("tomb", "map1") == []
    solo = service.create("tomb", [{"name": "ann"}], {})  # an ordinary solo game still counts
    finish(service, solo)
    assert ids(service.leaderboard("tomb", "map1")) == [solo["id"]]
    for n in range(1, 40):  # the day's seed chosen here (not the secret's): the same games every run
        when = day_after(day, n)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(clock, "today", lambda when=when: when)
            mp.setattr(service, "daily_seed", lambda _kind, _day, n=n: n)
            treasure = service.create_daily("treasure", "ann", "10.0.0.1")
            if finish(service, treasure)["result"]["reason"] == "full":
                assert ids(service.leaderboard("treasure", daily=when)) == [treasure["id"]]
                assert service.leaderboard("treasure") == [] and service.leaderboard("treasure", "oasis") == []
                return
    pytest.fail("no Treasure seed filled its site with the first legal action")


@pytest.mark.daily
def test_an_unranked_first_game_is_the_days_entry_all_the_same(service: GameService, day: str) -> None:
    """A first finished game that does not rank (for Treasure, a site not filled: R4.3)
    is still the day's entry: a second game may not try again for the board."""
    first = service.create_daily("tomb", "ann", "10.0.0.1")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(KINDS["tomb"], "rankable", lambda _result: False)
        finish(service, first)
    second = service.create_daily("tomb", "ann", "10.0.0.1")
    finish(service, second)
    assert service.leaderboard("tomb", daily=day) == []
    third = service.create_daily("tomb", "bob", "10.0.0.1")  # somebody else's first game ranks
    finish(service, third)
    assert ids(service.leaderboard("tomb", daily=day)) == [third["id"]]


# -- 3. my games: daily games labelled, games nobody moved in let go ------------------------------


@pytest.mark.daily
def test_my_games_labels_daily_games_and_lets_go_of_games_nobody_moved_in(
        service: GameService, day: str, monkeypatch: pytest.MonkeyPatch) -> None:
    start = datetime.fromisoformat(f"{day}T09:00")
    monkeypatch.setattr(clock, "now", lambda: start)
    daily = service.create_daily("tomb", "ann", "10.0.0.1")
    idle = service.create("tomb", [{"name": "ann"}], {})
    played = service.create("tomb", [{"name": "ann"}], {})
    view = service.view(played["id"], played["seats"][0]["token"])
    service.act(played["id"], played["seats"][0]["token"], "c1", 0, view["legal"][0])
    tokens = [c["seats"][0]["token"] for c in (daily, idle, played)]
    listed = {g["id"]: g for g in service.games_of(tokens)}
    assert set(listed) == {daily["id"], idle["id"], played["id"]}
    assert listed[daily["id"]]["daily"] == day and listed[idle["id"]]["daily"] is None
    monkeypatch.setattr(clock, "today", lambda: day_after(day))  # the day is over: its game cannot be played
    assert {g["id"] for g in service.games_of(tokens)} == {idle["id"], played["id"]}
    monkeypatch.setattr(clock, "now", lambda: start + NO_MOVE_LISTED + timedelta(minutes=1))
    assert [g["id"] for g in service.games_of(tokens)] == [played["id"]]  # a game with a move stays


# -- 4. migration 0005 --------------------------------------------------------------------------


def test_0005_moves_daily_games_finished_before_it_to_their_days_board(service: GameService, day: str) -> None:
    games = [service.create_daily("tomb", "ann", "10.0.0.1") for _ in range(2)]
    for created in games:
        finish(service, created)
    assert ids(service.leaderboard("tomb", daily=day)) == [games[0]["id"]]
    migrate(service.engine, "0004")  # as the games were before: both ranked everywhere
    with service.engine.connect() as conn:
        ranked = conn.execute(select(GameRow.id).where(GameRow.ranked.is_(True))).scalars().all()
    assert ranked == [games[0]["id"]]  # the downgrade ranks each entry's game again
    with service.engine.begin() as conn:  # a game finished before 0005 ranked as its own
        conn.execute(GameRow.__table__.update().where(GameRow.id == games[1]["id"]).values(ranked=True))
    migrate(service.engine)
    assert sorted(ids(service.leaderboard("tomb", daily=day))) == sorted(c["id"] for c in games)
    assert service.leaderboard("tomb") == []  # and off the all-time board
