"""The daily challenge and the leaderboards over HTTP."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse

from mummy.server import clock
from mummy.server.admission.declared import rate_limit
from mummy.server.admission.limits import CHARGE, RateLimited, refusal
from mummy.server.api.answers import DailyMade, DayBoard, Leaderboard, refusals
from mummy.server.api.deps import ServiceDep
from mummy.server.api.schemas import DailyIn, GameName

router = APIRouter(tags=["boards"])


@router.post("/api/daily/{game}", status_code=201, response_model=DailyMade,
             openapi_extra=rate_limit("games", by_route=True),  # counted only when it creates a game
             responses={200: {"model": DailyMade, "description": "today's game of one of the tokens, resumed"},
                        **refusals(422, 429)}, response_model_exclude_unset=True)
def daily(game: GameName, body: DailyIn, svc: ServiceDep, request: Request, response: Response) -> Any:
    """Today's challenge: a new game (201), or today's game of one of the body's tokens (200,
    ``"resumed": true``), so that a second click, or a second tab, goes back to it. Only a
    new game counts against the rate limit of new games (``limits.Charge``)."""
    address = request.client.host if request.client else None
    try:
        created = svc.create_daily(game, body.name, address, body.tokens, charge=request.scope.get(CHARGE))
    except RateLimited as exc:
        status, content, headers = refusal(exc)
        return JSONResponse(content, status_code=status, headers=headers)
    if created.get("resumed"):
        response.status_code = 200
    token = created["seats"][0]["token"]
    created["seats"][0]["invite"] = f"/play/{created['id']}#token={token}"
    return created


@router.get("/api/daily/{game}", response_model=DayBoard, responses=refusals(422),
            response_model_exclude_unset=True)
def daily_board(game: GameName, svc: ServiceDep, day: str | None = None) -> dict[str, Any]:
    """A day's challenge board (today's by default): each player's first finished game."""
    day = day or clock.today()
    return {"day": day, "leaderboard": svc.leaderboard(game, daily=day)}


@router.get("/api/leaderboards/{game}", response_model=Leaderboard, responses=refusals(422),
            response_model_exclude_unset=True)
def leaderboard(game: GameName, svc: ServiceDep,
                where: Annotated[str | None, Query(max_length=16, description="map or site")] = None,
                ) -> dict[str, Any]:
    """Finished solo games on secret seeds, best first: the Tomb by score, Treasure by turns."""
    return {"game": game, "where": where, "leaderboard": svc.leaderboard(game, where)}
