"""A board's ``finished`` is when the game finished (issue 16's carry-over): the time of
the move that ended it, not when the game was created, nor when a server last loaded it
(a restart, or another process, rebuilds a game from its log on its next use).

Every board is checked: the all-time board, a day's board (its entries, one a player),
and the day's board by par (the coach's), over HTTP as a page reads them.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from mummy.server import clock
from mummy.server.app import create_app
from mummy.server.play.service import GameService
from mummy.server.store.db import make_engine
from mummy.server.store.models import ActionRow
from tests.server.conftest import TEST_LIMITS

pytestmark = pytest.mark.daily


class Clock:
    """The server's clock from 9:00 of ``day``, a second on at each reading (rows stamped
    in order)."""

    def __init__(self, day: str) -> None:
        self.now = datetime.fromisoformat(f"{day}T09:00")

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def _half_then_restart_then_end(db_url: str, service: GameService, created: dict[str, Any],
                                tick: Clock) -> tuple[GameService, datetime, datetime]:
    """Play half the game, let a new server (on the same database) load it an hour later,
    and finish it there another hour later. (that server, when it was loaded, when it
    was created)"""
    game_id, token = created["id"], created["seats"][0]["token"]
    made = tick.now
    for _ in range(6):
        view = service.view(game_id, token)
        service.act(game_id, token, f"a{view['version']}", view["version"], view["legal"][0])
    tick.now += timedelta(hours=1)
    reborn = GameService(make_engine(db_url))
    assert not reborn.view(game_id, token)["over"]  # loaded here, from the log
    loaded = tick.now
    tick.now += timedelta(hours=1)
    while not (view := reborn.view(game_id, token))["over"]:
        reborn.act(game_id, token, f"b{view['version']}", view["version"], view["legal"][0])
    return reborn, loaded, made


def _ended(service: GameService, game_id: str) -> datetime:
    """When the move that ended the game was stored."""
    with service.engine.connect() as conn:
        return conn.execute(select(ActionRow.created).where(ActionRow.game_id == game_id)
                            .order_by(ActionRow.seq.desc()).limit(1)).scalar_one()


def test_every_board_shows_when_the_game_finished(service: GameService, db_url: str, today: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    tick = Clock(today)
    monkeypatch.setattr(clock, "now", tick)
    solo = service.create("tomb", [{"name": "Ann"}], {})  # a secret seed: on the all-time board
    daily = service.create_daily("tomb", "Bob")
    servers = []
    for created in (solo, daily):
        reborn, loaded, made = _half_then_restart_then_end(db_url, service, created, tick)
        servers.append(reborn)
        ended = _ended(reborn, created["id"])
        assert ended > loaded > made  # three different times: the board must show the last
    tomb_board = servers[-1].leaderboard("tomb", "map1")
    day_board = servers[-1].leaderboard("tomb", daily=today)
    assert [r["id"] for r in tomb_board] == [solo["id"]] and [r["id"] for r in day_board] == [daily["id"]]
    assert tomb_board[0]["finished"] == _ended(service, solo["id"]).isoformat()
    assert day_board[0]["finished"] == _ended(service, daily["id"]).isoformat()

    # Over HTTP, from yet another server: the boards a page reads, and the day's board by par.
    with TestClient(create_app(service=GameService(make_engine(db_url)), limits=TEST_LIMITS)) as client:
        pages = {
            "all-time": client.get("/api/leaderboards/tomb?where=map1").json()["leaderboard"],
            "day": client.get(f"/api/daily/tomb?day={today}").json()["leaderboard"],
            "par": client.get(f"/api/daily/tomb/par?day={today}").json()["leaderboard"],
        }
    assert pages["all-time"][0]["finished"] == tomb_board[0]["finished"]
    assert pages["day"][0]["finished"] == pages["par"][0]["finished"] == day_board[0]["finished"]
    for reborn in servers:
        reborn.close()
        reborn.engine.dispose()
