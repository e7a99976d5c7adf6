"""The daily challenge and the leaderboards over HTTP."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse

from mummy.server import clock
from mummy.server.deps import ServiceDep
from mummy.server.limits import CHARGE, RateLimited, refusal
from mummy.server.schemas import DailyIn, GameName

router = APIRouter()


@router.post("/api/daily/{game}", status_code=201, response_model=dict[str, Any])
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


@router.get("/api/daily/{game}")
def daily_board(game: GameName, svc: ServiceDep, day: str | None = None) -> dict[str, Any]:
    day = day or clock.today()
    return {"day": day, "leaderboard": svc.leaderboard(game, daily=day)}


@router.get("/api/leaderboards/{game}")
def leaderboard(game: GameName, svc: ServiceDep,
                where: Annotated[str | None, Query(max_length=16, description="map or site")] = None,
                ) -> dict[str, Any]:
    return {"game": game, "where": where, "leaderboard": svc.leaderboard(game, where)}
