"""Which process plays a game's bots: a lease per game in the database.

Several server processes may hold copies of the same game (PostgreSQL). Bots must move in
one of them only: two would think twice about every move, and a bot's tie-breaking
randomness, which lives in the process, would differ from move to move. So a process
plays a game's bots only while it holds the game's row in ``bot_leases`` (an owner and an
expiry, migration 0008):

* it takes the lease when its bots are first due (an insert, or an update of a lease that
  has expired or is its own: one statement, ``INSERT ... ON CONFLICT DO UPDATE ... WHERE``,
  so two processes asking at once cannot both get it);
* a thread renews every lease the process holds every third of the term, and gives back
  those of the games it no longer has in memory;
* a process that dies stops renewing: its leases expire after ``TERM`` seconds, and the
  next process whose game has bots due takes over; one that stops gracefully gives them
  back at once (:meth:`Leases.close`).

Times are the database's clock (each statement reads it), never compared across machines;
a process counts its own lease as held for half the term from the renewal it sent, so it
stops acting well before any other process can take the lease over. And should two bots
ever think at once, the log still takes one move per place (``copies.Lost``).

SQLite serves one process: its bots need no lease (:class:`Sole`).
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from typing import Final, Protocol

from sqlalchemy import Engine, text

from mummy.server.store.writes import WriteLock

log = logging.getLogger("mummy.server.store.leases")

#: Seconds a lease lasts without renewal: how long the bots of a process that died wait.
TERM: Final = 10.0

#: The database's clock in seconds since the epoch, in each dialect.
_NOW: Final = {"postgresql": "EXTRACT(EPOCH FROM clock_timestamp())::float8",
               "sqlite": "((julianday('now') - 2440587.5) * 86400.0)"}


_PROCESS: dict[int, str] = {}  # pid -> its name as an owner


def process_name() -> str:
    """This process's name as the owner of leases: random, made once per process (a forked
    child makes its own), so that every service of one process holds the same leases."""
    pid = os.getpid()
    if pid not in _PROCESS:
        _PROCESS.clear()
        _PROCESS[pid] = f"{secrets.token_hex(6)}-{pid}"[:32]
    return _PROCESS[pid]


class BotLeases(Protocol):
    """What the bot runner asks of leases."""

    def take(self, game_id: str) -> bool: ...

    def holds(self, game_id: str) -> bool: ...

    def close(self) -> None: ...


class Sole:
    """The leases of a process that is alone on its database (SQLite): always held."""

    def take(self, game_id: str) -> bool:
        return True

    def holds(self, game_id: str) -> bool:
        return True

    def close(self) -> None:
        pass


class Leases:
    """This process's bot leases on a shared database (see the module).

    ``keep(game_id)`` says whether a lease is still wanted (its game is in memory here):
    the others are given back at the next renewal."""

    def __init__(self, engine: Engine, owner: str, keep: Callable[[str], bool], writes: WriteLock,
                 term: float = TERM) -> None:
        self.engine = engine
        self.owner = owner
        self.keep = keep
        self.term = term
        self._writes = writes
        now = _NOW[engine.dialect.name]
        self._take = text(
            f"INSERT INTO bot_leases (game_id, owner, expires) VALUES (:game, :owner, {now} + :term) "
            "ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, expires = excluded.expires "
            f"WHERE bot_leases.owner = excluded.owner OR bot_leases.expires < {now}")
        self._renew = text(f"UPDATE bot_leases SET expires = {now} + :term WHERE owner = :owner")
        self._held_rows = text("SELECT game_id FROM bot_leases WHERE owner = :owner")
        self._give_back = text("DELETE FROM bot_leases WHERE owner = :owner AND game_id = :game")
        self._guard = threading.Lock()
        self.held: dict[str, float] = {}  # game id -> time.monotonic() until which it counts as held
        self._stop: threading.Event | None = None  # the renewing thread's, while one runs
        self._dead = False

    def take(self, game_id: str) -> bool:
        """Whether this process may play the game's bots now: it holds the lease (fresh, in
        memory), or has just taken it (the lease was free, expired, or its own)."""
        if self.held.get(game_id, 0.0) > time.monotonic():
            return True
        if self._dead:
            return False
        sent = time.monotonic()
        try:
            with self._writes, self.engine.begin() as conn:
                got = conn.execute(self._take, {"game": game_id, "owner": self.owner, "term": self.term}).rowcount
        except Exception:
            log.exception("taking the bots' lease of game %s", game_id)
            return False
        if got != 1:
            return False
        with self._guard:
            self.held[game_id] = sent + self.term / 2
            if self._stop is None:
                stop = self._stop = threading.Event()
                threading.Thread(target=self._run, args=(stop,), name="mummy-leases", daemon=True).start()
        return True

    def holds(self, game_id: str) -> bool:
        """Whether this process holds the game's lease (as far as it knows, without asking)."""
        return game_id in self.held

    def close(self) -> None:
        """Give every lease back (a graceful stop: other processes take over at once). The
        leases can be taken again."""
        with self._guard:
            stop, self._stop = self._stop, None
            games, self.held = list(self.held), {}
        if stop is not None:
            stop.set()
        self._give(games)

    def abandon(self) -> None:
        """Stop renewing and taking, without giving anything back: what a process that dies
        does (for tests)."""
        self._dead = True
        with self._guard:
            stop, self._stop = self._stop, None
            self.held = {}
        if stop is not None:
            stop.set()

    # -- the renewing thread ----------------------------------------------------------------
    def _run(self, stop: threading.Event) -> None:
        """Renew every third of the term until stopped, or until no lease is held."""
        while not stop.wait(self.term / 3):
            with self._guard:
                if not self.held:
                    if self._stop is stop:
                        self._stop = None
                    return
                games = list(self.held)
            self._renew_all(stop, [g for g in games if not self.keep(g)])

    def _renew_all(self, stop: threading.Event, unwanted: list[str]) -> None:
        """Give back the leases no longer wanted, renew the rest, and learn which are still
        this process's (one may have been taken over after a long stall)."""
        self._give(unwanted)
        sent = time.monotonic()
        try:
            with self._writes, self.engine.begin() as conn:
                conn.execute(self._renew, {"owner": self.owner, "term": self.term})
                mine = set(conn.execute(self._held_rows, {"owner": self.owner}).scalars())
        except Exception:
            log.exception("renewing the bots' leases")
            return
        with self._guard:
            if not stop.is_set():
                self.held = {game_id: sent + self.term / 2 for game_id in self.held if game_id in mine}

    def _give(self, games: Iterable[str]) -> None:
        rows = [{"owner": self.owner, "game": game_id} for game_id in games]
        if not rows:
            return
        with self._guard:
            for row in rows:
                self.held.pop(row["game"], None)
        try:
            with self._writes, self.engine.begin() as conn:
                conn.execute(self._give_back, rows)
        except Exception:
            log.exception("giving back the bots' leases")
