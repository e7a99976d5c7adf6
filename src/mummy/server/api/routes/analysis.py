"""Coaching over HTTP (``coaching``, docs/analysis.md §6): a finished solo game's par, a
finished game's review, a practice game's hint, and a day's board by par.

:func:`install` puts it all on an app (one line of ``create_app``): the coach on
``app.state.coach``, these routes, the hook that queues a game's par when its last move has
been told (``Play.ended``), and the coach's end with the app's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from mummy.server import clock
from mummy.server.admission.declared import rate_limit
from mummy.server.api.answers import DayParBoard, Hint, ParStatus, ReviewStatus, refusals
from mummy.server.api.deps import OwnerDep, PlayDep, TokenDep, app_state
from mummy.server.api.schemas import STRICT, GameName
from mummy.server.coaching.coaching import Asker, Coach
from mummy.server.coaching.lanes import Job, JobFailed
from mummy.server.errors import ServiceError

router = APIRouter(tags=["coaching"])
#: A review's answers: done (or not asked for), or under way.
REVIEW: dict[int | str, dict[str, Any]] = {
    200: {"model": ReviewStatus, "description": "the review (`done`), or `none`: never asked for"},
    202: {"model": ReviewStatus, "description": "under way: `queued` (with `ahead`) or `running`"}}
CoachDep = Annotated[Coach, Depends(app_state("coach"))]
Player = Annotated[int, Query(ge=0, lt=8, description="whose decisions: a seat number")]


class HintIn(BaseModel):
    model_config = STRICT
    practice: bool = Field(default=False, description="accept that a game that would rank becomes a practice "
                                                      "game, off the boards")


# Coaching's analysis: each can be a bot's whole game of CPU, counted as a new game.
@router.post("/api/games/{game_id}/par", response_model=ParStatus, responses=refusals(404, 409, 429),
             openapi_extra=rate_limit("games"),
             response_model_exclude_unset=True)
async def ask_par(game_id: str, coach: CoachDep, play: PlayDep) -> dict[str, Any]:
    """A finished solo game's par, queued if it is not known nor under way (after a
    restart, or when the queue was full as the game ended): ``status`` says how far."""
    result: dict[str, Any] = await play.workers.run(coach.par, game_id, True)
    return result


@router.get("/api/games/{game_id}/par", response_model=ParStatus, responses=refusals(404, 409),
            response_model_exclude_unset=True)
async def get_par(game_id: str, coach: CoachDep, play: PlayDep) -> dict[str, Any]:
    """How a finished solo game's par stands, without asking for it."""
    result: dict[str, Any] = await play.workers.run(coach.par, game_id, False)
    return result


@router.post("/api/games/{game_id}/review", response_model=ReviewStatus, openapi_extra=rate_limit("games"),
             responses={**REVIEW, **refusals(404, 409, 422, 429, 503)})
async def ask_review(game_id: str, coach: CoachDep, play: PlayDep, token: TokenDep, owner: OwnerDep,
                     player: Player = 0) -> JSONResponse:
    """The review of a finished game's seat: 200 with it when it is known (computed once
    and stored), else 202 with its progress (queued, it starts when the reviewer is free;
    a request with one of the game's seat tokens goes before the others). Gated like a
    replay; each address may have two reviews of its own under way (429 beyond)."""
    status, body = await play.workers.run(coach.review, game_id, player, True, Asker(owner.group, token))
    return JSONResponse(body, status_code=status)


@router.get("/api/games/{game_id}/review", response_model=ReviewStatus,
            responses={**REVIEW, **refusals(404, 409, 422)})
async def get_review(game_id: str, coach: CoachDep, play: PlayDep, player: Player = 0) -> JSONResponse:
    """The review, or its progress, or ``none`` (never asked for): asks for nothing."""
    status, body = await play.workers.run(coach.review, game_id, player, False)
    return JSONResponse(body, status_code=status)


@router.post("/api/games/{game_id}/hint", response_model=Hint, openapi_extra=rate_limit("games"),
             responses=refusals(401, 403, 404, 409, 422, 429, 503), response_model_exclude_unset=True)
async def hint(game_id: str, coach: CoachDep, play: PlayDep, token: TokenDep,
               body: HintIn | None = None) -> dict[str, Any]:
    """The strongest bot's choice for the token's seat now, in a solo practice game; the
    game is marked as given hints (never ranked). Refused in a daily challenge, a game of
    several seats, and a game that would rank without ``practice``."""
    practice = body.practice if body is not None else False
    asked = await play.workers.run(coach.ask_hint, game_id, token, practice)
    if not isinstance(asked, Job):
        return asked
    try:
        await asyncio.wrap_future(asked.future)
    except JobFailed as exc:
        if asked.lasting:
            raise ServiceError(409, "cannot_hint", str(exc)) from None
        raise ServiceError(503, "busy", f"the hint could not be worked out now ({exc}); try again") from None
    answer: dict[str, Any] = await play.workers.run(coach.hint_given, asked)
    return answer


@router.get("/api/daily/{game}/par", tags=["boards"], response_model=DayParBoard, responses=refusals(422),
            response_model_exclude_unset=True)
async def day_board(game: GameName, coach: CoachDep, play: PlayDep,
                    day: Annotated[str | None, Query(max_length=10)] = None) -> dict[str, Any]:
    """A day's challenge board by the result against par (the score less par's)."""
    board: dict[str, Any] = await play.workers.run(coach.day_board, game, day or clock.today())
    return board


def install(app: FastAPI) -> Coach:
    """Coaching on an app made by ``create_app``: the coach, its routes, its hook on the
    end of a game, and its end with the app's."""
    coach = Coach(app.state.service, app.state.hub)
    app.state.coach = coach
    app.state.play.ended.append(coach.game_over)
    app.include_router(router)
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(the_app: FastAPI) -> AsyncIterator[Any]:
        coach.loop = asyncio.get_running_loop()
        try:
            async with inner(the_app) as state:
                yield state
        finally:
            coach.close()

    app.router.lifespan_context = lifespan
    return coach


__all__ = ["install", "router"]
