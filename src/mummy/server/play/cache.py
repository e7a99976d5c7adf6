"""The games in memory: a bounded cache of live games, each rebuilt from the log when it
is next needed (docs/server.md §2, "Durability").

Why it is bounded: every game ever loaded stayed in memory, about 10 KiB each;
one client that created 250 games a second grew the server by a gigabyte every six
minutes. The log is the truth and a game is rebuilt from it in about a millisecond, so a
game nobody uses is let go:

* when there are more than ``max_live`` games, the least recently used go (down to nine
  tenths of the bound, so that the sort is paid once per many loads, not per load);
* a game nobody used for ``idle_after`` seconds goes, and a finished one after
  ``over_after`` seconds (people look at the end for a moment, then leave);
* never a game whose lock is held (a move being written, a bot thinking, a view being
  made), nor one the app says is watched (a websocket is open on it): its connections
  would only bring it back at once.

Dropping a game takes its lock without waiting and removes it from the map. Whoever holds
a game checks, once it has the lock, that it is still the one in the map (``copies.Copies``
does: ``current``, ``take_now``), so a dropped game is never written to again;
the next request loads a new copy from the log. A load that read the log before the game
was dropped could put a copy older than the log back in the map: loads are counted per
game, and a load that saw a drop of its game meanwhile reads the log again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Final, Generic, Protocol, TypeVar

#: Games kept in memory at most (about 10 KiB each for a new game, more for a long one):
#: a few thousand games being played at once, each held while it is in use.
MAX_LIVE: Final = 4000
#: Seconds after its last use before a game in play is let go (a reload costs about a
#: millisecond, plus the replay of its log).
IDLE_AFTER: Final = 15 * 60.0
#: Seconds after its last use before a finished game is let go.
OVER_AFTER: Final = 60.0
#: Seconds between two sweeps for idle and finished games (made by a load when due, and
#: by the app's background task, so that a quiet server lets go too).
SWEEP_EVERY: Final = 30.0


class Cached(Protocol):
    """What the cache needs of a game in memory."""

    used: float  # time.monotonic() of its last use

    @property
    def lock(self) -> threading.Lock: ...

    @property
    def finished(self) -> bool: ...


E = TypeVar("E", bound=Cached)


def _unwatched(_game_id: str) -> bool:
    return False


class LiveCache(Generic[E]):
    """Game id -> game in memory, bounded and swept; thread-safe, and read on the event
    loop without a lock (:meth:`get` is a dictionary look-up)."""

    def __init__(self, max_live: int = MAX_LIVE, idle_after: float = IDLE_AFTER,
                 over_after: float = OVER_AFTER, sweep_every: float = SWEEP_EVERY) -> None:
        self.games: dict[str, E] = {}  # changed only under _guard; read anywhere
        self.max_live = max_live
        self.idle_after = idle_after
        self.over_after = over_after
        self.sweep_every = sweep_every
        #: Whether a game is watched (the app: a websocket is open on it); never let go then.
        self.watched: Callable[[str], bool] = _unwatched
        self.dropped = 0  # games let go so far (by eviction or by a failed write)
        self._guard = threading.Lock()
        self._loads: dict[str, list[int]] = {}  # game id -> [loads under way, drops since]
        self._swept = time.monotonic()

    def __len__(self) -> int:
        return len(self.games)

    def get(self, game_id: str) -> E | None:
        """The game if it is in memory, marked as used. No lock: safe on the event loop."""
        entry = self.games.get(game_id)
        if entry is not None:
            entry.used = time.monotonic()
        return entry

    def begin(self, game_id: str) -> int:
        """A load of the game starts (before the log is read); its ticket for :meth:`keep`."""
        with self._guard:
            loads = self._loads.setdefault(game_id, [0, 0])
            loads[0] += 1
            return loads[1]

    def keep(self, game_id: str, ticket: int, entry: E | None) -> E | None:
        """The load that began with ``ticket`` ends with ``entry`` (None: it failed). The
        game in memory: one already there, else ``entry`` (and games over the bound are let
        go); None when the game was dropped while the log was read, since the copy could
        be older than the log: read it again."""
        with self._guard:
            loads = self._loads[game_id]
            loads[0] -= 1
            if not loads[0]:
                del self._loads[game_id]
            current = self.games.get(game_id)
            if current is not None:
                current.used = time.monotonic()
                return current
            if entry is None or loads[1] != ticket:
                return None
            entry.used = time.monotonic()
            self.games[game_id] = entry
            self._evict(keep=game_id)
            return entry

    def drop(self, game_id: str) -> None:
        """Let the game go whatever its state (its write failed: the log is the truth)."""
        with self._guard:
            self._drop(game_id)

    def sweep(self) -> int:
        """Let go of idle and finished games now, and of the least recently used beyond the
        bound; how many went."""
        with self._guard:
            before = self.dropped
            self._swept = -float("inf")
            self._evict(keep=None)
            return self.dropped - before

    def _drop(self, game_id: str) -> None:
        if self.games.pop(game_id, None) is not None:
            self.dropped += 1
        loads = self._loads.get(game_id)
        if loads is not None:
            loads[1] += 1

    def _let_go(self, game_id: str, entry: E) -> bool:
        """Drop the game if nobody uses it (its lock is free) and nobody watches it."""
        if self.watched(game_id) or not entry.lock.acquire(blocking=False):
            return False
        try:
            if self.games.get(game_id) is entry:
                self._drop(game_id)
                return True
            return False
        finally:
            entry.lock.release()

    def _evict(self, keep: str | None) -> None:
        """Under the guard: the sweep for idle and finished games when it is due, and the
        least recently used games beyond the bound (never ``keep``, the one just loaded)."""
        now = time.monotonic()
        if now - self._swept >= self.sweep_every:
            self._swept = now
            stale = [(game_id, entry) for game_id, entry in self.games.items() if game_id != keep and
                     now - entry.used > (self.over_after if entry.finished else self.idle_after)]
            for game_id, entry in stale:
                self._let_go(game_id, entry)
        if len(self.games) <= self.max_live:
            return
        excess = len(self.games) - max(1, self.max_live - self.max_live // 10)
        for game_id, entry in sorted(self.games.items(), key=lambda item: item[1].used):
            if excess <= 0:
                break
            if game_id != keep and self._let_go(game_id, entry):
                excess -= 1
