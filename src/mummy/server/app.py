"""The FastAPI application: HTTP routes and websockets over
:class:`~mummy.server.play.service.GameService`.

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
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Final

from fastapi import FastAPI
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette_compress import CompressMiddleware

from mummy import __version__
from mummy.games import prepare_content
from mummy.server.admission.limits import Guard, Limits, Shunned
from mummy.server.api import handlers, sockets
from mummy.server.api.answers import TAGS
from mummy.server.api.logs import RequestFields
from mummy.server.api.routes import analysis, boards, companion, games, kinds, maps, pages, printing
from mummy.server.coaching.sheets import Sheets
from mummy.server.play.hub import MAX_MESSAGE as MAX_MESSAGE  # the websocket limits: docs/server.md §4
from mummy.server.play.hub import MAX_RATE as MAX_RATE
from mummy.server.play.hub import Hub
from mummy.server.play.play import Play, Workers
from mummy.server.play.service import GameService
from mummy.server.store.db import make_engine, migrate

DEFAULT_DB = "sqlite:///mummy.db"
#: Seconds between the server's full garbage collections (:func:`scheduled_collections`).
FULL_COLLECTION_EVERY: Final = 60.0
#: Answers smaller than this go as they are: they fit one packet already, and the
#: compressor's work and headers would cost more than they save.
COMPRESS_FROM = 1024


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The app's life: content prepared and frozen, the service attached to the hub (games
    watched stay in memory; bots reply in their own threads), idle games swept."""
    svc: GameService = app.state.service
    hub: Hub = app.state.hub
    prepare_content()
    freeze_long_lived()
    svc.attach(watched=lambda game_id: game_id in hub.rooms)
    sweeping = asyncio.create_task(svc.sweeping())  # idle and finished games let go
    play: Play = app.state.play
    play.start()  # other processes' commits, and bots' leases held elsewhere (PostgreSQL)
    app.state.relay = play.relay
    with scheduled_collections(app.state.full_collection_every):
        yield
    play.stop()
    app.state.sheets.close()
    sweeping.cancel()
    svc.close()


def freeze_long_lived() -> None:
    """Freeze what is alive now (the libraries, the maps' tables) out of the garbage
    collector: they live as long as the process, and a full collection then walks only
    the games (a stall of tens of milliseconds for every connection otherwise). Once per
    process: a second app in the same process (the tests start one per test) finds them
    frozen already, and a full collection of everything the process holds costs a
    quarter of a second with the tests' modules loaded."""
    if gc.get_freeze_count() == 0:
        gc.collect()
        gc.freeze()


#: A gen-2 threshold no count reaches: Python's own full collections are off.
NEVER: Final = 2**30


class _Scheduling:
    """How many apps of this process schedule their full collections now, and the
    thresholds the first of them found (the tests run apps in several threads at once)."""

    guard = threading.Lock()
    apps = 0
    found: tuple[int, int, int] = gc.get_threshold()


@contextlib.contextmanager
def scheduled_collections(every: float | None) -> Iterator[None]:
    """Full garbage collections once every ``every`` seconds, instead of Python's own
    (``None``: Python's own), while the context lasts.

    Python collects the whole heap whenever a quarter more objects have outlived two
    younger collections. Under a burst of connections (the attack bench's spectator fill
    beside a print flood and a map fill) that was every 3-4 s, each 90-165 ms of CPU on
    the event loop, and those stalls were the honest players' slowest round trips (action
    p99 115-157 ms; 30 ms with them off). The young generations are still collected as
    Python does (most cycles die there); the whole heap once a minute, so that cycles
    that outlived them are freed all the same and memory stays bounded. The thresholds
    the first app found come back when the last one ends (the tests start many)."""
    if every is None:
        yield
        return
    with _Scheduling.guard:
        if _Scheduling.apps == 0:
            _Scheduling.found = gc.get_threshold()
            gc.set_threshold(_Scheduling.found[0], _Scheduling.found[1], NEVER)
        _Scheduling.apps += 1
    task = asyncio.get_running_loop().create_task(_collect_every(every))
    try:
        yield
    finally:
        task.cancel()
        with _Scheduling.guard:
            _Scheduling.apps -= 1
            if _Scheduling.apps == 0:
                gc.set_threshold(*_Scheduling.found)


async def _collect_every(every: float) -> None:
    while True:
        await asyncio.sleep(every)
        gc.collect()


def create_app(db_url: str = DEFAULT_DB, service: GameService | None = None,
               limits: Limits | None = None, full_collection_every: float | None = FULL_COLLECTION_EVERY) -> FastAPI:
    """The web application on the database at ``db_url`` (migrated on start), with the
    HTTP ``limits`` (docs/server.md, Limits; the defaults unless given), collecting its
    garbage whole every ``full_collection_every`` seconds (:func:`scheduled_collections`)."""
    if service is None:
        engine = make_engine(db_url)
        migrate(engine)
        service = GameService(engine)
    limits = limits or Limits()
    # No /docs or /redoc: their pages load scripts from another host, which the server's
    # own content security policy forbids. /openapi.json is served.
    app = FastAPI(title="mummy", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Online play of The Mummy's Tomb and Mummy's Treasure (docs/server.md).",
                  openapi_tags=TAGS)
    workers = Workers()
    hub = Hub(workers)
    app.state.service = service
    app.state.limits = limits
    app.state.full_collection_every = full_collection_every
    app.state.sheets = Sheets()  # printable sheets, drawn off the loop: routes/printing.py
    app.state.hub = hub
    app.state.play = Play(service, hub, workers)
    app.state.relay = None  # listening from the app's start, on PostgreSQL (lifespan)
    app.state.content = pages.content()
    app.state.assets = pages.make_assets(app.state.content, pages.game_pages())  # versions for caching: routes/pages.py
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
    # kinds before games: /api/games/kinds is no game's id.
    for router in (pages.router, kinds.router, games.router, boards.router, companion.router, printing.router,
                   maps.router, sockets.router):
        app.include_router(router)
    analysis.install(app)  # coaching: par, reviews, hints (routes/analysis.py)
    return app
