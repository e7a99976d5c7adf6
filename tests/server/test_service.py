"""The service layer without the network: seats, tokens, versions, ids, bots, durability,
commitments, and what a view never shows."""

from __future__ import annotations

import hashlib
import json

import pytest
import sqlalchemy as sa

from mummy.games import commitment
from mummy.server.play.service import GameService, ServiceError
from mummy.server.store.db import make_engine, migrate

FIVE_FIVE = 99  # map1 round 1 rolls 5 and 5


def tomb(service: GameService, bots: tuple[str | None, ...] = (None,)) -> tuple[str, list[str | None]]:
    created = service.create("tomb", [{"name": f"p{i}", "bot": b} for i, b in enumerate(bots)], {}, seed=FIVE_FIVE)
    return created["id"], [s["token"] for s in created["seats"]]


def error(fn, *args) -> ServiceError:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError) as info:
        fn(*args)
    return info.value


def test_create_gives_tokens_to_people_only_and_publishes_a_commitment(service: GameService) -> None:
    created = service.create("tomb", [{"name": "me"}, {"bot": "greedy"}], {"map": "map2"}, seed=7)
    assert [s["token"] is not None for s in created["seats"]] == [True, False]
    assert len(created["commitment"]) == 64
    view = service.view(created["id"])
    assert view["config"] == {"map": "map2", "mode": "standard", "seed_chosen": True}
    assert view["commitment"] == created["commitment"]
    for bad in (("chess", [{}], {}), ("tomb", [], {}), ("tomb", [{"bot": "genius"}], {}),
                ("tomb", [{}], {"map": "map9"}), ("treasure", [{}] * 5, {}), ("treasure", [{}], {"sites": ["moon"]})):
        assert error(service.create, *bad).status == 422


def test_an_action_applies_once_per_client_id(service: GameService) -> None:
    game_id, (token,) = tomb(service)
    first = service.act(game_id, token, "c1", 0, "1:5a.r0@J1")
    assert first == {"version": 1, "seat": 0, "action": "1:5a.r0@J1", "over": False}
    again = service.act(game_id, token, "c1", 0, "1:5a.r0@J1")
    assert again == dict(first, repeated=True)
    assert service.view(game_id, token)["version"] == 1


def test_stale_version_is_refused_with_the_current_version(service: GameService) -> None:
    game_id, (token,) = tomb(service)
    service.act(game_id, token, "c1", 0, "1:5a.r0@J1")
    err = error(service.act, game_id, token, "c2", 0, "2:5b.r3@J4")
    assert (err.code, err.version) == ("stale", 1)
    assert error(service.act, game_id, token, "c3", 7, "2:5b.r3@J4").code == "stale"  # from the future


def test_in_the_tomb_another_players_action_does_not_make_mine_stale(service: GameService) -> None:
    game_id, tokens = tomb(service, (None, None))
    service.act(game_id, tokens[0], "a1", 0, "1:5a.r0@J1")
    assert service.act(game_id, tokens[1], "b1", 0, "1:5a.r0@J1")["version"] == 2  # made on version 0


def test_illegal_actions_name_the_rule_and_change_nothing(service: GameService) -> None:
    game_id, (token,) = tomb(service)
    err = error(service.act, game_id, token, "c1", 0, "1:5a.r0@E5")
    assert (err.status, err.code, err.rule) == (422, "illegal", "T3.2")
    assert service.view(game_id)["version"] == 0
    assert error(service.act, game_id, token, "c1", 0, "not an action").rule == "notation"


def test_the_seat_comes_from_the_token_never_from_the_request(service: GameService) -> None:
    game_id, tokens = tomb(service, (None, None))
    _other_id, other_tokens = tomb(service)
    assert error(service.act, game_id, other_tokens[0], "x", 0, "1:5a.r0@J1").status == 403
    assert error(service.act, game_id, None, "x", 0, "1:5a.r0@J1").status == 401
    service.act(game_id, tokens[1], "b", 0, "1:5a.r0@J1")
    sheets = service.view(game_id)["state"]["sheets"]
    assert sheets[1]["tiles"] and not sheets[0]["tiles"]  # it landed on seat 1, whose token it was
    assert error(service.act, game_id, tokens[0], "b", 1, "1:5a.r0@J1").code == "conflict"  # id taken by seat 1


def test_bots_play_their_seats(service: GameService) -> None:
    game_id, tokens = tomb(service, (None, "greedy"))
    view = service.view(game_id, tokens[0])
    assert view["to_act"] == [0] and view["state"]["sheets"][1]["phase"] == "waiting"
    treasure = service.create("treasure", [{"bot": "strong"}, {"name": "me"}], {"first": 0}, seed=5)
    tv = service.view(treasure["id"], treasure["seats"][1]["token"])
    assert tv["to_act"] == [1] and tv["version"] >= 2 and tv["legal"] == ["roll"]


def test_undo_is_an_entry_of_the_log(service: GameService) -> None:
    game_id, (token,) = tomb(service)
    service.act(game_id, token, "c1", 0, "1:5a.r0@J1")
    service.act(game_id, token, "c2", 1, "undo")
    view = service.view(game_id, token)
    assert view["version"] == 2 and view["state"]["sheets"][0]["tiles"] == []


def test_accepted_actions_survive_a_restart(service: GameService, db_url: str) -> None:
    game_id, tokens = tomb(service, (None, "greedy"))
    service.act(game_id, tokens[0], "c1", 0, "1:5a.r0@J1")
    before = service.view(game_id, tokens[0])
    reborn = GameService(make_engine(db_url))  # a new process on the same database
    assert reborn.view(game_id, tokens[0]) == before
    assert reborn.act(game_id, tokens[0], "c1", 0, "1:5a.r0@J1")["repeated"] is True


def play_out(service: GameService, game_id: str, token: str) -> None:
    while not service.view(game_id)["over"]:
        view = service.view(game_id, token)
        service.act(game_id, token, f"c{view['version']}", view["version"], view["legal"][0])


def test_T4_6_tomb_games_stored_before_per_seat_bought_dice_keep_the_shared_rule(db_url: str) -> None:
    """Migration 0003 marks the Tomb games stored before T4.6 gave each seat its own bought
    dice, so they replay under the rule they were played by (their record is of version 1);
    new games are unmarked."""
    engine = make_engine(db_url)
    migrate(engine)
    seats = [{"name": "a"}, {"bot": "random"}]
    old = GameService(engine).create("tomb", seats, {}, seed=31)
    migrate(engine, "0002")  # as if the game had been stored before the migration
    # Read from the table itself: the service's model holds the columns of later revisions.
    with engine.connect() as conn:
        stored = conn.execute(sa.text("SELECT config FROM games WHERE id = :id"), {"id": old["id"]}).scalar_one()
    assert "buys" not in json.loads(stored)
    migrate(engine)
    reborn = GameService(make_engine(db_url))
    assert reborn.view(old["id"])["config"]["buys"] == "shared"
    new = reborn.create("tomb", seats, {}, seed=31)
    assert "buys" not in reborn.view(new["id"])["config"]
    for created, version in ((old, 1), (new, 2)):
        play_out(reborn, created["id"], created["seats"][0]["token"])
        assert reborn.record(created["id"])["version"] == version


def test_commitment_verifies_when_the_game_ends_and_no_future_roll_leaks(service: GameService) -> None:
    created = service.create("treasure", [{"name": "solo"}], {}, seed=123456789)
    game_id, token = created["id"], created["seats"][0]["token"]
    assert error(service.record, game_id).code == "not_over"
    view_text = json.dumps(service.view(game_id, token))
    assert "123456789" not in view_text and "nonce" not in view_text
    from mummy.treasure.game import TreasureGame

    hidden = TreasureGame(123456789, 1).order
    for pile, order in hidden.items():
        assert all(f'"{tile}"' not in view_text for tile in order[1:]), pile
    play_out(service, game_id, token)
    record = service.record(game_id)
    assert record["seed"] == 123456789
    assert commitment("treasure", record["seed"], record["nonce"]) == created["commitment"]
    digest = hashlib.sha256(f"mummy:treasure:{record['seed']}:{record['nonce']}".encode()).hexdigest()
    assert digest == created["commitment"]
    assert service.view(game_id)["reveal"] == {"seed": 123456789, "nonce": record["nonce"]}


def test_my_games_lists_the_games_of_my_tokens(service: GameService) -> None:
    game_id, (token,) = tomb(service)
    _other_id, _ = tomb(service)
    mine = service.games_of([token])
    assert [g["id"] for g in mine] == [game_id]
    assert service.games_of([]) == [] and service.games_of(["nope"]) == []


def test_bot_client_ids_are_reserved_and_a_chosen_seed_is_shown(service: GameService) -> None:
    game_id, (token,) = tomb(service)
    assert error(service.act, game_id, token, "bot:2", 0, "1:5a.r0@J1").status == 422
    assert service.view(game_id)["config"]["seed_chosen"] is True
    secret = service.create("tomb", [{"name": "me"}], {})
    assert "seed_chosen" not in service.view(secret["id"])["config"]


def test_bots_resume_when_a_game_is_loaded_again(service: GameService, db_url: str) -> None:
    from sqlalchemy import delete
    from sqlalchemy.orm import Session

    from mummy.server.store.models import ActionRow, GameRow

    created = service.create("treasure", [{"bot": "greedy"}, {"name": "me"}], {"first": 0}, seed=5)
    game_id, token = created["id"], created["seats"][1]["token"]
    before = service.view(game_id, token)
    assert before["to_act"] == [1] and before["version"] > 0  # the bot has played its turn
    with Session(service.engine) as s, s.begin():  # as if the server died before writing them
        s.execute(delete(ActionRow).where(ActionRow.game_id == game_id))
        row = s.get(GameRow, game_id)
        assert row is not None
        row.version = 0
    reborn = GameService(make_engine(db_url))
    assert reborn.view(game_id, token) == before  # the bot played again, the same moves


def test_simultaneous_end_of_round_from_every_player_is_applied_exactly_once(service: GameService) -> None:
    import threading

    created = service.create("tomb", [{"name": f"p{i}"} for i in range(4)], {}, seed=FIVE_FIVE)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    for seat, token in enumerate(tokens):  # everyone uses their dice
        v = service.view(game_id, token)
        while "end" not in v["legal"]:
            service.act(game_id, token, f"x{seat}-{v['version']}", v["version"], v["legal"][0])
            v = service.view(game_id, token)
    version = service.view(game_id)["version"]
    barrier = threading.Barrier(len(tokens) * 2)
    answers: list[object] = []

    def end(token: str, seat: int) -> None:
        barrier.wait()
        try:
            answers.append(service.act(game_id, token, f"end{seat}", version, "end"))
        except ServiceError as exc:
            answers.append(exc)

    threads = [threading.Thread(target=end, args=(t, i)) for i, t in enumerate(tokens)]
    threads += [threading.Thread(target=end, args=(t, i)) for i, t in enumerate(tokens)]  # each sent twice
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    view = service.view(game_id)
    assert view["state"]["round"] == 2  # the round advanced once
    assert view["version"] == version + len(tokens)  # one end per player, no more
    assert sum(1 for a in answers if isinstance(a, dict) and a.get("repeated")) == len(tokens)


def test_unusual_digits_are_refused_as_notation_not_a_crash(service: GameService) -> None:
    game_id, (token,) = tomb(service)
    for text in ("buy\u00b2", "\u00b2:up", "1:5a.r0@J\u0661x"):
        err = error(service.act, game_id, token, f"c-{len(text)}-{ord(text[-1])}", 0, text)
        assert err.status == 422 and err.rule == "notation"


def test_a_game_needs_a_person(service: GameService) -> None:
    assert error(service.create, "tomb", [{"bot": "greedy"}], {}).status == 422
