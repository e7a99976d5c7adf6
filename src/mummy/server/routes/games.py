"""Games over HTTP: create one, view it, act in it, and read its record or replay."""

from __future__ import annotations

import os
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from mummy import __version__
from mummy.server.deps import OwnerDep, PlayDep, ServiceDep, TokenDep
from mummy.server.errors import ServiceError
from mummy.server.schemas import ActIn, CreateGame, Tokens

router = APIRouter()


@router.get("/api/health")
def health() -> dict[str, Any]:
    """Whether this process answers (liveness), and which process it is: behind a load
    balancer, or with ``mummy serve --workers N``, each answer may come from another."""
    return {"ok": True, "version": __version__, "process": os.getpid()}


@router.get("/api/ready")
async def ready(play: PlayDep) -> JSONResponse:
    """Whether this process can serve games now (readiness): its database answers. A load
    balancer sends no new connection to a process whose database is away."""
    try:
        await play.workers.run(play.service.repo.ping)
    except Exception:
        return JSONResponse(status_code=503, content={"ok": False, "error": {
            "code": "unavailable", "message": "the database does not answer"}})
    return JSONResponse(content={"ok": True, "process": os.getpid()})


@router.post("/api/games", status_code=201)
def create_game(body: CreateGame, svc: ServiceDep, owner: OwnerDep) -> dict[str, Any]:
    created = svc.create(body.game, [s.model_dump() for s in body.seats], body.config(), body.seed, owner=owner)
    for seat in created["seats"]:
        if seat["token"]:
            seat["invite"] = f"/play/{created['id']}#token={seat['token']}"
    return created


@router.get("/api/games/{game_id}")
def get_game(game_id: str, svc: ServiceDep, token: TokenDep) -> dict[str, Any]:
    return svc.view(game_id, token)


@router.post("/api/games/{game_id}/actions")
async def act(game_id: str, body: ActIn, play: PlayDep, token: TokenDep) -> dict[str, Any]:
    try:
        result = await play.act(game_id, token, body.client_id, body.version, body.action)
    except ServiceError as exc:
        if exc.code in ("stale", "illegal"):  # with the current state, to resynchronise
            view = await play.view(game_id, token)
            return JSONResponse(status_code=exc.status,  # type: ignore[return-value]
                                content={"error": exc.payload(), "state": view})
        raise
    await play.told(game_id, result)
    return {"result": result, "state": await play.view(game_id, token)}


@router.post("/api/games/{game_id}/rematch", status_code=201)
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


@router.get("/api/games/{game_id}/preview")
def preview(game_id: str, svc: ServiceDep, token: TokenDep,
            action: Annotated[str, Query(min_length=1, max_length=64)]) -> dict[str, Any]:
    """What an action would do for the token's seat, before it is made (contracts §2):
    its sentence, warnings and uses after; refused like an action (422 with the rule)."""
    return svc.preview(game_id, token, action)


@router.get("/api/games/{game_id}/record")
def record(game_id: str, svc: ServiceDep) -> dict[str, Any]:
    return svc.record(game_id)


@router.get("/api/games/{game_id}/replay")
def replay(game_id: str, svc: ServiceDep,
           step: Annotated[int, Query(ge=0, lt=100_000)] = 0) -> dict[str, Any]:
    return svc.replay(game_id, step)


@router.post("/api/my-games")
def my_games(body: Tokens, svc: ServiceDep) -> dict[str, Any]:
    return {"games": svc.games_of(body.tokens)}
