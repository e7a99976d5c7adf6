"""The client's files from memory (mummy/server/api/assets.py, docs/web.md "Caching and
compression", "Loading a game page"): no disk read after start, the hash-based ETag and
the immutable versioned address, compressed forms made once, and the pages' hints (the
modules, stylesheets and content a page needs, named in its head)."""

from __future__ import annotations

import builtins
import hashlib
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.datastructures import Headers

from mummy.server.api import assets
from mummy.server.api.assets import IMMUTABLE, STATIC, Document, accepted_encoding, module_graph

JS = (STATIC / "js" / "api.js").read_bytes()
VERSION = hashlib.sha256(JS).hexdigest()[:12]


def _no_disk(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every way a file could be read or looked at now raises (and is noted)."""
    reads: list[str] = []

    def refuse(name: str) -> Callable[..., Any]:
        def refused(*args: Any, **kwargs: Any) -> Any:
            reads.append(f"{name}{args[:1]}")
            raise AssertionError(f"the disk was used: {name}{args[:1]}")
        return refused

    for module, name in ((builtins, "open"), (os, "open"), (os, "stat"), (Path, "read_bytes"),
                         (Path, "open"), (Path, "stat")):
        monkeypatch.setattr(module, name, refuse(name))
    return reads


def test_static_files_are_answered_from_memory(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    client.get("/static/js/api.js")  # anything the first request sets up, set up
    reads = _no_disk(monkeypatch)
    for path in ("js/api.js", "css/tomb.css", "img/favicon.svg", "js/tomb/page.js"):
        answer = client.get(f"/static/{path}", headers={"Accept-Encoding": "identity"})
        monkeypatch.undo()  # to read the file for the comparison, and no other time
        expected = (STATIC / path).read_bytes()
        reads = _no_disk(monkeypatch)
        assert answer.status_code == 200 and answer.content == expected, path
    assert reads == []


def test_a_versioned_address_is_immutable_and_others_revalidate_with_the_hash(client: TestClient) -> None:
    versioned = client.get(f"/static/js/api.js?v={VERSION}")
    assert versioned.headers["cache-control"] == IMMUTABLE and versioned.headers["etag"] == f'W/"{VERSION}"'
    for url in ("/static/js/api.js", "/static/js/api.js?v=000000000000"):
        plain = client.get(url)
        assert plain.headers["cache-control"] == "no-cache" and plain.headers["etag"] == f'W/"{VERSION}"', url
        again = client.get(url, headers={"If-None-Match": plain.headers["etag"]})
        assert again.status_code == 304 and again.content == b"", url
    assert client.get("/static/js/api.js", headers={"If-None-Match": '"something-else"'}).status_code == 200
    head = client.head(f"/static/js/api.js?v={VERSION}", headers={"Accept-Encoding": "identity"})
    assert head.status_code == 200 and head.content == b"" and head.headers["content-length"] == str(len(JS))
    assert head.headers["content-type"] == "text/javascript; charset=utf-8"


@pytest.mark.parametrize("url", ["/static/js/nothing.js", "/static/js", "/static/", "/static/../pyproject.toml",
                                 "/static/js/../../server/app.py", "/static/%2e%2e/pyproject.toml"])
def test_only_the_files_of_static_are_served(client: TestClient, url: str) -> None:
    assert client.get(url).status_code == 404


def test_only_get_and_head(client: TestClient) -> None:
    answer = client.post("/static/js/api.js")
    assert answer.status_code == 405


def test_compressed_forms_are_made_once_at_the_best_level(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    for name, encode in list(assets.ENCODERS.items()):
        def counted(data: bytes, name: str = name, encode: Callable[[bytes], bytes] = encode) -> bytes:
            made.append(name)
            return encode(data)
        monkeypatch.setitem(assets.ENCODERS, name, counted)
    monkeypatch.setattr(assets, "_ENCODED", {})
    for encoding in ("br", "zstd", "gzip"):
        for _ in range(3):
            answer = client.get(f"/static/js/api.js?v={VERSION}", headers={"Accept-Encoding": encoding})
            assert answer.headers["content-encoding"] == encoding and answer.content == JS  # decoded by httpx
            assert answer.headers["vary"] == "Accept-Encoding"
    assert made == ["br", "zstd", "gzip"]
    # Smaller than the middleware's level 4 of the same codec.
    import brotli

    assert len(assets.ENCODERS["br"](JS)) < len(brotli.compress(JS, quality=4))


def test_the_encoding_chosen(client: TestClient) -> None:
    def best(accept: str) -> str | None:
        return accepted_encoding(Headers({"accept-encoding": accept}))

    assert best("gzip, deflate, br, zstd") == "br"  # Chromium's
    assert best("gzip, deflate") == "gzip"
    assert best("br;q=0, gzip") == "gzip"
    assert best("*") == "br" and best("*, br;q=0") == "zstd"
    assert best("identity") is None and best("") is None
    # A tiny file goes as it is.
    svg = client.get("/static/img/favicon.svg", headers={"Accept-Encoding": "br"})
    assert "content-encoding" not in svg.headers and svg.content == (STATIC / "img" / "favicon.svg").read_bytes()


def test_module_graph_follows_static_imports_only() -> None:
    sources = {
        "js/a.js": 'import { x } from "./b.js";\nimport "./c.js";\nexport { y } from "./sub/d.js";\n'
                   'const later = () => import("./lazy.js");',
        "js/b.js": "import {\n  one,\n  two,\n} from './c.js';",
        "js/c.js": "",
        "js/sub/d.js": 'import { z } from "../c.js"; import * as e from "./e.js";',
        "js/sub/e.js": "",
        "js/lazy.js": "",
    }
    assert module_graph("js/a.js", sources) == ["js/a.js", "js/b.js", "js/c.js", "js/sub/d.js", "js/sub/e.js"]


def _links(html: str, rel: str) -> list[str]:
    hrefs = re.findall(rf'<link rel="{rel}"[^>]*href="([^"]+)"', html)
    return [re.sub(r"\?v=[0-9a-f]{12}$", "", href) for href in hrefs]


def _created(client: TestClient, game: str) -> str:
    answer = client.post("/api/games", json={"game": game, "seats": [{"name": "Ada"}]})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


@pytest.mark.parametrize(("game", "other"), [("tomb", "treasure"), ("treasure", "tomb")])
def test_a_known_game_page_names_its_game_files_in_its_head(client: TestClient, game: str, other: str) -> None:
    html = client.get(f"/play/{_created(client, game)}").text
    head = html[:html.index("</head>")]
    assert f'<meta name="mummy-game" content="{game}">' in head
    styles = _links(head, "stylesheet")
    assert styles[0] == "/static/css/app.css" and f"/static/css/{game}.css" in styles
    modules = _links(head, "modulepreload")
    assert {"/static/js/api.js", "/static/js/games.js", f"/static/js/{game}.js",
            f"/static/js/{game}/page.js"} <= set(modules)
    assert _links(head, "preload") == [f"/api/content/{game}"]
    named = [href for href in re.findall(r'<link [^>]*href="([^"]+)"', head)]
    assert [href for href in named if other in href] == []  # not a byte of the other game
    # The map comes before any module is named: a module fetched before it would not see it.
    assert head.index('type="importmap"') < head.index("modulepreload")
    # Every file named by its current version (immutable in the browser's cache).
    for href in re.findall(r'href="(/(?:static|api)/[^"]+)"', head):
        assert client.get(href).headers["cache-control"] == IMMUTABLE, href


def test_an_unknown_game_gets_the_plain_page_with_the_shell_modules(client: TestClient) -> None:
    html = client.get("/play/nosuchgame").text
    head = html[:html.index("</head>")]
    assert "mummy-game" not in head and _links(head, "preload") == []
    assert set(_links(head, "modulepreload")) == {"/static/js/alerts.js", "/static/js/api.js", "/static/js/dom.js",
                                                  "/static/js/games.js"}
    assert _links(head, "stylesheet") == ["/static/css/app.css", "/static/css/results.css"]


def test_each_game_has_the_drawing_module_and_stylesheet_its_registration_names() -> None:
    # The registration names the page's module (js/games.js loads it, the server names it
    # in the game page's head); the module offers what every page asks of a game's module.
    from mummy.games import games

    for game in games().values():
        assert game.page is not None, game.name
        module = (STATIC / "js" / game.page.module).resolve()
        assert module.is_file() and (STATIC / game.page.stylesheet.removeprefix("/static/")).is_file()
        source = module.read_text(encoding="utf-8")
        for name in ("mount", "renderState", "drawMoveOn", "outcome", "why"):
            assert re.search(rf"\bexport\b[^;]*\b{name}\b", source), (game.name, name)


def test_documents_are_compressed_and_revalidated(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Encoding": "br"})
    assert page.headers["content-encoding"] == "br" and page.headers["cache-control"] == "no-cache"
    assert client.get("/", headers={"If-None-Match": page.headers["etag"]}).status_code == 304
    text, image = Document(b"x" * 5000, "text/plain"), Document(b"x" * 5000, "image/png")
    assert text.compressible and not image.compressible and text.version == hashlib.sha256(text.body).hexdigest()[:12]
    assert text.encode("br") == text.encoded("br")  # kept once made
