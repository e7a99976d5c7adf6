"""The browser client's files, held in memory with their versions (docs/web.md, "Caching
and compression", "Loading a game page").

Caching: a second visit should download almost nothing, and a new release must never be
mixed with an old one. So every file under ``static/`` and each game's content get a
*version*, the start of the SHA-256 of their bytes, computed once when the app is made
(:func:`make_assets`), and the pages name them by their versioned address
(``/static/js/api.js?v=3f2a...``):

* a page's own ``src`` and ``href`` are rewritten to the versioned addresses;
* every page carries an import map from each unversioned address to its versioned one,
  so that the modules' relative ``import``\\s, ``import()`` and ``import.meta.resolve``
  (``asset()`` in js/dom.js, the content in js/api.js) reach versioned addresses too.

A versioned address is answered as immutable for a year; anything else (the pages, an
unversioned address, an out-of-date version) with ``no-cache`` and an ``ETag``: the
browser asks again each time and gets a ``304`` of a few hundred bytes. The import map is
an inline script, which the server's content security policy forbids unless named: each
page is sent with the policy plus the hash of each of its inline scripts (the map's, and
the game page's own, which opens the game's websocket before the modules load).

Speed: the files are read once, at start, and answered from memory (a request never
touches the disk); their compressed forms are made once each, at the best level (Brotli
11, Zstandard 19, gzip 9: smaller than the middleware's per-request level 4), the first
time one is asked for, in a worker thread so that the event loop does not wait. Each
page names the modules it imports (``<link rel="modulepreload">``, the whole static
graph, read from the modules' ``import`` lines) and the stylesheets its modules load
(``loadStylesheet("/static/css/...")``), so that the browser fetches them all at once
instead of one level of imports after another; a game's page (:meth:`Assets.play_page`)
adds its game's module graph, stylesheets and content.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import mimetypes
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Final

import anyio.to_thread
import brotli  # type: ignore[import-untyped]  # starlette-compress's own codec
import zstandard
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from mummy.games import Page
from mummy.server.admission.limits import CONTENT_SECURITY

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"

#: For a versioned address: its bytes never change, keep it for a year without asking.
IMMUTABLE: Final = "public, max-age=31536000, immutable"
#: For anything else: keep it, but ask (with its ETag) before each use.
REVALIDATE: Final = "no-cache"
#: Hex digits of SHA-256 in a version: 48 bits, no collision among a release's files.
VERSION_DIGITS: Final = 12
#: Bodies smaller than this go as they are (as the compression middleware does): they fit
#: a packet already, and an encoding's headers would cost more than it saves.
COMPRESS_FROM: Final = 1024

#: The media types worth compressing: text, JSON, scripts, SVG.
TEXT: Final = re.compile(r"text/|application/(json|javascript)|image/svg\+xml")

#: The encodings we keep, best first: the one sent is the first the browser accepts.
#: Made once per body, so at the codecs' best levels.
ENCODERS: Final[dict[str, Callable[[bytes], bytes]]] = {
    "br": lambda data: bytes(brotli.compress(data, quality=11)),
    "zstd": lambda data: bytes(zstandard.ZstdCompressor(level=19).compress(data)),
    "gzip": lambda data: gzip.compress(data, compresslevel=9, mtime=0),
}

#: (SHA-256 of a body, encoding) -> the body so encoded. Shared by the apps of a process
#: (tests make many): a body is compressed once, whichever app asks first.
_ENCODED: dict[tuple[str, str], bytes] = {}


def version_of(data: bytes) -> str:
    """The version of a file or document: the start of its SHA-256, in hex."""
    return hashlib.sha256(data).hexdigest()[:VERSION_DIGITS]


def accepted_encoding(headers: Headers) -> str | None:
    """The best of :data:`ENCODERS` that ``Accept-Encoding`` allows (``q=0`` refuses one,
    ``*`` stands for the others), or None."""
    accepted: dict[str, float] = {}
    for item in headers.get("accept-encoding", "").split(","):
        name, _, params = item.partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if name.strip():
            accepted[name.strip().lower()] = quality
    wildcard = accepted.get("*", 0.0)
    return next((name for name in ENCODERS if accepted.get(name, wildcard) > 0), None)


def etag_matches(etag: str, headers: Headers) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (compared weakly, as RFC 9110 asks of it)."""
    asked = headers.get("if-none-match")
    if asked is None:
        return False
    ours = etag.removeprefix("W/")
    return asked.strip() == "*" or ours in (tag.strip().removeprefix("W/") for tag in asked.split(","))


@dataclass(frozen=True)
class Document:
    """A file or document made once and served from memory: its bytes, its answer's
    headers, and its compressed forms (made on first demand, kept)."""

    body: bytes
    media_type: str
    headers: dict[str, str] = field(default_factory=dict)
    digest: str = field(init=False, compare=False)  # SHA-256 of the body, in hex

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", hashlib.sha256(self.body).hexdigest())

    @property
    def version(self) -> str:
        """The start of the body's SHA-256 (:func:`version_of`)."""
        return self.digest[:VERSION_DIGITS]

    @property
    def etag(self) -> str:
        # Weak: the same document goes out as it is or compressed (gzip, br, zstd), and a
        # strong tag must differ between encodings (RFC 9110 §8.8.3).
        return f'W/"{self.version}"'

    @property
    def compressible(self) -> bool:
        """Text of some size (not an image that is compressed already)."""
        return len(self.body) >= COMPRESS_FROM and TEXT.match(self.media_type) is not None

    def encoded(self, encoding: str | None) -> bytes | None:
        """The body in ``encoding`` if it has been made already (None: not yet)."""
        return self.body if encoding is None else _ENCODED.get((self.digest, encoding))

    def encode(self, encoding: str) -> bytes:
        """The body in ``encoding``, made now if it was not yet (CPU-bound: in a thread)."""
        key = (self.digest, encoding)
        if key not in _ENCODED:
            _ENCODED[key] = ENCODERS[encoding](self.body)
        return _ENCODED[key]

    async def answer(self, request: Request, immutable: bool = False) -> Response:
        """The document (compressed when the browser accepts it), or ``304`` when the
        browser holds this version; immutable when asked by its versioned address."""
        headers = {**self.headers, "etag": self.etag, "cache-control": IMMUTABLE if immutable else REVALIDATE}
        if etag_matches(self.etag, request.headers):
            # The 304 carries the same headers: a browser replaces the stored ones with
            # them, the page's content security policy included.
            return Response(status_code=304, headers=headers)
        encoding = accepted_encoding(request.headers) if self.compressible else None
        body = self.encoded(encoding)
        if body is None and encoding is not None:
            body = await anyio.to_thread.run_sync(self.encode, encoding)
        if encoding is not None:
            # The compression middleware leaves an encoded answer be (and adds the Vary of
            # one it leaves plain): the Vary is ours to say.
            headers["content-encoding"] = encoding
            headers["vary"] = "Accept-Encoding"
        return Response(body, media_type=self.media_type, headers=headers)


#: A module's static imports (``import ... from "./x.js"``, ``import "./x.js"``,
#: ``export ... from "./x.js"``); not ``import("./x.js")``, which loads later on purpose.
STATIC_IMPORT: Final = re.compile(r"""\b(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?["'](\.{1,2}/[^"']+)["']""")
#: A stylesheet a module loads (js/dom.js's ``loadStylesheet``), by its literal address.
LOADS_STYLESHEET: Final = re.compile(r"""\bloadStylesheet\(\s*["']/static/([^"']+\.css)["']""")
#: A page's references to our files, to be versioned.
STATIC_REF: Final = re.compile(r'\b(?P<attr>src|href)="/static/(?P<path>[^"?#]+)"')
#: A page's own module (its one ``<script type="module">``).
PAGE_MODULE: Final = re.compile(r'<script type="module" src="/static/(?P<path>[^"?#]+)"')
#: An inline script of a page (no ``src``): its text, which the policy names by its hash.
INLINE_SCRIPT: Final = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(?P<text>.*?)</script>", re.S)


def module_graph(root: str, sources: dict[str, str]) -> list[str]:
    """The modules ``root`` (a path under static/) imports statically, directly or not,
    each once, in the order the browser meets them (``root`` first)."""
    seen: list[str] = []
    stack = [root]
    while stack:
        path = stack.pop()
        if path in seen or path not in sources:
            continue
        seen.append(path)
        base = PurePosixPath(path).parent
        found = [_normal(base / spec) for spec in STATIC_IMPORT.findall(sources[path])]
        stack.extend(reversed(found))
    return seen


def _normal(path: PurePosixPath) -> str:
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def stylesheets_of(modules: Iterable[str], sources: dict[str, str]) -> list[str]:
    """The stylesheets (paths under static/) the modules load, each once, in order."""
    out: list[str] = []
    for module in modules:
        out.extend(s for s in LOADS_STYLESHEET.findall(sources.get(module, "")) if s not in out)
    return out


@dataclass(frozen=True)
class Hints:
    """What a page needs beyond its own HTML: modules, stylesheets, a content to preload."""

    modules: tuple[str, ...] = ()
    stylesheets: tuple[str, ...] = ()
    content: str | None = None  # a game whose content the page fetches at once

    def html(self, assets: Assets) -> str:
        links = [f'<link rel="stylesheet" href="/static/{css}?v={assets.files[css].version}">'
                 for css in self.stylesheets if css in assets.files]
        links += [f'<link rel="modulepreload" href="/static/{js}?v={assets.files[js].version}">'
                  for js in self.modules if js in assets.files]
        if self.content is not None and self.content in assets.content:
            # crossorigin: the fetch() of js/api.js is a CORS-mode request, and a preload
            # is used only by a request of the same mode.
            links.append(f'<link rel="preload" as="fetch" crossorigin href="/api/content/{self.content}'
                         f'?v={assets.content[self.content].version}">')
        return "".join(f"{link}\n" for link in links)

    def plus(self, other: Hints) -> Hints:
        return Hints(self.modules + tuple(m for m in other.modules if m not in self.modules),
                     self.stylesheets + tuple(s for s in other.stylesheets if s not in self.stylesheets),
                     other.content or self.content)


@dataclass
class Assets:
    """The client's files and documents with their versions, made once per app."""

    files: dict[str, Document]  # path under static/ -> the file
    content: dict[str, Document]  # game -> its content as JSON
    pages: dict[str, Document] = field(default_factory=dict)  # an HTML file of static/ -> the page as served
    games: dict[str, Document] = field(default_factory=dict)  # game -> its play page, with its game's hints

    def import_map(self) -> dict[str, dict[str, str]]:
        """Every unversioned address of ours a page may ask for -> its versioned one."""
        imports = {f"/static/{path}": f"/static/{path}?v={doc.version}" for path, doc in self.files.items()
                   if not path.endswith(".html")}
        imports.update({f"/api/content/{game}": f"/api/content/{game}?v={doc.version}"
                        for game, doc in self.content.items()})
        return {"imports": imports}

    def play_page(self, game: str | None) -> Document:
        """The game page, with its game's module, stylesheets and content named in its head
        when the game is known (a game the server holds in memory), else the plain one."""
        return self.games.get(game or "") or self.pages["play.html"]


def _page(html: str, assets: Assets, import_map: str, hints: Hints, game: str | None = None) -> Document:
    """An HTML page as served: its references versioned, then before ``</head>`` (before
    any module loads) the import map and the hints, and the policy that allows its inline
    scripts, by their hashes: the map, and a page's own (play.html opens the game's
    websocket before its modules load). A game page for a known ``game`` says which one
    (``<meta name="mummy-game">``)."""

    def versioned(m: re.Match[str]) -> str:
        doc = assets.files.get(m["path"])
        return f'{m["attr"]}="/static/{m["path"]}?v={doc.version}"' if doc else m[0]

    assert "</head>" in html, "a page without a head"
    script = f'<script type="importmap">{import_map}</script>\n'
    named = f'<meta name="mummy-game" content="{game}">\n' if game else ""
    body = STATIC_REF.sub(versioned, html).replace("</head>", named + script + hints.html(assets) + "</head>", 1)
    hashes = dict.fromkeys(base64.b64encode(hashlib.sha256(m["text"].encode()).digest()).decode()
                           for m in INLINE_SCRIPT.finditer(body))
    allowed = " ".join(f"'sha256-{digest}'" for digest in hashes)
    policy = CONTENT_SECURITY.replace("script-src 'self'", f"script-src 'self' {allowed}", 1)
    assert policy != CONTENT_SECURITY, "the content security policy has no script-src 'self' to extend"
    return Document(body.encode(), "text/html; charset=utf-8", {"content-security-policy": policy})


def _media_type(path: str) -> str:
    guessed = mimetypes.guess_type(path)[0] or "text/plain"
    return f"{guessed}; charset=utf-8" if guessed.startswith("text/") or guessed.endswith("javascript") else guessed


def page_hints(html: str, sources: dict[str, str]) -> Hints:
    """A page's module graph (without the module itself, which the page names) and the
    stylesheets its modules load, minus those its HTML links already."""
    found = PAGE_MODULE.search(html)
    if not found:
        return Hints()
    graph = module_graph(found["path"], sources)
    return Hints(tuple(graph[1:]), tuple(s for s in stylesheets_of(graph, sources) if f"/static/{s}" not in html))


def game_hints(game: str, page: Page, sources: dict[str, str], known: Hints) -> Hints:
    """What a game's page needs for ``game``: its drawing module (its registration's
    ``page``, which js/games.js loads) with its graph, its stylesheet and those its modules
    load, and the game's content."""
    graph = module_graph(_normal(PurePosixPath("js") / page.module), sources)
    sheets = [page.stylesheet.removeprefix("/static/"), *stylesheets_of(graph, sources)]
    return known.plus(Hints(tuple(graph), tuple(dict.fromkeys(sheets)), game))


def make_assets(games: Mapping[str, Any], pages: Mapping[str, Page]) -> Assets:
    """Every static file (in memory, with its version), the games' content (``games``, by
    the game's name), and the pages with their import map and hints, each game's page
    with its registration's module (``pages``): read once, when the app is made."""
    files = {p.relative_to(STATIC).as_posix(): p.read_bytes() for p in sorted(STATIC.rglob("*")) if p.is_file()}
    content = {name: Document(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode(),
                              "application/json") for name, data in games.items()}
    assets = Assets({path: Document(data, _media_type(path)) for path, data in files.items()}, content)
    sources = {path: data.decode("utf-8") for path, data in files.items() if path.endswith(".js")}
    # "</" cannot occur in our paths; escaped all the same, the map cannot end its script.
    import_map = json.dumps(assets.import_map(), separators=(",", ":")).replace("</", "<\\/")
    for path, data in files.items():
        if path.endswith(".html") and "/" not in path:
            html = data.decode("utf-8")
            hints = page_hints(html, sources)
            assets.pages[path] = _page(html, assets, import_map, hints)
            if path == "play.html":
                for game, page in pages.items():
                    assets.games[game] = _page(html, assets, import_map, game_hints(game, page, sources, hints), game)
    return assets


class MemoryFiles(StaticFiles):
    """The static files from memory: immutable when asked for by their current version
    (``?v=``), otherwise revalidated with their ETag each time. Starlette's addressing
    (the mount's path, ``..`` and ``.`` removed), but no file system behind it."""

    def __init__(self, files: dict[str, Document]) -> None:
        super().__init__(directory=STATIC, check_dir=False)
        self.config_checked = True  # nothing to check on the disk: the files are here
        self.files = files

    async def get_response(self, path: str, scope: Scope) -> Response:
        if scope["method"] not in ("GET", "HEAD"):
            raise HTTPException(status_code=405, headers={"Allow": "GET, HEAD"})
        doc = self.files.get(PurePosixPath(path).as_posix())
        if doc is None:
            raise HTTPException(status_code=404)
        request = Request(scope)
        return await doc.answer(request, immutable=request.query_params.get("v") == doc.version)
