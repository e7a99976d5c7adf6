"""Games over HTTP: create one, view it, act in it, and read its record or replay.

Each route names its answer's model (``answers``) and its errors (``answers.refusals``).
A view and an action's answer are the hot path of play: they name their model for the
schema but send JSON encoded here (``wire.encode``, as the websocket does), since running
a view of a few KiB through pydantic costs more than the rest of the answer.
"""

from __future__ import annotations

import os
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from mummy import __version__
from mummy.server.admission.declared import rate_limit
from mummy.server.api.answers import (
    Acted,
    ActionRefused,
    Created,
    GameRecord,
    GameView,
    Health,
    MyGames,
    NotReady,
    Preview,
    Ready,
    Rematch,
    Replay,
    refusals,
)
from mummy.server.api.deps import OwnerDep, PlayDep, ServiceDep, TokenDep
from mummy.server.api.schemas import ActIn, CreateGame, Tokens
from mummy.server.errors import ServiceError, error_body
from mummy.server.play.wire import encode

router = APIRouter()


def json_answer(content: Any, status_code: int = 200) -> Response:
    """JSON the route has encoded itself (orjson, as the websocket's messages)."""
    return Response(encode(content), status_code=status_code, media_type="application/json")


@router.get("/api/health", tags=["health"], response_model=Health, responses=refusals(),
            response_model_exclude_unset=True)
def health() -> dict[str, Any]:
    """Whether this process answers (liveness), and which process it is: behind a load
    balancer, or with ``mummy serve --workers N``, each answer may come from another."""
    return {"ok": True, "version": __version__, "process": os.getpid()}


@router.get("/api/ready", tags=["health"], response_model=Ready,
            responses=refusals(503, model=NotReady, reasons={503: "the database does not answer"}))
async def ready(play: PlayDep) -> JSONResponse:
    """Whether this process can serve games now (readiness): its database answers. A load
    balancer sends no new connection to a process whose database is away."""
    try:
        await play.workers.run(play.service.repo.ping)
    except Exception:
        return JSONResponse(status_code=503, content={
            "ok": False, **error_body("unavailable", "the database does not answer")})
    return JSONResponse(content={"ok": True, "process": os.getpid()})


@router.post("/api/games", status_code=201, tags=["games"], response_model=Created, openapi_extra=rate_limit("games"),
             responses=refusals(422, 429), response_model_exclude_unset=True)
def create_game(body: CreateGame, svc: ServiceDep, owner: OwnerDep) -> dict[str, Any]:
    """A new game: its id, public commitment, and each person's seat token and invite."""
    created = svc.create(body.game, [s.model_dump() for s in body.seats], body.config(), body.seed, owner=owner)
    for seat in created["seats"]:
        if seat["token"]:
            seat["invite"] = f"/play/{created['id']}#token={seat['token']}"
    return created


@router.get("/api/games/{game_id}", tags=["games"], response_model=GameView, responses=refusals(403, 404))
def get_game(game_id: str, svc: ServiceDep, token: TokenDep) -> Response:
    """The game as the token's seat sees it (with its legal actions), or a spectator."""
    return json_answer(svc.view(game_id, token))


@router.post("/api/games/{game_id}/actions", tags=["play"], response_model=Acted, openapi_extra=rate_limit("actions"),
             responses={
    **refusals(401, 403, 404, 429),
    **refusals(409, 422, model=ActionRefused, reasons={
        409: "`stale` (with the current `state`), `over`, `conflict`",
        422: "`illegal` with the rule (and the current `state`), or `bad_request`"})})
async def act(game_id: str, body: ActIn, play: PlayDep, token: TokenDep) -> Response:
    """Act as the token's seat: the result, and the seat's view after the action and any
    bots' replies (docs/server.md §3.3)."""
    try:
        result = await play.act(game_id, token, body.client_id, body.version, body.action)
    except ServiceError as exc:
        if exc.code in ("stale", "illegal"):  # with the current state, to resynchronise
            view = await play.view(game_id, token)
            return json_answer({"error": exc.payload(), "state": view}, status_code=exc.status)
        raise
    await play.told(game_id, result)
    return json_answer({"result": result, "state": await play.view(game_id, token)})


@router.post("/api/games/{game_id}/rematch", status_code=201, tags=["games"], response_model=Rematch,
             openapi_extra=rate_limit("games"),  # a rematch is a new game
             responses={200: {"model": Rematch, "description": "the rematch another request made"},
                        **refusals(401, 403, 404, 409, 422, 429)}, response_model_exclude_unset=True)
async def rematch(game_id: str, play: PlayDep, token: TokenDep, response: Response) -> dict[str, Any]:
    """The same game again on a new seed, made once (contracts §3): 201 with the new game
    for the request that makes it, 200 with the same game for every later one, each with
    only the caller's own seat's token. The old game's pages are told (its views carry
    ``rematch``), so its other players are offered to join."""
    created = await play.workers.run(play.service.rematch, game_id, token)
    for seat in created["seats"]:
        if seat["token"]:
            seat["invite"] = f"/play/{created['id']}#token={seat['token']}"
    if created["new"]:
        await play.hub.broadcast(play.service, game_id)
    else:
        response.status_code = 200
    return created


@router.get("/api/games/{game_id}/preview", tags=["play"], response_model=Preview, openapi_extra=rate_limit("previews"),
            responses=refusals(401, 403, 404, 409, 422, 429), response_model_exclude_unset=True)
def preview(game_id: str, svc: ServiceDep, token: TokenDep,
            action: Annotated[str, Query(min_length=1, max_length=64)]) -> dict[str, Any]:
    """What an action would do for the token's seat, before it is made (contracts §2):
    its sentence, warnings and uses after; refused like an action (422 with the rule)."""
    return svc.preview(game_id, token, action)


@router.get("/api/games/{game_id}/record", tags=["games"], response_model=GameRecord,
            responses=refusals(404, 409), response_model_exclude_unset=True)
def record(game_id: str, svc: ServiceDep) -> dict[str, Any]:
    """The finished game's record, seed revealed, for ``mummy verify`` (409 before)."""
    return svc.record(game_id)


@router.get("/api/games/{game_id}/replay", tags=["games"], response_model=Replay,
            responses=refusals(404, 409, 422), response_model_exclude_unset=True)
def replay(game_id: str, svc: ServiceDep,
           step: Annotated[int, Query(ge=0, lt=100_000)] = 0) -> dict[str, Any]:
    """A finished game as it stood after its first ``step`` log entries (409 before its end)."""
    return svc.replay(game_id, step)


@router.post("/api/my-games", tags=["games"], response_model=MyGames, responses=refusals(422),
             response_model_exclude_unset=True)
def my_games(body: Tokens, svc: ServiceDep) -> dict[str, Any]:
    """The games in which these tokens hold seats, newest first."""
    return {"games": svc.games_of(body.tokens)}
