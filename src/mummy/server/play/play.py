"""A person's action and what follows it, the same over HTTP and websockets: where it is
made (on the event loop when it can be, else a worker thread), who is told, and when the
bots reply.

The routes (``routes/``) and the websocket (``sockets``) reach one :class:`Play` through
the app (``app.state.play``, see ``deps``); it holds the service, the hub of websockets
and the app's worker threads.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import anyio

from mummy.server.errors import ServiceError
from mummy.server.play.botrunner import RETRY
from mummy.server.play.hub import Hub
from mummy.server.play.relay import Notice, Relay
from mummy.server.play.service import GameService
from mummy.server.store.db import origin_of

T = TypeVar("T")
log = logging.getLogger("mummy.server")

#: People's service calls that cannot be made on the event loop run in worker threads;
#: only a few at once, since the work is Python under one lock (the GIL): more threads
#: would only make each one wait longer for its turn. Bots have threads of their own
#: (``GameService.play_bots``): a person's call never waits behind a bot's thinking.
WORKERS = 4


class Workers:
    """The app's worker threads for people's service calls (a limiter made in the app's
    loop). Nothing else runs here: bots have their own threads (``mummy.server.play.bots``)."""

    def __init__(self) -> None:
        self._limiter: anyio.CapacityLimiter | None = None

    @property
    def busy(self) -> int:
        """Calls running in the worker threads now."""
        return 0 if self._limiter is None else int(self._limiter.borrowed_tokens)

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in a worker thread, at most ``WORKERS`` at once."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(WORKERS)
        return await anyio.to_thread.run_sync(functools.partial(fn, *args), limiter=self._limiter)


class Play:
    """People's actions and views for the routes and the websocket, on the event loop
    when the game is in memory and free (the common case, and the fast one), else in the
    app's worker threads."""

    def __init__(self, service: GameService, hub: Hub, workers: Workers) -> None:
        self.service = service
        self.hub = hub
        self.workers = workers
        #: Hears other processes' commits, from :meth:`start` (PostgreSQL only).
        self.relay: Relay | None = None
        self._following: dict[str, bool] = {}  # game id -> heard of again while it is followed
        self._tasks: set[asyncio.Task[None]] = set()
        #: Called with a game's id once the move that ended it has been told (coaching's par).
        self.ended: list[Callable[[str], None]] = []

    async def act(self, game_id: str, token: str | None, client_id: Any, version: int,
                  action: Any) -> dict[str, Any]:
        """A person's action: on the loop when the game is in memory and free, else in a
        worker thread (loading it, or waiting for it). The service checks the client id
        and the action, whatever a message holds."""
        svc = self.service
        result = await svc.act_now(game_id, token, client_id, version, action)
        if result is None:
            result = await self.workers.run(svc.act, game_id, token, client_id, version, action)
        return result

    async def told(self, game_id: str, result: dict[str, Any]) -> None:
        """Everyone is told of a committed action; then the bots think and everyone is told
        of their moves. Bots think in their own threads, one move at a time in turn with
        other games' bots (``GameService.play_bots``), never in the people's worker threads."""
        if result.get("repeated"):
            return
        await self.hub.broadcast(self.service, game_id)
        if result.get("over"):
            for hook in self.ended:
                hook(game_id)
        await self.bots(game_id)

    async def bots(self, game_id: str) -> None:
        """The game's bots make their moves, if any is due and this process holds the game's
        lease (``botrunner``), in their own threads; then everyone here is told."""
        svc = self.service
        if svc.bots_due(game_id):
            moved = await asyncio.wrap_future(svc.play_bots(game_id))
            if moved:
                await self.hub.broadcast(svc, game_id)

    async def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The game as this token (or a spectator) sees it: on the loop when it can be."""
        views = self.service.views_now(game_id, [token])
        return views[0] if views is not None else await self.workers.run(self.service.view, game_id, token)

    async def holds_seat(self, game_id: str, token: str) -> bool:
        """Whether ``token`` holds a seat of the game: on the loop for a game in memory,
        else in a worker thread (the game is loaded); False for no such game."""
        live = self.service.cached(game_id)
        if live is not None:
            return live.holds(token)
        return await self.workers.run(self.service.holds_seat, game_id, token)

    async def view_text(self, game_id: str, token: str | None) -> tuple[int, str]:
        """:meth:`view` as (version, JSON text), encoded once per version: on the loop when it can be."""
        texts = self.service.view_texts_now(game_id, [token])
        return texts[0] if texts is not None else (await self.workers.run(self.service.view_texts, game_id, [token]))[0]

    async def log_since(self, game_id: str, version: int, token: str | None) -> dict[str, Any]:
        """A page of the log after ``version`` (``GameService.log_since``), in a worker thread."""
        return await self.workers.run(self.service.log_since, game_id, version, token)

    # -- other processes (relay.py, leases.py) -------------------------------------------------
    def start(self) -> None:
        """On PostgreSQL, which several processes may share: hear what the others commit
        (``relay``), and ask again every ``RETRY`` seconds for the bots' leases held by
        another process (it may have died). On SQLite, which serves one process, nothing.
        Called on the app's event loop at its start; :meth:`stop` at its end."""
        svc = self.service
        if svc.engine.dialect.name != "postgresql":
            return
        loop = asyncio.get_running_loop()

        def watched(game_id: str) -> bool:  # told here, or its bots played here
            return game_id in self.hub.rooms or svc.bots.leases.holds(game_id)

        def heard(notice: Notice) -> None:  # in the relay's thread
            if (svc.copies.hear(notice.game_id, notice.version, notice.rematch, notice.entry)
                    and watched(notice.game_id)):
                loop.call_soon_threadsafe(self.follow, notice.game_id)

        def resync() -> None:  # notices were lost: every copy may be behind
            for game_id in svc.copies.doubt():
                if watched(game_id):
                    loop.call_soon_threadsafe(self.follow, game_id)

        self.relay = Relay(svc.engine, origin_of(svc.engine), heard, resync)
        self.relay.start()
        self._spawn(self._retrying())

    def stop(self) -> None:
        """Stop hearing other processes, and asking for leases (the app's end)."""
        if self.relay is not None:
            self.relay.stop()
        for task in list(self._tasks):
            task.cancel()

    async def _retrying(self) -> None:
        while True:
            await asyncio.sleep(RETRY)
            for game_id in self.service.bots.overdue():
                self._spawn(self.bots(game_id))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def follow(self, game_id: str) -> None:
        """Another process moved a game watched here on: catch its copy up and tell its
        connections, once per burst (a notice heard meanwhile makes one more round). On
        the event loop when the entries the notices carried are enough (as a rule), else
        from the log, in a worker thread. Each connection gets the versions in order: an update is never older than
        one sent before (``Connection.send_update``), and each carries the log's last
        entries, so no entry is missed."""
        if game_id in self._following:
            self._following[game_id] = True
            return
        self._following[game_id] = False
        self._spawn(self._follow(game_id))

    async def _follow(self, game_id: str) -> None:
        svc = self.service
        try:
            while True:
                self._following[game_id] = False
                there = svc.copies.follow_now(game_id)
                if there is None:
                    there = await self.workers.run(svc.copies.follow, game_id)
                if there:
                    await self.hub.broadcast(svc, game_id)
                    await self.bots(game_id)  # its move may be the one that makes them due
                if not self._following[game_id]:
                    return
        except ServiceError:  # the game cannot be read now: its next use reads the log
            return
        except Exception:
            log.exception("following game %s", game_id)
        finally:
            self._following.pop(game_id, None)
