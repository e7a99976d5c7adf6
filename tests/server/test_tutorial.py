"""The Tomb's tutorial (mummy.server.coaching.tutorial): the rulebook's First Round Example on Map 1
(T9) on a seed that rolls its two 5s, every step legal in the real engine, and what each
step says it did is what the engine did."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from mummy.games import KINDS
from mummy.server.coaching.tutorial import STEPS, example_seed, tutorial
from mummy.tomb.rules import round_dice

TOMB = KINDS["tomb"]
RULES_MD = Path(__file__).resolve().parents[2] / "src" / "mummy" / "web" / "static" / "rules" / "tomb.md"


def _played(upto: int) -> Any:
    script = tutorial()
    game = TOMB.new(script["create"]["seed"], {"map": "map1", "mode": "standard"}, ["You"])
    for step in script["steps"][:upto]:
        TOMB.apply(game, 0, step["action"])
    return TOMB.view(game)["sheets"][0]


def test_the_seed_rolls_the_examples_two_fives_and_is_the_first_that_does() -> None:
    seed = example_seed()
    assert round_dice(seed, 1) == (5, 5)  # T4.6: the seed fixes the roll
    assert all(round_dice(s, 1) != (5, 5) for s in range(seed))
    assert tutorial()["create"] == {"game": "tomb", "map": "map1", "mode": "standard", "seed": seed}


def test_every_step_is_the_examples_move_as_data() -> None:
    steps = tutorial()["steps"]
    assert [s["action"] for s in steps] == ["1:5a.r0@J1", "2:5b.r3@J4", "3:2a.r0@E6", "buy2", "4:2b.r0@F2", "end"]
    assert all(s["move"]["text"] == s["action"] for s in steps)
    assert steps[1]["move"] == {"text": "2:5b.r3@J4", "kind": "place", "dice": [2], "shape": "5b", "orient": "r3",
                                "square": "J4"}
    assert steps[3]["move"] == {"text": "buy2", "kind": "choose", "value": 2}


def test_each_step_names_the_value_of_the_die_it_spends() -> None:
    """Equal dice are interchangeable (T4.2): the page takes the example's tile from either
    5, so a step says the die's value, as the engine rolled it where the step stands."""
    steps = tutorial()["steps"]
    assert [s["die"] for s in steps] == [5, 5, 2, None, 2, None]
    for k, step in enumerate(steps):
        if step["die"] is not None:
            row = _played(k)["dice"]["row"]
            assert {d["slot"]: d["value"] for d in row}[step["move"]["dice"][0]] == step["die"]


def test_what_each_step_says_it_did_is_what_the_engine_did() -> None:
    first = _played(1)  # the cross at the top entrance (T3.2)
    assert set(first["covered"]) == {"J1", "I2", "J2", "K2", "J3"}
    assert sorted(first["open_openings"]) == ["I2w", "J4n", "L2w"]
    assert "5a" in first["tracks"]["tile_table"]["marked"]  # T2.3
    second = _played(2)  # the corner collects I6's 3 coins; row 5 pays a bonus 2 (T2.4, T2.5)
    assert second["tracks"]["coins"] == 3 and {"square": "I6", "kind": "coins", "amount": 3} in second["findings"]
    assert second["dice"]["row"][2] == {"slot": 3, "value": 2, "source": "bonus", "used": False}
    third = _played(3)
    assert {"E6", "F6", "G6"} <= set(third["covered"])
    fourth = _played(4)  # 3 coins choose a 2 (T4.3)
    assert fourth["tracks"]["coins"] == 0 and fourth["dice"]["row"][3]["value"] == 2
    fifth = _played(5)  # the fork finds the mimic and the Shovel; row 2 pays a 5 for round 2 (T2.5)
    assert {f["square"] for f in fifth["findings"]} >= {"F2", "G3"}
    assert fifth["tracks"]["items"]["shovel"]["found"] and fifth["tracks"]["monsters"]["mimics"]["circled"] == 1
    assert fifth["dice"]["next_round"] == [5]
    last = _played(6)  # T4.4: every die used, the round ends
    assert last["round"] == 2 and last["dice"]["row"][0]["value"] == 5


def test_every_rule_a_step_names_is_a_rule_and_is_cited() -> None:
    known = set(re.findall(r"^- (T\d+\.\d+) ", RULES_MD.read_text(encoding="utf-8"), re.M)) | {"T7"}
    for step in STEPS:
        named = set(re.findall(r"\bT\d+(?:\.\d+)?\b", step.why + step.do))
        assert named <= set(step.rules) | {"T7"}, (step.action, named - set(step.rules))
        assert set(step.rules) <= known, step.action
        assert set(re.findall(r"\bT\d+(?:\.\d+)?\b", step.after + step.other)) <= known


def test_the_endpoint_hands_out_the_steps_and_its_game_plays_them(client: TestClient) -> None:
    script = client.get("/api/tutorial").json()
    assert script == tutorial()
    created = client.post("/api/games", json={**script["create"], "seats": [{"name": "You"}]}).json()
    token = created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for version, step in enumerate(script["steps"]):
        answer = client.post(f"/api/games/{created['id']}/actions", headers=auth,
                             json={"client_id": f"t{version}", "version": version, "action": step["action"]})
        assert answer.status_code == 200, answer.text
    view = client.get(f"/api/games/{created['id']}", headers=auth).json()
    assert view["state"]["round"] == 2
    assert client.get("/tutorial").status_code == 200 and client.get("/rules").status_code == 200
