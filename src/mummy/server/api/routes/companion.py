"""The paper players' companion (docs/web.md): its page, a seed's dice, a score check.

Thin: the dice and the check are mummy/web/companion.py's, over the engine's rules. Plain
functions, run in worker threads: a check on a generated map builds the map first (tens of
milliseconds), which the event loop must not wait for; both are rate-limited
like previews (``limits.rate_limit``, declared at the route).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import Response

from mummy.core.rng import parse_seed
from mummy.server.admission.declared import rate_limit
from mummy.server.api.answers import Dice, ScoreCheck, refusals
from mummy.server.api.routes.pages import html_page
from mummy.server.errors import ServiceError
from mummy.web.companion import MAX_PLAYERS, companion_dice, score_check

router = APIRouter(tags=["companion"])


@router.get("/companion", include_in_schema=False)
async def companion_page(request: Request) -> Response:
    """Big dice for a table playing the Tomb on paper, from a seed (``?seed=N&players=P``)."""
    return await html_page(request, "companion.html")


@router.get("/api/companion/tomb", response_model=Dice, responses=refusals(422, 429),
            openapi_extra=rate_limit("previews"),  # a seed's dice, worked out
            response_model_exclude_unset=True)
def companion_tomb(seed: Annotated[str, Query(max_length=19)],
                         players: Annotated[int, Query(ge=1, le=MAX_PLAYERS)] = 1) -> dict[str, Any]:
    """Every round's dice and each player's bought dice for ``seed`` (T4.1, T4.6), in
    one answer: the page then needs no connection."""
    try:
        value = parse_seed(seed)
    except ValueError:
        raise ServiceError(422, "bad_request", f"seed: a whole number 0 or more, not {seed!r} (T4.6)") from None
    return companion_dice(value, players)


@router.post("/api/companion/tomb/score", response_model=ScoreCheck, responses=refusals(422, 429),
             openapi_extra=rate_limit("previews"),  # a sheet scored (a map built)
             response_model_exclude_unset=True)
def companion_score(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
    """A paper sheet's counts scored by the engine (T7): lines, total, achievements, and
    the counts no sheet of the map could show."""
    try:
        return score_check(body)
    except ValueError as exc:
        raise ServiceError(422, "bad_request", str(exc), rule="T7") from None
