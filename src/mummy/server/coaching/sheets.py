"""Printable sheets drawn for the browser (``routes/printing``): in a child process of
their own, bounded, each drawn once and kept, and answered ``304`` without drawing when
the browser holds it (docs/printing.md, docs/server.md "Limits").

Why: a Tomb sheet is 160 KB of SVG and 15-20 ms of CPU (more for a generated map, which
is built first). Drawn inside the event loop, ten clients asking for sheets raised a
playing client's round trip from 1 ms to 530-716 ms. Drawn in a thread of the
server it was still 90 ms at the median under a flood (``make bench``): the drawing
thread holds the interpreter lock for a switch interval (5 ms) every time the loop lets
it go, which is at every wait for the network. So:

* **In a child process, bounded.** The drawings are jobs of a lane (``lanes``, as the
  coaching's analysis): one worker thread that only waits on one child process, niced
  below the server; at most ``waiting`` jobs wait, and a request beyond that is refused
  at once with ``503`` and ``Retry-After`` (the print page asks again). The child ends
  when no sheet was asked for a while, and starts again (about a second) when one is.
* **Once per key.** Two requests for the same sheet wait for one drawing; a drawn sheet
  is kept in a cache of bounded size (``cache_bytes``, least recently used out).
* **Validated before drawing**, by the route: the paper, the map, the page number (the
  Treasure printout's page count is worked out without drawing).
* **Cached by the browser.** A sheet's ETag is a hash of what it depends on (the
  package's version and the key), known before drawing: a browser that holds it gets
  ``304`` for the cost of a hash.

The rate limit per address is the guard's (``prints``, declared at the print routes: ``limits.rate_limit``).
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Final

from mummy import __version__
from mummy.server.coaching.lanes import Job, Lane

#: Requests that may wait for the drawing child beyond the one it is drawing.
WAITING: Final = 8
#: Bytes of drawn sheets kept (about a hundred Tomb sheets).
CACHE_BYTES: Final = 16 * 1024 * 1024
#: The drawing child's niceness: below the server's people, above par.
NICE: Final = 10


class Busy(Exception):
    """Every drawing slot is taken: the request is refused (``503``), not queued."""


class Sheets:
    """The app's drawing of printable sheets (``app.state.sheets``). ``processes=False``
    draws in the lane's thread instead of a child (tests)."""

    def __init__(self, waiting: int = WAITING, cache_bytes: int = CACHE_BYTES, *, processes: bool = True,
                 nice: int = NICE) -> None:
        self.cache_bytes = cache_bytes
        self.lane = Lane("print", nice, waiting, processes=processes)
        self._cache: OrderedDict[Hashable, bytes] = OrderedDict()
        self._cached = 0
        self._guard = threading.Lock()  # the cache is filled from the lane's thread
        self.drawn = 0  # drawings made (tests and the benchmark read it)

    @staticmethod
    def etag(key: Hashable) -> str:
        """The sheet's ETag, known before it is drawn: the package's version and the key."""
        return f'W/"{hashlib.sha256(repr((__version__, key)).encode()).hexdigest()[:20]}"'

    async def get(self, key: Hashable, args: tuple[Any, ...]) -> bytes:
        """The sheet for ``key`` (``coach_jobs.sheet_job(*args)``): from the cache, from a
        drawing under way, or drawn now. Raises :class:`Busy` when the drawing's queue is
        full, and ``lanes.JobFailed`` when it could not be drawn."""
        with self._guard:
            kept = self._cache.get(key)
            if kept is not None:
                self._cache.move_to_end(key)
                return kept
        job = self.lane.submit(key, "sheet", args, self._drawn)
        if job is None:
            raise Busy()
        text: str = await asyncio.wrap_future(job.future)
        with self._guard:
            return self._cache.get(key) or text.encode("utf-8")

    def _drawn(self, job: Job) -> None:
        """Keep a drawn sheet (in the lane's thread, before its waiters hear of it)."""
        if job.state != "done":
            return
        body = str(job.result).encode("utf-8")
        with self._guard:
            self.drawn += 1
            if len(body) > self.cache_bytes or job.key in self._cache:
                return
            self._cache[job.key] = body
            self._cached += len(body)
            while self._cached > self.cache_bytes:
                _, old = self._cache.popitem(last=False)
                self._cached -= len(old)

    def close(self) -> None:
        """Stop the lane and its child (the app's end)."""
        self.lane.close()


__all__ = ["CACHE_BYTES", "NICE", "WAITING", "Busy", "Sheets"]
