"""The view's log in words (contracts §1) and the preview of an action (contracts §2):
the log the server keeps as actions are applied equals the one rebuilt from the database,
and a preview changes nothing, answers like an action when refused, and is a seat's own."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mummy.render.narrate import LOG_TAIL
from mummy.server.play.service import GameService, ServiceError

FIVE_FIVE = 99  # map1 round 1 rolls 5 and 5


def play(service: GameService, game_id: str, token: str, moves: int, undo_every: int = 0) -> None:
    """A person's moves, chosen at random among the legal ones (an undo now and then)."""
    rng = random.Random(1)
    for i in range(moves):
        view = service.view(game_id, token)
        if view["over"] or not view.get("legal"):
            return
        undo = undo_every and i % undo_every == undo_every - 1 and view["can_undo"]
        text = "undo" if undo else rng.choice(view["legal"])
        service.act(game_id, token, f"c{i}", view["version"], text)


def check_log(view: dict[str, Any]) -> None:
    log = view["log"]
    assert 0 < len(log) <= LOG_TAIL
    assert [e["version"] for e in log] == list(range(view["version"] - len(log) + 1, view["version"] + 1))
    names = {s["seat"]: s["name"] for s in view["seats"]}
    for entry in log:
        assert set(entry) == {"version", "seat", "name", "text", "sentence", "chance", "squares", "dice", "tile"}
        assert entry["name"] == names[entry["seat"]] and entry["sentence"] and "@" not in entry["sentence"]


def test_the_log_rebuilt_from_the_database_equals_the_live_one(service: GameService) -> None:
    for kind, bot in (("tomb", "greedy"), ("treasure", "random")):
        created = service.create(kind, [{"name": "Ann"}, {"name": "Sphinx", "bot": bot}], {}, seed=FIVE_FIVE)
        game_id, token = created["id"], created["seats"][0]["token"]
        play(service, game_id, token, 40, undo_every=7 if kind == "tomb" else 0)
        live = service.view(game_id, token)
        check_log(live)
        assert {e["seat"] for e in live["log"]} == {0, 1}  # the bot's moves are told too
        reloaded = GameService(service.engine).view(game_id, token)  # a new process: read from the log
        assert reloaded["log"] == live["log"] and reloaded["version"] == live["version"]


def test_an_undo_is_an_entry_that_says_what_it_took_back(service: GameService) -> None:
    created = service.create("tomb", [{"name": "Ann"}], {}, seed=FIVE_FIVE)
    game_id, token = created["id"], created["seats"][0]["token"]
    service.act(game_id, token, "a", 0, "1:5a.r0@J1")
    service.act(game_id, token, "b", 1, "undo")
    log = service.view(game_id, token)["log"]
    assert [e["text"] for e in log] == ["1:5a.r0@J1", "undo"]
    assert log[0]["sentence"].startswith("Cross at J1") and log[1]["sentence"] == "Ann took back: Cross at J1"
    assert GameService(service.engine).view(game_id, token)["log"] == log


def get_preview(client: TestClient, game_id: str, token: str | None, action: str) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.get(f"/api/games/{game_id}/preview", params={"action": action}, headers=headers)


def test_a_preview_changes_nothing_and_says_what_the_action_would_do(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Ann"}], "seed": FIVE_FIVE}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    before = client.get(f"/api/games/{game_id}", headers=auth).json()
    answer = get_preview(client, game_id, token, "1:5A.R0@J1")  # any spelling the engine reads
    assert answer.status_code == 200
    body = answer.json()
    assert body["version"] == 0 and body["action"] == "1:5a.r0@J1" and body["sentence"].startswith("Cross at J1")
    assert body["warnings"] == [] and body["uses_after"] > 0
    for text in ("buy", "end", "1:up"):
        get_preview(client, game_id, token, text)  # answered or refused: either way nothing changes
    assert client.get(f"/api/games/{game_id}", headers=auth).json() == before


def test_a_refused_preview_names_the_rule_like_an_action(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Ann"}], "seed": FIVE_FIVE}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    refused = get_preview(client, game_id, token, "1:5b.r0@A10")
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert (error["code"], error["rule"], error["where"], error["version"]) == ("illegal", "T3.2", "A10", 0)
    assert get_preview(client, game_id, token, "fly").json()["error"]["rule"] == "notation"
    ended = get_preview(client, game_id, token, "end").json()["error"]
    assert ended["rule"] == "T4.4"  # a round ends once every die is used
    assert get_preview(client, game_id, None, "end").status_code == 401
    other = client.post("/api/games", json={"game": "tomb", "seats": [{"name": "Bo"}]}).json()
    assert get_preview(client, game_id, other["seats"][0]["token"], "end").status_code == 403
    assert get_preview(client, game_id, token, "x" * 65).status_code == 422


@pytest.mark.daily
def test_a_daily_challenge_is_previewed_by_its_player_only(client: TestClient, service: GameService) -> None:
    created = service.create_daily("tomb", "Ann")
    game_id, token = created["id"], created["seats"][0]["token"]
    assert get_preview(client, game_id, None, "buy").status_code == 401  # nobody else sees the day's dice
    legal = service.view(game_id, token)["legal"]
    assert get_preview(client, game_id, token, legal[0]).status_code == 200


def test_a_finished_game_takes_no_preview(service: GameService) -> None:
    created = service.create("treasure", [{"name": "Ann"}], {}, seed=3)
    game_id, token = created["id"], created["seats"][0]["token"]
    play(service, game_id, token, 10_000)
    assert service.view(game_id, token)["over"]
    try:
        service.preview(game_id, token, "roll")
    except ServiceError as exc:
        assert (exc.status, exc.code) == (409, "over")
    else:
        raise AssertionError("a finished game previewed an action")


def test_a_sentence_that_fails_never_costs_the_move(service: GameService, monkeypatch: Any) -> None:
    from mummy.render.narrate import NARRATORS

    def broken(*_: Any) -> Any:
        raise RuntimeError("a bug in a sentence")

    monkeypatch.setattr(NARRATORS["tomb"], "narrate", broken)
    created = service.create("tomb", [{"name": "Ann"}], {}, seed=FIVE_FIVE)
    game_id, token = created["id"], created["seats"][0]["token"]
    assert service.act(game_id, token, "a", 0, "1:5a.r0@J1")["version"] == 1
    assert service.view(game_id, token)["log"][0]["sentence"] == "1:5a.r0@J1"  # the notation stands in


def test_a_preview_whose_words_fail_answers_the_engines_action_and_no_warning(
        service: GameService, monkeypatch: Any) -> None:
    """A bug in a preview's words or warnings must neither pass for the engine's refusal
    (a 422 for a legal move) nor fail the page: the action is answered, unworded."""
    from mummy.render.narrate import NARRATORS

    def broken(*_: Any) -> Any:
        raise ValueError("a bug in the warnings")

    monkeypatch.setattr(NARRATORS["tomb"], "preview", broken)
    created = service.create("tomb", [{"name": "Ann"}], {}, seed=FIVE_FIVE)
    game_id, token = created["id"], created["seats"][0]["token"]
    answer = service.preview(game_id, token, "1:5A.R0@J1")
    assert answer == {"version": 0, "action": "1:5a.r0@J1", "sentence": "1:5a.r0@J1", "warnings": [], "uses_after": -1}
    with pytest.raises(ServiceError) as refused:  # the engine's refusals stay refusals
        service.preview(game_id, token, "1:5b.r0@A10")
    assert (refused.value.status, refused.value.rule) == (422, "T3.2")
