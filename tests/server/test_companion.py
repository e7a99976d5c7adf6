"""The companion's routes: a seed's dice (T4.1, T4.6) and a paper sheet's check (T7)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from mummy.tomb.rules import ROUNDS, bought_die, round_dice


def test_a_seeds_dice_come_in_one_answer(client: TestClient) -> None:
    got = client.get("/api/companion/tomb", params={"seed": "123", "players": 3})
    assert got.status_code == 200
    data: dict[str, Any] = got.json()
    assert data["seed"] == 123 and len(data["rounds"]) == ROUNDS
    assert data["rounds"][4] == list(round_dice(123, 5))
    assert [row[:3] for row in data["bought"]] == [[bought_die(123, s, k) for k in range(3)] for s in range(3)]
    assert {m["id"] for m in data["maps"]} >= {"map1", "map2"} and data["form"][0]["name"] == "oozes"


def test_a_bad_seed_or_table_is_refused_with_its_field(client: TestClient) -> None:
    bad = client.get("/api/companion/tomb", params={"seed": "-4"})
    assert bad.status_code == 422 and "seed" in bad.json()["error"]["message"]
    assert client.get("/api/companion/tomb", params={"seed": "1", "players": 9}).status_code == 422
    assert client.get("/api/companion/tomb", params={"seed": "9" * 40}).status_code == 422


def test_a_paper_sheet_is_scored_by_the_engine(client: TestClient) -> None:
    body = {"map": "map1", "tally": {"oozes": 6, "skeletons": 6, "zombies": 4, "golems": 4, "mimics": 3,
                                     "hits": [18, 16, 26, 20, 18], "items": 4, "leftovers": 3, "entrances": 3,
                                     "key_track_full": True, "skeleton_key": True}, "total": 240}
    got = client.post("/api/companion/tomb/score", json=body).json()
    assert got["total"] == 244 and got["lines"]["mummy"] == 98
    assert got["achievements"] == ["Master of the Undead", "Magical Warden", "The Mapmaker"]
    assert got["differences"] == ["total: you wrote 240, the count gives 244 (T7)"] and got["faults"] == []


def test_a_malformed_count_is_refused_by_field(client: TestClient) -> None:
    for tally, field in [({"oozes": -1}, "tally.oozes"), ({"hits": "many"}, "tally.hits"),
                         ({"fish": 2}, "tally.fish"), ({"skeleton_key": "yes"}, "tally.skeleton_key")]:
        got = client.post("/api/companion/tomb/score", json={"tally": tally})
        assert got.status_code == 422 and field in got.json()["error"]["message"], got.json()
    assert client.post("/api/companion/tomb/score", json={"map": "map9", "tally": {}}).status_code == 422
