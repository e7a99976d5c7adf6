"""The pages are served, carry no external references, and load in a real browser."""

from __future__ import annotations

import re
import urllib.parse
import urllib.request
from typing import Any

from tests.web.conftest import Watched, api, create, shot


def _get(url: str) -> tuple[int, dict[str, str], str]:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.status, dict(resp.headers), resp.read().decode()


def test_pages_and_files_are_ours_only(server: str) -> None:
    for path in ("/", "/play/abc", "/replay/abc", "/static/js/api.js", "/static/css/app.css"):
        status, headers, body = _get(server + path)
        assert status == 200
        assert "default-src 'self'" in headers["content-security-policy"]
        # No address of another host anywhere in what we serve (SVG namespaces are names, not requests).
        outside = [u for u in re.findall(r"https?://[^\s\"'<>)]+", body) if "www.w3.org" not in u]
        assert outside == [], (path, outside)


def test_content_endpoints(server: str) -> None:
    tomb = api(server, "/api/content/tomb")
    assert tomb["maps"]["map1"]["width"] == 12 and tomb["shapes"]["5b"]["orients"]["r3"]["cells"][0] == [-2, 2]
    assert set(api(server, "/api/content/treasure")["sites"]) >= {"oasis", "valley", "temple", "pyramid"}


def test_a_game_page_opens_and_a_bad_one_says_so(web: Watched) -> None:
    created = create(web.base, {"game": "tomb", "seats": [{"name": "Ada"}], "seed": 1})
    page: Any = web.page()
    page.goto(web.base + created["seats"][0]["invite"])
    page.wait_for_selector("#status[data-state=open]")
    assert "#token" not in page.url  # the seat's secret leaves the address bar
    page.goto(web.base + "/play/no-such-game")
    page.wait_for_selector(".error-page")
    assert "no game" in page.inner_text(".error-page")
    shot(page, "error-page")


def test_content_gives_the_rules_constants_the_pages_show(server: str) -> None:
    # The pages read these here (js/constants.js), never as literals of their own.
    tomb = api(server, "/api/content/tomb")["rules"]
    assert (tomb["rounds"], tomb["alerts"], tomb["row_size"]) == (20, 18, 4)
    assert tomb["dig_sides"] == ["n", "e", "s", "w", "ne", "ns", "nw", "es", "ew", "sw"]
    assert api(server, "/api/content/treasure")["rules"] == {"rolls": 3, "dice": 5, "symbols": "SAEPCJ"}


def test_a_game_page_loads_its_own_game_only(web: Watched) -> None:
    for game, other in (("tomb", "treasure"), ("treasure", "tomb")):
        created = create(web.base, {"game": game, "seats": [{"name": "Ada"}], "seed": 1})
        page: Any = web.page()
        asked: list[str] = []
        page.on("request", lambda r, asked=asked: asked.append(urllib.parse.urlparse(r.url).path))
        page.goto(web.base + created["seats"][0]["invite"])
        page.wait_for_selector("#sheet" if game == "tomb" else ".treasure")
        assert f"/static/js/{game}.js" in asked and f"/api/content/{game}" in asked
        theirs = [p for p in asked if p.startswith(("/static/", "/api/content/")) and other in p]
        assert theirs == [], theirs
        page.close()
