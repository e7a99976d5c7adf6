"""The browser client (docs/web.md): its pages, their files, and the games' content."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from mummy.server.deps import Content, ContentDep
from mummy.web.content import tomb_content, treasure_content

STATIC = Path(__file__).resolve().parent.parent.parent / "web" / "static"

router = APIRouter()


def static_files() -> StaticFiles:
    """The pages' scripts, styles and images (mounted at ``/static`` by ``create_app``:
    a router cannot carry a mount)."""
    return StaticFiles(directory=STATIC)


def content() -> Content:
    """The games' content, made once per app (``create_app`` keeps it on the app)."""
    return Content(tomb=tomb_content(), treasure=treasure_content())


@router.get("/", include_in_schema=False)
def start_page() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/play/{game_id}", include_in_schema=False)
def play_page(game_id: str) -> FileResponse:
    return FileResponse(STATIC / "play.html")


@router.get("/replay/{game_id}", include_in_schema=False)
def replay_page(game_id: str) -> FileResponse:
    return FileResponse(STATIC / "replay.html")


@router.get("/api/content/tomb")
def content_tomb(games: ContentDep) -> dict[str, Any]:
    """The Tomb's maps and tile shapes, for drawing sheets and previews."""
    return games.tomb


@router.get("/api/content/treasure")
def content_treasure(games: ContentDep) -> dict[str, Any]:
    """Treasure's sites and piles, for drawing sites and tiles."""
    return games.treasure
