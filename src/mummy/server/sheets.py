"""Printable sheets drawn for the browser (``routes/printing``): off the event loop, in a
bounded pool, each drawn once and kept, and answered ``304`` without drawing when the
browser holds it (docs/printing.md, docs/server.md "Limits").

Why: a Tomb sheet is 160 KB of SVG and 15-20 ms of CPU (more for a generated map, which
is built first). Drawn inside the event loop, ten clients asking for sheets raised a
playing client's round trip from 1 ms to 530-716 ms (issue 32). Here:

* **Off the loop, bounded.** Drawings run in one thread of their own (``workers``); at
  most ``waiting`` more wait for it, and a request beyond that is refused at once with
  ``503`` and ``Retry-After`` (the browser's print page asks again). A drawing in a
  thread still takes the interpreter lock in turns with the loop, so one thread, not
  many: the loop waits at most a switch interval (5 ms) at a time.
* **Once per key.** Two requests for the same sheet wait for one drawing; a drawn sheet
  is kept in a cache of bounded size (``cache_bytes``, least recently used out).
* **Validated before drawing**, by the route: the paper, the map, the page number (the
  Treasure printout's page count is worked out without drawing).
* **Cached by the browser.** A sheet's ETag is a hash of what it depends on (the
  package's version and the key), known before drawing: a browser that holds it gets
  ``304`` for the cost of a hash.

The rate limit per address is the guard's (``limits.LIMITED``: ``prints``).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Final

from mummy import __version__

#: Drawings at once: one thread (see the module).
WORKERS: Final = 1
#: Requests that may wait for the drawing thread beyond those it is drawing.
WAITING: Final = 8
#: Bytes of drawn sheets kept (about a hundred Tomb sheets).
CACHE_BYTES: Final = 16 * 1024 * 1024


class Busy(Exception):
    """Every drawing slot is taken: the request is refused (``503``), not queued."""


class Sheets:
    """The app's drawing of printable sheets (``app.state.sheets``)."""

    def __init__(self, workers: int = WORKERS, waiting: int = WAITING, cache_bytes: int = CACHE_BYTES) -> None:
        self.workers = workers
        self.waiting = waiting
        self.cache_bytes = cache_bytes
        self._pool: ThreadPoolExecutor | None = None
        self._cache: OrderedDict[Hashable, bytes] = OrderedDict()
        self._cached = 0
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}
        self.drawn = 0  # drawings made (tests and the benchmark read it)

    @staticmethod
    def etag(key: Hashable) -> str:
        """The sheet's ETag, known before it is drawn: the package's version and the key."""
        return f'W/"{hashlib.sha256(repr((__version__, key)).encode()).hexdigest()[:20]}"'

    async def get(self, key: Hashable, draw: Callable[[], str]) -> bytes:
        """The sheet for ``key``: from the cache, from a drawing under way, or drawn now in
        the pool. Raises :class:`Busy` when the pool and its waiting room are full."""
        kept = self._cache.get(key)
        if kept is not None:
            self._cache.move_to_end(key)
            return kept
        under_way = self._drawing.get(key)
        if under_way is not None:
            return await asyncio.shield(under_way)
        if len(self._drawing) >= self.workers + self.waiting:
            raise Busy()
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="mummy-print")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.run_in_executor(self._pool, lambda: draw().encode("utf-8"))
        self._drawing[key] = future
        # Settled when the drawing ends, not when this request does: a client that leaves
        # does not free its slot while its drawing still runs (the bound holds).
        future.add_done_callback(lambda done: self._settle(key, done))
        return await asyncio.shield(future)

    def _settle(self, key: Hashable, done: asyncio.Future[bytes]) -> None:
        self._drawing.pop(key, None)
        if not done.cancelled() and done.exception() is None:
            self.drawn += 1
            self._keep(key, done.result())

    def _keep(self, key: Hashable, body: bytes) -> None:
        if len(body) > self.cache_bytes or key in self._cache:
            return
        self._cache[key] = body
        self._cached += len(body)
        while self._cached > self.cache_bytes:
            _, old = self._cache.popitem(last=False)
            self._cached -= len(old)

    def close(self) -> None:
        """Stop the pool (the app's end); a drawing under way finishes in its thread."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


__all__ = ["CACHE_BYTES", "WAITING", "WORKERS", "Busy", "Sheets"]
