"""The FastAPI application: HTTP routes over :class:`~mummy.server.service.GameService`.

Routes are thin: they validate the request's shape (pydantic), read the seat token from
``Authorization: Bearer TOKEN``, call the service in a worker thread (sync routes), and
turn a :class:`ServiceError` into a JSON error with its status. No engine is created at
import time: :func:`create_app` builds everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import anyio
from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from sqlalchemy.exc import DatabaseError, SQLAlchemyError
from starlette.middleware.trustedhost import TrustedHostMiddleware

from mummy import __version__
from mummy.games import prepare_content
from mummy.server.db import make_engine, migrate
from mummy.server.hub import CLOSE_INTERNAL, CLOSE_POLICY, CLOSE_TRY_LATER, Connection, Hub
from mummy.server.hub import MAX_MESSAGE as MAX_MESSAGE  # the websocket limits: docs/server.md §4
from mummy.server.hub import MAX_RATE as MAX_RATE
from mummy.server.limits import SECURITY_HEADERS, Guard, Limits
from mummy.server.service import GameService, ServiceError, today
from mummy.web.content import tomb_content, treasure_content

DEFAULT_DB = "sqlite:///mummy.db"
log = logging.getLogger("mummy.server")
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


def _whole_unicode(text: str) -> str:
    """A lone surrogate (``"\\ud800"`` in JSON) is not text: it could be neither stored
    nor sent back, so it is refused here with the field's name, as any bad field is."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("text must be valid Unicode (no lone surrogate)") from None
    return text


#: A string field of a request body: whole Unicode text.
Text = Annotated[str, AfterValidator(_whole_unicode)]
#: Bodies are read strictly, as the websocket reads its messages: ``"version": true`` or
#: ``"1"`` is no version.
STRICT = ConfigDict(strict=True)


class SeatIn(BaseModel):
    model_config = STRICT
    name: Text | None = Field(default=None, max_length=40)
    bot: Text | None = Field(default=None, max_length=16, description="random, greedy or strong; empty for a person")


class CreateGame(BaseModel):
    model_config = STRICT
    game: Literal["tomb", "treasure"]
    seats: list[SeatIn] = Field(min_length=1, max_length=8)
    map: Text = Field(default="map1", max_length=16, description="Tomb map")
    mode: Text = Field(default="standard", max_length=16, description="Tomb mode (T8.2)")
    sites: list[Annotated[Text, Field(max_length=16)]] | None = Field(default=None, max_length=4,
                                                                     description="Treasure sites, one per seat")
    movable: bool = Field(default=False, description="Treasure movable-tiles variant (R5.1)")
    first: int = Field(default=0, ge=0, le=3, description="Treasure: the seat that starts (R2.3)")
    seed: int | None = Field(default=None, ge=0, lt=2**63, description="default: a secret random seed")


class ActIn(BaseModel):
    model_config = STRICT
    client_id: Text = Field(min_length=1, max_length=64)
    version: int = Field(ge=0, lt=2**31)
    action: Text = Field(min_length=1, max_length=64, description="notation, or 'undo'")


class Tokens(BaseModel):
    model_config = STRICT
    tokens: list[Annotated[Text, Field(max_length=64)]] = Field(max_length=100)


T = TypeVar("T")


#: People's service calls that cannot be made on the event loop run in worker threads;
#: only a few at once, since the work is Python under one lock (the GIL): more threads
#: would only make each one wait longer for its turn. Bots have threads of their own
#: (``GameService.play_bots``): a person's call never waits behind a bot's thinking.
WORKERS = 4


class Workers:
    """The app's worker threads for people's service calls (a limiter made in the app's
    loop). Nothing else runs here: bots have their own threads (``mummy.server.bots``)."""

    def __init__(self) -> None:
        self._limiter: anyio.CapacityLimiter | None = None

    @property
    def busy(self) -> int:
        """Calls running in the worker threads now."""
        return 0 if self._limiter is None else int(self._limiter.borrowed_tokens)

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(WORKERS)
        return await anyio.to_thread.run_sync(functools.partial(fn, *args), limiter=self._limiter)


def _token(authorization: str | None) -> str | None:
    scheme, _, value = (authorization or "").partition(" ")
    if scheme.lower() == "bearer":
        return value.strip() or None
    return None


def _capped(value: Any) -> Any:
    """A validation error's echo of the input, cut short (never a whole body back)."""
    if isinstance(value, str) and len(value) > 80:
        return value[:80] + f"… ({len(value)} characters)"
    if isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=True)
        return value if len(text) <= 200 else text[:200] + f"… ({len(text)} characters)"
    return value


def _database_fault(exc: SQLAlchemyError) -> tuple[int, str, str]:
    """Tell a damaged database file from one that is only busy or away: the first needs
    its operator, the second a retry."""
    text = str(getattr(exc, "orig", exc)).lower()
    if isinstance(exc, DatabaseError) and any(
            s in text for s in ("malformed", "not a database", "corrupt", "checksum", "invalid page")):
        return 500, "database_damaged", ("the database file is damaged (" + text[:120] + "); "
                                         "its operator must restore it from a backup")
    return 503, "unavailable", "the database is not answering; retry"


def create_app(db_url: str = DEFAULT_DB, service: GameService | None = None,
               limits: Limits | None = None) -> FastAPI:
    """The web application on the database at ``db_url`` (migrated on start), with the
    HTTP ``limits`` (docs/server.md, Limits; the defaults unless given)."""
    if service is None:
        engine = make_engine(db_url)
        migrate(engine)
        service = GameService(engine)
    svc = service
    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # The libraries and the maps' tables live as long as the process: frozen out of the
        # garbage collector, a full collection walks only the games (a stall of tens of
        # milliseconds for every connection otherwise).
        prepare_content()
        gc.collect()
        gc.freeze()
        # Games with a websocket open stay in memory; bots reply in their own threads (told).
        svc.attach(watched=lambda game_id: game_id in hub.rooms)
        sweeping = asyncio.create_task(svc.sweeping())  # idle and finished games let go
        yield
        sweeping.cancel()
        svc.close()

    # No /docs or /redoc: their pages load scripts from another host, which the server's
    # own content security policy forbids. /openapi.json is served.
    app = FastAPI(title="mummy", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Online play of The Mummy's Tomb and Mummy's Treasure (docs/server.md).")
    limits = limits or Limits()
    app.state.service = svc
    workers = Workers()
    run_in_threadpool = workers.run
    hub = Hub(workers)
    app.state.hub = hub

    @app.exception_handler(ServiceError)
    def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse(status_code=exc.status, content={"error": exc.payload()})

    @app.exception_handler(SQLAlchemyError)
    def _database_error(_request: Request, exc: SQLAlchemyError) -> JSONResponse:
        status, code, message = _database_fault(exc)
        if status == 500:
            log.error("database: %s", message)
        return JSONResponse(status_code=status, content={"error": {"code": code, "message": message}})

    @app.exception_handler(RequestValidationError)
    def _invalid(_request: Request, exc: RequestValidationError) -> Response:
        # FastAPI's format, with what it repeats of the input cut short and written in
        # ASCII, so that an answer can always be encoded (a lone surrogate cannot be).
        detail = [{**e, "input": _capped(e.get("input"))} for e in exc.errors()]
        body = json.dumps({"detail": detail}, ensure_ascii=True, default=str)
        return Response(body, status_code=422, media_type="application/json")

    @app.exception_handler(Exception)
    def _crash(_request: Request, exc: Exception) -> JSONResponse:
        # Starlette answers an unhandled error outside every middleware: the security
        # headers are set here too, as on every other answer.
        return JSONResponse(status_code=500, headers=dict(SECURITY_HEADERS), content={"error": {
            "code": "internal", "message": f"the server failed ({type(exc).__name__}); this is a bug"}})

    # Outermost first: the Host check, then the security headers, the size bounds and the
    # rate limits (before a body is parsed: a refused request costs little).
    app.add_middleware(Guard, limits=limits)
    if limits.allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(limits.allowed_hosts))

    # -- the browser client (docs/web.md): pages, their files, and the games' content ---------
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def start_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    def play_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "play.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    def replay_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    tomb_json, treasure_json = tomb_content(), treasure_content()

    @app.get("/api/content/tomb")
    def content_tomb() -> dict[str, Any]:
        """The Tomb's maps and tile shapes, for drawing sheets and previews."""
        return tomb_json

    @app.get("/api/content/treasure")
    def content_treasure() -> dict[str, Any]:
        """Treasure's sites and piles, for drawing sites and tiles."""
        return treasure_json

    @app.get("/api/health")
    def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__}

    @app.post("/api/games", status_code=201)
    def create_game(body: CreateGame) -> dict[str, Any]:
        config: dict[str, Any] = {"map": body.map, "mode": body.mode} if body.game == "tomb" else {
            "sites": body.sites, "movable": body.movable, "first": body.first}
        created = svc.create(body.game, [s.model_dump() for s in body.seats], config, body.seed)
        for seat in created["seats"]:
            if seat["token"]:
                seat["invite"] = f"/play/{created['id']}#token={seat['token']}"
        return created

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str, authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        return svc.view(game_id, _token(authorization))

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: str, body: ActIn,
                  authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        token = _token(authorization)
        try:
            result = await play(game_id, token, body.client_id, body.version, body.action)
        except ServiceError as exc:
            if exc.code in ("stale", "illegal"):  # with the current state, to resynchronise
                view = await view_of(game_id, token)
                return JSONResponse(status_code=exc.status,  # type: ignore[return-value]
                                    content={"error": exc.payload(), "state": view})
            raise
        await told(game_id, result)
        return {"result": result, "state": await view_of(game_id, token)}

    async def play(game_id: str, token: str | None, client_id: Any, version: int, action: Any) -> dict[str, Any]:
        """A person's action: on the loop when the game is in memory and free (the common
        case, and the fast one), else in a worker thread (loading it, or waiting for it).
        The service checks the client id and the action, whatever a message holds."""
        result = await svc.act_now(game_id, token, client_id, version, action)
        if result is None:
            result = await run_in_threadpool(svc.act, game_id, token, client_id, version, action)
        return result

    async def told(game_id: str, result: dict[str, Any]) -> None:
        """Everyone is told of a committed action; then the bots think and everyone is told
        of their moves. Bots think in their own threads, one move at a time in turn with
        other games' bots (``svc.play_bots``), never in the people's worker threads."""
        if result.get("repeated"):
            return
        await hub.broadcast(svc, game_id)
        if svc.bots_due(game_id):
            moved = await asyncio.wrap_future(svc.play_bots(game_id))
            if moved:
                await hub.broadcast(svc, game_id)

    async def view_of(game_id: str, token: str | None) -> dict[str, Any]:
        views = svc.views_now(game_id, [token])
        return views[0] if views is not None else await run_in_threadpool(svc.view, game_id, token)

    @app.get("/api/games/{game_id}/record")
    def record(game_id: str) -> dict[str, Any]:
        return svc.record(game_id)

    @app.get("/api/games/{game_id}/replay")
    def replay(game_id: str, step: Annotated[int, Query(ge=0, lt=100_000)] = 0) -> dict[str, Any]:
        return svc.replay(game_id, step)

    @app.post("/api/daily/{game}", status_code=201)
    def daily(game: Literal["tomb", "treasure"], body: SeatIn) -> dict[str, Any]:
        created = svc.create_daily(game, body.name)
        token = created["seats"][0]["token"]
        created["seats"][0]["invite"] = f"/play/{created['id']}#token={token}"
        return created

    @app.get("/api/daily/{game}")
    def daily_board(game: Literal["tomb", "treasure"], day: str | None = None) -> dict[str, Any]:
        day = day or today()
        return {"day": day, "leaderboard": svc.leaderboard(game, daily=day)}

    @app.get("/api/leaderboards/{game}")
    def leaderboard(game: Literal["tomb", "treasure"],
                    where: Annotated[str | None, Query(max_length=16, description="map or site")] = None,
                    ) -> dict[str, Any]:
        return {"game": game, "where": where, "leaderboard": svc.leaderboard(game, where)}

    @app.post("/api/my-games")
    def my_games(body: Tokens) -> dict[str, Any]:
        return {"games": svc.games_of(body.tokens)}

    @app.websocket("/ws/echo")
    async def echo(ws: WebSocket) -> None:
        """A bare echo, for measuring the websocket round trip itself (``make bench``).
        Admitted, read and answered by the same code as a game's socket, so it has the
        same caps, rate and size limits, and its answers the same bounded outbox."""
        conn = await hub.admit(ws)
        if conn is None:
            return
        try:
            while (text := await conn.receive()) is not None:
                conn.send_text(text)
        finally:
            await hub.leave(conn)

    @app.websocket("/ws/games/{game_id}")
    async def live(ws: WebSocket, game_id: str, token: str | None = None) -> None:
        """One connection per seat (with its token) or spectator (without). See docs/server.md.
        Everything it is sent goes through its outbox (:class:`~mummy.server.hub.Connection`):
        a client that does not read holds up nobody."""
        conn = await hub.admit(ws, token)  # the process's and the address's caps first
        if conn is None:
            return
        try:
            try:
                view = await view_of(game_id, token)
            except ServiceError as exc:
                conn.send({"type": "error", "error": exc.payload()})
                conn.close(CLOSE_POLICY)
                return
            refusal = hub.join(conn, game_id)
            if refusal is not None:
                conn.close(CLOSE_TRY_LATER, refusal)
                return
            conn.send({"type": "state", "version": view["version"], "state": view})
            while (data := await conn.receive_object()) is not None:
                kind = data.get("type")
                if kind == "action":
                    await _ws_action(conn, game_id, token, data)
                elif kind == "sync":
                    if conn.backlogged:
                        # What is queued is on its way and every later move brings an
                        # update: a client that asks again before reading costs nothing.
                        continue
                    since = data.get("version")
                    view = await view_of(game_id, token)
                    reply: dict[str, Any] = {"type": "state", "version": view["version"], "state": view}
                    if isinstance(since, int) and not isinstance(since, bool) and 0 <= since <= view["version"]:
                        # A page of the log ("more": ask again from its last version); none
                        # for a spectator of a daily challenge before its day is over.
                        with contextlib.suppress(ServiceError):
                            reply.update(await run_in_threadpool(svc.log_since, game_id, since, token))
                    conn.send(reply)
                else:
                    conn.close(CLOSE_POLICY, "unknown message type")
        except ServiceError as exc:  # the game went away under the connection
            conn.send({"type": "error", "error": exc.payload()})
            conn.close(CLOSE_POLICY)
        except Exception:  # a bug, or the database: one traceback, and a close that says so
            log.exception("websocket of game %s failed", game_id)
            conn.close(CLOSE_INTERNAL, "the server failed")
        finally:
            await hub.leave(conn)

    async def _ws_action(conn: Connection, game_id: str, token: str | None, data: dict[str, Any]) -> None:
        client_id, version, action = data.get("client_id"), data.get("version"), data.get("action")
        try:
            if token is None:
                raise ServiceError(403, "forbidden", "spectators cannot act")
            if not isinstance(version, int) or isinstance(version, bool):
                raise ServiceError(422, "bad_request", "version is a whole number")
            result = await play(game_id, token, client_id, version, action)
        except ServiceError as exc:
            view = await view_of(game_id, token)
            conn.send({"type": "error", "client_id": client_id, "error": exc.payload(), "state": view})
            return
        conn.send({"type": "result", "client_id": client_id, "result": result})
        await told(game_id, result)  # committed first, told after (queued: no wait on anyone)

    return app
