"""The map editor's routes (docs/web.md, "Editor"): a map's text checked by the rules of
``mummy check-map`` (T10) with its fault's line and square, custom maps registered by their
text, their drawing, and a game on a custom map that plays and is loaded again by a server
that never saw the map (its text is stored with the game)."""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mummy.server.app import create_app
from mummy.server.play.service import GameService
from mummy.tomb import content
from mummy.tomb.content import MAX_MAP_TEXT, custom_map_id, is_map, parse_map
from tests.server.conftest import TEST_LIMITS

GRID = ["........", "..##....", "..##....", "........", ".....#..", "........", "........", "........"]


def small_map(*, room: str = "C2 N", extra: str = "") -> str:
    """An 8x8 map of every kind of line, with a name no other test uses (so that its id is
    registered by nobody else in this process)."""
    rows = "\n".join(f"  {r}" for r in GRID)
    return (f"name: tiny-{uuid.uuid4().hex[:8]}\ntitle: Tiny\ngrid:\n{rows}\nend\n"
            f"entrance: A1 N\nentrance: H8 E\nroom: {room} sarcophagus\nroom: D3 E gem red\n"
            "coins: E1 2\nkey: A4\nooze: H1\ngolem: A8 red\nmimic: G7\nitem: B6 shovel\n"
            f"{extra}log ooze: 1\nlog skeleton: 1\nlog zombie: 2\nlog golem: red 2\nlog mimic: 1\n"
            "key-track: 4\ncoin-track: 20\n")


def line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_a_valid_map_is_checked_with_its_id_and_drawing_and_nothing_is_registered(client: TestClient) -> None:
    text = small_map()
    got = client.post("/api/maps/check", json={"text": text})
    assert got.status_code == 200
    data: dict[str, Any] = got.json()
    assert data["ok"] is True and data["id"] == custom_map_id(text)
    drawing = data["map"]
    assert drawing["id"] == data["id"] and (drawing["width"], drawing["height"]) == (8, 8)
    assert drawing["stone"] == ["C2", "D2", "C3", "D3", "F5"]
    rooms = {(r["square"], r["finding"], r["opening"]) for r in drawing["rooms"]}
    assert rooms == {("C2", "sarcophagus", "C2n"), ("D3", "gem", "E3w")}  # an edge by its canonical name
    assert {f["kind"] for f in drawing["findings"]} == {"coins", "key", "ooze", "golem", "mimic", "item"}
    assert not is_map(data["id"])  # a check registers nothing
    assert client.get(f"/api/content/tomb/maps/{data['id']}").status_code == 404


def test_a_fault_names_its_line_its_square_and_the_rule(client: TestClient) -> None:
    text = small_map(room="C2 S")  # C2's south side is C3: stone (T10)
    got = client.post("/api/maps/check", json={"text": text}).json()
    assert got == {"ok": False, "fault": {"line": line_of(text, "room: C2"), "square": "C2",
                                          "message": "room C2 S does not face a free square (T10)"}}
    with pytest.raises(ValueError, match="does not face a free square"):  # what `mummy check-map` says
        parse_map(text, "map.txt")
    # A finding on stone, on the finding's square; a missing line has no square.
    on_stone = client.post("/api/maps/check", json={"text": small_map(extra="key: F5\n")}).json()
    assert on_stone["fault"]["square"] == "F5" and "on stone" in on_stone["fault"]["message"]
    missing = client.post("/api/maps/check", json={"text": small_map().replace("coin-track: 20\n", "")}).json()
    assert missing["fault"]["square"] is None and "coin-track" in missing["fault"]["message"]
    grid = client.post("/api/maps/check", json={"text": small_map().replace("..##....", "..##...x", 1)}).json()
    assert grid["fault"]["line"] == 5 and grid["fault"]["square"] is None


def test_a_custom_map_is_registered_and_drawn_by_its_id(client: TestClient) -> None:
    text = small_map()
    made = client.post("/api/maps", json={"text": text})
    assert made.status_code == 201
    map_id = made.json()["id"]
    assert map_id == custom_map_id(text) and map_id.startswith("custom-") and is_map(map_id)
    drawn = client.get(f"/api/content/tomb/maps/{map_id}")
    assert drawn.status_code == 200 and drawn.json() == made.json()["map"]
    assert drawn.json()["title"] == "Tiny" and drawn.json()["key_track"] == 4
    # The same map saved on another system (CRLF, trailing spaces) is the same map.
    again = client.post("/api/maps", json={"text": text.replace("\n", "  \r\n") + "\r\n\r\n"}).json()
    assert again["id"] == map_id
    # The packaged maps are drawn here too.
    assert client.get("/api/content/tomb/maps/map2").json()["id"] == "map2"


def test_registering_an_invalid_map_is_refused_with_its_line_rule_and_square(client: TestClient) -> None:
    text = small_map(room="C2 S")
    got = client.post("/api/maps", json={"text": text})
    assert got.status_code == 422
    message = f"line {line_of(text, 'room: C2')}: room C2 S does not face a free square (T10)"
    assert got.json()["error"] == {"code": "bad_map", "rule": "T10", "where": "C2", "message": message}
    assert not is_map(custom_map_id(text))


def test_oversize_text_is_refused(client: TestClient) -> None:
    huge = small_map() + "# " + "x" * MAX_MAP_TEXT + "\n"
    for path in ("/api/maps/check", "/api/maps"):
        got = client.post(path, json={"text": huge})
        assert got.status_code == 422 and got.json()["detail"][0]["loc"] == ["body", "text"]
        assert len(got.text) < 2000  # the text is not echoed back whole
    body = {"game": "tomb", "seats": [{"name": "Ada"}], "map_text": huge}
    assert client.post("/api/games", json=body).status_code == 422
    assert client.post("/api/maps/check", json={"text": 42}).status_code == 422  # strict: text is a string


def test_unknown_maps_are_404(client: TestClient) -> None:
    for map_id in ("custom-000000000000", "map99", "gen-impossible-1-0", "x" * 300):
        got = client.get(f"/api/content/tomb/maps/{map_id}")
        assert got.status_code == 404 and got.json()["error"]["code"] == "not_found"
        assert len(got.json()["error"]["message"]) < 300  # a long id is not repeated whole


def _play(client: TestClient, game_id: str, token: str, moves: int, ids: str) -> dict[str, Any]:
    """``legal[0]`` ``moves`` times, through the end of the first round at least (client
    ids ``ids0``, ``ids1``…: a repeated id would get its first answer again)."""
    view: dict[str, Any] = client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json()
    n = 0
    while n < moves or view["state"]["round"] == 1:
        action = "end" if n >= moves and "end" in view["legal"] else view["legal"][0]
        answer = client.post(f"/api/games/{game_id}/actions", headers={"Authorization": f"Bearer {token}"},
                             json={"client_id": f"{ids}{n}", "version": view["version"], "action": action})
        assert answer.status_code == 200, answer.json()
        view = answer.json()["state"]
        n += 1
    return view


def test_a_game_on_a_custom_map_plays_and_is_loaded_again_by_a_fresh_server(
        client: TestClient, service: GameService) -> None:
    text = small_map()
    seats = [{"name": "Ada"}, {"name": "Sphinx", "bot": "greedy"}]
    body = {"game": "tomb", "seats": seats, "map_text": text, "seed": 12}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.json()
    game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
    map_id = custom_map_id(text)
    view = _play(client, game_id, token, moves=3, ids="first")
    assert view["state"]["round"] == 2
    assert [s["map"] for s in view["state"]["sheets"]] == [map_id, map_id]  # the bot plays it too
    assert view["config"]["map"] == map_id and view["config"]["map_text"] == text

    # A server started afresh: the map is in the database (issue 32), and in the game.
    content.forget_custom_map(map_id)
    assert not is_map(map_id)
    with TestClient(create_app(service=GameService(service.engine), limits=TEST_LIMITS)) as fresh:
        assert fresh.get(f"/api/content/tomb/maps/{map_id}").json()["title"] == "Tiny"
        content.forget_custom_map(map_id)  # let go again: loading the game registers its own text
        reloaded = fresh.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json()
        assert reloaded["version"] == view["version"] and reloaded["state"] == view["state"]
        assert fresh.get(f"/api/content/tomb/maps/{map_id}").json()["title"] == "Tiny"
        after = _play(fresh, game_id, token, moves=2, ids="again")
        assert after["version"] > view["version"]


def test_a_game_refuses_an_invalid_map_text_or_a_map_id_that_is_not_its_own(client: TestClient) -> None:
    ada = [{"name": "Ada"}]
    bad = client.post("/api/games", json={"game": "tomb", "seats": ada, "map_text": small_map(room="C2 S")})
    assert bad.status_code == 422 and "does not face a free square (T10)" in bad.json()["error"]["message"]
    other = client.post("/api/games", json={"game": "tomb", "seats": ada, "map": "custom-000000000000",
                                            "map_text": small_map()})
    assert other.status_code == 422 and "is not the map of map_text" in other.json()["error"]["message"]


def test_the_editor_page_is_served_like_the_others(client: TestClient) -> None:
    page = client.get("/editor")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "script-src 'self' 'sha256-" in page.headers["content-security-policy"]
    html = page.text
    assert '<script type="module" src="/static/js/editor/page.js?v=' in html
    for module in ("js/editor/model.js", "js/editor/grid.js", "js/tomb/draw.js"):  # its graph, preloaded
        assert f'<link rel="modulepreload" href="/static/{module}?v=' in html
    assert 'href="/static/css/editor.css?v=' in html


def test_registering_maps_is_rate_limited_like_new_games(service: GameService) -> None:
    """Issue 12: a client cannot make the server keep map after map."""
    from mummy.server.admission.limits import Limits

    limits = Limits(games_per_address="2/minute")
    client = TestClient(create_app(service=service, limits=limits), client=("10.0.0.7", 1))
    texts = [small_map() for _ in range(3)]
    assert [client.post("/api/maps", json={"text": t}).status_code for t in texts] == [201, 201, 429]


def test_a_process_keeps_a_bounded_number_of_custom_maps_and_lets_the_least_used_go(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(content, "MAX_CUSTOM_MAPS", 3)
    first, second = content.register_map_text(small_map()), content.register_map_text(small_map())
    content.register_map_text(content.custom_map_text(first) or "")  # used again: the newest now
    later = [content.register_map_text(small_map()) for _ in range(2)]
    assert content.custom_map_text(second) is None  # the least recently used went
    assert all(content.custom_map_text(m) is not None for m in (first, *later))
    more = [content.register_map_text(small_map()) for _ in range(3)]
    assert sum(content.custom_map_text(m) is not None for m in (first, second, *later, *more)) == 3


def test_junk_maps_never_break_games_on_custom_maps(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 32 (HIGH): after a restart, a process's registry filled with junk maps made
    every game on a custom map not yet loaded answer 500 and refuse new maps."""
    monkeypatch.setattr(content, "MAX_CUSTOM_MAPS", 4)  # (2,000 in the attack: the same, sooner)
    limits = replace(TEST_LIMITS, maps_per_address_per_day=1000)
    with TestClient(create_app(service=service, limits=limits)) as c:
        text = small_map()
        created = c.post("/api/games", json={"game": "tomb", "seats": [{"name": "Ada"}], "map_text": text,
                                             "seed": 3}).json()
    game_id, token, map_id = created["id"], created["seats"][0]["token"], custom_map_id(text)
    content.forget_custom_map(map_id)  # a process started afresh
    with TestClient(create_app(service=GameService(service.engine), limits=limits),
                    client=("10.0.0.9", 1)) as fresh:
        for _ in range(10):  # junk: valid maps, each with another name
            assert fresh.post("/api/maps", json={"text": small_map()}).status_code == 201
        auth = {"Authorization": f"Bearer {token}"}
        loaded = fresh.get(f"/api/games/{game_id}", headers=auth)
        assert loaded.status_code == 200, loaded.json()
        assert loaded.json()["state"]["sheets"][0]["map"] == map_id
        with fresh.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
            assert ws.receive_json()["type"] == "state"
        assert fresh.post("/api/maps", json={"text": small_map()}).status_code == 201  # new maps still taken
        assert fresh.get(f"/api/content/tomb/maps/{map_id}").json()["title"] == "Tiny"


def test_a_map_stored_by_one_process_plays_by_its_id_on_another(service: GameService) -> None:
    """``mummy serve --workers 2``: the map is stored in the database, not in one process."""
    with TestClient(create_app(service=service, limits=TEST_LIMITS)) as one:
        stored = one.post("/api/maps", json={"text": small_map()})
        assert stored.status_code == 201
    map_id = stored.json()["id"]
    content.forget_custom_map(map_id)  # the other process never saw it
    with TestClient(create_app(service=GameService(service.engine), limits=TEST_LIMITS)) as other:
        assert other.get(f"/api/content/tomb/maps/{map_id}").json()["id"] == map_id
        content.forget_custom_map(map_id)
        created = other.post("/api/games", json={"game": "tomb", "seats": [{"name": "Ada"}], "map": map_id})
        assert created.status_code == 201, created.json()
        view = other.get(f"/api/games/{created.json()['id']}").json()
        assert view["config"]["map"] == map_id and view["config"]["map_text"].startswith("name: tiny-")
        unknown = other.post("/api/games", json={"game": "tomb", "seats": [{"name": "Ada"}],
                                                 "map": "custom-0123456789ab"})
        assert unknown.status_code == 422 and "send its text" in unknown.json()["error"]["message"]


def test_each_address_stores_a_bounded_number_of_new_maps_a_day(service: GameService) -> None:
    """Issue 32: a quota per address (an IPv6 /64 is one address) on new custom maps, by a
    map's route or a game's text; a map stored already costs nothing."""
    limits = replace(TEST_LIMITS, maps_per_address_per_day=2)
    app = create_app(service=service, limits=limits)
    with TestClient(app, client=("2001:db8:1:2::10", 1)) as one, \
            TestClient(app, client=("2001:db8:1:2::99", 1)) as neighbour, \
            TestClient(app, client=("2001:db8:9:9::10", 1)) as elsewhere:
        texts = [small_map() for _ in range(3)]
        assert one.post("/api/maps", json={"text": texts[0]}).status_code == 201
        assert neighbour.post("/api/maps", json={"text": texts[1]}).status_code == 201  # the same /64
        refused = one.post("/api/maps", json={"text": texts[2]})
        assert refused.status_code == 429 and refused.headers["retry-after"] == "3600"
        assert "2 new maps in the last 24 hours" in refused.json()["error"]["message"]
        game = one.post("/api/games", json={"game": "tomb", "seats": [{"name": "Ada"}], "map_text": texts[2]})
        assert game.status_code == 429  # a game's text is a new map too
        assert one.post("/api/maps", json={"text": texts[0]}).status_code == 201  # stored already: free
        assert one.post("/api/games", json={"game": "tomb", "seats": [{"name": "Ada"}],
                                            "map_text": texts[1]}).status_code == 201
        assert elsewhere.post("/api/maps", json={"text": texts[2]}).status_code == 201  # another client


def test_a_game_on_a_generated_map_is_created_drawn_and_played_by_its_id(client: TestClient) -> None:
    """T10: a generated map's id is the map, on the server as anywhere (nothing stored)."""
    seats = [{"name": "Ada"}, {"name": "Sphinx", "bot": "greedy"}]
    created = client.post("/api/games", json={"game": "tomb", "seats": seats, "map": "gen-hard-4-1", "seed": 5})
    assert created.status_code == 201, created.json()
    drawn = client.get("/api/content/tomb/maps/gen-hard-4-1").json()
    assert drawn["id"] == "gen-hard-4-1" and drawn["width"] == 12 and len(drawn["rooms"]) == 8
    view = _play(client, created.json()["id"], created.json()["seats"][0]["token"], moves=2, ids="gen")
    assert view["state"]["round"] == 2 and {s["map"] for s in view["state"]["sheets"]} == {"gen-hard-4-1"}
    assert client.get("/api/content/tomb/maps/gen-hard-99999999999-0").status_code == 404  # not an id
