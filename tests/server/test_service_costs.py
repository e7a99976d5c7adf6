"""Cheap requests must not have costly answers (issue 12): undo spam is bounded, a resync
is paged, a replay step costs a bounded number of applies, a leaderboard is one indexed
query with a limit, and a daily challenge's log stays its player's until the day is over.

Costs are checked by counting (applies, rows, query plans), never by timing: the machine
is shared and noisy.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event, insert, select, text, update

from mummy.bots.registry import make_agent
from mummy.games import KINDS
from mummy.server import clock
from mummy.server.play import live as live_module
from mummy.server.play.service import GameService, ServiceError
from mummy.server.store.db import migrate
from mummy.server.store.models import ActionRow, GameRow
from tests.server.conftest import day_after

UNDOS = 50  # the documented limit of undos per seat in a Tomb round (docs/server.md)
PAGE = 200  # the documented page of a resync
EVERY = 50  # the documented distance between a replay's snapshots


def refusal(fn: Any, *args: Any) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        fn(*args)
    return info.value


def act(service: GameService, game_id: str, token: str, text_: str) -> dict[str, Any]:
    version = service.view(game_id, token)["version"]
    return service.act(game_id, token, f"c{version}", version, text_)


def first_place(service: GameService, game_id: str, token: str) -> str:
    legal: list[str] = service.view(game_id, token)["legal"]
    return next(a for a in legal if "@" in a)


# -- 1. undo spam -------------------------------------------------------------------------------


def test_undos_per_seat_and_round_are_capped_and_the_count_survives_a_restart(
        service: GameService, db_url: str) -> None:
    created = service.create("tomb", [{"name": "spam"}, {"name": "calm"}], {})
    game_id, token = created["id"], created["seats"][0]["token"]
    refused = None
    for _ in range(UNDOS + 3):
        act(service, game_id, token, first_place(service, game_id, token))
        try:
            act(service, game_id, token, "undo")
        except ServiceError as exc:
            refused = exc
            break
    assert refused is not None, "place-and-undo must not go on without end"
    assert (refused.status, refused.code) == (429, "too_many_undos")
    assert str(UNDOS) in refused.message
    log = service.log_since(game_id, 0, token, 10_000)
    undos = sum(1 for e in log["missed"] if e["action"] == "undo")
    assert undos == UNDOS
    # Counted from the log: a new server process refuses it too.
    reborn = GameService(service.engine)
    assert refusal(act, reborn, game_id, token, "undo").code == "too_many_undos"
    # The seat can still play on, and the other seat has its own count.
    other = created["seats"][1]["token"]
    act(reborn, game_id, other, first_place(reborn, game_id, other))
    assert act(reborn, game_id, other, "undo")["action"] == "undo"
    # A new round, a new count.
    for t in (token, other):
        while reborn.view(game_id)["state"]["round"] == 1 and reborn.view(game_id, t)["legal"]:
            legal = reborn.view(game_id, t)["legal"]
            act(reborn, game_id, t, "end" if "end" in legal else legal[0])
    assert reborn.view(game_id)["state"]["round"] == 2
    act(reborn, game_id, token, first_place(reborn, game_id, token))
    assert act(reborn, game_id, token, "undo")["action"] == "undo"


def test_undos_stop_at_the_cap_on_a_games_log_and_http_says_429(
        client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_module, "MAX_LOG", 6)
    created = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "a"}]}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    head = {"Authorization": f"Bearer {token}"}
    answer = None
    for i in range(10):
        view = client.get(f"/api/games/{game_id}", headers=head).json()
        action = "undo" if i % 2 else first_place(service, game_id, token)
        answer = client.post(f"/api/games/{game_id}/actions", headers=head,
                             json={"client_id": f"c{i}", "version": view["version"], "action": action})
        if answer.status_code != 200:
            break
    assert answer is not None and answer.status_code == 429
    assert answer.json()["error"]["code"] == "too_many_undos" and "6 entries" in answer.json()["error"]["message"]
    # Moving on is still allowed: the game can always end.
    view = client.get(f"/api/games/{game_id}", headers=head).json()
    moved = client.post(f"/api/games/{game_id}/actions", headers=head,
                        json={"client_id": "on", "version": view["version"], "action": view["legal"][0]})
    assert moved.status_code == 200


# -- long logs, written straight to the database (as servers before the cap let them grow) -----


def long_game(engine: Engine, entries: int, finish: bool) -> tuple[str, str, list[tuple[int, str]]]:
    """A solo Tomb game whose log is ``entries`` place/undo entries (then, with ``finish``,
    a greedy bot's moves to the end), made by a service that is then forgotten. Returns the
    id, the token and the log."""
    maker = GameService(engine)
    created = maker.create("tomb", [{"name": "long"}], {})
    game_id, token = created["id"], created["seats"][0]["token"]
    with engine.connect() as conn:
        seed, config = conn.execute(select(GameRow.seed, GameRow.config).where(GameRow.id == game_id)).one()
    kind = KINDS["tomb"]
    game = kind.new(seed, json.loads(config), ["long"])
    log: list[tuple[int, str, int]] = []

    def do(action: str) -> None:
        canonical, affects = kind.apply(game, 0, action)
        log.append((0, canonical, affects))

    while len(log) < entries:
        do(next(a for a in kind.legal(game, 0) if "@" in a))
        do("undo")
    agent = make_agent("tomb", "greedy", 7)
    while finish and not kind.is_over(game):
        do(kind.text(game, 0, agent.act(game, 0)))
    now = datetime(2026, 1, 1)
    rows = [{"game_id": game_id, "seq": i, "seat": seat, "text": action, "affects": affects, "client_id": f"x{i}",
             "result": json.dumps({"version": i, "seat": seat, "action": action, "over": False}), "created": now}
            for i, (seat, action, affects) in enumerate(log, start=1)]
    with engine.begin() as conn:
        conn.execute(insert(ActionRow), rows)
        values: dict[str, Any] = {"version": len(log), "over": finish and kind.is_over(game)}
        if values["over"]:
            values["result"] = json.dumps(kind.result(game))
        conn.execute(update(GameRow).where(GameRow.id == game_id).values(**values))
    return game_id, token, [(seat, action) for seat, action, _ in log]


# -- 1. a resync is paged -----------------------------------------------------------------------


def test_a_resync_from_version_0_is_paged(client: TestClient, service: GameService) -> None:
    game_id, token, log = long_game(service.engine, 2 * PAGE + 30, finish=False)
    got: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
        assert ws.receive_json()["version"] == len(log)
        since, pages = 0, 0
        while True:
            ws.send_json({"type": "sync", "version": since})
            raw = ws.receive_text()
            reply = json.loads(raw)
            assert len(reply["missed"]) <= PAGE and len(raw) < 64 * 1024
            got += reply["missed"]
            pages += 1
            if not reply["more"]:
                break
            since = reply["missed"][-1]["version"]
    assert pages == 3
    assert got == [{"version": i, "seat": seat, "action": action} for i, (seat, action) in enumerate(log, start=1)]


# -- 1. replays cost at most a snapshot's distance of applies -----------------------------------


def test_a_replay_step_costs_at_most_a_snapshots_distance_of_applies(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, _token, log = long_game(service.engine, 600, finish=True)
    kind = KINDS["tomb"]
    steps = len(log)
    config = service.view(game_id)["config"]
    seed = service.view(game_id)["reveal"]["seed"]

    def truth(step: int) -> dict[str, Any]:
        game = kind.new(seed, config, ["long"])
        for seat, action in log[:step]:
            kind.apply(game, seat, action)
        return kind.view(game)

    applies = 0
    real_apply = kind.apply

    def counting(game: Any, seat: int, action: str) -> tuple[str, int]:
        nonlocal applies
        applies += 1
        return real_apply(game, seat, action)

    monkeypatch.setattr(kind, "apply", counting)
    service.replay(game_id, steps)  # the first pass goes through the whole log once
    for step in (steps, steps - 1, steps // 2, 7, steps // 2 + 1, steps // 2 + 2, 0, EVERY, steps - EVERY - 1):
        applies = 0
        answer = service.replay(game_id, step)
        assert applies <= EVERY, f"step {step} cost {applies} applies"
        monkeypatch.setattr(kind, "apply", real_apply)
        assert answer["state"] == truth(step) and answer["steps"] == steps
        assert answer["action"] == ({"seat": log[step - 1][0], "action": log[step - 1][1]} if step else None)
        monkeypatch.setattr(kind, "apply", counting)


# -- 2. the leaderboard is one indexed query with a limit ---------------------------------------


def board_statements(service: GameService, *args: Any, **kwargs: Any) -> list[tuple[str, Any]]:
    """The statements on ``games`` (or a day's entries) that a leaderboard runs, with their parameters."""
    seen: list[tuple[str, Any]] = []

    def grab(_conn: Any, _cursor: Any, statement: str, params: Any, _context: Any, _many: bool) -> None:
        if "FROM games" in statement or "FROM daily_entries" in statement:
            seen.append((statement, params))

    event.listen(service.engine, "before_cursor_execute", grab)
    try:
        service.leaderboard(*args, **kwargs)
    finally:
        event.remove(service.engine, "before_cursor_execute", grab)
    return seen


@pytest.mark.parametrize(("kind", "where", "daily"), [
    ("tomb", "map1", None), ("treasure", "oasis", None), ("tomb", None, None), ("treasure", None, "2026-11-29")])
def test_a_leaderboard_reads_an_index_in_order_with_a_limit(service: GameService, kind: str, where: str | None,
                                                            daily: str | None) -> None:
    statements = board_statements(service, kind, where, daily=daily)
    assert statements
    postgres = service.engine.dialect.name == "postgresql"
    index = "ix_daily_entries_board" if daily else "ix_games_board"  # a day's board: its entries (0005)
    with service.engine.connect() as conn:
        for statement, params in statements:
            assert "LIMIT" in statement
            if postgres:
                conn.execute(text("SET enable_seqscan = off"))  # a small table: the planner would scan it
                plan = "\n".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + statement, params))
                assert "Index" in plan and index in plan and "Sort" not in plan, plan
            else:
                plan = "\n".join(r[-1] for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, params))
                assert f"USING INDEX {index}" in plan and "TEMP B-TREE" not in plan, plan


def test_a_leaderboard_of_70k_games_is_answered_by_statements_of_a_few_parameters(service: GameService) -> None:
    """More finished games than SQLite's variables (32,766 by default; some builds allow
    250,000) and PostgreSQL's parameters (65,535): a board that named every game in its
    query failed there (and slowly before). Now its statements carry a few parameters,
    whatever the number of games. Rows are made by the database itself, in a second."""
    count = 70_000
    rows = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :count) SELECT "
    with service.engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, kind, config, seed, nonce, commitment, version, over, daily, created, result,"
            " ranked, place, score, turns, ranking, finished) " + rows +
            "'b' || (i + 1000000), 'tomb', '{\"map\": \"map1\", \"mode\": \"standard\"}', i, 'n', 'c', 80,"
            " TRUE, NULL, :now,"
            " '{\"scores\": [' || (i % 1000) || '], \"places\": [1], \"lines\": [[]], \"achievements\": [[]]}',"
            " TRUE, 'map1', i % 1000, NULL, -(i % 1000), :now FROM n"),
            {"count": count, "now": datetime(2026, 1, 1)})
        conn.execute(text("INSERT INTO seats (game_id, seat, name, bot, token_hash) " + rows +
                          "'b' || (i + 1000000), 0, 'p' || i, NULL, NULL FROM n"), {"count": count})
    parameters: list[int] = []

    def grab(_conn: Any, _cursor: Any, _statement: str, params: Any, _context: Any, _many: bool) -> None:
        parameters.append(len(params))

    event.listen(service.engine, "before_cursor_execute", grab)
    try:
        board = service.leaderboard("tomb", "map1")
    finally:
        event.remove(service.engine, "before_cursor_execute", grab)
    assert [r["score"] for r in board] == [999] * 20
    assert all(r["name"] == "p" + str(int(r["id"][1:]) - 1000000) and r["map"] == "map1" for r in board)
    assert parameters and max(parameters) <= 30, parameters


def finish(service: GameService, game_id: str, *tokens: str) -> None:
    while not service.view(game_id, tokens[0])["over"]:
        for token in tokens:
            view = service.view(game_id, token)
            if view.get("legal"):  # none once the game is over
                service.act(game_id, token, f"c{view['version']}", view["version"], view["legal"][0])


def test_a_board_shows_when_a_game_finished_and_0004_fills_games_finished_before_it(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    times = [datetime(2026, 3, 1, 12, 0)]

    def now() -> datetime:
        times[0] += timedelta(seconds=1)
        return times[0]

    monkeypatch.setattr(clock, "now", now)
    games = [service.create("tomb", [{"name": "ann"}], {}), service.create("treasure", [{"name": "bob"}], {}),
             service.create("tomb", [{"name": "cy"}], {}, seed=5),  # a chosen seed: no record
             service.create("tomb", [{"name": "di"}, {"name": "ed"}], {})]  # not solo: no record
    for created in games:
        finish(service, created["id"], *(seat["token"] for seat in created["seats"]))
    boards = {kind: service.leaderboard(kind) for kind in KINDS}
    assert [r["name"] for r in boards["tomb"]] == ["ann"]
    with service.engine.connect() as conn:
        last = conn.execute(select(ActionRow.created).where(ActionRow.game_id == games[0]["id"])
                            .order_by(ActionRow.seq.desc()).limit(1)).scalar_one()
    assert boards["tomb"][0]["finished"] == last.isoformat()  # when it ended, not when it began
    assert datetime.fromisoformat(boards["tomb"][0]["finished"]) > datetime(2026, 3, 1, 12, 0, 1)
    migrate(service.engine, "0003")  # as if these games had ended before revision 0004
    migrate(service.engine)
    assert {kind: service.leaderboard(kind) for kind in KINDS} == boards


# -- 3. a daily challenge's log is its player's until the day is over ---------------------------


@pytest.mark.daily
def test_a_daily_challenges_log_is_its_players_alone_until_the_day_is_over(
        client: TestClient, service: GameService, today: str, monkeypatch: pytest.MonkeyPatch) -> None:
    leader = service.create_daily("tomb", "ann")
    game_id, token = leader["id"], leader["seats"][0]["token"]
    finish(service, game_id, token)
    assert [r["id"] for r in client.get(f"/api/daily/tomb?day={today}").json()["leaderboard"]] == [game_id]
    rival = service.create_daily("tomb", "bob")["seats"][0]["token"]
    with client.websocket_connect(f"/ws/games/{game_id}") as spectator:  # nor its sheet, as it stands
        assert spectator.receive_json()["error"]["code"] == "forbidden"
    assert client.get(f"/api/games/{game_id}").status_code == 403
    with client.websocket_connect(f"/ws/games/{game_id}?token={rival}") as ws:  # another player's token
        assert ws.receive_json()["error"]["code"] == "forbidden"
    with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as seat:  # the player's own resync
        seat.receive_json()
        seat.send_json({"type": "sync", "version": 0})
        assert seat.receive_json()["missed"][0]["version"] == 1
    assert refusal(service.log_since, game_id, 0).code == "not_over"
    assert refusal(service.log_since, game_id, 0, rival).code == "forbidden"
    for path in ("replay?step=1", "record"):  # every HTTP route to the log or the record
        assert client.get(f"/api/games/{game_id}/{path}").status_code == 409
        assert client.get(f"/api/games/{game_id}/{path}", headers={"Authorization": f"Bearer {token}"}
                          ).status_code == 409
    monkeypatch.setattr(clock, "today", lambda: day_after(today))  # the day is over: open to all
    with client.websocket_connect(f"/ws/games/{game_id}") as spectator:
        spectator.receive_json()
        spectator.send_json({"type": "sync", "version": 0})
        assert spectator.receive_json()["missed"][0]["version"] == 1
    for path in ("replay?step=1", "record"):
        assert client.get(f"/api/games/{game_id}/{path}").status_code == 200


# -- 5. views are encoded once per version ------------------------------------------------------


def test_a_view_is_encoded_once_per_version_and_seat(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Silent spectators asking for the state many times a second cost an encoding each
    (issue 12): a broadcast and every resync at a version already sent reuse the text."""
    created = service.create("tomb", [{"name": "ann"}], {})
    game_id, token = created["id"], created["seats"][0]["token"]
    encoded: list[object] = []
    real = live_module.encode
    monkeypatch.setattr(live_module, "encode", lambda obj: encoded.append(obj) or real(obj))
    first = service.view_texts(game_id, [None, token, None])
    again = service.view_texts(game_id, [token, None])
    assert len(encoded) == 2  # the spectators' view and the seat's, once each
    assert first[0] == first[2] == again[1] and first[1] == again[0]
    assert json.loads(first[1][1]) == service.view(game_id, token)  # the same view as the dict
    assert "actions" in json.loads(first[1][1]) and "actions" not in json.loads(first[0][1])
    act(service, game_id, token, first_place(service, game_id, token))
    (version, text_), = service.view_texts(game_id, [None])
    assert version == first[0][0] + 1 and json.loads(text_)["version"] == version and len(encoded) == 3
