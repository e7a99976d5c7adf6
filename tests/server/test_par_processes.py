"""Coaching's marks across processes (issue 16 with issue 14): par, and the mark of hints,
are stored in a game's row by whichever process worked them out. Another process that
has the game in memory reads them again when told (the notice the store sends, as a
rematch claimed does), and a page that asks it for par when its copy has none gets the
stored one, which its views carry from then on.

Two servers on one PostgreSQL, each with its own service and engine, in threads of this
process (as test_relay.py); the analysis runs at the "quick" effort, at normal priority.
The last test is of one process: what a page is told while a par job stores its par."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from mummy.server.app import create_app
from mummy.server.play.marks import with_marks
from mummy.server.play.service import GameService
from mummy.server.store.models import GameRow
from tests.server.conftest import TEST_LIMITS, two_processes
from tests.server.players import Seat, get, post

SEED = 4242
PAR_WAIT = 180.0  # seconds a quick par may take on a busy machine


@pytest.fixture
def servers(service: GameService, db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    monkeypatch.setenv("MUMMY_ANALYSIS", "quick")
    monkeypatch.setenv("MUMMY_ANALYSIS_NICE", "0")
    with two_processes(service, db_url) as (one, two, _apps):
        yield one, two


def solo(address: str, seed: int | None = SEED) -> tuple[str, str]:
    body: dict[str, Any] = {"game": "tomb", "seats": [{"name": "Ann"}], **({"seed": seed} if seed is not None else {})}
    created = post(f"http://{address}/api/games", body)
    return created["id"], created["seats"][0]["token"]


def finish_through(address: str, game_id: str, token: str, watcher: Seat | None = None) -> dict[str, Any]:
    """Play the game to its end over HTTP through ``address`` (the page's first legal
    move each time); the last view. A watcher elsewhere is waited for at each move."""
    view = get(f"http://{address}/api/games/{game_id}", token)
    n = 0
    while not view["over"]:
        answer = post(f"http://{address}/api/games/{game_id}/actions",
                      {"client_id": f"m{n}", "version": view["version"], "action": view["legal"][0]}, token)
        view, n = answer["state"], n + 1
        if watcher is not None:
            watcher.wait_version(view["version"])
    return view


def until(seat: Seat, has: str, seconds: float) -> dict[str, Any]:
    """Read the seat's messages until its state has the key ``has``; that state."""
    deadline = time.monotonic() + seconds
    while has not in seat.state:
        assert time.monotonic() < deadline, f"no {has!r} came in {seconds} s"
        seat.read(max(0.01, deadline - time.monotonic()))
    return seat.state


@pytest.mark.slow
def test_par_worked_out_in_one_process_comes_to_a_page_on_the_other(servers: tuple[str, str]) -> None:
    """The person plays through one (which works out par when the game ends) and watches
    through two, which had the game in memory before par was stored: two's page is sent
    the view again, with par, and two's views carry it."""
    one, two = servers
    game_id, token = solo(one)
    page = Seat(two, game_id, token)
    try:
        final = finish_through(one, game_id, token, page)
        assert "par" not in final and "par" not in page.state
        pushed = until(page, "par", PAR_WAIT)["par"]
        assert pushed == get(f"http://{one}/api/games/{game_id}")["par"]
        assert get(f"http://{two}/api/games/{game_id}")["par"] == pushed  # the copy in two has it now
        assert get(f"http://{two}/api/games/{game_id}/par") == {"status": "done", "par": pushed}
    finally:
        page.close()


def test_a_page_that_asks_for_par_gets_the_stored_one_and_the_copy_keeps_it(
        servers: tuple[str, str], service: GameService) -> None:
    """Par stored where no notice went out (as when two's listening broke meanwhile): a
    page asking two for it gets it, and two's views, and its pages, carry it from then on."""
    one, two = servers
    game_id, token = solo(one, SEED + 1)
    page = Seat(two, game_id, token)
    try:
        finish_through(two, game_id, token)
        page.wait_version(get(f"http://{two}/api/games/{game_id}")["version"])
        par = {"par": 40, "score": 42, "result": 2, "better": "higher", "unit": "points", "bot": "expert",
               "effort": "quick"}
        with service.engine.begin() as conn:  # written behind the processes' backs: no notice
            old = conn.execute(sa.select(GameRow.result).where(GameRow.id == game_id)).scalar()
            conn.execute(sa.update(GameRow).where(GameRow.id == game_id).values(result=with_marks(old, par=par)))
        assert "par" not in get(f"http://{two}/api/games/{game_id}")  # the copy in two does not know
        assert get(f"http://{two}/api/games/{game_id}/par") == {"status": "done", "par": par}
        assert get(f"http://{two}/api/games/{game_id}")["par"] == par
        assert until(page, "par", 10)["par"] == par
    finally:
        page.close()


@pytest.mark.slow
def test_a_hint_given_in_one_process_marks_the_copy_in_the_other(
        servers: tuple[str, str], service: GameService) -> None:
    """A hint asked through one marks the game (never ranked); the player goes on through
    two, whose copy learns of the mark: the game it ends is not ranked, and its stored
    result counts the hint."""
    one, two = servers
    game_id, token = solo(one, seed=None)  # secret dice: it would rank
    page = Seat(two, game_id, token)
    try:
        hint = post(f"http://{one}/api/games/{game_id}/hint", {"practice": True}, token)
        assert hint["hints"] == 1
        deadline = time.monotonic() + 10
        while get(f"http://{two}/api/games/{game_id}", token)["config"].get("hints") != 1:
            assert time.monotonic() < deadline, "two's copy never learnt of the hint"
            time.sleep(0.02)
        final = finish_through(two, game_id, token)
        assert final["config"]["hints"] == 1
        with service.engine.connect() as conn:
            ranked, result = conn.execute(sa.select(GameRow.ranked, GameRow.result).where(GameRow.id == game_id)).one()
        assert ranked is False
        deadline = time.monotonic() + 10
        while not json.loads(result).get("hints"):  # marked after the end, in a thread of two
            assert time.monotonic() < deadline, result
            time.sleep(0.05)
            with service.engine.connect() as conn:
                result = conn.execute(sa.select(GameRow.result).where(GameRow.id == game_id)).scalar()
        assert json.loads(result)["hints"] == 1
    finally:
        page.close()


@pytest.mark.slow
def test_par_is_running_while_its_job_stores_it_and_never_done_without_it(service: GameService,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Between the end of a par job and its par stored (in the lane's thread), a page that
    asks is told ``running``: not ``done`` without a par, nor ``none`` (the page would stop
    asking). (One process; any database.)"""
    monkeypatch.setenv("MUMMY_ANALYSIS", "quick")
    monkeypatch.setenv("MUMMY_ANALYSIS_NICE", "0")
    with TestClient(create_app(service=service, limits=TEST_LIMITS)) as c:
        coach = c.app.state.coach  # type: ignore[attr-defined]
        storing, stored = threading.Event(), threading.Event()
        update = coach.store.update_result

        def slow_update(game_id: str, change: Any) -> str | None:
            storing.set()  # the job has ended: its par is about to be stored
            assert stored.wait(60)
            return update(game_id, change)  # type: ignore[no-any-return]

        monkeypatch.setattr(coach.store, "update_result", slow_update)
        submitted: list[Any] = []
        submit = coach.pars.submit
        monkeypatch.setattr(coach.pars, "submit", lambda *args, **kw: submitted.append(args) or submit(*args, **kw))
        created = c.post("/api/games", json={"game": "tomb", "seats": [{"name": "Ann"}], "seed": SEED}).json()
        game_id, bearer = created["id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        view = c.get(f"/api/games/{game_id}", headers=bearer).json()
        while not view["over"]:
            move = {"client_id": f"m{view['version']}", "version": view["version"], "action": view["legal"][0]}
            view = c.post(f"/api/games/{game_id}/actions", headers=bearer, json=move).json()["state"]
        assert storing.wait(PAR_WAIT)
        for _ in range(3):  # as a page polls
            answer = c.get(f"/api/games/{game_id}/par").json()
            assert answer["status"] == "running", answer
        stored.set()
        deadline = time.monotonic() + 10
        while (answer := c.get(f"/api/games/{game_id}/par").json())["status"] != "done":
            assert answer["status"] == "running" and time.monotonic() < deadline, answer
            time.sleep(0.02)
        assert answer["par"]["effort"] == "quick"
        assert c.post(f"/api/games/{game_id}/par").json() == answer
        assert len(submitted) == 1  # one bot game on these dice
