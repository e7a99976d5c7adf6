"""What the pages weigh (docs/web.md, "Caching and compression"): answers compressed,
files named by version and kept by the browser, pages revalidated with their ETag, and
each game page loading its own game's code only. The bytes are Chromium's own count."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import sys
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import brotli

from mummy.server.api.routes.pages import IMMUTABLE, STATIC
from tests.web.conftest import create

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from web_bench import Transfer, visit  # the benchmark's own count: one definition

#: The issue's goal for a second visit of a game page (the game's state, which comes over
#: the websocket, is not a download a cache could spare).
REPEAT_BUDGET = 5_000


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read()
    except urllib.error.HTTPError as exc:  # a 304 is raised by urllib
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()


def _import_map(html: str) -> dict[str, str]:
    found = re.search(r'<script type="importmap">(.*?)</script>', html, re.S)
    assert found, "the page has no import map"
    imports: dict[str, str] = json.loads(found[1])["imports"]
    return imports


def _allowed_scripts(policy: str) -> list[str]:
    """The hashes of the inline scripts a page's policy allows (its script-src)."""
    found = re.search(r"script-src 'self'((?: 'sha256-[A-Za-z0-9+/=]+')*);", policy)
    assert found, policy
    return re.findall(r"'sha256-([A-Za-z0-9+/=]+)'", found[1])


def test_every_page_names_versioned_files_and_allows_only_its_own_inline_scripts(server: str) -> None:
    for path, inline in (("/", 1), ("/play/abc", 2), ("/replay/abc", 1)):
        status, headers, body = _get(server + path)
        html = body.decode()
        assert status == 200 and headers["cache-control"] == "no-cache" and headers["etag"]
        # Every file the page names is at its versioned address.
        refs = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
        assert refs and all(re.search(r"\?v=[0-9a-f]{12}$", r) for r in refs), refs
        # The inline scripts are the import map (and on a game page, its early websocket),
        # and the page's policy names exactly their hashes: nothing else runs inline.
        scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, re.S)
        assert re.search(r'<script type="importmap">', html) and len(scripts) == inline, path
        assert html.count("<script") == inline + 1  # and the page's module
        digests = [base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() for text in scripts]
        policy = headers["content-security-policy"]
        assert sorted(_allowed_scripts(policy)) == sorted(digests) and "unsafe-inline" not in policy, path


def test_the_import_map_covers_every_file_and_the_content(server: str) -> None:
    imports = _import_map(_get(server + "/play/abc")[2].decode())
    files = {f"/static/{p.relative_to(STATIC).as_posix()}" for p in STATIC.rglob("*")
             if p.is_file() and p.suffix != ".html"}
    assert files <= set(imports), files - set(imports)
    assert {"/api/content/tomb", "/api/content/treasure"} <= set(imports)
    for plain in ("/static/js/api.js", "/static/css/tomb.css", "/api/content/tomb"):
        status, headers, _ = _get(server + imports[plain])
        assert status == 200 and headers["cache-control"] == IMMUTABLE, plain
    # The version is the file's own: a change of the file is a new address.
    api_js = (STATIC / "js" / "api.js").read_bytes()
    assert imports["/static/js/api.js"].endswith("?v=" + hashlib.sha256(api_js).hexdigest()[:12])


def test_unversioned_or_stale_addresses_are_revalidated(server: str) -> None:
    for url in ("/static/js/api.js", "/static/js/api.js?v=000000000000", "/api/content/tomb",
                "/api/content/tomb?v=000000000000"):
        status, headers, _ = _get(server + url)
        assert status == 200 and headers["cache-control"] == "no-cache" and headers["etag"], url
        again = _get(server + url, **{"If-None-Match": headers["etag"]})
        assert again[0] == 304 and again[2] == b"", url


def test_a_page_revalidated_keeps_its_policy(server: str) -> None:
    _, headers, _ = _get(server + "/play/abc")
    again_status, again, body = _get(server + "/play/abc", **{"If-None-Match": headers["etag"]})
    # A browser replaces the stored headers by a 304's: the import map's hash must stay.
    assert (again_status, body) == (304, b"")
    assert again["content-security-policy"] == headers["content-security-policy"] and again["etag"] == headers["etag"]


def test_answers_are_compressed_but_not_tiny_ones(server: str) -> None:
    js = (STATIC / "js" / "api.js").read_bytes()
    status, headers, body = _get(server + "/static/js/api.js", **{"Accept-Encoding": "br"})
    assert headers["content-encoding"] == "br" and brotli.decompress(body) == js
    assert "accept-encoding" in headers["vary"].lower()
    status, headers, body = _get(server + "/api/content/tomb", **{"Accept-Encoding": "gzip"})
    assert headers["content-encoding"] == "gzip" and len(body) < len(gzip.decompress(body)) / 4
    status, headers, body = _get(server + "/api/health", **{"Accept-Encoding": "gzip, br"})
    assert status == 200 and "content-encoding" not in headers and json.loads(body)  # too small to bother
    status, headers, body = _get(server + "/static/js/api.js")
    assert "content-encoding" not in headers and body == js  # a client that asks for none gets none


def _http_paths(transfer: Transfer) -> list[str]:
    return [urlparse(url).path for url in transfer.http]


def test_a_game_page_loads_its_own_game_and_a_second_visit_almost_nothing(browser: Any, server: str) -> None:
    # A context of its own, without the routing of the watched ones: Playwright turns the
    # browser's cache off in a context that routes requests.
    for game, other in (("tomb", "treasure"), ("treasure", "tomb")):
        created = create(server, {"game": game, "seats": [{"name": "Ada"}], "seed": 1})
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        try:
            ready = "#sheet [data-square]" if game == "tomb" else ".treasure"
            first = visit(context, server + created["seats"][0]["invite"], ready)
            repeat = visit(context, f"{server}/play/{created['id']}", ready)
        finally:
            context.close()
        asked = _http_paths(first)
        assert all(urlparse(u).netloc == urlparse(server).netloc for u in first.http), first.http
        assert f"/static/js/{game}.js" in asked and f"/api/content/{game}" in asked
        assert [p for p in asked if other in p] == [], asked  # not a byte of the other game
        assert sum(first.http.values()) > 10 * sum(repeat.http.values())
        # Only the page itself is asked again (a 304); everything else comes from the cache.
        again = {url: n for url, n in repeat.http.items() if n > 0}
        assert [urlparse(u).path for u in again] == [f"/play/{created['id']}"], again
        assert repeat.http_bytes < REPEAT_BUDGET, repeat.http
