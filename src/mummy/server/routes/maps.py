"""Maps over HTTP (docs/web.md, "Editor"): the map editor's page, the check of a map's
text by the same rules as ``mummy check-map`` (T10), custom maps registered by their text,
and one map's drawing for a page whose content lacks it (a custom or a generated map).

Thin: the checks are :func:`mummy.tomb.content.parse_map`'s, the drawing
:mod:`mummy.web.content`'s. A custom map's id is derived from its text
(:func:`~mummy.tomb.content.register_map_text`), so a game stores the text with its set-up
and whoever loads the game registers it again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from mummy.core.errors import ContentError
from mummy.server.errors import ServiceError
from mummy.server.routes.pages import html_page
from mummy.server.schemas import STRICT, Text
from mummy.tomb.content import (
    MAX_MAP_TEXT,
    custom_map_id,
    fault_square,
    is_map,
    map_ids,
    parse_map,
    register_map_text,
)
from mummy.web.content import map_content, tomb_map_content

router = APIRouter()


class MapTextIn(BaseModel):
    model_config = STRICT
    text: Text = Field(max_length=MAX_MAP_TEXT, description="a map file (docs/tomb-formats.md, Maps)")


def _fault(text: str, exc: ContentError) -> dict[str, Any]:
    """A map's fault as the editor shows it: its line, the message, and the square the
    line names (if it names one), where the fault is drawn."""
    return {"line": exc.line, "message": exc.detail, "square": fault_square(text, exc.line)}


@router.get("/editor", include_in_schema=False)
async def editor_page(request: Request) -> Response:
    """The map editor: paint a map, see each fault on its square, save it, play it."""
    return await html_page(request, "editor.html")


@router.post("/api/maps/check")
async def check_map(body: MapTextIn) -> dict[str, Any]:
    """A map's text checked as ``mummy check-map`` checks a file (T10): ``{"ok": true,
    "id", "map"}`` with the id it would be played under and its drawing, or ``{"ok":
    false, "fault": {"line", "message", "square"}}``. Nothing is registered."""
    try:
        spec = parse_map(body.text, "map.txt")
    except ContentError as exc:
        return {"ok": False, "fault": _fault(body.text, exc)}
    map_id = custom_map_id(body.text)
    return {"ok": True, "id": map_id, "map": map_content(replace(spec, id=map_id))}


@router.post("/api/maps", status_code=201)
async def add_map(body: MapTextIn) -> dict[str, Any]:
    """Register a custom map by its text (checked, T10): its id (``custom-`` and the start
    of the text's SHA-256) names it in ``POST /api/games`` (``"map"``) on this server. A
    game created with ``"map_text"`` instead stores the text and needs no registration."""
    try:
        map_id = register_map_text(body.text)
    except ContentError as exc:
        raise ServiceError(422, "bad_map", f"line {exc.line}: {exc.detail}", rule="T10",
                           where=fault_square(body.text, exc.line)) from None
    return {"id": map_id, "map": tomb_map_content(map_id)}


@router.get("/api/content/tomb/maps/{map_id}")
async def map_drawing(map_id: str) -> dict[str, Any]:
    """One map as drawn (the shape of ``/api/content/tomb``'s ``maps``): a packaged map, a
    generated one, or a custom map this server has registered (a game on it was loaded)."""
    if len(map_id) > 64 or not is_map(map_id):
        raise ServiceError(404, "not_found", f"unknown map {map_id[:64]!r}; maps: {', '.join(map_ids())}, "
                           "a generated map's id, or a custom map of a game on this server")
    return tomb_map_content(map_id)
