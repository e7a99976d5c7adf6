"""Game records replay exactly; snapshots are a stable picture of a sheet."""

from __future__ import annotations

import json
import random

import pytest

from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.record import RecordError, dumps_record, replay_record, snapshot, to_record
from mummy.tomb.scoring import score
from tests.helpers import act, game, sheet_state


def random_game(seed: int, players: int = 1, steps: int | None = None, shared_buys: bool = False) -> TombGame:
    g = TombGame(seed, [PlayerSetup(f"p{i}", "map1" if i % 2 == 0 else "map2") for i in range(players)],
                 shared_buys=shared_buys)
    rng = random.Random(seed)
    n = 0
    while not g.is_over and (steps is None or n < steps):
        p = g.to_act()[0]
        g.apply(p, rng.choice(g.legal_actions(p)))
        n += 1
    return g


def test_T4_6_a_record_replays_to_the_same_state() -> None:
    g = random_game(4, players=2)
    obj = json.loads(dumps_record(g))
    assert obj["format"] == "mummy.tomb.record" and obj["seed"] == 4
    assert obj["players"][1] == {"name": "p1", "map": "map2", "mode": "standard"}
    result = replay_record(obj)
    assert result.ok and result.game.is_over
    assert [sheet_state(s) for s in result.game.sheets] == [sheet_state(s) for s in g.sheets]
    assert obj["final"] == [score(s).total for s in g.sheets]


def test_T4_6_records_say_which_bought_dice_rule_they_were_played_by() -> None:
    """Version 2: each seat its own bought dice. A version-1 record (one shared stream) still
    replays under its own rule, and is written back as version 1."""
    assert to_record(TombGame(3, 2))["version"] == 2
    for shared in (True, False):
        g = random_game(31, players=2, shared_buys=shared)
        assert any(p == 1 and a.kind == "buy" for p, a in g.history)  # seat 1 bought dice
        obj = to_record(g)
        assert obj["version"] == (1 if shared else 2)
        result = replay_record(json.loads(json.dumps(obj)))
        assert result.ok and result.game.shared_buys is shared
        assert [sheet_state(s) for s in result.game.sheets] == [sheet_state(s) for s in g.sheets]
        assert to_record(result.game) == obj
        # Under the other rule, the same actions do not give the same game.
        obj["version"] = 3 - obj["version"]
        other = replay_record(obj)
        assert not other.ok or [sheet_state(s) for s in other.game.sheets] != [sheet_state(s) for s in g.sheets]
    for bad in (0, 3, True, "2"):
        with pytest.raises(RecordError):
            replay_record({**to_record(TombGame(3, 1)), "version": bad})


def test_replay_reports_the_first_bad_action() -> None:
    g = game()
    act(g, "1:5a.r0@J1")
    act(g, "2:5b.r3@J4")
    obj = to_record(g)
    obj["actions"][1]["action"] = "2:5b.r0@A1"
    result = replay_record(obj)
    assert not result.ok and result.error is not None
    assert result.error.index == 1
    assert "action 2" in str(result.error) and "T3." in str(result.error)
    assert len(result.game.history) == 1


def test_replay_checks_claimed_final_scores() -> None:
    g = random_game(5)
    obj = to_record(g)
    obj["final"] = [obj["final"][0] + 1]
    result = replay_record(obj)
    assert not result.ok and "claims final scores" in str(result.error)


@pytest.mark.parametrize("obj", [
    {}, {"format": "x"}, {"format": "mummy.tomb.record", "version": 9},
    {"format": "mummy.tomb.record", "version": 1, "seed": -1, "players": [{}], "actions": []},
    {"format": "mummy.tomb.record", "version": 1, "seed": 1, "players": [], "actions": []},
    {"format": "mummy.tomb.record", "version": 1, "seed": 1, "players": [{"mode": "x"}], "actions": []},
    {"format": "mummy.tomb.record", "version": 1, "seed": 1, "players": [{"map": "nope"}], "actions": []},
    {"format": "mummy.tomb.record", "version": 1, "seed": 1, "players": [{}], "actions": {}},
])
def test_malformed_records_are_refused(obj: dict[str, object]) -> None:
    with pytest.raises(RecordError):
        replay_record(obj)


def test_malformed_action_entries_are_reported() -> None:
    obj = to_record(game())
    for bad in ({"player": 0}, {"player": 3, "action": "end"}, {"player": 0, "action": "fly"}):
        obj["actions"] = [bad]
        assert not replay_record(obj).ok


def test_snapshot_is_a_complete_json_picture_of_a_sheet() -> None:
    g = game()
    act(g, "1:5a.r0@J1")
    act(g, "2:5b.r3@J4")
    snap = json.loads(json.dumps(snapshot(g, 0)))
    assert snap["format"] == "mummy.tomb.sheet" and snap["version"] == 1
    assert snap["covered"]["J1"] == 1 and snap["covered"]["I6"] == 2
    assert snap["tiles"][1] == {"n": 2, "shape": "5b", "orient": "r3", "square": "J4",
                                "squares": ["J4", "J5", "H6", "I6", "J6"]}
    assert set(snap["open_openings"]) == {"I2w", "L2w", "H6w"}
    assert "J4n" in snap["passages"]
    assert {e["edge"]: e["state"] for e in snap["entrances"]} == {
        "J1n": "connected", "L3e": "open", "A11w": "open", "C12s": "open"}
    assert {"square": "I6", "kind": "coins", "amount": 3} in snap["findings"]
    assert snap["tracks"]["coins"] == 3
    assert snap["tracks"]["tile_table"] == {"marked": ["5a", "5b"], "rows_paid": [5], "columns_paid": []}
    assert snap["dice"]["row"][2] == {"slot": 3, "value": 2, "source": "bonus", "used": False}
    assert snap["score"]["total"] == score(g.sheets[0]).total
    assert snap["round"] == 1 and snap["phase"] == "play"
