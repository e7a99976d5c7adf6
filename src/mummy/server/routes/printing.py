"""Printable sheets in the browser (docs/printing.md): the page, and each sheet as SVG.

The sheets are render/print_*.py's, the same drawings ``mummy print`` writes as PDF; the
browser prints them itself (its print stylesheet sets the paper), so the server needs no
PDF library. Thin: the drawing is the render layer's.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from mummy.render.print_tomb import tomb_sheet
from mummy.render.print_treasure import treasure_pages
from mummy.render.svg import PAPERS
from mummy.server.errors import ServiceError
from mummy.server.routes.pages import html_page
from mummy.tomb.content import is_map, map_ids, map_spec, tile_table
from mummy.treasure.content import piles, sites

router = APIRouter()
SVG = "image/svg+xml; charset=utf-8"
#: A sheet is the same for the same address: let the browser keep it a day.
CACHE = {"cache-control": "public, max-age=86400"}


def _paper(paper: str) -> str:
    if paper not in PAPERS:
        raise ServiceError(422, "bad_request", f"paper: {', '.join(PAPERS)}, not {paper!r}")
    return paper


@router.get("/print", include_in_schema=False)
async def print_page(request: Request) -> Response:
    """``/print?game=tomb&map=map1&paper=a4&seed=N``: a game's sheets, ready to print."""
    return await html_page(request, "print.html")


@router.get("/api/print/tomb.svg", responses={200: {"content": {SVG: {}}}})
async def tomb_svg(map: Annotated[str, Query(max_length=64)] = "map1",
                   paper: Annotated[str, Query(max_length=8)] = "a4",
                   seed: Annotated[int | None, Query(ge=0, lt=2**63)] = None) -> Response:
    """The Tomb's player sheet for ``map`` (packaged or generated), with the seed line."""
    if not is_map(map):
        raise ServiceError(422, "bad_request", f"map: unknown map {map!r}; maps: {', '.join(map_ids())} (T10)")
    return Response(tomb_sheet(map_spec(map), tile_table(), _paper(paper), seed), media_type=SVG, headers=CACHE)


@router.get("/api/print/treasure.svg", responses={200: {"content": {SVG: {}}}})
async def treasure_svg(page: Annotated[int, Query(ge=1, le=20)] = 1,
                       paper: Annotated[str, Query(max_length=8)] = "a4") -> Response:
    """Page ``page`` of Mummy's Treasure's printout (the sites, then the tiles to cut out);
    the answer's ``x-pages`` says how many there are."""
    pages = treasure_pages(sites(), piles(), _paper(paper))
    if page > len(pages):
        raise ServiceError(404, "not_found", f"page: the printout has {len(pages)} pages")
    return Response(pages[page - 1], media_type=SVG, headers={**CACHE, "x-pages": str(len(pages))})
