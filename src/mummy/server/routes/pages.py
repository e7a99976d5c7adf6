"""The browser client (docs/web.md): its pages, their files, and the games' content.

Caching (docs/web.md, "Caching"): a second visit should download almost nothing, and a
new release must never be mixed with an old one. So every file under ``static/`` and each
game's content get a *version*, the start of the SHA-256 of their bytes, computed once
when the app is made (:func:`make_assets`), and the pages name them by their versioned
address (``/static/js/api.js?v=3f2a...``):

* a page's own ``src`` and ``href`` are rewritten to the versioned addresses;
* every page carries an import map from each unversioned address to its versioned one,
  so that the modules' relative ``import``\\s, ``import()`` and ``import.meta.resolve``
  (``asset()`` in js/dom.js, the content in js/api.js) reach versioned addresses too.

A versioned address is answered as immutable for a year; anything else (the pages, an
unversioned address, an out-of-date version) with ``no-cache`` and an ``ETag``: the
browser asks again each time and gets a ``304`` of a few hundred bytes. The import map is
an inline script, which the server's content security policy forbids unless named: each
page is sent with the policy plus the map's hash.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers, QueryParams
from starlette.types import Scope

from mummy.server.deps import Content
from mummy.server.limits import CONTENT_SECURITY
from mummy.server.tutorial import tutorial
from mummy.web.content import tomb_content, treasure_content

STATIC = Path(__file__).resolve().parent.parent.parent / "web" / "static"

#: For a versioned address: its bytes never change, keep it for a year without asking.
IMMUTABLE: Final = "public, max-age=31536000, immutable"
#: For anything else: keep it, but ask (with its ETag) before each use.
REVALIDATE: Final = "no-cache"
#: Hex digits of SHA-256 in a version: 48 bits, no collision among a release's files.
VERSION_DIGITS: Final = 12

router = APIRouter()


def version_of(data: bytes) -> str:
    """The version of a file or document: the start of its SHA-256, in hex."""
    return hashlib.sha256(data).hexdigest()[:VERSION_DIGITS]


def _etag_matches(etag: str, headers: Headers) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (compared weakly, as RFC 9110 asks of it)."""
    asked = headers.get("if-none-match")
    if asked is None:
        return False
    ours = etag.removeprefix("W/")
    return asked.strip() == "*" or ours in (tag.strip().removeprefix("W/") for tag in asked.split(","))


@dataclass(frozen=True)
class Document:
    """A document made once and served from memory: its bytes and its answer's headers."""

    body: bytes
    media_type: str
    version: str
    headers: dict[str, str]

    @property
    def etag(self) -> str:
        # Weak: the same document goes out as it is or compressed (gzip, br, zstd), and a
        # strong tag must differ between encodings (RFC 9110 §8.8.3).
        return f'W/"{self.version}"'

    def answer(self, request: Request, immutable: bool = False) -> Response:
        """The document, or ``304`` when the browser holds this version; immutable when
        asked by its versioned address."""
        headers = {**self.headers, "etag": self.etag, "cache-control": IMMUTABLE if immutable else REVALIDATE}
        if _etag_matches(self.etag, request.headers):
            # The 304 carries the same headers: a browser replaces the stored ones with
            # them, the page's content security policy included.
            return Response(status_code=304, headers=headers)
        return Response(self.body, media_type=self.media_type, headers=headers)


@dataclass(frozen=True)
class Assets:
    """The client's files and documents with their versions, made once per app."""

    files: dict[str, str]  # path under static/ -> version
    content: dict[str, Document]  # game -> its content as JSON
    pages: dict[str, Document]  # an HTML file of static/ -> the page as served

    def import_map(self) -> dict[str, dict[str, str]]:
        """Every unversioned address of ours a page may ask for -> its versioned one."""
        imports = {f"/static/{path}": f"/static/{path}?v={v}" for path, v in self.files.items()
                   if not path.endswith(".html")}
        imports.update({f"/api/content/{game}": f"/api/content/{game}?v={doc.version}"
                        for game, doc in self.content.items()})
        return {"imports": imports}


#: A page's references to our files, to be versioned.
STATIC_REF: Final = re.compile(r'\b(?P<attr>src|href)="/static/(?P<path>[^"?#]+)"')


def _page(html: str, files: dict[str, str], import_map: str) -> Document:
    """An HTML page as served: its references versioned, the import map before
    ``</head>`` (before any module loads), and the policy that allows that one script."""

    def versioned(m: re.Match[str]) -> str:
        v = files.get(m["path"])
        return f'{m["attr"]}="/static/{m["path"]}?v={v}"' if v else m[0]

    assert "</head>" in html, "a page without a head"
    script = f'<script type="importmap">{import_map}</script>\n'
    body = STATIC_REF.sub(versioned, html).replace("</head>", script + "</head>", 1)
    digest = base64.b64encode(hashlib.sha256(import_map.encode()).digest()).decode()
    policy = CONTENT_SECURITY.replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'", 1)
    assert policy != CONTENT_SECURITY, "the content security policy has no script-src 'self' to extend"
    data = body.encode()
    return Document(data, "text/html; charset=utf-8", version_of(data), {"content-security-policy": policy})


def make_assets(games: Content) -> Assets:
    """The versions of every static file and of the games' content, and the pages with
    their import map: read once, when the app is made."""
    files = {p.relative_to(STATIC).as_posix(): version_of(p.read_bytes())
             for p in sorted(STATIC.rglob("*")) if p.is_file()}
    content = {}
    for field in fields(games):
        data = json.dumps(getattr(games, field.name), separators=(",", ":"), ensure_ascii=False).encode()
        content[field.name] = Document(data, "application/json", version_of(data), {})
    assets = Assets(files, content, {})
    # "</" cannot occur in our paths; escaped all the same, the map cannot end its script.
    import_map = json.dumps(assets.import_map(), separators=(",", ":")).replace("</", "<\\/")
    for path in files:
        if path.endswith(".html") and "/" not in path:
            assets.pages[path] = _page((STATIC / path).read_text(encoding="utf-8"), files, import_map)
    return assets


def _assets(request: Request) -> Assets:
    assets: Assets = request.app.state.assets
    return assets


def html_page(request: Request, name: str) -> Response:
    """Every HTML page goes through here (``name``: its file in static/, e.g.
    ``"play.html"``): made once with versioned references and the import map, sent with
    its ETag and ``no-cache`` (a repeat visit costs a ``304``) and its own policy."""
    return _assets(request).pages[name].answer(request)


class VersionedFiles(StaticFiles):
    """The static files, immutable when asked for by their current version (``?v=``),
    otherwise revalidated with their ETag each time."""

    def __init__(self, directory: Path, files: dict[str, str]) -> None:
        super().__init__(directory=directory)
        self.files = files

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)  # the file, a 304, or raises 404
        current = self.files.get(Path(path).as_posix())
        asked = QueryParams(scope.get("query_string", b"")).get("v")
        response.headers["cache-control"] = IMMUTABLE if current is not None and asked == current else REVALIDATE
        return response


def static_files(assets: Assets) -> StaticFiles:
    """The pages' scripts, styles and images (mounted at ``/static`` by ``create_app``:
    a router cannot carry a mount)."""
    return VersionedFiles(STATIC, assets.files)


def content() -> Content:
    """The games' content, made once per app (``create_app`` keeps it on the app)."""
    return Content(tomb=tomb_content(), treasure=treasure_content())


@router.get("/", include_in_schema=False)
async def start_page(request: Request) -> Response:
    return html_page(request, "index.html")


@router.get("/play/{game_id}", include_in_schema=False)
async def play_page(request: Request, game_id: str) -> Response:
    return html_page(request, "play.html")


@router.get("/replay/{game_id}", include_in_schema=False)
async def replay_page(request: Request, game_id: str) -> Response:
    return html_page(request, "replay.html")


def _content(request: Request, game: str) -> Response:
    doc = _assets(request).content[game]
    return doc.answer(request, immutable=request.query_params.get("v") == doc.version)


@router.get("/api/content/tomb", responses={200: {"content": {"application/json": {}}}})
async def content_tomb(request: Request) -> Response:
    """The Tomb's maps and tile shapes, for drawing sheets and previews (immutable at the
    versioned address the pages' import map gives, ``?v=``)."""
    return _content(request, "tomb")


@router.get("/api/content/treasure", responses={200: {"content": {"application/json": {}}}})
async def content_treasure(request: Request) -> Response:
    """Treasure's sites and piles, for drawing sites and tiles (immutable at the versioned
    address, ``?v=``)."""
    return _content(request, "treasure")


# -- learning the game (docs/web.md, "Learning the game") --------------------------------------
@router.get("/rules", include_in_schema=False)
async def rules_page(request: Request) -> Response:
    """Both games' rules by rule id (``/rules#T3.3``), searchable, with the legend of the
    pictures on the game pages."""
    return html_page(request, "rules.html")


@router.get("/tutorial", include_in_schema=False)
async def tutorial_page(request: Request) -> Response:
    """The Tomb's tutorial: the rulebook's First Round Example, played on a real game."""
    return html_page(request, "tutorial.html")


@router.get("/api/tutorial")
async def tutorial_steps() -> dict[str, Any]:
    """The tutorial's game (the body of ``POST /api/games`` but the seats) and its steps,
    each played through the engine before it is handed out (mummy/server/tutorial.py)."""
    return tutorial()
