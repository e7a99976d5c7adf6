"""``/openapi.json`` documents every answer: each route has a tag, a success answer with its
schema, and its errors in the one shared shape; and the errors the server sends are that
shape, whatever refused (a rule, the framework, the guard).

The hot answers (a view, an action) name their model without running through it, so the
last tests check real ones against their models here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient

from mummy.server.api.answers import Acted, ActionRefused, ErrorAnswer, GameView
from tests.server.test_http import auth, make

METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}
ERROR_REF = "#/components/schemas/Error"


def operations(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if method in METHODS:
                yield f"{method.upper()} {path}", op


def resolved(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """A schema with its ``$ref`` followed (components only)."""
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def described(schema: dict[str, Any], media: str, entry: dict[str, Any]) -> bool:
    """Whether a success answer's content says what it holds: JSON by a model with named
    properties (not ``{}``, nor a bare object of anything), or one of several such models;
    another media type by a schema."""
    body = entry.get("schema")
    if not body:
        return False
    if media != "application/json":
        return True
    body = resolved(schema, body)
    choices = body.get("anyOf") or body.get("oneOf")  # one model per game (a game's content)
    if choices:
        return all(resolved(schema, choice).get("properties") for choice in choices)
    return bool(body.get("properties"))


def test_every_route_has_a_tag_and_a_described_answer(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    declared = {tag["name"] for tag in schema.get("tags", [])}
    assert declared and all(tag.get("description") for tag in schema["tags"])
    untagged, unknown, undescribed = [], [], []
    for name, op in operations(schema):
        tags = op.get("tags") or []
        if not tags:
            untagged.append(name)
        unknown += [f"{name}: {tag}" for tag in tags if tag not in declared]
        answers = [(media, entry) for status, response in op["responses"].items() if status.startswith("2")
                   for media, entry in response.get("content", {}).items()]
        if not answers or not all(described(schema, media, entry) for media, entry in answers):
            undescribed.append(f"{name}: {answers}")
    assert not untagged, f"routes without a tag: {untagged}"
    assert not unknown, f"tags not in openapi_tags: {unknown}"
    assert not undescribed, "routes whose answer has no schema:\n" + "\n".join(undescribed)


def test_every_error_answer_is_the_shared_error(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    error = schema["components"]["schemas"]["Error"]
    assert {"code", "message", "rule"} <= set(error["required"])
    astray = []
    for name, op in operations(schema):
        if "default" not in op["responses"]:
            astray.append(f"{name}: no default error answer")
        for status, response in op["responses"].items():
            if not (status == "default" or status.startswith(("4", "5"))):
                continue
            body = response.get("content", {}).get("application/json", {}).get("schema", {})
            if resolved(schema, body).get("properties", {}).get("error", {}).get("$ref") != ERROR_REF:
                astray.append(f"{name} {status}: {body}")
    assert not astray, "error answers not in the shared shape:\n" + "\n".join(astray)


def test_the_schema_has_the_api_and_not_the_pages(client: TestClient) -> None:
    """The 29 routes of the API (at least) are in the schema; the HTML pages are not."""
    schema = client.get("/openapi.json").json()
    assert len(list(operations(schema))) >= 29
    assert all(path.startswith("/api/") for path in schema["paths"]), sorted(schema["paths"])


def shared(body: dict[str, Any]) -> dict[str, Any]:
    """The answer's error, after checking it has the shared shape."""
    ErrorAnswer.model_validate(body)
    assert set(body["error"]) >= {"code", "message", "rule"}, body
    return body["error"]  # type: ignore[no-any-return]


def test_every_kind_of_error_has_the_shared_shape(client: TestClient) -> None:
    created = make(client)
    game_id, token = created["id"], created["seats"][0]["token"]
    url = f"/api/games/{game_id}/actions"
    illegal = client.post(url, headers=auth(token), json={"client_id": "a", "version": 0, "action": "1:5a.r0@E5"})
    assert illegal.status_code == 422 and shared(illegal.json())["rule"] == "T3.2"
    ActionRefused.model_validate(illegal.json())
    missing = client.get("/api/games/nope")
    assert missing.status_code == 404 and shared(missing.json()) == {
        "code": "not_found", "message": "no game 'nope'", "rule": None}
    bad = client.post(url, headers=auth(token), json={"client_id": "", "version": 0})
    assert bad.status_code == 422 and shared(bad.json())["code"] == "bad_request"
    assert "body.client_id" in bad.json()["error"]["message"] and "body.action" in bad.json()["error"]["message"]
    assert [d["loc"] for d in bad.json()["detail"]] == [["body", "client_id"], ["body", "action"]]
    nowhere = client.get("/api/nowhere")
    assert nowhere.status_code == 404 and shared(nowhere.json())["code"] == "not_found"
    assert nowhere.json()["detail"] == "Not Found"
    wrong = client.delete("/api/health")
    assert wrong.status_code == 405 and shared(wrong.json())["code"] == "method_not_allowed"
    assert "GET" in wrong.headers["allow"]
    big = client.post("/api/games", content=b"x" * (65 * 1024), headers={"content-type": "application/json"})
    assert big.status_code == 413 and shared(big.json())["code"] == "too_large"


def test_the_hot_answers_match_their_models(client: TestClient) -> None:
    """A view and an action's answer are sent as encoded, not through their models: real
    ones of both games, a seat's and a spectator's, running and over, fit them."""
    created = make(client)
    game_id, token = created["id"], created["seats"][0]["token"]
    seen = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
    assert GameView.model_validate(seen).legal == seen["legal"]
    assert "legal" not in client.get(f"/api/games/{game_id}").json()
    acted = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                        json={"client_id": "a", "version": 0, "action": "1:5a.r0@J1"}).json()
    Acted.model_validate(acted)
    stale = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                        json={"client_id": "b", "version": 0, "action": "end"})
    assert stale.status_code == 409 and ActionRefused.model_validate(stale.json()).state is not None
    treasure = client.post("/api/games", json={"game": "treasure", "seats": [{"name": "me"}, {"bot": "greedy"}],
                                               "seed": 3}).json()
    game_id, token = treasure["id"], treasure["seats"][0]["token"]
    for _ in range(2000):
        view = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
        GameView.model_validate(view)
        if view["over"]:
            break
        move = {"client_id": f"c{view['version']}", "version": view["version"], "action": view["legal"][0]}
        Acted.model_validate(client.post(f"/api/games/{game_id}/actions", headers=auth(token), json=move).json())
    assert view["over"] and GameView.model_validate(view).result is not None
