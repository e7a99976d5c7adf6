"""Bots in one process only (issue 16): a game's bots move in the process that holds its
lease in the database (leases.py), renewed while that process lives, given back when it
stops, and taken over once it has expired when the process died; never two at once.

Two services on one PostgreSQL, each with its own engine and owner's name, stand for two
processes. SQLite serves one process, whose bots need no lease: PostgreSQL only."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future

import pytest
from sqlalchemy import func, select

from mummy.server.play.service import GameService
from mummy.server.store.db import make_engine
from mummy.server.store.models import ActionRow, BotLeaseRow
from tests.server.conftest import logged

TERM = 1.0  # seconds a lease lasts unrenewed, in these tests


@pytest.fixture
def pair(service: GameService, db_url: str) -> Iterator[tuple[GameService, GameService]]:
    if service.engine.dialect.name != "postgresql":
        pytest.skip("bots' leases are for a database shared by processes: PostgreSQL")
    services = tuple(GameService(make_engine(db_url), owner=name, lease_term=TERM) for name in ("one", "two"))
    for svc in services:
        svc.bots_later = True  # as in the app: a person's action leaves the bots to play_bots
    yield services  # type: ignore[misc]
    for svc in services:
        svc.close()
        svc.engine.dispose()


def bot_due(svc: GameService, *others: GameService) -> tuple[str, str]:
    """A Treasure game of Ann and a greedy bot, in memory in ``others`` too (loaded while
    no bot is due: a load plays the bots due), Ann's turn played through ``svc``: the bot's
    turn is due, and nobody holds its lease yet. (id, Ann's token)."""
    created = svc.create("treasure", [{"name": "Ann"}, {"name": "Sphinx", "bot": "greedy"}], {"first": 0}, seed=5)
    game_id, token = created["id"], created["seats"][0]["token"]
    for other in others:
        other.view(game_id)
    while not svc.bots_due(game_id):
        view = svc.view(game_id, token)
        svc.act(game_id, token, f"a{view['version']}", view["version"], view["legal"][-1])
    return game_id, token


def play_turn(svc: GameService, game_id: str, token: str) -> None:
    """Ann's turn through ``svc``, after the bot's moves made elsewhere (their notice, which
    the relay gives the app, is given here by hand), until the bot is due again."""
    svc.copies.hear(game_id, logged(svc, game_id))
    while not svc.bots_due(game_id):
        view = svc.view(game_id, token)
        svc.act(game_id, token, f"t{view['version']}", view["version"], view["legal"][-1])


def bot_entries(svc: GameService, game_id: str) -> int:
    with svc.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(ActionRow).where(
            ActionRow.game_id == game_id, ActionRow.client_id.like("bot:%"))).scalar_one())


def owner(svc: GameService, game_id: str) -> str | None:
    with svc.engine.connect() as conn:
        return conn.execute(select(BotLeaseRow.owner).where(BotLeaseRow.game_id == game_id)).scalar()


def test_bots_move_only_in_the_process_that_holds_the_lease(pair: tuple[GameService, GameService]) -> None:
    one, two = pair
    game_id, _ann = bot_due(one)
    assert one.play_bots(game_id).result(10) > 0  # one takes the lease, and its bot plays
    assert owner(one, game_id) == "one"
    # Ann plays her next turn through two: the bot is due there too, but not two's to play.
    play_turn(two, game_id, _ann)
    before = bot_entries(one, game_id)
    assert two.play_bots(game_id).result(10) == 0 and bot_entries(one, game_id) == before
    assert game_id in two.bots.waiting  # it asks again later (the holder may die)
    # The holder plays them, caught up with the log first.
    assert one.play_bots(game_id).result(10) > 0 and bot_entries(one, game_id) > before


def _ask(svc: GameService, game_id: str, barrier: threading.Barrier, moved: list[Future[int]]) -> None:
    barrier.wait()
    moved.append(svc.play_bots(game_id))


def test_two_processes_asked_at_once_play_the_bots_once(pair: tuple[GameService, GameService]) -> None:
    one, two = pair
    for _ in range(3):
        game_id, _ann = bot_due(one, two)  # a copy in both, the bot due in both
        start = logged(one, game_id)
        moved: list[Future[int]] = []
        barrier = threading.Barrier(2)
        threads = [threading.Thread(target=_ask, args=(svc, game_id, barrier, moved)) for svc in pair]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        counts = sorted(f.result(10) for f in moved)
        assert counts[0] == 0 and counts[1] > 0  # one process played, the other did not
        assert logged(one, game_id) == start + counts[1] == start + bot_entries(one, game_id)


def test_a_lease_is_renewed_while_its_process_lives_and_given_back_when_it_stops(
        pair: tuple[GameService, GameService]) -> None:
    one, two = pair
    game_id, _ann = bot_due(one)
    assert one.play_bots(game_id).result(10) > 0
    time.sleep(TERM * 2.5)  # renewed meanwhile: still one's
    assert two.bots.leases.take(game_id) is False and owner(one, game_id) == "one"
    one.close()  # a graceful stop gives it back: two takes over at once
    assert owner(one, game_id) is None
    assert two.bots.leases.take(game_id) is True and owner(two, game_id) == "two"


def test_the_bots_of_a_process_that_died_go_on_in_another_once_its_lease_expires(
        pair: tuple[GameService, GameService]) -> None:
    one, two = pair
    game_id, ann = bot_due(one)
    assert one.play_bots(game_id).result(10) > 0
    one.bots.leases.abandon()  # one dies: it renews nothing, gives nothing back
    play_turn(two, game_id, ann)
    assert two.play_bots(game_id).result(10) == 0  # not yet: the lease has not expired
    deadline = time.monotonic() + TERM * 3
    while not two.bots.overdue() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(TERM)  # the lease expires TERM after its last renewal
    assert two.play_bots(game_id).result(10) > 0 and owner(two, game_id) == "two"
    assert one.play_bots(game_id).result(10) == 0  # the dead one never plays again
