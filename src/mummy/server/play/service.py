"""The service layer: games online, as the rules of play between people and the server.

The routes in ``app`` never touch the database; the service does, through its modules:

* ``live``: a game in memory and the rules that read one (seat tokens, client ids and
  versions, undo caps, views, reveals);
* ``repository``: every SQL statement, rows in and rows out;
* ``writer``: in which thread and transaction an action is committed;
* ``custom_maps``: the custom maps, stored by their text's hash (``GameService.maps``);
* ``boards`` (with ``replays``): daily seeds, leaderboards, replays of finished games;
* ``copies`` (over ``cache``): this process's copies of the games, a bounded cache kept
  up with the log that other processes write too;
* ``botrunner`` (over ``bots`` and ``leases``): when and where bots move: their own
  threads, in the one process that holds the game's lease.

What this module holds is the flow of play:

* A game's seed is secret; its SHA-256 commitment (with a secret nonce) is public from
  the start, and both are revealed when the game ends, so anyone can check every roll
  and shuffle (``mummy verify``).
* An action is checked by the engine, then written to the log and committed, and only
  then the game in memory moves on and anyone is told. If the write fails, the game in
  memory is dropped and rebuilt from the log, which is the truth (or, when another
  process took the entry's place, put back as it was before the action, and caught up).
* The database orders each game's log, never a process's memory: any number of
  processes may serve the same games (PostgreSQL). An entry's key is its place in the
  log, so of two processes writing the same place one fails, and its action is checked
  again on the log as it now is (``copies.Lost``, :meth:`GameService.act`).
* The games in memory are a bounded cache (``cache``): the least recently used beyond
  ``max_live``, and games idle or finished for a while, are let go and rebuilt from the
  log when next needed.
* Bots play their seats right after the action that gives them the turn; for the app, in
  threads of their own, games in turn (``botrunner``, :meth:`GameService.play_bots`).
* SQLite commits in the thread that acts. For a move online that is the event loop,
  which commits at its next turn every move made meanwhile (one commit and one disk
  sync for a burst of moves): a local commit costs a fraction of a millisecond, less
  than a trip to another thread and back (a wait for the interpreter lock, then for a
  turn of the loop). Other databases are across a network and must not hold up the
  loop: their writes go to one writer thread that commits every action waiting in one
  transaction (a group commit). Nor may a locked SQLite file hold up the loop: its
  commit waits a few milliseconds at most, then hands the moves to the writer thread.

The methods are synchronous and thread-safe (a lock per game): the web layer runs them in
worker threads, so a thinking bot never blocks the event loop. The hot path of a move has
methods that work on a game in memory and free, on the event loop (``act_now``, the
``*_now`` reads), else answer ``None`` for the threaded method: under load, a move that
hopped to a worker thread and back waited longer for its turns than it took to make.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import Future
from datetime import timedelta
from typing import Any, Final, TypeVar

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError

from mummy.bots.registry import bot_names
from mummy.core.errors import RuleError
from mummy.server import clock
from mummy.server.errors import ServiceError, known_kind
from mummy.server.play.boards import Boards
from mummy.server.play.botrunner import BOT_ID, BotRunner
from mummy.server.play.bots import BOT_THREADS
from mummy.server.play.cache import IDLE_AFTER, MAX_LIVE, OVER_AFTER, SWEEP_EVERY, LiveCache
from mummy.server.play.copies import Copies, Lost
from mummy.server.play.custom_maps import CustomMaps, MapOwner
from mummy.server.play.live import LiveGame, Staged, hash_token
from mummy.server.play.seating import held, new_rows, rematch_token
from mummy.server.store.leases import TERM, Leases, Sole, process_name
from mummy.server.store.repository import Repository
from mummy.server.store.writer import Writer
from mummy.server.store.writes import Write
from mummy.server.text import control_fault, shown_name

__all__ = ["BOT_ID", "LOG_PAGE", "MAX_NAME", "GameService", "ServiceError"]

MAX_NAME = 40
#: Log entries per answer to a resync (:meth:`GameService.log_since`); the client asks
#: again from the last one it got while ``more`` says there are more.
LOG_PAGE = 200
#: Tries of an action whose place in the log another process takes each time (``act``).
RETRIES: Final = 5
#: How long "my games" lists a game in which nobody has moved (invitations wait that long).
NO_MOVE_LISTED: Final = timedelta(days=7)
T = TypeVar("T")  # what a read of a game in memory gives (GameService._now, GameService._read)


class GameService:
    """Games online: created, loaded, played by people and bots, viewed, and read back.

    ``owner`` names the process as the holder of bots' leases (``leases``): by default
    this process's name, shared by its services; tests that stand two services for two
    processes give each its own, and a short ``lease_term``."""

    def __init__(self, engine: Engine, *, max_live: int = MAX_LIVE, idle_after: float = IDLE_AFTER,
                 over_after: float = OVER_AFTER, sweep_every: float = SWEEP_EVERY,
                 bot_threads: int = BOT_THREADS, lease_term: float = TERM, owner: str | None = None) -> None:
        self.engine = engine
        self.repo = Repository(engine)
        self.maps = CustomMaps(self.repo)  # custom maps stored by their hash (custom_maps)
        # The games in memory, bounded and swept of idle and finished games (cache.py):
        # kept, every game ever loaded grew the process by about 10 KiB for good. A game
        # let go is rebuilt from the log when next needed.
        self._cache: LiveCache[LiveGame] = LiveCache(max_live, idle_after, over_after, sweep_every)
        self._live = self._cache.games  # read here; changed by the cache only, under its lock
        #: Whether a person's action leaves the bots' replies to :meth:`play_bots` (the app,
        #: see :meth:`attach`) instead of making them in the caller's thread.
        self.bots_later = False
        self._writer = Writer(engine, self.repo.writes, self.repo.write_actions)
        #: Whether actions commit in the caller's thread (on the event loop for act_now, at
        #: the loop's next turn) rather than in the writer thread. SQLite's do: a local
        #: commit takes a fraction of a millisecond, less than a trip to another thread and
        #: back, which waits for the interpreter lock and for a turn of the loop. Other
        #: databases are across a network: their commits go to the writer thread (a test
        #: sets this to False to use the thread on SQLite too).
        self.inline = engine.dialect.name == "sqlite"
        #: This process's copies of the games, kept up with what other processes commit (copies.py).
        self.copies = Copies(self.repo, self._cache, lambda live: self.bots.run(live))
        # Bots move in threads of their own, games in turn (bots.py), and on a database that
        # other processes share, only in the process that holds the game's lease (leases.py).
        shared = engine.dialect.name == "postgresql"
        #: Other processes may write to this database's games (PostgreSQL): an action's
        #: place in the log may be taken between its check here and its commit.
        self.shared = shared
        leases = Leases(engine, owner or process_name(), lambda game_id: game_id in self._live, self.repo.writes,
                        lease_term) if shared else Sole()
        #: The bots of this process's games (botrunner.py).
        self.bots = BotRunner(self.copies, leases, self._apply, bot_threads, shared)
        self._boards = Boards(self.repo, self.copies.current)
        self._rematch_key: bytes | None = None  # the key of rematches' seat tokens (_rematch_token)

    # -- serving an app ---------------------------------------------------------------------
    def close(self) -> None:
        """Give back the connection kept for commits on the event loop, drop the bots' queue
        (bots with moves due go on when their game is next loaded) and give back their
        leases (another process takes over at once), and serve no app any more (see
        :meth:`attach`). At the app's shutdown; the service can serve again."""
        self._writer.close()
        self.bots.close()
        self._cache.watched = lambda _game_id: False
        self.bots_later = False

    def attach(self, watched: Callable[[str], bool]) -> None:
        """Serve an app: a game for which ``watched(game_id)`` is true (a websocket is open
        on it) stays in memory, and a person's action leaves the bots' replies to
        :meth:`play_bots`, so that a person's call never does bots' work."""
        self._cache.watched = watched
        self.bots_later = True

    def sweep(self) -> int:
        """Let go of the games idle or finished for a while, and of the least recently used
        beyond ``max_live`` (a load does it too when due); how many went."""
        return self._cache.sweep()

    async def sweeping(self) -> None:
        """:meth:`sweep` every ``sweep_every`` seconds, in a thread, until cancelled (the app's
        background task): loads sweep only when games are loaded, a quiet server lets go too."""
        while True:
            await asyncio.sleep(self._cache.sweep_every)
            await asyncio.to_thread(self.sweep)

    # -- what is in memory, and how it is written (for tests and diagnostics) ---------------
    @property
    def live_games(self) -> int:
        """How many games are in memory now."""
        return len(self._cache)

    @property
    def live_ids(self) -> list[str]:
        """The ids of the games in memory now, in the order they were loaded."""
        return list(self._live)

    def cached(self, game_id: str) -> LiveGame | None:
        """The game in memory, if it is there; neither loaded nor counted as a use, so the
        cache's order stays as it is. A caller that changes it must hold its lock."""
        return self._live.get(game_id)

    @property
    def writer(self) -> Writer:
        """The writer of this service's actions (tests wrap its ``execute``)."""
        return self._writer

    # -- creating ---------------------------------------------------------------------------
    def create(self, kind: str, seats: list[dict[str, Any]], config: dict[str, Any] | None = None,
               seed: int | None = None, daily: str | None = None, entrant: str | None = None,
               owner: MapOwner | None = None) -> dict[str, Any]:
        """A new game. Returns its id, the public commitment and each person's seat token
        (``daily`` and ``entrant``: a day's challenge and its player, :meth:`create_daily`).
        A custom map named by its id is looked up among the stored maps; one given by its
        text (``map_text``) is stored, counted against ``owner``'s quota when it is new."""
        game_kind = known_kind(kind)
        names, bots = self._seating(kind, seats)
        text_given = (config or {}).get("map_text") is not None  # (a map named by id is stored already)
        try:
            cfg = game_kind.validate(self.maps.with_text(config or {}), len(seats))
        except ValueError as exc:
            raise ServiceError(422, "bad_request", str(exc)) from None
        if text_given:
            self.maps.keep(cfg["map"], cfg["map_text"], owner)
        if seed is not None and daily is None:
            cfg["seed_chosen"] = True  # whoever chose it knows every roll: the view says so
        game_id = secrets.token_urlsafe(12)
        tokens: dict[int, str] = {i: secrets.token_urlsafe(24) for i, b in enumerate(bots) if b is None}
        row, seat_rows = new_rows(game_id, kind, cfg, names, bots, tokens, seed, daily, entrant)
        public = row.commitment  # read before the commit expires the row's attributes
        self.repo.add_game(row, seat_rows)
        with contextlib.suppress(ServiceError):  # the game and its tokens stand either way
            self.copies.load(game_id)  # loading lets the bots make their first moves
        return {"id": game_id, "commitment": public,
                "seats": [{"seat": i, "name": names[i], "bot": bots[i], "token": tokens.get(i)}
                          for i in range(len(seats))]}

    def holds_seat(self, game_id: str, token: str | None) -> bool:
        """Whether the token holds a seat of the game (loaded if need be); False for no
        such game."""
        try:
            with self.copies.current(game_id) as live:
                return live.holds(token)
        except ServiceError:
            return False

    @staticmethod
    def _seating(kind: str, seats: list[dict[str, Any]]) -> tuple[list[str], list[str | None]]:
        """Each seat's name and bot (None for a person), checked: a game online needs a
        person (all-bot games are for ``mummy sim``), and only the game's own bots."""
        if not isinstance(seats, list) or not seats:
            raise ServiceError(422, "bad_request", "a game needs at least one seat")
        if all(seat.get("bot") for seat in seats if isinstance(seat, dict)):
            raise ServiceError(422, "bad_request", "a game online needs at least one person; "
                               "all-bot games are for mummy sim")
        names, bots = [], []
        for i, seat in enumerate(seats):
            name = shown_name(str(seat.get("name") or ""))[:MAX_NAME] or f"player {i + 1}"
            bot = seat.get("bot")
            if bot is not None and bot not in bot_names(kind):
                raise ServiceError(422, "bad_request", f"unknown bot {bot!r}; bots: {', '.join(bot_names(kind))}")
            names.append(name)
            bots.append(bot)
        return names, bots

    def create_daily(self, kind: str, name: str | None = None, address: str | None = None,
                     tokens: list[str] | tuple[str, ...] = (),
                     charge: Callable[[], None] | None = None) -> dict[str, Any]:
        """A solo game on today's challenge seed (the same dice for everybody), or today's
        game already held by one of ``tokens`` (this browser's seats), resumed: its answer
        says ``"resumed": true`` and gives back the seat's own token. Without such a token
        (another browser, a cleared storage) a new game starts, but the day's board takes
        one game per player (``address`` and name, :meth:`Boards.entrant`): the first
        they finish; ``charge`` is called only before creating one (``limits.Charge``)."""
        day = clock.today()
        hashes = {hash_token(t): t for t in tokens[:100]}
        held = self.repo.daily_seat(kind, day, list(hashes)) if hashes else None
        if held is not None:
            row, seat = held
            assert seat.token_hash is not None  # it matched one
            return {"id": row.id, "commitment": row.commitment, "resumed": True,
                    "seats": [{"seat": seat.seat, "name": seat.name, "bot": None, "token": hashes[seat.token_hash]}]}
        if charge is not None:
            charge()
        entrant = self._boards.entrant(kind, day, shown_name(str(name or ""))[:MAX_NAME] or "player 1", address)
        return self.create(kind, [{"name": name}], known_kind(kind).daily, seed=self.daily_seed(kind, day),
                           daily=day, entrant=entrant)

    def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The rematch of this finished game (contracts §3): the same game, set-up and seats
        (names, bots) on a new secret seed, made once. The first request makes it and the
        old game keeps its id (``games.rematch``, shown in its views); every later one, by
        any seat, is answered with that game. Each caller gets only its own seat's token:
        the seat its token holds in the old game, in the new one (a spectator, without a
        token, gets none and starts nothing). A chosen seed is not carried over (only the
        set-up's own keys are), so a rematch can set a record; a daily challenge has none.
        Its tokens are derived (``seating.rematch_token``); ``new``: made by this request."""
        with self.copies.current(game_id, catch_up=True) as live:  # it may have ended in another process
            seat = live.seat_of(token)  # 401/403: only a player of the game starts or joins its rematch
            if live.row.daily is not None:
                raise ServiceError(409, "daily", f"a daily challenge has no rematch: {live.row.daily}'s "
                                   "dice are one game a day for everybody; start a new game instead")
            if not live.kind.is_over(live.game):
                raise ServiceError(409, "not_over", "a rematch starts once the game is over")
            made, new = live.row.rematch, False
            if made is None:
                made, new = self._store_rematch(live)
                live.row.rematch = made
                live.views_changed()  # the views made at this version lack it
        with contextlib.suppress(ServiceError):  # the game and its tokens stand either way
            self.copies.load(made)  # loading lets the bots make their first moves
        with self.copies.current(made) as again:  # outside the old game's lock: a load takes locks
            public, seats = again.row.commitment, [(x.seat, x.name, x.bot) for x in again.seats]
        return {"id": made, "commitment": public, "rematch_of": game_id, "new": new,
                "seats": [{"seat": i, "name": name, "bot": bot,
                           "token": self._rematch_token(made, i) if i == seat and bot is None else None}
                          for i, name, bot in seats]}

    def _store_rematch(self, live: LiveGame) -> tuple[str, bool]:
        """Store a rematch of the game (its lock held), or find the one another process
        stored meanwhile (``Repository.add_rematch``): its id, and whether it is new."""
        kind = live.row.kind
        config = {k: v for k, v in live.config.items() if k in live.kind.config_keys}
        cfg = live.kind.validate(config, len(live.seats))
        game_id = secrets.token_urlsafe(12)
        names, bots = [x.name for x in live.seats], [x.bot for x in live.seats]
        tokens = {i: self._rematch_token(game_id, i) for i, bot in enumerate(bots) if bot is None}
        made = self.repo.add_rematch(live.row.id, *new_rows(game_id, kind, cfg, names, bots, tokens))
        if made is None:  # the game was there a moment ago, in memory: its row cannot have gone
            raise ServiceError(503, "unavailable", "the rematch could not be stored; retry")
        return made, made == game_id

    def _rematch_token(self, game_id: str, seat: int) -> str:
        """A rematch's seat token (``seating.rematch_token``) under the server's secret
        "rematch", made on first use and kept in the database as the daily seeds' key."""
        if self._rematch_key is None:
            self._rematch_key = self.repo.secret("rematch").encode()
        return rematch_token(self._rematch_key, game_id, seat)

    # -- acting -----------------------------------------------------------------------------
    def act(self, game_id: str, token: str | None, client_id: str, version: int, text: str) -> dict[str, Any]:
        """Apply a person's action; see ``live`` for tokens, client ids and versions. Other
        processes may write to the game: the copy catches up with the log before the
        action is checked, and an action whose place in the log was taken meanwhile
        (``copies.Lost``) is checked again on the log as it now is: it stands, or is a
        repeat (its client id was written), or is stale."""
        self._check_request(client_id, text)
        for _ in range(RETRIES):
            with self.copies.current(game_id, catch_up=True) as live:  # locked, current, caught up
                seat, earlier = live.admit(token, client_id, version)
                if earlier is not None:
                    return earlier
                try:
                    result = self._apply(live, seat, text, client_id)
                except Lost:  # the copy was dropped: the next try rebuilds it from the log
                    continue
                if not self.bots_later:
                    # The person's action stands even if a bot's move cannot be written now: the
                    # bots go on when the game is next loaded.
                    with contextlib.suppress(ServiceError):
                        self.bots.run(live)
                return result
        raise Lost()

    async def act_now(self, game_id: str, token: str | None, client_id: str, version: int,
                      text: str) -> dict[str, Any] | None:
        """:meth:`act` on the event loop, for a game in memory that no thread is using;
        ``None`` otherwise (call :meth:`act` in a worker thread then). Bots do not move
        here: :meth:`bots_due` says when :meth:`play_bots` has work.

        The game's lock is held from the engine's check until the commit, as in
        :meth:`act`, and taken without waiting: a coroutine must not block the loop, and
        the lock is not re-entrant, so a second coroutine on the same game cannot slip in
        (it is sent to a worker thread, which waits its turn).
        """
        self._check_request(client_id, text)
        live = self.copies.take_now(game_id)
        if live is None:
            return None
        release = True
        try:
            if isinstance(version, int) and version > live.version:
                return None  # the client has seen a version this copy has not: a thread catches up
            seat, earlier = live.admit(token, client_id, version)
            if earlier is not None:
                return earlier
            staged = self._stage(live, seat, text, client_id, on_loop=True)
            try:
                await self._committed(staged.done)
                staged.done.result()
            except asyncio.CancelledError:
                # The caller went away, the write goes on: the game stays locked until it
                # ends, and then counts the action (or is rebuilt from the log).
                release = False
                staged.done.add_done_callback(functools.partial(self._settle_later, live, staged))
                raise
            except Exception as exc:
                error = self._unwritten(live, staged, exc)
                if isinstance(error, Lost):  # another process wrote first: act() checks it again
                    return None
                raise error from exc
            return live.settle(staged)
        finally:
            if release:
                live.lock.release()

    async def _committed(self, done: Future[None]) -> None:
        """Wait for a write made by act_now. On SQLite the commit is made on this loop and
        settles ``done`` here, so the waiting task is woken directly: waking it through
        another thread's route (``asyncio.wrap_future``) would cost another turn of the
        loop, and under load a turn is several other players' moves."""
        if not self.inline:
            await asyncio.wrap_future(done)
            return
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        here = threading.get_ident()

        def wake(_: Future[None]) -> None:
            if threading.get_ident() != here:  # the writer thread committed it (the file was busy)
                loop.call_soon_threadsafe(wake, _)
            elif not waiter.done():  # not cancelled meanwhile
                waiter.set_result(None)

        done.add_done_callback(wake)
        await waiter

    def _settle_later(self, live: LiveGame, staged: Staged, done: Future[None]) -> None:
        """The write of a move whose caller went away has ended: count it, or rebuild the
        game from the log; then the game is free again."""
        try:
            if done.exception() is None:
                live.settle(staged)
            else:
                self.copies.drop(live.row.id)
        finally:
            live.lock.release()

    @staticmethod
    def _check_request(client_id: object, text: object) -> None:
        if not isinstance(client_id, str) or not 1 <= len(client_id) <= 64:
            raise ServiceError(422, "bad_request", "client_id is a string of 1 to 64 characters")
        for field, value in (("client_id", client_id), ("action", text)):
            fault = control_fault(value) if isinstance(value, str) else None
            if fault is not None:  # (a NUL failed PostgreSQL): the same refusal on both
                raise ServiceError(422, "bad_request", f"{field}: {fault}")
        if client_id.startswith(BOT_ID):
            raise ServiceError(422, "bad_request", f"client ids starting with {BOT_ID!r} are the bots'")
        if not isinstance(text, str) or not 1 <= len(text) <= 64:
            raise ServiceError(422, "bad_request", "action is a string of 1 to 64 characters")

    def _apply(self, live: LiveGame, seat: int, text: str, client_id: str) -> dict[str, Any]:
        """Check, apply, commit and settle one action (the caller holds the game's lock)."""
        staged = self._stage(live, seat, text, client_id)
        try:
            staged.done.result()
        except Exception as exc:
            raise self._unwritten(live, staged, exc) from exc
        return live.settle(staged)

    def _stage(self, live: LiveGame, seat: int, text: str, client_id: str, on_loop: bool = False) -> Staged:
        """The engine checks and applies the action in memory; its rows go to the writer
        (``on_loop``: the caller is the event loop, which must not wait for a commit)."""
        if text == "undo":
            live.check_undo(seat)
        # Where another process may take its place in the log, the game as it was, to go
        # back to (_unwritten): a copy costs about 12 microseconds, a rebuild from the log
        # milliseconds, and with two players of a Tomb round on two processes a place is
        # taken often (their moves of a round are made at the same time).
        before = live.game.copy() if self.shared else None
        try:
            canonical, affects, entry = live.apply(seat, text)
        except RuleError as exc:  # refused by the engine: nothing changed
            raise ServiceError(422, "illegal", str(exc), rule=exc.rule, where=exc.where,
                               version=live.version) from None
        except ValueError as exc:  # any other unreadable text: refused the same way
            raise ServiceError(422, "illegal", f"notation: {exc}", rule="notation", version=live.version) from None
        game_id = live.row.id
        seq = live.version + 1
        over = live.kind.is_over(live.game)
        result = {"version": seq, "seat": seat, "action": canonical, "over": over}
        answer = json.dumps(result)
        row = {"game_id": game_id, "seq": seq, "seat": seat, "text": canonical, "affects": affects,
               "client_id": client_id, "result": answer, "created": clock.now()}
        stamp: dict[str, Any] = {"b_id": game_id, "b_version": seq, "b_over": over}
        if over:
            final = live.kind.result(live.game)
            stamp["b_result"] = json.dumps(final)
            stamp.update(live.standing(final), b_finished=row["created"])
            if live.row.daily is not None:  # on the day's board only, once a player
                stamp.update(self._boards.daily_stamp(live.row, stamp))
        write = Write(row, stamp)
        if not self.inline:
            self._writer.submit(write)
        elif on_loop:
            self._writer.write_soon(write)
        else:
            self._writer.write_now(write)
        return Staged(client_id, affects, result, answer, write.done, entry, before)

    def _unwritten(self, live: LiveGame, staged: Staged, exc: Exception) -> ServiceError:
        """The write failed: the game in memory ran ahead of the log. What to raise.

        Its place in the log (or its client id) was taken by another process (an
        ``IntegrityError``: nothing was written): the copy goes back to the game as it was
        before the action, noted as behind the log, which it reads at its next use. Any
        other failure leaves it in doubt (the commit may have happened): it is dropped and
        rebuilt from the log, the truth."""
        if isinstance(exc, IntegrityError):
            if staged.before is not None:
                live.game = staged.before
                self.copies.overtaken(live)
            else:
                self.copies.drop(live.row.id)
            return Lost()
        self.copies.drop(live.row.id)
        return ServiceError(503, "unavailable", "the database did not take the action; retry")

    # -- bots (botrunner.py) ----------------------------------------------------------------
    def bots_due(self, game_id: str) -> bool:
        """Whether a bot of this game has a move to make (a hint read without the lock)."""
        return self.bots.due(game_id)

    def play_bots(self, game_id: str) -> Future[int]:
        """Let the game's bots make their moves, in the bots' own threads, one move at a time
        in turn with other games' bots (bots.py), if this process holds the game's lease:
        the future settles with the moves made once none is due (or the lease is elsewhere)."""
        return self.bots.play(game_id)

    # -- reading ----------------------------------------------------------------------------
    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        """The game as a seat (or a spectator, without a token) sees it."""
        return self._read(game_id, lambda live: live.view_for(token))

    def _now(self, game_id: str, read: Callable[[LiveGame], T]) -> T | None:
        """``read`` of the game in memory without waiting, for the event loop: ``None`` when
        the game is not in memory or busy (a move being written, a bot thinking); the
        caller reads it in a worker thread then (:meth:`_read`)."""
        live = self.copies.take_now(game_id)
        if live is None:
            return None
        try:
            return read(live)
        finally:
            live.lock.release()

    def _read(self, game_id: str, read: Callable[[LiveGame], T]) -> T:
        with self.copies.current(game_id) as live:
            return read(live)

    def views_now(self, game_id: str, tokens: list[str | None]) -> list[dict[str, Any]] | None:
        """Each connection's view at one version (``Play.view``), without waiting (see :meth:`_now`)."""
        return self._now(game_id, lambda live: [live.view_for(token) for token in tokens])

    def view_texts(self, game_id: str, tokens: list[str | None]) -> list[tuple[int, str]]:
        """Each connection's view at one and the same version as (version, JSON text),
        encoded once per version (``LiveGame.view_text``): what a resync sends."""
        return self._read(game_id, lambda live: [(live.version, live.view_text(token)) for token in tokens])

    def view_texts_now(self, game_id: str, tokens: list[str | None]) -> list[tuple[int, str]] | None:
        """:meth:`view_texts` without waiting (``None``: see :meth:`_now`)."""
        return self._now(game_id, lambda live: [(live.version, live.view_text(token)) for token in tokens])

    def updates(self, game_id: str, wants: list[tuple[str | None, int]]) -> list[tuple[int, int | None, str]]:
        """What each connection (its token, the version it has) is sent after a move, at one
        version (``LiveGame.update_for``): the patch from its version, or the whole view."""
        return self._read(game_id, lambda live: [live.update_for(token, have) for token, have in wants])

    def updates_now(self, game_id: str,
                    wants: list[tuple[str | None, int]]) -> list[tuple[int, int | None, str]] | None:
        """:meth:`updates` without waiting (``None``: see :meth:`_now`)."""
        return self._now(game_id, lambda live: [live.update_for(token, have) for token, have in wants])

    def preview(self, game_id: str, token: str | None, text: str) -> dict[str, Any]:
        """What an action would do for the token's seat, worked out on a copy of the game
        (contracts §2, ``LiveGame.preview``): nothing changes, nothing is written."""
        if not isinstance(text, str) or not 1 <= len(text) <= 64:
            raise ServiceError(422, "bad_request", "action is a string of 1 to 64 characters")
        return self._read(game_id, lambda live: live.preview(token, text))

    def record(self, game_id: str) -> dict[str, Any]:
        """The finished game's record with its seed revealed (for ``mummy verify``)."""
        return self._read(game_id, lambda live: live.record())

    def games_of(self, tokens: list[str]) -> list[dict[str, Any]]:
        """The games in which these tokens hold seats ("my games"), newest first; one nobody
        moved in for ``NO_MOVE_LISTED`` (a daily one for its day): else they piled up."""
        hashes = [hash_token(t) for t in tokens[:100]]
        rows = self.repo.games_of(hashes, clock.now() - NO_MOVE_LISTED, clock.today()) if hashes else []
        return [held(row) for row in rows]

    def log_since(self, game_id: str, version: int, token: str | None = None,
                  limit: int = LOG_PAGE) -> dict[str, Any]:
        """What a client that comes back has missed: ``{"missed": [...], "more": bool}``, at
        most ``limit`` (``LOG_PAGE``) entries after ``version`` (a resync from 0 on a long log
        answered megabytes); refused where :meth:`LiveGame.check_log` says so."""
        with self.copies.current(game_id) as live:
            live.check_log(token)
        limit = max(1, min(limit, LOG_PAGE))
        rows = self.repo.entries_after(game_id, version, limit + 1)
        return {"missed": [{"version": r.seq, "seat": r.seat, "action": r.text} for r in rows[:limit]],
                "more": len(rows) > limit}

    # -- daily challenge, leaderboards, replays (boards.py) ---------------------------------
    def daily_seed(self, kind: str, day: str) -> int:
        """The day's seed for a game: a keyed hash of the day, secret until the day is over."""
        return self._boards.daily_seed(kind, day)

    def leaderboard(self, kind: str, where: str | None = None, daily: str | None = None,
                    limit: int = 20) -> list[dict[str, Any]]:
        """Finished solo games, best first (see :meth:`Boards.leaderboard`)."""
        return self._boards.leaderboard(kind, where, daily, limit)

    def replay(self, game_id: str, step: int) -> dict[str, Any]:
        """A finished game as it stood after its first ``step`` log entries."""
        return self._boards.replay(game_id, step)
