"""Coaching online (issue 14; docs/analysis.md §6): par computed after a solo game ends,
stored with its result and pushed to its view; a review of a finished game, gated like a
replay, with the replay's steps; hints refused in ranked, daily and multi-seat games, and
a hinted game marked and never ranked. The analysis runs at the "quick" effort here (the
tests' small searches) in the lanes' child processes, at normal priority."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from mummy.bots.registry import make_agent
from mummy.games import KINDS
from mummy.server import clock
from mummy.server.admission.limits import Limits
from mummy.server.app import create_app
from mummy.server.coaching import coaching
from mummy.server.coaching.coach_jobs import JOBS, analysis
from mummy.server.coaching.coaching import against, history_steps
from mummy.server.coaching.lanes import Lane
from mummy.server.play.service import GameService
from mummy.server.store.models import GameRow
from tests.server.conftest import DAY, TEST_LIMITS, day_after

SEED = 4242
TOMB = {"map": "map1", "mode": "standard"}


@pytest.fixture
def coached(service: GameService, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("MUMMY_ANALYSIS", "quick")
    monkeypatch.setenv("MUMMY_ANALYSIS_NICE", "0")
    with TestClient(create_app(service=service, limits=TEST_LIMITS)) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def finish(c: TestClient, game_id: str, token: str, kind: str, config: dict[str, Any], seed: int,
           undo_every: int = 0) -> dict[str, Any]:
    """Play a solo game to its end over HTTP, each move the greedy bot's on a mirror of the
    game (every ``undo_every``-th move taken back and made again, where it can be); the
    last view."""
    game_kind = KINDS[kind]
    mirror = game_kind.new(seed, config, ["Ann"])
    bot = make_agent(kind, "greedy", 7)
    version = c.get(f"/api/games/{game_id}", headers=bearer(token)).json()["version"]

    def send(text: str) -> None:
        nonlocal version
        game_kind.apply(mirror, 0, text)
        answer = c.post(f"/api/games/{game_id}/actions", headers=bearer(token),
                        json={"client_id": f"c{version}", "version": version, "action": text})
        assert answer.status_code == 200, answer.json()
        version = answer.json()["state"]["version"]

    n = 0
    while not game_kind.is_over(mirror):
        text = game_kind.text(mirror, 0, bot.act(mirror, 0))
        send(text)
        n += 1
        if undo_every and n % undo_every == 0 and game_kind.can_undo(mirror, 0):
            send("undo")
            send(text)
    view: dict[str, Any] = c.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    assert view["over"]
    return view


def waited(c: TestClient, path: str, seconds: float = 180) -> dict[str, Any]:
    """GET ``path`` until its ``status`` is done. Par is queued from a background task once
    the game has ended, so for a moment after the end it may not be asked for yet
    (``none``)."""
    started = time.monotonic()
    deadline = started + seconds
    while time.monotonic() < deadline:
        answer: dict[str, Any] = c.get(path).json()
        if answer.get("status") == "done":
            return answer
        queued_soon = answer.get("status") == "none" and time.monotonic() < started + 15
        assert queued_soon or answer.get("status") in ("queued", "running"), answer
        time.sleep(0.2)
    raise AssertionError(f"{path} did not finish")


def solo(c: TestClient, kind: str, seed: int | None = SEED, **config: Any) -> tuple[str, str]:
    body: dict[str, Any] = {"game": kind, "seats": [{"name": "Ann"}], **config}
    if seed is not None:
        body["seed"] = seed
    created = c.post("/api/games", json=body).json()
    return created["id"], created["seats"][0]["token"]


@pytest.mark.slow
def test_par_is_computed_when_a_solo_game_ends_stored_and_reproducible(coached: TestClient,
                                                                      service: GameService) -> None:
    game_id, token = solo(coached, "tomb")
    with coached.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
        ws.receive_json()
        view = finish(coached, game_id, token, "tomb", TOMB, SEED)
        assert "par" not in view  # being computed: the view has none yet
        par = waited(coached, f"/api/games/{game_id}/par")["par"]
        pushed = None
        for _ in range(500):  # the game's pages are sent the view again, with par
            message = ws.receive_json()
            if message["type"] == "update" and "par" in message["state"]:
                pushed = message["state"]["par"]
                break
        assert pushed == par
    record = coached.get(f"/api/games/{game_id}/record").json()
    again = analysis(KINDS["tomb"], "quick").par(record, 0)  # the same record, the same par: no luck in it
    assert par["par"] == again["par"] and par["score"] == again["score"] == view["result"]["scores"][0]
    assert par["result"] == again["result"] == par["score"] - par["par"]
    assert (par["better"], par["unit"], par["bot"], par["effort"]) == ("higher", "points", "expert", "quick")
    assert coached.get(f"/api/games/{game_id}").json()["par"] == par  # in the view from now on
    held = coached.post("/api/my-games", json={"tokens": [token]}).json()["games"][0]
    assert held["result"]["par"] == par  # "my games" reads the stored result
    fresh = GameService(service.engine)  # a new process reads it back from the database
    assert fresh.view(game_id, token)["par"] == par


@pytest.mark.slow
def test_the_same_dice_get_their_par_once(coached: TestClient) -> None:
    first, token = solo(coached, "tomb", seed=SEED + 1)
    finish(coached, first, token, "tomb", TOMB, SEED + 1)
    par = waited(coached, f"/api/games/{first}/par")["par"]
    coach = coached.app.state.coach  # type: ignore[attr-defined]
    ran: list[Any] = []
    coach.pars.submit = lambda *args, **kw: ran.append(args)  # a second bot game would show here
    second, token2 = solo(coached, "tomb", seed=SEED + 1)
    view = finish(coached, second, token2, "tomb", TOMB, SEED + 1)
    got = waited(coached, f"/api/games/{second}/par")["par"]
    assert not ran and got["par"] == par["par"]
    assert got["result"] == view["result"]["scores"][0] - par["par"]


def test_treasure_par_is_in_turns(coached: TestClient) -> None:
    config = {"sites": ["oasis"], "first": 0, "movable": False}
    game_id, token = solo(coached, "treasure", sites=["oasis"])
    view = finish(coached, game_id, token, "treasure", config, SEED)
    par = waited(coached, f"/api/games/{game_id}/par")["par"]
    again = analysis(KINDS["treasure"], "quick").par(coached.get(f"/api/games/{game_id}/record").json(), 0)
    assert par["par"] == again["par"] and par["unit"] == "turns" and par["better"] == "lower"
    assert par["score"] == view["result"]["turns"][0] and par["result"] == par["par"] - par["score"]


def test_par_is_for_finished_games(coached: TestClient) -> None:
    game_id, _ = solo(coached, "tomb")
    refused = coached.post(f"/api/games/{game_id}/par")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_over"


def test_a_full_par_queue_refuses_politely(coached: TestClient) -> None:
    coach = coached.app.state.coach  # type: ignore[attr-defined]
    coach.pars.submit = lambda *args, **kw: None  # the queue is full
    game_id, token = solo(coached, "tomb", seed=SEED + 2)
    view = finish(coached, game_id, token, "tomb", TOMB, SEED + 2)
    assert view["over"]
    for _ in range(100):
        answer = coached.get(f"/api/games/{game_id}/par").json()
        if answer["status"] == "busy":
            break
        time.sleep(0.05)
    assert answer["status"] == "busy" and "busy" in answer["message"]


def test_hints_are_refused_in_ranked_daily_and_multi_seat_games(coached: TestClient,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    ranked, token = solo(coached, "tomb", seed=None)  # a secret seed: this game would rank
    refused = coached.post(f"/api/games/{ranked}/hint", headers=bearer(token))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "ranked"
    assert "practice" in refused.json()["error"]["message"]
    assert coached.post(f"/api/games/{ranked}/hint").status_code == 401  # a seat's own
    _, other = solo(coached, "tomb")
    assert coached.post(f"/api/games/{ranked}/hint", headers=bearer(other)).status_code == 403
    daily = coached.post("/api/daily/tomb", json={"name": "Ann"}).json()
    refused = coached.post(f"/api/games/{daily['id']}/hint", headers=bearer(daily["seats"][0]["token"]),
                           json={"practice": True})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "daily"
    pair = coached.post("/api/games", json={"game": "tomb", "seats": [{"name": "A"}, {"name": "B"}]}).json()
    refused = coached.post(f"/api/games/{pair['id']}/hint", headers=bearer(pair["seats"][0]["token"]),
                           json={"practice": True})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_solo"
    bot = coached.post("/api/games", json={"game": "treasure", "seats": [{"name": "A"}, {"bot": "greedy"}]}).json()
    refused = coached.post(f"/api/games/{bot['id']}/hint", headers=bearer(bot["seats"][0]["token"]),
                           json={"practice": True})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_solo"
    view = coached.get(f"/api/games/{ranked}", headers=bearer(token)).json()
    assert "hints" not in view["config"]  # nothing was given, nothing marked


def test_a_hinted_game_is_marked_and_never_ranked(coached: TestClient, service: GameService) -> None:
    game_id, token = solo(coached, "tomb", seed=None)
    view = coached.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    hint = coached.post(f"/api/games/{game_id}/hint", headers=bearer(token), json={"practice": True})
    assert hint.status_code == 200, hint.json()
    body = hint.json()
    assert body["version"] == 0 and body["hints"] == 1 and body["bot"] == "expert"
    assert body["actions"][0] in view["legal"]  # the bot's first action, legal now
    assert body["actions"][-1] in ("end",) or body["actions"][-1].startswith("buy")  # to the round's end or a die
    assert len(body["sentences"]) == len(body["actions"]) == len(body["json"])
    again = coached.post(f"/api/games/{game_id}/hint", headers=bearer(token))  # practice now: no consent needed
    assert again.json() == body  # the same version: the same hint, counted once
    view = coached.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    assert view["config"]["hints"] == 1
    # Play it to the end with the moves the page would send (legal[0]), then look for it on the boards.
    version, n = view["version"], 0
    while not view["over"]:
        view = coached.post(f"/api/games/{game_id}/actions", headers=bearer(token),
                            json={"client_id": f"h{n}", "version": version, "action": view["legal"][0]}).json()["state"]
        version, n = view["version"], n + 1
    board = coached.get("/api/leaderboards/tomb?where=map1").json()["leaderboard"]
    assert game_id not in [r["id"] for r in board]
    with service.engine.connect() as conn:
        assert conn.execute(select(GameRow.ranked).where(GameRow.id == game_id)).scalar() is False
    for _ in range(100):
        held = coached.post("/api/my-games", json={"tokens": [token]}).json()["games"][0]
        if held["result"].get("hints"):
            break
        time.sleep(0.05)
    assert held["result"]["hints"] == 1


def test_a_treasure_hint_is_the_best_by_the_exact_values(coached: TestClient) -> None:
    game_id, token = solo(coached, "treasure", sites=["oasis"])
    first = coached.post(f"/api/games/{game_id}/hint", headers=bearer(token)).json()  # a chosen seed: practice
    assert first["actions"] == ["roll"] and first["worth"] is None
    coached.post(f"/api/games/{game_id}/actions", headers=bearer(token),
                 json={"client_id": "r", "version": 0, "action": "roll"})
    hint = coached.post(f"/api/games/{game_id}/hint", headers=bearer(token)).json()
    legal = coached.get(f"/api/games/{game_id}", headers=bearer(token)).json()["legal"]
    assert hint["actions"][0] in legal and hint["worth"] > 1 and hint["hints"] == 2


def test_history_steps_follow_undos() -> None:
    class E:
        def __init__(self, seq: int, seat: int, text: str) -> None:
            self.seq, self.seat, self.text = seq, seat, text

    log = [E(1, 0, "a"), E(2, 1, "b"), E(3, 0, "c"), E(4, 0, "undo"), E(5, 1, "undo"), E(6, 0, "d"), E(7, 1, "e")]
    assert history_steps(log) == [1, 6, 7]  # a, d, e: c and b taken back by their seats


def test_a_review_maps_each_decision_to_the_replay_with_undos(coached: TestClient) -> None:
    game_id, token = solo(coached, "tomb", seed=SEED + 3)
    finish(coached, game_id, token, "tomb", TOMB, SEED + 3, undo_every=9)
    started = coached.post(f"/api/games/{game_id}/review")
    assert started.status_code == 202 and started.json()["status"] in ("queued", "running")
    review = waited(coached, f"/api/games/{game_id}/review")["review"]
    assert coached.post(f"/api/games/{game_id}/review").status_code == 200  # remembered
    record = coached.get(f"/api/games/{game_id}/record").json()
    steps = coached.get(f"/api/games/{game_id}/replay?step=0").json()["steps"]
    assert steps > len(record["actions"])  # the undos are log entries too
    for d in review["decisions"]:
        last = coached.get(f"/api/games/{game_id}/replay?step={d['step_end']}").json()["action"]["action"]
        assert last == record["actions"][d["last_action"]]["action"]  # the step that made its last action
        first = coached.get(f"/api/games/{game_id}/replay?step={d['step'] + 1}").json()["action"]["action"]
        assert first == record["actions"][d["first_action"]]["action"]
    assert len(review["mistakes"]) <= 3 and len(review["lost_by_group"]) == 21
    for index in review["mistakes"]:
        d = review["decisions"][index]
        assert d["best"]["sentences"] and d["chosen"]["sentences"]


@pytest.mark.daily
def test_a_daily_games_review_opens_when_its_day_is_over(client: TestClient, today: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The gate alone, on every day of the sweep (asking without starting computes
    nothing); the review itself is the next test's."""
    daily = client.post("/api/daily/treasure", json={"name": "Ann"}).json()
    game_id, token = daily["id"], daily["seats"][0]["token"]
    finish(client, game_id, token, "treasure", KINDS["treasure"].daily,
           client.app.state.service.daily_seed("treasure", today))  # type: ignore[attr-defined]
    refused = client.get(f"/api/games/{game_id}/review")
    assert refused.status_code == 409 and "day" in refused.json()["error"]["message"]
    monkeypatch.setattr(clock, "today", lambda: day_after(today))
    assert client.get(f"/api/games/{game_id}/review").json() == {"status": "none"}


def test_a_review_waits_like_a_replay(coached: TestClient, today: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, _ = solo(coached, "tomb")
    refused = coached.post(f"/api/games/{game_id}/review")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_over"
    daily = coached.post("/api/daily/treasure", json={"name": "Ann"}).json()
    finish(coached, daily["id"], daily["seats"][0]["token"], "treasure", KINDS["treasure"].daily,
           coached.app.state.service.daily_seed("treasure", today))  # type: ignore[attr-defined]
    refused = coached.post(f"/api/games/{daily['id']}/review")
    assert refused.status_code == 409 and "day" in refused.json()["error"]["message"]
    assert coached.get(f"/api/games/{daily['id']}/par").json()["status"] in ("queued", "running", "done")
    monkeypatch.setattr(clock, "today", lambda: day_after(today))
    assert coached.post(f"/api/games/{daily['id']}/review").status_code in (200, 202)
    assert waited(coached, f"/api/games/{daily['id']}/review")["review"]["unit"] == "turns"
    assert coached.post(f"/api/games/{daily['id']}/review?player=1").status_code == 422


@pytest.mark.daily
def test_the_days_board_by_par_holds_the_days_full_sites(client: TestClient, today: str) -> None:
    """On any day, whatever its dice: a finished daily game is on the day's board by par
    if it filled its site, and off it if it was left stuck (R4.3: no record). (The test
    below failed 1 run in 7 when each database drew its own daily secret: some days'
    dice leave the greedy bot stuck, issue 31.) Par is off here (MUMMY_ANALYSIS): the
    entry waits for it."""
    daily = client.post("/api/daily/treasure", json={"name": "Ann"}).json()
    seed = client.app.state.service.daily_seed("treasure", today)  # type: ignore[attr-defined]
    view = finish(client, daily["id"], daily["seats"][0]["token"], "treasure", KINDS["treasure"].daily, seed)
    board = client.get("/api/daily/treasure/par").json()
    assert board["day"] == today == clock.today()
    if view["result"]["reason"] != "full":
        assert board["leaderboard"] == [], board
        return
    assert [(r["id"], r["name"], r["turns"], r["par"]) for r in board["leaderboard"]] == [
        (daily["id"], "Ann", view["result"]["turns"][0], None)]


def test_the_days_board_by_par(coached: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished daily game is on the day's board by par with its par as soon as the game's
    page is told its par, though the board is kept a while (here an hour). On ``DAY`` the
    greedy bot fills the day's site (asserted): only a full site ranks (R4.3)."""
    monkeypatch.setattr(coaching, "BOARD_FRESH", 3600.0)
    service = coached.app.state.service  # type: ignore[attr-defined]
    seed = service.daily_seed("treasure", DAY)
    games = []
    for name in ("Ann", "Bob"):  # Bob plays the same dice: his par is Ann's, stored at once
        daily = coached.post("/api/daily/treasure", json={"name": name}).json()
        games.append(daily["id"])
        view = finish(coached, daily["id"], daily["seats"][0]["token"], "treasure", KINDS["treasure"].daily, seed)
        assert view["result"]["reason"] == "full", "the day's dice no longer suit this test"
        par = waited(coached, f"/api/games/{daily['id']}/par")["par"]
        board = coached.get("/api/daily/treasure/par").json()  # read as soon as the page has its par
        assert board["day"] == DAY == clock.today()
        entry = next((r for r in board["leaderboard"] if r["id"] == daily["id"]), None)
        assert entry is not None, board
        assert entry["par"] == par["par"] and entry["result"] == par["result"]
        assert entry["turns"] == view["result"]["turns"][0] and entry["name"] == name
        # Issue 32: par of today's dice says how well the bot did, nothing of the dice: no
        # seed, record, moves or rolls, to a player or on the board (read by those who
        # have not played yet).
        assert set(par) <= PAR_FIELDS and set(entry) <= BOARD_FIELDS, (par, entry)
        assert set(coached.get(f"/api/games/{daily['id']}/par").json()) == {"status", "par"}
    assert [r["id"] for r in board["leaderboard"]] == games  # the same result: the first to finish first
    stranger = coached.get(f"/api/games/{games[0]}/record")  # the day's dice are secret until it ends
    assert stranger.status_code in (403, 409) and '"seed":' not in stranger.text


#: What par and a board by par say (``coaching.against``, ``Coach.day_board``).
PAR_FIELDS = {"par", "score", "result", "better", "unit", "bot", "effort", "par_squares"}
BOARD_FIELDS = {"id", "name", "daily", "finished", "site", "map", "score", "turns", "par", "result", "unit"}


def test_reviews_and_hints_are_rate_limited_like_new_games(service: GameService) -> None:
    limits = Limits(games_per_address="3/minute")
    with TestClient(create_app(service=service, limits=limits)) as c:
        created = c.post("/api/games", json={"game": "tomb", "seats": [{"name": "A"}]}).json()
        answers = [c.post(f"/api/games/{created['id']}/review").status_code for _ in range(3)]
        assert answers[:2] == [409, 409] and answers[2] == 429


def test_a_lane_runs_one_job_per_key_and_refuses_past_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    monkeypatch.setitem(JOBS, "par", lambda value, progress: (gate.wait(10), progress(1, 1), value)[2])
    lane = Lane("test", 0, capacity=1, processes=False, idle=0.5)
    first = lane.submit("a", "par", (1,))
    assert first is not None and lane.submit("a", "par", (1,)) is first  # the same key: the same job
    for _ in range(100):
        if first.state == "running":
            break
        time.sleep(0.01)
    waiting = lane.submit("b", "par", (2,))
    assert waiting is not None and lane.ahead(waiting) == 1
    assert lane.submit("c", "par", (3,)) is None  # one waiting at most: refused
    gate.set()
    assert first.future.result(10) == 1 and waiting.future.result(10) == 2
    assert first.status() == {"status": "done", "done": 1, "total": 1}


def test_against_compares_in_the_games_unit() -> None:
    tomb, treasure = KINDS["tomb"], KINDS["treasure"]
    found = {"par": 150, "better": "higher", "bot": "expert", "effort": "full"}
    assert against(tomb, TOMB, {"scores": [143]}, found)["result"] == -7
    found = {"par": 10, "better": "lower", "bot": "exact", "effort": "full", "par_squares": 36}
    sites = {"sites": ["oasis"]}
    full = {"squares": [36], "turns": [9], "reason": "full"}
    assert against(treasure, sites, full, found)["result"] == 1
    stuck = {"squares": [30], "turns": [12], "reason": "stuck"}
    assert against(treasure, sites, stuck, found)["result"] is None


def _finished_treasure(c: TestClient, seed: int) -> tuple[str, str]:
    game_id, token = solo(c, "treasure", seed=seed, sites=["oasis"])
    finish(c, game_id, token, "treasure", {"sites": ["oasis"], "first": 0, "movable": False}, seed)
    return game_id, token


def test_a_review_is_computed_once_and_stored(coached: TestClient, service: GameService) -> None:
    """Issue 32: reviews lived in one process's memory, worked out again after a restart."""
    game_id, _ = _finished_treasure(coached, SEED)
    assert coached.post(f"/api/games/{game_id}/review").status_code == 202
    review = waited(coached, f"/api/games/{game_id}/review")["review"]
    with TestClient(create_app(service=GameService(service.engine), limits=TEST_LIMITS)) as fresh:
        coach = fresh.app.state.coach  # type: ignore[attr-defined]
        coach.reviews.submit = lambda *args, **kw: pytest.fail("a stored review was worked out again")
        again = fresh.post(f"/api/games/{game_id}/review")
        assert again.status_code == 200 and again.json()["review"] == review


def test_a_players_review_goes_first_and_an_address_has_two_under_way(
        coached: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 32: nine review requests for public finished games kept the reviewer busy
    and an honest player's review answered 503 for minutes."""
    games = [_finished_treasure(coached, SEED + n) for n in range(4)]
    seeds = {coached.get(f"/api/games/{g}/record").json()["seed"]: n for n, (g, _) in enumerate(games)}
    started, gate, ran = threading.Event(), threading.Event(), []

    def review(record: Any, config: Any, player: int, effort: str, progress: Any) -> dict[str, Any]:
        started.set()
        gate.wait(60)
        ran.append(seeds[record["seed"]])
        return {"decisions": [], "game": seeds[record["seed"]]}

    monkeypatch.setitem(JOBS, "review", review)
    coach = coached.app.state.coach  # type: ignore[attr-defined]
    coach.reviews = Lane("review", 0, 8, processes=False)
    stranger, other = coaching.Asker("10.0.0.50"), coaching.Asker("10.0.0.51")
    ask = coach.review
    try:
        assert ask(games[0][0], 0, True, stranger)[0] == 202
        assert started.wait(60)  # the first runs (and holds the reviewer)
        assert ask(games[1][0], 0, True, stranger)[0] == 202
        with pytest.raises(coaching.ServiceError) as refused:
            ask(games[2][0], 0, True, stranger)  # a third of its own under way
        assert refused.value.status == 429 and refused.value.retry_after == 60
        assert ask(games[2][0], 0, True, other)[1]["ahead"] == 2
        players = ask(games[3][0], 0, True, coaching.Asker("10.0.0.52", games[3][1]))[1]
        assert players["ahead"] == 1  # before the strangers' queued ones
        promoted = ask(games[1][0], 0, True, coaching.Asker("10.0.0.53", games[1][1]))[1]  # its player asks too
        assert promoted["ahead"] == 2
        jobs = [coach.reviews.find((game_id, 0)) for game_id, _ in games]  # (while under way)
    finally:
        gate.set()
    for job in jobs:
        job.future.result(60)  # (settled after its callbacks: stored, and its address's count released)
    assert ran == [0, 3, 1, 2] and coach.reviews_in_flight == {}
    assert ask(games[2][0], 0, True, stranger) == (200, {"status": "done", "review": {"decisions": [], "game": 2}})
