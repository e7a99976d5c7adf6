"""One order per game across processes (issue 16): two services on one database, each
with its own engine and its own copies of the games, stand for two server processes.

The database orders each game's log (an entry's key is its game and its place), never a
process's memory: two actions on the same version sent to both, one stands and the other
is refused as stale with the current state; the same client id sent to both is applied
once; a copy that is behind catches up from the log before it checks an action."""

from __future__ import annotations

import asyncio
import random
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete

from mummy.server.app import create_app
from mummy.server.deploy.process import EPHEMERAL, free_port
from mummy.server.play.service import GameService, ServiceError
from mummy.server.store.db import make_engine
from mummy.server.store.models import SecretRow
from tests.server.conftest import TEST_LIMITS, logged

FIVE_FIVE = 99  # map1 round 1 rolls 5 and 5


@pytest.fixture
def pair(service: GameService, db_url: str) -> Iterator[tuple[GameService, GameService]]:
    """Two "processes" on the test's database: two services, each on an engine of its own."""
    services = (GameService(make_engine(db_url), owner="one"), GameService(make_engine(db_url), owner="two"))
    yield services
    for svc in services:
        svc.close()
        svc.engine.dispose()


def race(*calls: Callable[[], dict[str, Any]]) -> list[dict[str, Any] | ServiceError]:
    """Run the calls at once, each in its own thread; their answers or refusals, in order."""
    out: list[dict[str, Any] | ServiceError] = [ServiceError(500, "unset", "")] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(i: int) -> None:
        barrier.wait()
        try:
            out[i] = calls[i]()
        except ServiceError as exc:
            out[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return out


def stored(service: GameService, game_id: str, token: str | None = None) -> dict[str, Any]:
    """The game as its log has it: viewed by a process that has just loaded it."""
    fresh = GameService(service.engine)
    try:
        return fresh.view(game_id, token)
    finally:
        fresh.close()


def treasure(svc: GameService) -> tuple[str, list[str]]:
    created = svc.create("treasure", [{"name": "Ann"}, {"name": "Bob"}], {}, seed=5)
    return created["id"], [s["token"] for s in created["seats"]]


@pytest.mark.parametrize("rounds", range(3))
def test_two_actions_on_one_version_in_two_processes_one_stands_one_is_stale(
        pair: tuple[GameService, GameService], service: GameService, rounds: int) -> None:
    a, b = pair
    game_id, (ann, _bob) = treasure(service)
    for svc in pair:  # both have the game in memory at version 0
        assert svc.view(game_id, ann)["version"] == 0
    legal = a.view(game_id, ann)["legal"]
    answers = race(lambda: a.act(game_id, ann, "tab-1", 0, legal[0]),
                   lambda: b.act(game_id, ann, "tab-2", 0, legal[-1]))
    applied = [x for x in answers if isinstance(x, dict)]
    refused = [x for x in answers if isinstance(x, ServiceError)]
    assert len(applied) == 1 and applied[0]["version"] == 1
    assert len(refused) == 1 and (refused[0].code, refused[0].version) == ("stale", 1)
    assert logged(service, game_id) == 1
    for svc in pair:  # each copy is the log's, whichever lost
        assert svc.view(game_id, ann)["state"] == stored(service, game_id)["state"]


def test_the_same_client_id_sent_to_two_processes_is_applied_once(
        pair: tuple[GameService, GameService], service: GameService) -> None:
    a, b = pair
    game_id, (ann, _bob) = treasure(service)
    for svc in pair:
        svc.view(game_id, ann)
    roll = a.view(game_id, ann)["legal"][0]
    answers = race(lambda: a.act(game_id, ann, "once", 0, roll), lambda: b.act(game_id, ann, "once", 0, roll))
    assert all(isinstance(x, dict) for x in answers)
    assert sorted(bool(x.get("repeated")) for x in answers if isinstance(x, dict)) == [False, True]
    assert {x["version"] for x in answers if isinstance(x, dict)} == {1}
    assert logged(service, game_id) == 1


def test_every_players_end_of_round_each_to_another_process_counts_once(
        pair: tuple[GameService, GameService], service: GameService) -> None:
    """The Tomb's players play their own sheets at once: the end of the round from each,
    sent at the same moment to different processes, both stand, in one order."""
    a, b = pair
    created = service.create("tomb", [{"name": "Ann"}, {"name": "Bob"}], {}, seed=FIVE_FIVE)
    game_id = created["id"]
    ann, bob = (s["token"] for s in created["seats"])
    for n, (svc, token) in enumerate(((a, ann), (b, bob))):  # each uses the dice in "their" process
        while "end" not in (view := svc.view(game_id, token))["legal"]:
            svc.act(game_id, token, f"use-{n}-{view['version']}", view["version"], view["legal"][0])
    version = logged(service, game_id)
    answers = race(lambda: a.act(game_id, ann, "end-a", version, "end"),
                   lambda: b.act(game_id, bob, "end-b", version, "end"))
    assert all(isinstance(x, dict) for x in answers)
    assert sorted(x["version"] for x in answers if isinstance(x, dict)) == [version + 1, version + 2]
    assert logged(service, game_id) == version + 2
    again = race(lambda: b.act(game_id, ann, "end-a", version, "end"),
                 lambda: a.act(game_id, bob, "end-b", version, "end"))
    assert all(isinstance(x, dict) and x["repeated"] for x in again)  # each id once, wherever it is sent
    views = [svc.view(game_id, ann) for svc in (a, b)] + [stored(service, game_id, ann)]
    assert [v["version"] for v in views] == [version + 2] * 3
    assert views[0]["state"] == views[1]["state"] == views[2]["state"]
    assert views[0]["state"]["round"] == 2


def test_a_copy_that_is_behind_catches_up_before_it_checks(
        pair: tuple[GameService, GameService], service: GameService) -> None:
    a, b = pair
    created = service.create("tomb", [{"name": "Ann"}, {"name": "Bob"}], {}, seed=FIVE_FIVE)
    game_id = created["id"]
    ann, bob = (s["token"] for s in created["seats"])
    b.view(game_id, bob)  # b's copy stays at version 0
    for n in range(3):
        view = a.view(game_id, ann)
        a.act(game_id, ann, f"a{n}", view["version"], view["legal"][0])
    # Bob acts in b on the version a showed him: b's copy learns the three entries first.
    shown = a.view(game_id, bob)
    result = b.act(game_id, bob, "b0", shown["version"], shown["legal"][0])
    assert result["version"] == 4
    # Ann, behind in b, is refused as stale there with the current version, as in a.
    with pytest.raises(ServiceError) as refused:
        b.act(game_id, ann, "a-old", 1, "undo")
    assert (refused.value.code, refused.value.version) == ("stale", 4)
    assert logged(service, game_id) == 4
    assert b.view(game_id, ann)["state"] == stored(service, game_id, ann)["state"]


def test_an_action_whose_place_another_process_took_is_checked_again_on_the_same_copy(
        pair: tuple[GameService, GameService], service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann's move is checked on a's copy, which has not heard of Bob's move in b: its write
    finds place 1 taken. The copy goes back to the game as it was before Ann's move (it is
    not rebuilt from the log), catches up, and her move stands at place 2. (On SQLite,
    which one process owns, a failed write drops the copy.)"""
    if service.engine.dialect.name != "postgresql":
        pytest.skip("several processes need PostgreSQL")
    a, b = pair
    created = service.create("tomb", [{"name": "Ann"}, {"name": "Bob"}], {}, seed=FIVE_FIVE)
    game_id = created["id"]
    ann, bob = (s["token"] for s in created["seats"])
    shown = a.view(game_id, ann)
    copy = a.copies.games[game_id]
    b.act(game_id, bob, "b0", 0, b.view(game_id, bob)["legal"][0])  # place 1, unheard of in a
    rebuilt: list[str] = []
    read_game = a.repo.read_game
    monkeypatch.setattr(a.repo, "read_game", lambda gid: rebuilt.append(gid) or read_game(gid))

    async def on_the_loop() -> dict[str, Any] | None:
        return await a.act_now(game_id, ann, "a0", 0, shown["legal"][0])

    assert asyncio.run(on_the_loop()) is None  # Lost: the place was taken; a thread checks it again
    assert a.copies.games[game_id] is copy and copy.version == 0 and a.copies.behind(copy)
    assert a.act(game_id, ann, "a0", 0, shown["legal"][0])["version"] == 2  # Bob's move affects only his sheet
    assert a.copies.games[game_id] is copy and rebuilt == []
    assert logged(service, game_id) == 2
    assert a.view(game_id, ann)["state"] == stored(service, game_id, ann)["state"]


def test_over_http_a_stale_action_sent_to_the_other_process_gets_the_current_state(
        pair: tuple[GameService, GameService], service: GameService) -> None:
    game_id, (ann, _bob) = treasure(service)
    auth = {"Authorization": f"Bearer {ann}"}
    with TestClient(create_app(service=pair[0], limits=TEST_LIMITS)) as one, \
            TestClient(create_app(service=pair[1], limits=TEST_LIMITS)) as two:
        start = two.get(f"/api/games/{game_id}", headers=auth).json()  # in memory in both
        assert one.get(f"/api/games/{game_id}", headers=auth).json()["version"] == start["version"] == 0
        first = one.post(f"/api/games/{game_id}/actions", headers=auth,
                         json={"client_id": "x1", "version": 0, "action": start["legal"][0]})
        assert first.status_code == 200
        late = two.post(f"/api/games/{game_id}/actions", headers=auth,
                        json={"client_id": "x2", "version": 0, "action": start["legal"][-1]})
        assert late.status_code == 409 and late.json()["error"]["code"] == "stale"
        assert late.json()["state"]["version"] == 1 == first.json()["state"]["version"]
        # The version the first process showed is current in the second one too.
        shown = first.json()["state"]
        moved = two.post(f"/api/games/{game_id}/actions", headers=auth,
                         json={"client_id": "x3", "version": shown["version"], "action": shown["legal"][0]})
        assert moved.status_code == 200 and moved.json()["result"]["version"] == 2
    assert logged(service, game_id) == 2


def test_two_processes_racing_to_make_the_daily_secret_agree(pair: tuple[GameService, GameService]) -> None:
    """The key of the daily seeds is made on first use: made by two processes at once, it
    is one key (the first stored), so both give the day the same dice."""
    with pair[0].engine.begin() as conn:  # not made yet (the tests' databases hold a known one)
        conn.execute(delete(SecretRow))
    answers = race(*(lambda svc=svc: {"seed": svc.daily_seed("tomb", "2026-01-02")} for svc in pair))
    assert all(isinstance(x, dict) for x in answers)
    assert len({x["seed"] for x in answers if isinstance(x, dict)}) == 1


def test_a_free_port_lies_below_the_ephemeral_range_and_is_drawn_at_random() -> None:
    """A port freed in the ephemeral range can be taken by an outgoing connection before the
    server binds it, and the tests' workers share the seed of ``random`` (pytest-randomly):
    a free port is drawn below the range, by a generator of its own (issue 31)."""
    path = Path(EPHEMERAL)
    low = int(path.read_text().split()[0]) if path.exists() else 32768
    random.seed(31)
    ports = [free_port() for _ in range(20)]
    random.seed(31)  # as another worker's would be
    assert [free_port() for _ in range(20)] != ports  # (the same twenty: a chance of 1 in 10^80)
    assert len(set(ports)) > 1 and all(port < low for port in ports)
    for port in ports:
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))  # free, as said
