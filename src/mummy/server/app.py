"""The FastAPI application: HTTP routes and websockets over
:class:`~mummy.server.service.GameService`.

:func:`create_app` only assembles: the service (on a migrated database), the hub of
websockets, the worker threads and the games' content go on ``app.state``, where the
routes' dependencies (``deps``) fetch them; the routers (``routes/``, ``sockets``), the
error handlers (``handlers``) and the guards (``limits``) are added in order. No engine
is created at import time: :func:`create_app` builds everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator

from fastapi import FastAPI
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette_compress import CompressMiddleware

from mummy import __version__
from mummy.games import prepare_content
from mummy.server import handlers, sockets
from mummy.server.db import make_engine, migrate
from mummy.server.hub import MAX_MESSAGE as MAX_MESSAGE  # the websocket limits: docs/server.md §4
from mummy.server.hub import MAX_RATE as MAX_RATE
from mummy.server.hub import Hub
from mummy.server.limits import Guard, Limits, Shunned
from mummy.server.logs import RequestFields
from mummy.server.play import Play, Workers
from mummy.server.routes import analysis, boards, companion, games, maps, pages, printing
from mummy.server.service import GameService
from mummy.server.sheets import Sheets

DEFAULT_DB = "sqlite:///mummy.db"
#: Answers smaller than this go as they are: they fit one packet already, and the
#: compressor's work and headers would cost more than they save.
COMPRESS_FROM = 1024


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The app's life: content prepared and frozen, the service attached to the hub (games
    watched stay in memory; bots reply in their own threads), idle games swept."""
    svc: GameService = app.state.service
    hub: Hub = app.state.hub
    # The libraries and the maps' tables live as long as the process: frozen out of the
    # garbage collector, a full collection walks only the games (a stall of tens of
    # milliseconds for every connection otherwise).
    prepare_content()
    gc.collect()
    gc.freeze()
    svc.attach(watched=lambda game_id: game_id in hub.rooms)
    sweeping = asyncio.create_task(svc.sweeping())  # idle and finished games let go
    play: Play = app.state.play
    play.start()  # other processes' commits, and bots' leases held elsewhere (PostgreSQL)
    app.state.relay = play.relay
    yield
    play.stop()
    app.state.sheets.close()
    sweeping.cancel()
    svc.close()


def create_app(db_url: str = DEFAULT_DB, service: GameService | None = None,
               limits: Limits | None = None) -> FastAPI:
    """The web application on the database at ``db_url`` (migrated on start), with the
    HTTP ``limits`` (docs/server.md, Limits; the defaults unless given)."""
    if service is None:
        engine = make_engine(db_url)
        migrate(engine)
        service = GameService(engine)
    limits = limits or Limits()
    # No /docs or /redoc: their pages load scripts from another host, which the server's
    # own content security policy forbids. /openapi.json is served.
    app = FastAPI(title="mummy", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Online play of The Mummy's Tomb and Mummy's Treasure (docs/server.md).")
    workers = Workers()
    hub = Hub(workers)
    app.state.service = service
    app.state.limits = limits
    app.state.sheets = Sheets()  # printable sheets, drawn off the loop: routes/printing.py
    app.state.hub = hub
    app.state.play = Play(service, hub, workers)
    app.state.relay = None  # listening from the app's start, on PostgreSQL (lifespan)
    app.state.content = pages.content()
    app.state.assets = pages.make_assets(app.state.content)  # versions for caching: routes/pages.py
    # Shared with the socket: limits.uvicorn_options.
    app.state.shunned = Shunned(limits.shun_after, ipv6_prefix=limits.ipv6_prefix)
    hub.shunned = app.state.shunned  # refusals for want of room count too
    handlers.install(app)
    # Outermost first: the fields of the log lines (``logs``), the Host check, then the
    # security headers, the size bounds and the rate limits (before a body is parsed: a
    # refused request costs little), then the compression of what the app answers (HTTP
    # only: websockets pass through it).
    app.add_middleware(CompressMiddleware, minimum_size=COMPRESS_FROM)
    app.add_middleware(Guard, limits=limits, shunned=app.state.shunned)
    if limits.allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(limits.allowed_hosts))
    app.add_middleware(RequestFields)
    app.mount("/static", pages.static_files(app.state.assets), name="static")
    for router in (pages.router, games.router, boards.router, companion.router, printing.router, maps.router,
                   sockets.router):
        app.include_router(router)
    analysis.install(app)  # coaching: par, reviews, hints (routes/analysis.py)
    return app
