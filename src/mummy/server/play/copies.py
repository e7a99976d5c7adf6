"""This process's copies of the games: each rebuilt from the log when first needed, kept in
a bounded cache (``cache``), caught up with the log when another process has written to
it, and handed out locked.

Why: any number of server processes may serve the same games from one
database. The log is the truth, and the database orders each game's entries: an entry's
key is its game and its place in the log (``actions``' primary key), so two processes
cannot both write place *n*, and the second one's commit fails. A copy in memory is only
a cache of the log, and it may be behind it:

* before an action is checked in a worker thread, the copy reads the entries written
  after its version (one indexed query, empty as a rule) and applies them
  (:meth:`Copies.current` with ``catch_up``);
* another process's commits are heard of (``relay``, PostgreSQL's ``NOTIFY``):
  :meth:`Copies.hear` notes the version, and keeps the entry when the notice carries it
  (migration 0009). A copy that the entries heard bring up to the newest version heard
  of is caught up with them where it is used, on the event loop too (:meth:`take_now`,
  :meth:`follow_now`), without reading the log; otherwise the event loop's fast path
  hands a copy known to be behind to a thread, which reads the log first. A game's row
  changed elsewhere (a rematch claimed, par or a hint's mark stored by coaching) is read
  again the same way (:meth:`Copies.reread_row`);
* a write that finds its place taken anyway (a race between two processes) is
  :class:`Lost`: the copy, which has the action applied, goes back to the game as it was
  before it (:meth:`Copies.overtaken`), and the action is checked again once the copy
  has caught up (``GameService.act``).

The lock of a copy is held while it is read or changed; whoever holds it checks that it
is still the copy in the cache (a failed write drops it, the cache lets it go when idle),
so a copy let go is never written to again.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from typing import Final

from mummy.server.errors import ServiceError
from mummy.server.play.cache import LiveCache
from mummy.server.play.live import LiveGame, LogEntry
from mummy.server.play.marks import HINTS
from mummy.server.store.repository import Repository

#: Entries heard at most kept for one copy that is behind: a game whose copy here is not
#: used meanwhile (nobody here watches it) reads the rest from the log at its next use.
HEARD_ENTRIES: Final = 64


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
        #: Game id -> the entries other processes committed, as their notices carried them,
        #: by version, for copies here that are behind (under ``_entries_lock``: the relay's
        #: thread adds, whoever catches a copy up takes).
        self.entries: dict[str, dict[int, LogEntry]] = {}
        self._entries_lock = threading.Lock()

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
                        self.catch_up(live, read=catch_up)
                    yield live
                    return

    def take_now(self, game_id: str) -> LiveGame | None:
        """:meth:`current` without waiting: the copy locked (the caller releases it), or
        None when it is not in memory, busy, or known to be behind the log (catching up
        reads the database: not for the event loop, which must not block)."""
        live = self.cache.get(game_id)
        if live is None or not live.lock.acquire(blocking=False):
            return None
        if self.games.get(game_id) is not live or not self._caught_up_now(live):
            live.lock.release()
            return None
        return live

    def follow_now(self, game_id: str) -> bool | None:
        """:meth:`follow` without waiting, for the event loop: whether there is a copy
        here, caught up with the entries heard; None when that would take reading the log
        (or waiting for the copy's lock): :meth:`follow` in a thread then."""
        live = self.games.get(game_id)
        if live is None:
            return False
        if not live.lock.acquire(blocking=False):
            return None
        try:
            if self.games.get(game_id) is not live:
                return False
            return True if self._caught_up_now(live) else None
        finally:
            live.lock.release()

    def _caught_up_now(self, live: LiveGame) -> bool:
        """Whether the copy (its lock held) is as new as any version heard of, after the
        entries heard are applied to it: no reading of the database (for the event loop).
        A copy the entries do not replay onto is dropped (it is rebuilt at its next use)."""
        if not self.behind(live):
            return True
        game_id = live.row.id
        if game_id in self.reread:
            return False
        try:
            self._apply_heard(live)
        except Exception:  # as in catch_up: the copy is not the log's
            self.drop(game_id)
            return False
        return self._settled(live)

    def drop(self, game_id: str) -> None:
        """Let the copy go (a failed write: it ran ahead of the log); the next use rebuilds it."""
        self.cache.drop(game_id)
        self.heard.pop(game_id, None)
        with self._entries_lock:
            self.entries.pop(game_id, None)

    # -- keeping up with other processes -------------------------------------------------------
    def behind(self, live: LiveGame) -> bool:
        """Whether another process is known to have committed past this copy's version (or
        changed its row)."""
        game_id = live.row.id
        return self.heard.get(game_id, -1) > live.version or game_id in self.reread

    def hear(self, game_id: str, version: int, rematch: bool = False, entry: LogEntry | None = None) -> bool:
        """Another process committed the game's entry ``version`` (or changed its row:
        ``rematch``, the relay's name for it, also stands for par or a hint's mark stored by
        coaching): a copy here that is behind is noted, and caught up at its next use,
        with ``entry`` (the entry, when its notice carried it) rather than the log.
        Whether there is a copy here: its connections are to be told, even if it has
        caught up already (a bot's turn, a view or an action here may have read the entry
        first, and those do not tell everyone). A game not in memory needs nothing: its
        next load reads the log."""
        live = self.games.get(game_id)
        if live is None:
            if self.entries:
                with self._entries_lock:
                    self.entries.pop(game_id, None)
            return False
        if rematch:
            self.reread.add(game_id)
        elif live.version < version:
            with self._entries_lock:  # with the version heard of: see _settled
                if entry is not None:
                    kept = self.entries.setdefault(game_id, {})
                    if len(kept) < HEARD_ENTRIES:
                        kept[entry.seq] = entry
                if self.heard.get(game_id, -1) < version:
                    self.heard[game_id] = version
        return True

    def overtaken(self, live: LiveGame) -> None:
        """Another process took the place in the log of the next entry of the copy (its
        lock held, and the copy as it was before the entry): it is behind, and catches up
        at its next use."""
        with self._entries_lock:
            game_id = live.row.id
            self.heard[game_id] = max(self.heard.get(game_id, -1), live.version + 1)

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
                self.catch_up(live, read=False)
            return True

    def catch_up(self, live: LiveGame, read: bool = True) -> int:
        """Apply to the copy (its lock held) the entries other processes wrote after its
        version; how many. The entries heard come first; the log is read for the rest,
        always when ``read`` (before an action is checked: a notice may be late), else
        only if the copy is still behind what was heard of. A copy the log does not
        replay onto (it cannot happen unless the copy was wrong) is dropped, and rebuilt
        at its next use."""
        game_id = live.row.id
        if game_id in self.reread:  # its row, changed in another process
            self.reread.discard(game_id)
            self.reread_row(live)
        try:
            count = self._apply_heard(live)
            if read or self.behind(live):
                rows = self.repo.entries_since(game_id, live.version)
                live.follow(rows)
                count += len(rows)
        except Exception as exc:
            self.drop(game_id)
            raise ServiceError(503, "unavailable", "the game could not be read back; retry") from exc
        self._settled(live)
        return count

    def _apply_heard(self, live: LiveGame) -> int:
        """Apply to the copy (its lock held) the entries heard that follow its version, in
        order, as far as they go without a gap; how many. Those it has already are let go."""
        game_id = live.row.id
        if game_id not in self.entries:
            return 0
        with self._entries_lock:
            kept = self.entries.get(game_id, {})
            run: list[LogEntry] = []
            while (entry := kept.pop(live.version + 1 + len(run), None)) is not None:
                run.append(entry)
            for seq in [seq for seq in kept if seq <= live.version + len(run)]:
                del kept[seq]
            if not kept:
                self.entries.pop(game_id, None)
        live.follow(run)
        return len(run)

    def _settled(self, live: LiveGame) -> bool:
        """Whether the copy has every version heard of (then it is no longer noted as behind)."""
        game_id = live.row.id
        with self._entries_lock:  # a version heard of meanwhile is not forgotten
            if self.heard.get(game_id, -1) > live.version:
                return False
            self.heard.pop(game_id, None)
        return game_id not in self.reread

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
        live.views_changed()
