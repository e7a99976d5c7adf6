"""Maps over HTTP (docs/web.md, "Editor"): the map editor's page, the check of a map's
text by the same rules as ``mummy check-map`` (T10), custom maps stored by their text,
and one map's drawing for a page whose content lacks it (a custom or a generated map).

Thin: the checks are :func:`mummy.tomb.content.parse_map`'s, the drawing
:mod:`mummy.web.content`'s, the store the service's. A custom map's id is derived from
its text (:func:`~mummy.tomb.content.register_map_text`): the database keeps each map by
that id (any process finds it), a game keeps the text with its set-up, and a process
holds the maps it uses in a bounded cache that lets the least used go.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from mummy.core.errors import ContentError
from mummy.server.admission.declared import rate_limit
from mummy.server.api.answers import MapChecked, MapDrawing, MapStored, refusals
from mummy.server.api.deps import OwnerDep, ServiceDep
from mummy.server.api.routes.pages import html_page
from mummy.server.api.schemas import STRICT, FileText
from mummy.server.errors import ServiceError
from mummy.tomb.content import (
    MAX_MAP_TEXT,
    custom_map_id,
    fault_square,
    is_map,
    map_ids,
    parse_map,
)
from mummy.web.content import map_content, tomb_map_content

router = APIRouter(tags=["maps"])


class MapTextIn(BaseModel):
    model_config = STRICT
    text: FileText = Field(max_length=MAX_MAP_TEXT, description="a map file (docs/tomb-formats.md, Maps)")


def _fault(text: str, exc: ContentError) -> dict[str, Any]:
    """A map's fault as the editor shows it: its line, the message, and the square the
    line names (if it names one), where the fault is drawn."""
    return {"line": exc.line, "message": exc.detail, "square": fault_square(text, exc.line)}


@router.get("/editor", include_in_schema=False)
async def editor_page(request: Request) -> Response:
    """The map editor: paint a map, see each fault on its square, save it, play it."""
    return await html_page(request, "editor.html")


@router.post("/api/maps/check", response_model=MapChecked, responses=refusals(422, 429),
             openapi_extra=rate_limit("previews"),  # the editor checks as a player previews
             response_model_exclude_unset=True)
def check_map(body: MapTextIn) -> dict[str, Any]:
    """A map's text checked as ``mummy check-map`` checks a file (T10): ``{"ok": true,
    "id", "map"}`` with the id it would be played under and its drawing, or ``{"ok":
    false, "fault": {"line", "message", "square"}}``. Nothing is registered. (A plain
    function: a big map's check is milliseconds of work, done in a worker thread.)"""
    try:
        spec = parse_map(body.text, "map.txt")
    except ContentError as exc:
        return {"ok": False, "fault": _fault(body.text, exc)}
    map_id = custom_map_id(body.text)
    return {"ok": True, "id": map_id, "map": map_content(replace(spec, id=map_id))}


@router.post("/api/maps", status_code=201, response_model=MapStored, responses=refusals(422, 429),
             openapi_extra=rate_limit("games"),  # a custom map is kept like a game's set-up
             response_model_exclude_unset=True)
def add_map(body: MapTextIn, svc: ServiceDep, owner: OwnerDep) -> dict[str, Any]:
    """Store a custom map by its text (checked, T10): its id (``custom-`` and the start
    of the text's SHA-256) names it in ``POST /api/games`` (``"map"``) on this server, in
    any of its processes. A game created with ``"map_text"`` stores the text likewise.
    Each address may store ``maps_per_address_per_day`` new maps a day (429 beyond); a
    map stored already is answered again at no cost."""
    map_id = svc.maps.add(body.text, owner)
    return {"id": map_id, "map": tomb_map_content(map_id)}


@router.get("/api/content/tomb/maps/{map_id}", response_model=MapDrawing, responses=refusals(404, 422, 429),
            openapi_extra=rate_limit("previews"),  # a generated map is drawn on demand
            response_model_exclude_unset=True)
def map_drawing(map_id: str, svc: ServiceDep) -> dict[str, Any]:
    """One map as drawn (the shape of ``/api/content/tomb``'s ``maps``): a packaged map, a
    generated one, or a custom map stored on this server. (A plain function: drawing a
    generated map builds it first, in a worker thread.)"""
    if len(map_id) > 64 or not (is_map(map_id) or svc.maps.text(map_id) is not None):
        raise ServiceError(404, "not_found", f"unknown map {map_id[:64]!r}; maps: {', '.join(map_ids())}, "
                           "a generated map's id, or a custom map stored on this server")
    return tomb_map_content(map_id)
