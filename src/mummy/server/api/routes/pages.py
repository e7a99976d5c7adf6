"""The browser client (docs/web.md): its pages, their files, and the games' content.

The files, their versions and the pages as served are made once per app and held in
memory (mummy/server/api/assets.py, where caching and compression are explained); this module
answers the addresses. A game's page ``/play/{id}`` names its game's module, stylesheets
and content in its head when the server holds the game in memory (it was just created,
or is being played): the browser then fetches them with the page instead of after the
game's first view has arrived over the websocket.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from mummy.games import Page, games
from mummy.server.api.answers import TombContent, TreasureContent, Tutorial, refusals
from mummy.server.api.assets import IMMUTABLE as IMMUTABLE  # the caching rules: server/api/assets.py
from mummy.server.api.assets import REVALIDATE as REVALIDATE
from mummy.server.api.assets import STATIC as STATIC
from mummy.server.api.assets import Assets, MemoryFiles
from mummy.server.api.assets import make_assets as make_assets
from mummy.server.api.assets import version_of as version_of
from mummy.server.api.deps import ServiceDep
from mummy.server.coaching.tutorial import tutorial
from mummy.server.errors import ServiceError

router = APIRouter(tags=["content"])
#: The content's answers beside its model: the browser's copy still good (its ETag).
CACHED = {304: {"description": "the copy the browser holds (its ETag) is still the content"}, **refusals()}


def _assets(request: Request) -> Assets:
    assets: Assets = request.app.state.assets
    return assets


async def html_page(request: Request, name: str) -> Response:
    """Every HTML page goes through here (``name``: its file in static/, e.g.
    ``"index.html"``): made once with versioned references, the import map and the
    hints, sent with its ETag and ``no-cache`` (a repeat visit costs a ``304``) and its
    own policy."""
    return await _assets(request).pages[name].answer(request)


def static_files(assets: Assets) -> StaticFiles:
    """The pages' scripts, styles and images, from memory (mounted at ``/static`` by
    ``create_app``: a router cannot carry a mount)."""
    return MemoryFiles(assets.files)


def content() -> dict[str, Any]:
    """Each game's content for the browser (its registration's ``content``), by the game's
    name: made once per app (``create_app`` keeps it on the app)."""
    return {name: game.part("content")() for name, game in games().items() if game.has("content")}


def game_pages() -> dict[str, Page]:
    """Each game's browser module and stylesheet (its registration's ``page``)."""
    return {name: game.page for name, game in games().items() if game.page is not None}


@router.get("/", include_in_schema=False)
async def start_page(request: Request) -> Response:
    return await html_page(request, "index.html")


@router.get("/play/{game_id}", include_in_schema=False)
async def play_page(request: Request, game_id: str, service: ServiceDep) -> Response:
    """The game page; with its game's files named in its head when the game is in memory
    (no database read for a page: a game not in memory gets the plain page, whose script
    asks for the game's files once its first view has said which game it is)."""
    held = service.cached(game_id)
    return await _assets(request).play_page(held.row.kind if held is not None else None).answer(request)


@router.get("/replay/{game_id}", include_in_schema=False)
async def replay_page(request: Request, game_id: str) -> Response:
    return await html_page(request, "replay.html")


@router.get("/api/content/{game}", response_model=TombContent | TreasureContent,
            responses={**CACHED, **refusals(404)})
async def game_content(request: Request, game: str) -> Response:
    """A game's content for drawing it (its registration's ``content``): the Tomb's maps
    and tile shapes, Treasure's sites and piles (immutable at the versioned address the
    pages' import map gives, ``?v=``)."""
    doc = _assets(request).content.get(game)
    if doc is None:
        raise ServiceError(404, "not_found", f"no content for {game!r}; games with content: "
                                             f"{', '.join(_assets(request).content)}")
    return await doc.answer(request, immutable=request.query_params.get("v") == doc.version)


# -- learning the game (docs/web.md, "Learning the game") --------------------------------------
@router.get("/rules", include_in_schema=False)
async def rules_page(request: Request) -> Response:
    """Both games' rules by rule id (``/rules#T3.3``), searchable, with the legend of the
    pictures on the game pages."""
    return await html_page(request, "rules.html")


@router.get("/tutorial", include_in_schema=False)
async def tutorial_page(request: Request) -> Response:
    """The Tomb's tutorial: the rulebook's First Round Example, played on a real game."""
    return await html_page(request, "tutorial.html")


@router.get("/api/tutorial", response_model=Tutorial, responses=refusals(), response_model_exclude_unset=True)
async def tutorial_steps() -> dict[str, Any]:
    """The tutorial's game (the body of ``POST /api/games`` but the seats) and its steps,
    each played through the engine before it is handed out (mummy/server/coaching/tutorial.py)."""
    return tutorial()
