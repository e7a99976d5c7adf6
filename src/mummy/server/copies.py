"""This process's copies of the games: each rebuilt from the log when first needed, kept in
a bounded cache (``cache``), caught up with the log when another process has written to
it, and handed out locked.

Why (issue 16): any number of server processes may serve the same games from one
database. The log is the truth, and the database orders each game's entries: an entry's
key is its game and its place in the log (``actions``' primary key), so two processes
cannot both write place *n*, and the second one's commit fails. A copy in memory is only
a cache of the log, and it may be behind it:

* before an action is checked in a worker thread, the copy reads the entries written
  after its version (one indexed query, empty as a rule) and applies them
  (:meth:`Copies.current` with ``catch_up``);
* another process's commits are heard of (``relay``, PostgreSQL's ``NOTIFY``):
  :meth:`Copies.hear` notes the version, so that the event loop's fast path
  (:meth:`Copies.take_now`) hands a copy known to be behind to a thread, which catches
  it up first; a game's row changed elsewhere (a rematch claimed, par or a hint's mark
  stored by coaching) is read again the same way (:meth:`Copies.reread_row`);
* a write that finds its place taken anyway (a race between two processes) is
  :class:`Lost`: the copy, which has the action applied, is dropped, and the action is
  checked again on a copy rebuilt from the log (``GameService.act``).

The lock of a copy is held while it is read or changed; whoever holds it checks that it
is still the copy in the cache (a failed write drops it, the cache lets it go when idle),
so a copy let go is never written to again.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator

from mummy.server.cache import LiveCache
from mummy.server.errors import ServiceError
from mummy.server.live import LiveGame
from mummy.server.marks import HINTS
from mummy.server.repository import Repository


class Lost(ServiceError):
    """An action's place in the log was taken meanwhile (another process wrote there, or
    its client id, first): nothing of it was written, and the copy that had it applied is
    dropped. Checked again on a copy rebuilt from the log, it may stand, be a repeat
    (the same client id), or be stale."""

    def __init__(self) -> None:
        super().__init__(409, "conflict", "the action could not be recorded (its client id or place in the "
                         "log was taken meanwhile); fetch the state and retry")


class Copies:
    """Game id -> this process's copy of the game, loaded, locked and kept current.

    ``loaded(live)`` is called, with the copy's lock held, on every copy freshly rebuilt
    from the log (the service lets the bots make the moves that were cut short)."""

    def __init__(self, repo: Repository, cache: LiveCache[LiveGame], loaded: Callable[[LiveGame], None]) -> None:
        self.repo = repo
        self.cache = cache
        self.games = cache.games  # read anywhere; changed by the cache only, under its lock
        self.loaded = loaded
        #: Game id -> the newest version another process is known to have committed, for
        #: the copies here that are behind it (written by the relay's thread, read anywhere).
        self.heard: dict[str, int] = {}
        #: Games whose row changed in another process (a rematch claimed, coaching's marks):
        #: read again (:meth:`reread_row`).
        self.reread: set[str] = set()

    # -- loading ----------------------------------------------------------------------------
    def load(self, game_id: str) -> LiveGame:
        """The copy in memory, rebuilt from the log if there is none. Not locked: the
        caller locks it, then checks that it is still the current copy."""
        while True:
            live = self.cache.get(game_id)
            if live is not None:
                return live
            ticket = self.cache.begin(game_id)
            read: LiveGame | None = None
            try:
                read = self.read(game_id)
            finally:
                live = self.cache.keep(game_id, ticket, read)
            if live is None:
                continue  # the game was dropped while its log was read: the copy may be old
            if live is read:
                with live.lock:
                    if self.games.get(game_id) is live:
                        self.loaded(live)
            return live

    def read(self, game_id: str) -> LiveGame:
        """The game rebuilt from the database: its row, seats and log."""
        stored = self.repo.read_game(game_id)
        if stored is None:
            raise ServiceError(404, "not_found", f"no game {game_id!r}")
        return LiveGame.rebuilt(*stored)

    @contextlib.contextmanager
    def current(self, game_id: str, catch_up: bool = False) -> Iterator[LiveGame]:
        """The copy, locked, still the one in the cache, and caught up with the log when
        ``catch_up`` is asked (before an action is checked) or another process is known
        to have moved the game on."""
        while True:
            live = self.load(game_id)
            with live.lock:
                if self.games.get(game_id) is live:
                    if catch_up or self.behind(live):
                        self.catch_up(live)
                    yield live
                    return

    def take_now(self, game_id: str) -> LiveGame | None:
        """:meth:`current` without waiting: the copy locked (the caller releases it), or
        None when it is not in memory, busy, or known to be behind the log (catching up
        reads the database: not for the event loop, which must not block)."""
        live = self.cache.get(game_id)
        if live is None or not live.lock.acquire(blocking=False):
            return None
        if self.games.get(game_id) is not live or self.behind(live):
            live.lock.release()
            return None
        return live

    def drop(self, game_id: str) -> None:
        """Let the copy go (a failed write: it ran ahead of the log); the next use rebuilds it."""
        self.cache.drop(game_id)
        self.heard.pop(game_id, None)

    # -- keeping up with other processes -------------------------------------------------------
    def behind(self, live: LiveGame) -> bool:
        """Whether another process is known to have committed past this copy's version (or
        changed its row)."""
        game_id = live.row.id
        return self.heard.get(game_id, -1) > live.version or game_id in self.reread

    def hear(self, game_id: str, version: int, rematch: bool = False) -> bool:
        """Another process committed the game's entry ``version`` (or changed its row:
        ``rematch``, the relay's name for it, also stands for par or a hint's mark stored by
        coaching): a copy here that is behind is noted, and caught up at its next use.
        Whether there is a copy here: its connections are to be told, even if it has
        caught up already (a bot's turn, a view or an action here may have read the entry
        first, and those do not tell everyone). A game not in memory needs nothing: its
        next load reads the log."""
        live = self.games.get(game_id)
        if live is None:
            return False
        if rematch:
            self.reread.add(game_id)
        elif live.version < version and self.heard.get(game_id, -1) < version:
            self.heard[game_id] = version
        return True

    def doubt(self) -> list[str]:
        """Every copy here may be behind (notices were lost: the relay's connection broke):
        each catches up at its next use. Their ids."""
        ids = list(self.games)
        for game_id in ids:
            live = self.games.get(game_id)
            if live is not None:
                self.heard[game_id] = max(self.heard.get(game_id, -1), live.version + 1)
        return ids

    def follow(self, game_id: str) -> bool:
        """Catch the copy here up with the log now (other processes moved the game on);
        whether there is a copy here (its watchers are to be told)."""
        live = self.games.get(game_id)
        if live is None:
            return False
        with live.lock:
            if self.games.get(game_id) is not live:
                return False
            if self.behind(live):
                self.catch_up(live)
            return True

    def catch_up(self, live: LiveGame) -> int:
        """Apply to the copy (its lock held) the entries other processes wrote after its
        version; how many. A copy the log does not replay onto (it cannot happen unless
        the copy was wrong) is dropped, and rebuilt at its next use."""
        game_id = live.row.id
        if game_id in self.reread:  # its row, changed in another process
            self.reread.discard(game_id)
            self.reread_row(live)
        rows = self.repo.entries_since(game_id, live.version)
        try:
            live.follow(rows)
        except Exception as exc:
            self.drop(game_id)
            raise ServiceError(503, "unavailable", "the game could not be read back; retry") from exc
        if self.heard.get(game_id, -1) <= live.version:
            self.heard.pop(game_id, None)
        return len(rows)

    def reread_row(self, live: LiveGame) -> None:
        """Read again (its lock held) what another process may change in a game's row after
        it was created: its rematch, claimed; its stored result, where coaching keeps par
        and the hints' mark; and its set-up's count of hints given (a hinted game never
        ranks, so the process that ends it must know). The views encoded at this version
        lack them: they are made again."""
        changed = self.repo.changed_since_created(live.row.id)
        if changed is None:
            return
        rematch, result, config = changed
        live.row.rematch = rematch
        if result is not None:  # written with the last entry, then rewritten by coaching only
            live.row.result = result
        hints = int((json.loads(config) if config else {}).get(HINTS) or 0)
        if hints > int(live.config.get(HINTS) or 0):  # counted up in another process
            live.config[HINTS] = hints
            live.row.config = json.dumps(live.config)
        live.cached_texts.clear()
