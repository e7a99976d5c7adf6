"""How the service writes and where it works: moves on the event loop (``act_now``,
``views_now``), committed together at the loop's next turn, and their way out to a
thread when a game is busy; the writer thread's
group commits (used for databases across a network, forced here on SQLite too), a bad
action failing alone in a batch, and a move whose caller goes away mid-write."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from mummy.server.play.service import GameService, ServiceError
from mummy.server.store.db import make_engine
from mummy.server.store.writes import Write
from tests.server.conftest import logged

FIVE_FIVE = 99  # map1 round 1 rolls 5 and 5


def solo(service: GameService) -> tuple[str, str]:
    created = service.create("tomb", [{"name": "me"}], {}, seed=FIVE_FIVE)
    token = created["seats"][0]["token"]
    assert token is not None
    return created["id"], token


def test_a_move_on_the_loop_is_committed_before_it_is_answered(service: GameService) -> None:
    game_id, token = solo(service)
    view = service.view(game_id, token)
    result = asyncio.run(service.act_now(game_id, token, "c1", view["version"], view["legal"][0]))
    assert result is not None and result["version"] == 1
    assert logged(service, game_id) == 1
    views = service.views_now(game_id, [token, None])
    assert views is not None and [v["version"] for v in views] == [1, 1]
    assert "legal" in views[0] and "legal" not in views[1]
    again = asyncio.run(service.act_now(game_id, token, "c1", 0, view["legal"][0]))
    assert again == dict(result, repeated=True)  # applied once
    assert logged(service, game_id) == 1


def test_moves_made_on_the_loop_in_one_turn_share_one_commit(service: GameService, db_url: str) -> None:
    games = [solo(service) for _ in range(5)]
    writer = service.writer
    real, batches = writer.execute, []

    def counted(conn, batch):  # type: ignore[no-untyped-def]
        batches.append(len(batch))
        assert not any(w.done.done() for w in batch)  # nobody is answered before the commit
        real(conn, batch)

    writer.execute = counted

    async def everyone() -> list[dict[str, Any] | None]:
        moves = []
        for game_id, token in games:
            view = service.view(game_id, token)
            moves.append(service.act_now(game_id, token, "c1", view["version"], view["legal"][0]))
        return await asyncio.gather(*moves)

    try:
        results = asyncio.run(everyone())
    finally:
        writer.execute = real
    if service.engine.dialect.name == "sqlite":
        assert batches == [5]  # one commit (one disk sync) for the five
    else:  # across a network: the writer thread's group commits, as they come
        assert sum(batches) == 5
    assert [r["version"] for r in results if r is not None] == [1] * 5
    restarted = GameService(make_engine(db_url))
    for game_id, token in games:
        assert logged(service, game_id) == 1
        assert restarted.view(game_id, token)["state"] == service.view(game_id, token)["state"]
    service.close()


def test_the_loop_hands_a_busy_or_unloaded_game_to_a_thread(service: GameService, db_url: str) -> None:
    game_id, token = solo(service)
    view = service.view(game_id, token)
    live = service.cached(game_id)
    assert live is not None
    with live.lock:  # a bot thinking, or a move being written, in a thread
        assert asyncio.run(service.act_now(game_id, token, "c1", 0, view["legal"][0])) is None
        assert service.views_now(game_id, [token]) is None
    other = GameService(make_engine(db_url))  # nothing loaded yet: loading is not for the loop
    assert asyncio.run(other.act_now(game_id, token, "c1", 0, view["legal"][0])) is None
    assert other.views_now(game_id, [token]) is None
    assert logged(service, game_id) == 0


def test_refusals_on_the_loop_are_the_same_as_in_a_thread(service: GameService) -> None:
    game_id, token = solo(service)
    view = service.view(game_id, token)
    for args, code in (((None, "c1", 0, "end"), "unauthorized"), ((token, "c1", 0, "9:zz"), "illegal"),
                       ((token, "", 0, "end"), "bad_request"), ((token, "bot:1", 0, "end"), "bad_request")):
        with pytest.raises(ServiceError) as info:
            asyncio.run(service.act_now(game_id, *args))
        assert info.value.code == code
    assert service.view(game_id, token) == view  # nothing changed


def test_group_commits_write_every_move_of_many_games_once(service: GameService, db_url: str) -> None:
    service.inline = False  # the writer thread, as for PostgreSQL
    games = [solo(service) for _ in range(12)]

    def play(game: tuple[str, str]) -> list[dict[str, Any]]:
        game_id, token = game
        results = []
        for n in range(6):
            view = service.view(game_id, token)
            results.append(service.act(game_id, token, f"m{n}", view["version"], view["legal"][0]))
        return results

    with ThreadPoolExecutor(8) as pool:
        played = list(pool.map(play, games))
    assert all([r["version"] for r in results] == [1, 2, 3, 4, 5, 6] for results in played)
    restarted = GameService(make_engine(db_url))
    for game_id, token in games:
        assert logged(service, game_id) == 6
        assert restarted.view(game_id, token)["state"] == service.view(game_id, token)["state"]


def test_a_bad_write_fails_alone_in_its_batch(service: GameService) -> None:
    service.inline = False
    (first, token1), (second, token2) = solo(service), solo(service)
    writer = service.writer
    started, release = threading.Event(), threading.Event()
    real = writer.execute
    sizes = []

    def held(conn, batch):  # type: ignore[no-untyped-def]
        sizes.append(len(batch))
        started.set()
        release.wait(5)
        real(conn, batch)

    writer.execute = held
    try:
        with ThreadPoolExecutor(3) as pool:
            v1 = service.view(first, token1)
            blocker = pool.submit(service.act, first, token1, "a", 0, v1["legal"][0])
            assert started.wait(5)  # the thread is busy: the next two queue up as one batch
            v2 = service.view(second, token2)
            good = pool.submit(service.act, second, token2, "b", 0, v2["legal"][0])
            # A row that cannot be written (its place in the log is taken), in the same batch.
            live = service.cached(second)
            assert live is not None
            deadline = time.monotonic() + 5
            while not writer.queued and time.monotonic() < deadline:
                time.sleep(0.001)
            bad_row = {"game_id": first, "seq": 1, "seat": 0, "text": "end", "affects": 0, "client_id": "x",
                       "result": "{}", "created": live.row.created}
            bad = Write(bad_row, {"b_id": first, "b_version": 1, "b_over": False})
            writer.submit(bad)
            release.set()
            assert blocker.result(5)["version"] == 1
            assert good.result(5)["version"] == 1
        with pytest.raises(IntegrityError):
            bad.done.result(5)
        assert sizes[:2] == [1, 2]  # the good and the bad were one batch, then each alone
    finally:
        writer.execute = real
    assert logged(service, first) == 1 and logged(service, second) == 1


def test_a_move_whose_caller_goes_away_mid_write_still_counts(service: GameService) -> None:
    service.inline = False
    game_id, token = solo(service)
    writer = service.writer
    started, release = threading.Event(), threading.Event()
    real = writer.execute

    def held(conn, batch):  # type: ignore[no-untyped-def]
        started.set()
        release.wait(5)
        real(conn, batch)

    writer.execute = held
    view = service.view(game_id, token)
    live = service.cached(game_id)
    assert live is not None

    async def go_away() -> None:
        task = asyncio.create_task(service.act_now(game_id, token, "c1", 0, view["legal"][0]))
        while not started.is_set():
            await asyncio.sleep(0.001)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        asyncio.run(go_away())
        assert live.lock.locked()  # nobody may read the game before its move is written
        release.set()
        deadline = time.monotonic() + 5
        while live.lock.locked() and time.monotonic() < deadline:
            time.sleep(0.005)
    finally:
        writer.execute = real
        release.set()
    assert service.view(game_id, token)["version"] == 1
    assert logged(service, game_id) == 1
    assert service.act(game_id, token, "c1", 0, view["legal"][0])["repeated"] is True
