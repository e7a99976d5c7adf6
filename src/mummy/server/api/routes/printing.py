"""Printable sheets in the browser (docs/printing.md): the page, and each sheet as SVG.

The sheets are render/print_*.py's, the same drawings ``mummy print`` writes as PDF; the
browser prints them itself (its print stylesheet sets the paper), so the server needs no
PDF library. Thin: the drawing is the render layer's, done in a child process behind a
bounded queue, with a cache (``sheets``); the request is checked before anything is drawn.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from mummy.render.print_treasure import treasure_page_count
from mummy.render.svg import PAPERS
from mummy.server.admission.declared import rate_limit
from mummy.server.api.answers import refusals
from mummy.server.api.assets import etag_matches
from mummy.server.api.deps import ServiceDep
from mummy.server.api.routes.pages import html_page
from mummy.server.coaching.lanes import JobFailed
from mummy.server.coaching.sheets import Busy, Sheets
from mummy.server.errors import ServiceError
from mummy.tomb.content import CUSTOM_PREFIX, is_map, map_ids
from mummy.treasure.content import piles, sites

router = APIRouter(tags=["print"])
SVG = "image/svg+xml; charset=utf-8"
#: A sheet is the same for the same address: let the browser keep it a day, and ask with
#: its ETag after that.
CACHE = "public, max-age=86400"
#: Seconds a refused request (every drawing slot taken) is told to wait.
BUSY_RETRY = 2


def sheet_answers(what: str, *errors: int, headers: dict[str, Any] | None = None) -> dict[int | str, dict[str, Any]]:
    """A sheet's answers for the schema: the SVG, the browser's copy still good (its ETag),
    and the errors in their shared shape."""
    sheet: dict[str, Any] = {"description": what, "content": {SVG: {"schema": {"type": "string"}}}}
    if headers:
        sheet["headers"] = headers
    return {200: sheet,
            304: {"description": "the copy the browser holds (its ETag) is still the sheet"},
            **refusals(*errors, 429, 503, reasons={503: "every drawing slot is taken: retry (`busy`, Retry-After)"})}


def _paper(paper: str) -> str:
    if paper not in PAPERS:
        raise ServiceError(422, "bad_request", f"paper: {', '.join(PAPERS)}, not {paper!r}")
    return paper


@router.get("/print", include_in_schema=False)
async def print_page(request: Request) -> Response:
    """``/print?game=tomb&map=map1&paper=a4&seed=N``: a game's sheets, ready to print."""
    return await html_page(request, "print.html")


async def _sheet(request: Request, key: tuple[object, ...], args: tuple[object, ...],
                 headers: dict[str, str] | None = None) -> Response:
    """A sheet (``sheets.Sheets``; ``args`` for ``coach_jobs.sheet_job``): ``304`` when the
    browser holds it, else drawn in the drawing child (or taken from the cache), ``503``
    when the drawing's queue is full."""
    sheets: Sheets = request.app.state.sheets
    etag = sheets.etag(key)
    headers = {**(headers or {}), "etag": etag, "cache-control": CACHE}
    if etag_matches(etag, request.headers):
        return Response(status_code=304, headers=headers)
    try:
        body = await sheets.get(key, args)
    except Busy:
        raise ServiceError(503, "busy", "the server is drawing as many sheets as it can; try again in a moment",
                           retry_after=BUSY_RETRY) from None
    except JobFailed as exc:
        raise ServiceError(503, "busy", f"the sheet could not be drawn now ({exc}); try again",
                           retry_after=BUSY_RETRY) from None
    return Response(body, media_type=SVG, headers=headers)


@router.get("/api/print/tomb.svg", response_class=Response, openapi_extra=rate_limit("prints"),
            responses=sheet_answers("the Tomb's player sheet", 422))
async def tomb_svg(request: Request, svc: ServiceDep,
                   map: Annotated[str, Query(max_length=64)] = "map1",
                   paper: Annotated[str, Query(max_length=8)] = "a4",
                   seed: Annotated[int | None, Query(ge=0, lt=2**63)] = None) -> Response:
    """The Tomb's player sheet for ``map`` (packaged, generated, or a custom map stored on
    this server), with the seed line."""
    paper = _paper(paper)
    text = None
    if map.startswith(CUSTOM_PREFIX):
        text = await request.app.state.play.workers.run(svc.maps.text, map)
    if not (is_map(map) or text is not None):
        raise ServiceError(422, "bad_request", f"map: unknown map {map!r}; maps: {', '.join(map_ids())} (T10)")
    return await _sheet(request, ("tomb", map, paper, seed), ("tomb", map, text, paper, seed, 1))


@router.get("/api/print/treasure.svg", response_class=Response, openapi_extra=rate_limit("prints"),
            responses=sheet_answers("a page of Treasure's printout", 404, 422, headers={"x-pages": {
                "description": "the printout's pages", "schema": {"type": "integer"}}}))
async def treasure_svg(request: Request, page: Annotated[int, Query(ge=1, le=20)] = 1,
                       paper: Annotated[str, Query(max_length=8)] = "a4") -> Response:
    """Page ``page`` of Mummy's Treasure's printout (the sites, then the tiles to cut out);
    the answer's ``x-pages`` says how many there are."""
    paper = _paper(paper)
    pages = treasure_page_count(sites(), piles(), paper)  # laid out, not drawn
    if page > pages:
        raise ServiceError(404, "not_found", f"page: the printout has {pages} pages")
    return await _sheet(request, ("treasure", page, paper), ("treasure", "", None, paper, None, page),
                        {"x-pages": str(pages)})
