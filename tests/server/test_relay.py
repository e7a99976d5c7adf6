"""Broadcasts across processes (issue 16): two servers on one PostgreSQL, each with its own
service and engine, in threads of this process; a person connected to one is told of what
is played through the other (``LISTEN/NOTIFY``, relay.py), every version in order.

SQLite serves one process: these run on PostgreSQL only."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI

from mummy.server.play.copies import Copies
from mummy.server.play.live import LogEntry
from mummy.server.play.relay import Entry, Notice
from mummy.server.play.service import GameService
from mummy.server.store.models import BotLeaseRow
from tests.server.conftest import two_processes
from tests.server.players import Seat, get, play_to_the_end, post

FIVE_FIVE = 99  # map1 round 1 rolls 5 and 5
LEASE = 1.5  # seconds a bots' lease lasts unrenewed, in these tests


@pytest.fixture
def servers(service: GameService, db_url: str) -> Iterator[tuple[str, str, list[FastAPI]]]:
    with two_processes(service, db_url, lease_term=LEASE) as started:
        yield started


def _game(address: str, kind: str, **setup: Any) -> tuple[str, list[str]]:
    created = post(f"http://{address}/api/games", {"game": kind, "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                                   **setup})
    return created["id"], [s["token"] for s in created["seats"]]


def test_a_player_on_the_other_process_is_told_every_version_in_order(
        servers: tuple[str, str, list[FastAPI]]) -> None:
    one, two, _ = servers
    game_id, (ann_token, bob_token) = _game(one, "tomb", seed=FIVE_FIVE)
    ann, bob, watcher = Seat(one, game_id, ann_token), Seat(two, game_id, bob_token), Seat(two, game_id, None)
    try:
        while ann.state["legal"]:  # Ann plays her round on one; Bob and a spectator, connected to two, see each move
            answer = ann.act(f"a{ann.state['version']}", ann.state["legal"][0])
            assert answer["type"] == "result", answer
            version = answer["result"]["version"]
            assert bob.wait_version(version)["version"] == version
            assert watcher.wait_version(version)["log"][-1]["version"] == version
        assert bob.versions == watcher.versions == ann.versions == [0, 1, 2, 3]  # each version, in order
        # Bob plays on two; Ann, on one, sees it, and Bob's move stands in the log of both.
        bob_answer = bob.act("b0", bob.state["legal"][0])
        assert bob_answer["result"]["version"] == 4
        assert ann.wait_version(4)["state"] == get(f"http://{one}/api/games/{game_id}")["state"]
    finally:
        for seat in (ann, bob, watcher):
            seat.close()


def _counting_log_reads(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The versions from which the process of ``app`` reads a game's log to catch a copy up."""
    repo = app.state.service.repo
    reads: list[int] = []
    original = repo.entries_since

    def entries_since(game_id: str, version: int) -> Any:
        reads.append(version)
        return original(game_id, version)

    monkeypatch.setattr(repo, "entries_since", entries_since)
    return reads


def _ann_plays_her_round_as_bob_watches(ann: Seat, bob: Seat) -> None:
    """Ann plays her round's moves; Bob, on the other process, is told each, in order."""
    while ann.state["legal"]:
        version = ann.act(f"a{ann.state['version']}", ann.state["legal"][0])["result"]["version"]
        assert bob.wait_version(version)["version"] == version
    assert bob.versions == [0, 1, 2, 3]


def test_the_other_process_applies_the_entries_its_notices_carry_without_reading_the_log(
        servers: tuple[str, str, list[FastAPI]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Migration 0009: a notice carries its entry, and the process that did not write it
    catches its copy up with it (issue 16: the read and its thread were a third of a busy
    process's time)."""
    one, two, apps = servers
    game_id, (ann_token, bob_token) = _game(one, "tomb", seed=FIVE_FIVE)
    ann, bob = Seat(one, game_id, ann_token), Seat(two, game_id, bob_token)
    try:
        reads = _counting_log_reads(apps[1], monkeypatch)
        _ann_plays_her_round_as_bob_watches(ann, bob)
        assert reads == []
        assert bob.state == get(f"http://{two}/api/games/{game_id}", bob_token)  # the copy is the log's
        assert get(f"http://{two}/api/games/{game_id}")["state"] == get(f"http://{one}/api/games/{game_id}")["state"]
    finally:
        ann.close()
        bob.close()


def test_an_entry_a_notice_did_not_carry_is_read_from_the_log(
        servers: tuple[str, str, list[FastAPI]], monkeypatch: pytest.MonkeyPatch) -> None:
    """A notice without its entry (one too large for a notice, or one not read) leaves a
    gap: the copy reads the log from there, and the player sees every version in order."""
    one, two, apps = servers
    game_id, (ann_token, bob_token) = _game(one, "tomb", seed=FIVE_FIVE)
    ann, bob = Seat(one, game_id, ann_token), Seat(two, game_id, bob_token)
    copies: Copies = apps[1].state.service.copies
    hear = copies.hear

    def hear_without_the_second(game_id: str, version: int, rematch: bool = False,
                                entry: LogEntry | None = None) -> bool:
        return hear(game_id, version, rematch, None if version == 2 else entry)

    monkeypatch.setattr(copies, "hear", hear_without_the_second)
    try:
        reads = _counting_log_reads(apps[1], monkeypatch)
        _ann_plays_her_round_as_bob_watches(ann, bob)
        assert reads and reads[0] == 1  # the log, from the gap on
        assert get(f"http://{two}/api/games/{game_id}")["state"] == get(f"http://{one}/api/games/{game_id}")["state"]
    finally:
        ann.close()
        bob.close()


def _carried(fields: dict[str, Any]) -> str:
    return "e:" + base64.b64encode(json.dumps(fields).encode()).decode()


def test_a_notice_is_read_with_its_entry_or_without_it() -> None:
    """The payloads of migrations 0007 and 0009 (relay.Notice.parse); an entry that cannot
    be read costs only the log's read, never the notice."""
    fields = {"seat": 1, "text": "place B11 n", "affects": -1, "client_id": "c 1", "result": '{"ok": true}'}
    notice = Notice.parse(f"g1 7 one {_carried(fields)}")
    assert notice == Notice("g1", 7, "one", False, Entry(7, 1, "place B11 n", -1, "c 1", '{"ok": true}'))
    assert Notice.parse("g1 7 one") == Notice("g1", 7, "one", False, None)
    assert Notice.parse("g1 7 one rematch") == Notice("g1", 7, "one", True, None)
    assert Notice.parse("g1 7 one e:not*base64") == Notice("g1", 7, "one", False, None)
    assert Notice.parse(f"g1 7 one {_carried({'seat': 1})}") == Notice("g1", 7, "one", False, None)
    assert Notice.parse("g1 seven one") is None


def test_the_database_puts_the_entry_in_its_notice_unless_it_is_too_large(
        servers: tuple[str, str, list[FastAPI]], service: GameService) -> None:
    """The trigger of migration 0009, on the database itself: the entry as written, in the
    notice; a notice that would be 8000 bytes or more goes without it (PostgreSQL's limit)."""
    one, _, _ = servers
    game_id, _ = _game(one, "tomb", seed=FIVE_FIVE)
    raw = service.engine.raw_connection()
    try:
        listener = raw.driver_connection
        assert listener is not None
        listener.autocommit = True
        listener.execute("LISTEN mummy")
        with service.engine.begin() as conn:
            for seq, result in ((1, '{"ok": true}'), (2, "x" * 8000)):
                conn.execute(sa.text("INSERT INTO actions (game_id, seq, seat, text, affects, client_id, result, "
                                     "created) VALUES (:g, :s, 0, 'end', 0, :c, :r, now())"),
                             {"g": game_id, "s": seq, "c": f"c{seq}", "r": result})
        heard = [Notice.parse(m.payload) for m in listener.notifies(timeout=5, stop_after=2)]
    finally:
        raw.close()
    assert [n.version for n in heard if n is not None] == [1, 2]
    first, second = heard
    assert first is not None and first.entry == Entry(1, 0, "end", 0, "c1", '{"ok": true}')
    assert second is not None and second.entry is None


def test_a_treasure_game_played_through_two_processes_to_its_end(servers: tuple[str, str, list[FastAPI]]) -> None:
    one, two, _ = servers
    game_id, (ann_token, bob_token) = _game(two, "treasure", seed=5)
    seats = [Seat(one, game_id, ann_token), Seat(two, game_id, bob_token)]
    try:
        final = play_to_the_end(seats)
        for seat in seats:
            assert seat.versions == sorted(seat.versions) and seat.versions[-1] == final
        assert seats[0].state["result"] == seats[1].state["result"]
        record = get(f"http://{one}/api/games/{game_id}/record")
        assert len(record["actions"] if "actions" in record else record["history"]) == final
    finally:
        for seat in seats:
            seat.close()


def test_a_rematch_claimed_through_one_process_is_shown_by_the_other(
        servers: tuple[str, str, list[FastAPI]]) -> None:
    one, two, _ = servers
    created = post(f"http://{one}/api/games", {"game": "treasure", "seats": [{"name": "Ann"}], "seed": 5})
    game_id, token = created["id"], created["seats"][0]["token"]
    seat = Seat(two, game_id, token)
    try:
        play_to_the_end([seat])
        made = post(f"http://{one}/api/games/{game_id}/rematch", {}, token)
        deadline = time.monotonic() + 10
        while seat.state.get("rematch") != made["id"]:
            seat.read(max(0.01, deadline - time.monotonic()))
    finally:
        seat.close()


@pytest.mark.slow
def test_the_relay_listens_again_after_its_connection_breaks(
        servers: tuple[str, str, list[FastAPI]], service: GameService) -> None:
    """A notice sent while the listening connection is down is lost: once back, every copy
    watched is caught up from the log."""
    one, two, apps = servers
    game_id, (ann_token, bob_token) = _game(one, "tomb", seed=FIVE_FIVE)
    ann, bob = Seat(one, game_id, ann_token), Seat(two, game_id, bob_token)
    try:
        relay = apps[1].state.relay
        with service.engine.begin() as conn:  # the listening connection of two goes away
            conn.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                 "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"))
        ann.act("while-down", ann.state["legal"][0])  # its notice may reach two before or after the break
        deadline = time.monotonic() + 15
        while relay.listening.is_set() and time.monotonic() < deadline and bob.state["version"] < 1:
            time.sleep(0.01)
        assert relay.listening.wait(15)
        assert bob.wait_version(ann.state["version"])["version"] == ann.state["version"]
    finally:
        ann.close()
        bob.close()


def _against_a_bot(address: str) -> tuple[str, str]:
    """A Treasure game of Ann and a greedy bot that moves first: its first turn is played
    as the game is created, in the process that creates it, which takes the bots' lease."""
    created = post(f"http://{address}/api/games", {"game": "treasure", "seed": 5, "first": 1,
                                                   "seats": [{"name": "Ann"}, {"name": "Sphinx", "bot": "greedy"}]})
    return created["id"], created["seats"][0]["token"]


def _lease_owner(service: GameService, game_id: str) -> str | None:
    with service.engine.connect() as conn:
        return conn.execute(sa.select(BotLeaseRow.owner).where(BotLeaseRow.game_id == game_id)).scalar()


def test_a_bot_plays_in_the_process_that_holds_its_lease_for_a_player_on_the_other(
        servers: tuple[str, str, list[FastAPI]], service: GameService) -> None:
    one, two, _ = servers
    game_id, token = _against_a_bot(one)
    assert _lease_owner(service, game_id) == "one"
    ann = Seat(two, game_id, token)
    try:
        final = play_to_the_end([ann])  # each of Ann's moves through two; the bot answers from one
        assert ann.state["over"] and ann.versions[-1] == final
        assert _lease_owner(service, game_id) == "one"  # never taken over while one lives
    finally:
        ann.close()


def test_the_bots_of_a_process_that_died_go_on_in_the_other(
        servers: tuple[str, str, list[FastAPI]], service: GameService) -> None:
    one, two, apps = servers
    game_id, token = _against_a_bot(one)
    ann = Seat(two, game_id, token)
    try:
        apps[0].state.relay.stop()  # one dies: it hears nothing more, and renews no lease
        apps[0].state.service.bots.leases.abandon()
        while ann.state.get("legal"):  # Ann's turn, through two, until the bot's is due
            assert ann.act(f"a{ann.state['version']}", ann.state["legal"][-1])["type"] == "result"
        started = time.monotonic()
        while not ann.state["over"] and not ann.state.get("legal"):  # the bot's turn, played by two
            ann.read()
        assert time.monotonic() - started >= LEASE / 2  # not before one's lease expired
        assert _lease_owner(service, game_id) == "two"
        play_to_the_end([ann])
    finally:
        ann.close()
