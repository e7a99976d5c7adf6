"""A third game, registered from outside the package (``tests/toy``), plays through the
CLI, the simulation runner and the server's routes without any module of the package
knowing it: one package and one registration is all a game takes (docs/architecture.md)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx", reason="the server's test client needs httpx (the dev extra)")

from fastapi.testclient import TestClient

from mummy.cli import main
from mummy.games import games, kind_named, register, unregister
from mummy.server.admission.limits import Limits
from mummy.server.app import create_app
from mummy.sim.runner import run, specs
from mummy.sim.summary import summarise
from tests.toy import TOY

WIDE = Limits(games_per_address="1000/minute", actions_per_address="1000/second")


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register(TOY)
    try:
        yield
    finally:
        unregister(TOY.name)


def test_the_registry_lists_it_with_its_parts() -> None:
    assert "toy" in games() and kind_named("toy").title == "Toy Tally"
    assert not TOY.has("printer") and not TOY.has("analysis")
    with pytest.raises(LookupError, match="Toy Tally has no printer"):
        TOY.part("printer")


def test_played_and_replayed_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "toy.json"
    assert main(["play", "toy", "--seed", "5", "--bots", "greedy,random", "--save", str(saved)]) == 0
    scores = capsys.readouterr().out.strip().splitlines()[-1]
    record = json.loads(saved.read_text())
    assert record["format"] == "mummy-toy-record" and len(record["actions"]) == 8
    assert main(["replay", str(saved)]) == 0
    assert scores.removeprefix("scores: ") in capsys.readouterr().out
    assert main(["sim", "toy", "--bots", "greedy,random", "--games", "6", "--quiet"]) == 0
    assert "6 games of toy" in capsys.readouterr().out


def test_simulated_by_the_runner() -> None:
    rows = list(run(specs("toy", ["greedy", "random"], 20, seed=1)))
    assert [r["seed"] for r in rows] == list(range(1, 21))
    again = list(run(specs("toy", ["greedy", "random"], 20, seed=1)))
    assert [r["scores"] for r in rows] == [r["scores"] for r in again]  # a pure function of the seeds
    mean = summarise(rows)["mean"]
    assert mean["greedy"] > mean["random"]  # a high die high pays (X3)


def test_a_game_without_a_narrator_is_logged_in_its_notation(tmp_path: Path) -> None:
    """Every part but the kind is optional: a game with no narrator plays online, its log
    in its notation."""
    register(dataclasses.replace(TOY, name="quiet", narrator=None))
    try:
        with TestClient(create_app(f"sqlite:///{tmp_path / 'quiet.db'}", limits=WIDE)) as client:
            created = client.post("/api/games", json={"game": "quiet", "seats": [{"name": "Ann"}], "seed": 2}).json()
            auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
            move = {"client_id": "a", "version": 0, "action": "B4"}
            assert client.post(f"/api/games/{created['id']}/actions", headers=auth, json=move).status_code == 200
            assert client.get(f"/api/games/{created['id']}").json()["log"][-1]["sentence"] == "B4"
    finally:
        unregister("quiet")


def test_played_through_the_servers_routes(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'toy.db'}", limits=WIDE)) as client:
        listed = {g["name"]: g for g in client.get("/api/games/kinds").json()["games"]}
        assert listed["toy"]["seats"] == {"min": 1, "max": 4}
        assert [o["key"] for o in listed["toy"]["options"]] == ["boxes"]
        assert not listed["toy"]["has"]["print"]
        created = client.post("/api/games", json={"game": "toy", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                                  "boxes": "3", "seed": 9})
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        tokens = [s["token"] for s in created.json()["seats"]]
        refused = client.post(f"/api/games/{game_id}/actions", headers={"Authorization": f"Bearer {tokens[0]}"},
                              json={"client_id": "x", "version": 0, "action": "B9"})
        assert refused.status_code == 422 and "B1 to B3" in refused.text
        version = 0
        for round_ in range(3):
            for seat, token in enumerate(tokens):
                move = {"client_id": f"c{round_}-{seat}", "version": version, "action": f"B{round_ + 1}"}
                r = client.post(f"/api/games/{game_id}/actions", headers={"Authorization": f"Bearer {token}"},
                                json=move)
                assert r.status_code == 200, r.text
                version += 1
        view = client.get(f"/api/games/{game_id}").json()
        assert view["over"] and view["config"]["boxes"] == "3"
        assert view["log"][-1]["sentence"].startswith("Wrote ")
        record = client.get(f"/api/games/{game_id}/record").json()
        assert record["format"] == "mummy-toy-record" and record["seed"] == 9
        assert view["result"]["scores"] == kind_named("toy").result(kind_named("toy").replay_record(record).game)[
            "scores"]
        assert client.get("/api/print/toy.svg").status_code == 404
        _against_a_bot(client)


def _against_a_bot(client: TestClient) -> None:
    """A person and the greedy bot: the bot writes its box as the person writes theirs."""
    created = client.post("/api/games", json={"game": "toy", "seats": [{"name": "Ann"}, {"bot": "greedy"}],
                                              "seed": 4}).json()
    auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    view = client.get(f"/api/games/{created['id']}", headers=auth).json()
    while not view["over"]:
        move = {"client_id": f"c{view['version']}", "version": view["version"], "action": view["legal"][-1]}
        assert client.post(f"/api/games/{created['id']}/actions", headers=auth, json=move).status_code == 200
        view = client.get(f"/api/games/{created['id']}", headers=auth).json()
    assert [s["bot"] for s in view["seats"]] == [None, "greedy"] and len(view["result"]["scores"]) == 2
