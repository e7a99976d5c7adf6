"""The service layer: games online, as the rules of play between people and the server.

It keeps the storage code too (SQLAlchemy sessions over the tables of ``models``): the
routes in ``app`` never touch the database.

* A game's seed is secret; its SHA-256 commitment (with a secret nonce) is public from
  the start, and both are revealed when the game ends, so anyone can check every roll
  and shuffle (``mummy verify``).
* Each seat has a secret token (only its SHA-256 is stored); the seat of an action comes
  from the token, never from the request.
* Every action carries a client id and the version (log length) it was made on. A
  repeated client id is answered with the stored answer and applied once; a version
  older than an entry that changed this seat's view is refused as stale.
* An action is checked by the engine, then written to the log and committed, and only
  then the game in memory moves on and anyone is told. If the write fails, the game in
  memory is dropped and rebuilt from the log, which is the truth.
* The games in memory are a bounded cache (``cache``): the least recently used beyond
  ``max_live``, and games idle or finished for a while, are let go and rebuilt from the
  log when next needed.
* Bots play their seats right after the action that gives them the turn; for the app, in
  threads of their own, games in turn (``bots``, :meth:`GameService.play_bots`).
* SQLite commits in the thread that acts. For a move online that is the event loop,
  which commits at its next turn every move made meanwhile (one commit and one disk
  sync for a burst of moves): a local commit costs a fraction of a millisecond, less
  than a trip to another thread and back (a wait for the interpreter lock, then for a
  turn of the loop). Other databases are across a network and must not hold up the
  loop: their writes go to one writer thread that commits every action waiting in one
  transaction (a group commit). Nor may a locked SQLite file hold up the loop: its
  commit waits a few milliseconds at most, then hands the moves to the writer thread.

The methods are synchronous and thread-safe (a lock per game): the web layer runs them in
worker threads, so a thinking bot never blocks the event loop. For the hot path of a move
there are coroutines too (:meth:`GameService.act_now`, :meth:`GameService.views_now`):
they work on a game already in memory and free, on the event loop; when the game is not
ready (not loaded, or in use by a thread) they answer ``None`` and the caller uses the
threaded method instead. Measured under load (``make bench``), a move that hopped to a
worker thread and back waited longer for its turns than it took to make.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import hashlib
import hmac
import itertools
import json
import queue
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, cast

from sqlalchemy import ClauseElement, Connection, Dialect, Engine, bindparam, insert, select, true, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler

from mummy.bots.registry import bot_names, make_agent
from mummy.core.errors import RuleError
from mummy.core.rng import new_seed
from mummy.games import EVERYONE, KINDS, GameKind, commitment
from mummy.server.bots import BOT_SLICE, BOT_THREADS, BotPool
from mummy.server.cache import IDLE_AFTER, MAX_LIVE, OVER_AFTER, SWEEP_EVERY, LiveCache
from mummy.server.db import LOOP_WAIT, is_busy, wait_briefly
from mummy.server.models import ActionRow, GameRow, SeatRow, SecretRow

MAX_NAME = 40
#: Undos a seat may make in one Tomb round (the log entries since the last roll): a round
#: has about ten actions, so no honest player comes near; place-and-undo in a loop grew
#: one game's log by 30,000 entries in a minute before.
MAX_UNDOS = 50
#: Log entries after which a game takes no more undos at all (every other action moves the
#: game on, so it still ends): a bound on what any game's replay or resync can cost.
MAX_LOG = 5_000
#: Log entries per answer to a resync (:meth:`GameService.log_since`); the client asks
#: again from the last one it got while ``more`` says there are more.
LOG_PAGE = 200
#: Replays: a snapshot of the game every this many log entries, so a step costs at most
#: this many applies once its game has been replayed (snapshots are made on the way) ...
REPLAY_EVERY = 50
#: ... for this many games at most (the least recently replayed go first).
REPLAY_GAMES = 4
BOT_ID: Final = "bot:"  # the prefix of the client ids of bots' actions


class ServiceError(Exception):
    """A refusal with an HTTP-like status, a code, and the engine's rule when it has one."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None,
                 where: str | None = None, version: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule
        self.where = where
        self.version = version

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        if self.where:
            out["where"] = self.where
        if self.version is not None:
            out["version"] = self.version
        return out


_INSERT_ACTION: Final = insert(ActionRow)
_STAMP: Final = (update(GameRow).where(GameRow.id == bindparam("b_id"))
                 .values(version=bindparam("b_version"), over=bindparam("b_over")))
# The game-ending move also stamps the leaderboard's columns (see GameService._standing).
_STAMP_OVER: Final = _STAMP.values(result=bindparam("b_result"), ranked=bindparam("b_ranked"),
                                   place=bindparam("b_place"), score=bindparam("b_score"),
                                   turns=bindparam("b_turns"), ranking=bindparam("b_ranking"),
                                   finished=bindparam("b_finished"))
_ACTION_COLUMNS: Final = [c.name for c in ActionRow.__table__.columns]
_UNDONE: Final = json.dumps({"action": "undo"})[1:-1]  # how an undo's stored answer names it



def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def today() -> str:
    """The current day (UTC) that names a daily challenge."""
    return _now().date().isoformat()


@dataclass
class _Write:
    """One action's rows, waiting for the writer; ``done`` is settled after the commit.
    The stamp of the game's last action also carries its result (``b_result``)."""

    row: dict[str, Any]
    stamp: dict[str, Any]
    done: Future[None] = field(default_factory=Future)

    def __post_init__(self) -> None:
        # Running from the start, so nobody can cancel it: the action is already applied
        # in memory, and its write must end one way or the other.
        self.done.set_running_or_notify_cancel()


class _Writer:
    """Writes actions: in the caller's thread, by group commit at the event loop's next
    turn (SQLite, for moves made on the loop), or by group commit in a thread of its own.

    An action must be committed before anyone is told of it. Across a network every
    commit is a round trip; one at a time, writers queue behind each other, and that queue
    is where a busy server's tail latency comes from. The thread writes every action
    waiting in one transaction, so one round trip (and one disk sync) covers all of them.
    A batch that fails is written again action by action, so one bad action (a client id
    taken meanwhile) fails alone. The thread starts with the first write and ends when it
    has been idle for a moment, so a service that does not use it holds no thread.

    The event loop waits for no lock (a file lock held by another process froze every game
    and health check for the lock's 30 s): its commit waits at most ``LOOP_WAIT`` for this
    process's write lock and for SQLite's, then hands the batch to the thread, which may
    wait as long as it takes. Those moves are answered when the thread has committed them.
    """

    IDLE = 0.5  # seconds without a write before the thread ends

    def __init__(self, engine: Engine, writes: threading.Lock | contextlib.nullcontext[None]) -> None:
        self._engine = engine
        self._writes = writes
        self._file_lock = None if isinstance(writes, contextlib.nullcontext) else writes  # SQLite's writers
        self._queue: queue.SimpleQueue[_Write] = queue.SimpleQueue()
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pending = 0  # writes submitted to the thread and not yet settled
        self._soon: list[_Write] = []  # for the event loop's next commit (write_soon)
        self._loop_conn: Connection | None = None  # used on the event loop only
        self._flushing: int | None = None  # the loop's thread while it commits (see _write)
        self._statements: tuple[_Compiled, _Compiled, _Compiled] | None = None

    def submit(self, write: _Write) -> None:
        """Queue an action's rows for the thread; ``write.done`` is settled after the commit."""
        with self._guard:
            self._pending += 1
            self._queue.put(write)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="mummy-writer")
                self._thread.start()

    def write_now(self, write: _Write) -> None:
        """Write and commit an action's rows in the caller's thread; ``write.done`` settles."""
        try:
            with self._engine.connect() as conn:
                self._write(conn, [write])
        except Exception as exc:
            write.done.set_exception(exc)
        else:
            write.done.set_result(None)

    def write_soon(self, write: _Write) -> None:
        """Queue an action's rows for a commit on the event loop at its next turn, which
        commits every action queued until then together; ``write.done`` settles after it.

        Moves come in bursts (many players, one loop), and a commit's disk sync is most
        of its cost: one sync per turn of the loop instead of one per move lets a burst
        drain sooner, and a quiet server commits each move a moment after it is made."""
        self._soon.append(write)
        if len(self._soon) == 1:
            asyncio.get_running_loop().call_soon(self._flush_soon)

    def _flush_soon(self) -> None:
        batch, self._soon = self._soon, []
        if self._pending:  # the thread is writing what the loop handed it (a busy database):
            self._hand_over(batch)  # after those, not in a wait of the loop's own
            return
        if self._loop_conn is None:
            try:
                self._loop_conn = self._engine.connect()
                wait_briefly(self._loop_conn)
            except Exception as exc:
                self._loop_conn = None
                for write in batch:
                    write.done.set_exception(exc)
                return
        self._flushing = threading.get_ident()
        try:
            self._loop_conn = self._commit_on(self._loop_conn, batch)
        except _Busy:  # rolled back, the connection is fine: the thread waits for the database
            self._hand_over(batch)
        finally:
            self._flushing = None

    def _hand_over(self, batch: list[_Write]) -> None:
        for write in batch:
            self.submit(write)

    def close(self) -> None:
        """Give back the event loop's connection (the thread gives back its own). It is
        not pooled again: it gives up on a lock after a few milliseconds."""
        if self._loop_conn is not None:
            self._loop_conn.invalidate()
            self._loop_conn.close()
            self._loop_conn = None

    def _run(self) -> None:
        # One connection for the thread's life: taking one from the pool and giving it
        # back (with its reset) per batch is Python work on the hot path, and every call
        # into the driver is another wait for the interpreter lock.
        conn: Connection | None = None
        try:
            while (batch := self._next_batch()) is not None:
                try:
                    conn = self._commit_on(conn, batch)
                finally:
                    with self._guard:
                        self._pending -= len(batch)
        finally:
            if conn is not None:
                conn.close()

    def _next_batch(self) -> list[_Write] | None:
        """Every write waiting (at least one), or None when the thread has been idle for
        ``IDLE`` seconds and ends (a write submitted meanwhile starts a new one)."""
        while True:
            try:
                batch = [self._queue.get(timeout=self.IDLE)]
                break
            except queue.Empty:
                with self._guard:
                    if self._queue.empty():
                        self._thread = None
                        return None
        with contextlib.suppress(queue.Empty):
            while True:
                batch.append(self._queue.get_nowait())
        return batch

    def _commit_on(self, conn: Connection | None, batch: list[_Write]) -> Connection | None:
        """Commit the batch on a kept connection (one is made if there is none); the
        connection to keep, or None after a failure (in doubt: the next batch gets a new
        one). Every write of the batch is settled either way."""
        if conn is None:
            try:
                conn = self._engine.connect()
            except Exception as exc:
                for write in batch:
                    write.done.set_exception(exc)
                return None
        if self._commit(conn, batch):
            return conn
        conn.invalidate()
        conn.close()
        return None

    def _commit(self, conn: Connection, batch: list[_Write]) -> bool:
        """Write the batch, or each of its actions alone if it fails; False on a failure.
        On the event loop, raises ``_Busy`` (nothing written) when the database is busy."""
        try:
            self._write(conn, batch)
        except _Busy:
            raise
        except Exception as exc:
            if len(batch) == 1 or is_busy(exc):  # a busy database fails them all alike, at once
                for write in batch:
                    write.done.set_exception(exc)
                return False
            for write in batch:  # which one failed? each alone, so the others stand
                try:
                    self._write(conn, [write])
                except _Busy:  # busy meanwhile (on the loop): the thread waits for it
                    self.submit(write)
                except Exception as one:
                    write.done.set_exception(one)
                else:
                    write.done.set_result(None)
            return False
        for write in batch:
            write.done.set_result(None)
        return True

    def _write(self, conn: Connection, batch: list[_Write]) -> None:
        if self._flushing != threading.get_ident():  # a thread: it may wait its turn
            with self._writes, conn.begin():
                self._execute(conn, batch)
            return
        # The event loop: a moment for this process's writers, one for SQLite's lock (the
        # loop's connection waits LOOP_WAIT), else _Busy and the thread takes the batch.
        lock = self._file_lock
        if lock is not None and not lock.acquire(timeout=LOOP_WAIT):
            raise _Busy
        try:
            with conn.begin():
                self._execute(conn, batch)
        except DBAPIError as exc:
            if is_busy(exc):
                raise _Busy from exc
            raise
        finally:
            if lock is not None:
                lock.release()

    def _execute(self, conn: Connection, batch: list[_Write]) -> None:
        # The hot path of every move: statements compiled once, run on the driver's own
        # cursor (see _Compiled), not the ORM's unit of work.
        if self._statements is None:
            dialect = self._engine.dialect
            self._statements = (_Compiled(_INSERT_ACTION, dialect, _ACTION_COLUMNS),
                                _Compiled(_STAMP, dialect), _Compiled(_STAMP_OVER, dialect))
        insert, stamp, stamp_over = self._statements
        cursor = conn.connection.cursor()
        try:
            insert.run(cursor, [w.row for w in batch])
            stamps = [w.stamp for w in batch if "b_result" not in w.stamp]
            if stamps:
                stamp.run(cursor, stamps)
            finals = [w.stamp for w in batch if "b_result" in w.stamp]
            if finals:
                stamp_over.run(cursor, finals)
        finally:
            cursor.close()


class _Busy(Exception):
    """The database (or this process's write lock) stayed busy past the event loop's short
    wait: nothing was written, and the batch goes to the writer thread."""


class _Compiled:
    """A statement compiled once for the database's dialect, with the order and the type
    conversions of its parameters, run straight on the driver's cursor. SQLAlchemy's
    work per execution (a context, parameter processing, a result) cost three times the
    SQL itself on SQLite: 0.16 ms against 0.05 ms for a move's write."""

    def __init__(self, statement: ClauseElement, dialect: Dialect, keys: list[str] | None = None) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect, column_keys=keys))
        self.sql = str(compiled)
        names = list(compiled.positiontup or []) if compiled.positional else list(compiled.binds)
        self.positional = compiled.positional
        self.params = [(name, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect))
                       for name in names]
        self.error: type[Exception] = dialect.loaded_dbapi.Error

    def run(self, cursor: Any, rows: list[dict[str, Any]]) -> None:
        """Execute for every row; the driver's errors are raised as SQLAlchemy's, as
        ``Connection.execute`` raises them (a taken key is an ``IntegrityError``)."""
        params: list[Any] = (
            [tuple(row[k] if p is None else p(row[k]) for k, p in self.params) for row in rows]
            if self.positional else
            [{k: row[k] if p is None else p(row[k]) for k, p in self.params} for row in rows])
        try:
            cursor.executemany(self.sql, params)
        except self.error as exc:
            raise DBAPIError.instance(self.sql, None, exc, self.error) from exc


@dataclass
class _Staged:
    """An action the engine has applied in memory, before its commit."""

    client_id: str
    affects: int
    result: dict[str, Any]
    answer: str
    done: Future[None]


@dataclass
class _Live:
    """A game in memory, rebuilt from the log whenever in doubt."""

    row: GameRow
    kind: GameKind
    game: Any
    config: dict[str, Any]
    seats: list[SeatRow]
    affects: list[int] = field(default_factory=list)  # per log entry
    answers: dict[str, tuple[int, str]] = field(default_factory=dict)  # client id -> (seat, result JSON)
    agents: dict[int, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)  # not re-entrant: see act_now
    used: float = field(default_factory=time.monotonic)  # its last use, for the cache (cache.py)
    # What every connection is sent after a move, made once per version: the public state
    # and each seat's legal actions (a broadcast asks for them once per connection).
    cached_version: int = -1
    cached_state: dict[str, Any] = field(default_factory=dict)
    cached_legal: dict[int, list[str]] = field(default_factory=dict)
    cached_actions: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return len(self.affects)

    @property
    def finished(self) -> bool:
        """Whether the game is over (as committed), for the cache: let go of soon."""
        return bool(self.row.over)

    def _fresh(self) -> None:
        if self.cached_version != self.version:
            self.cached_state = self.kind.view(self.game)
            self.cached_legal = {}
            self.cached_actions = {}
            self.cached_version = self.version

    def state(self) -> dict[str, Any]:
        """The public state at this version (shared: callers must not change it)."""
        self._fresh()
        return self.cached_state

    def legal(self, seat: int) -> list[str]:
        """The seat's legal actions at this version (shared: callers must not change it)."""
        self._fresh()
        if seat not in self.cached_legal:
            self.cached_legal[seat] = [a["text"] for a in self.actions(seat)]
        return self.cached_legal[seat]

    def actions(self, seat: int) -> list[dict[str, Any]]:
        """The seat's legal actions as data (JSON form and text), at this version (shared)."""
        self._fresh()
        if seat not in self.cached_actions:
            self.cached_actions[seat] = self.kind.legal_json(self.game, seat)
        return self.cached_actions[seat]


class GameService:
    def __init__(self, engine: Engine, *, max_live: int = MAX_LIVE, idle_after: float = IDLE_AFTER,
                 over_after: float = OVER_AFTER, sweep_every: float = SWEEP_EVERY,
                 bot_threads: int = BOT_THREADS) -> None:
        self.engine = engine
        # The games in memory, bounded and swept of idle and finished games (cache.py):
        # kept, every game ever loaded grew the process by about 10 KiB for good. A game
        # let go is rebuilt from the log when next needed.
        self._cache: LiveCache[_Live] = LiveCache(max_live, idle_after, over_after, sweep_every)
        self._live = self._cache.games  # read here; changed by the cache only, under its lock
        # Bots move in threads of their own, one move at a time, games in turn (bots.py).
        self._bots = BotPool(self._bot_step, bot_threads)
        #: Whether a person's action leaves the bots' replies to :meth:`play_bots` (the app,
        #: see :meth:`attach`) instead of making them in the caller's thread.
        self.bots_later = False
        # SQLite takes one writer at a time and makes the others sleep and retry (in steps
        # of up to 100 ms): writers of this process queue here instead, which is fast.
        sqlite = engine.dialect.name == "sqlite"
        self._writes: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if sqlite else contextlib.nullcontext())
        self._writer = _Writer(engine, self._writes)
        # SQLite commits in the caller's thread (on the event loop for act_now, at the
        # loop's next turn): a local commit takes a fraction of a millisecond, less than a
        # trip to another thread and back, which waits for the interpreter lock and for a
        # turn of the loop. Other databases are across a network: their commits go to the
        # writer thread.
        self._inline = sqlite

    def close(self) -> None:
        """Give back the connection kept for commits on the event loop, drop the bots' queue
        (bots with moves due go on when their game is next loaded), and serve no app any
        more (see :meth:`attach`). At the app's shutdown; the service can serve again."""
        self._writer.close()
        self._bots.close()
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

    @property
    def live_games(self) -> int:
        """How many games are in memory now."""
        return len(self._cache)

    # -- creating ---------------------------------------------------------------------------
    def create(self, kind: str, seats: list[dict[str, Any]], config: dict[str, Any] | None = None,
               seed: int | None = None, daily: str | None = None) -> dict[str, Any]:
        """A new game. Returns its id, the public commitment and each person's seat token."""
        if kind not in KINDS:
            raise ServiceError(422, "bad_request", f"unknown game {kind!r}; games: {', '.join(KINDS)}")
        game_kind = KINDS[kind]
        if not isinstance(seats, list) or not seats:
            raise ServiceError(422, "bad_request", "a game needs at least one seat")
        if all(seat.get("bot") for seat in seats if isinstance(seat, dict)):
            raise ServiceError(422, "bad_request", "a game online needs at least one person; "
                               "all-bot games are for mummy sim")
        names, bots = [], []
        for i, seat in enumerate(seats):
            name = str(seat.get("name") or f"player {i + 1}")[:MAX_NAME]
            bot = seat.get("bot")
            if bot is not None and bot not in bot_names(kind):
                raise ServiceError(422, "bad_request", f"unknown bot {bot!r}; bots: {', '.join(bot_names(kind))}")
            names.append(name)
            bots.append(bot)
        try:
            cfg = game_kind.validate(config or {}, len(seats))
        except ValueError as exc:
            raise ServiceError(422, "bad_request", str(exc)) from None
        if seed is not None and daily is None:
            cfg["seed_chosen"] = True  # whoever chose it knows every roll: the view says so
        seed = new_seed() if seed is None else seed
        nonce = secrets.token_hex(16)
        game_id = secrets.token_urlsafe(12)
        tokens: dict[int, str] = {i: secrets.token_urlsafe(24) for i, b in enumerate(bots) if b is None}
        public = commitment(kind, seed, nonce)
        row = GameRow(id=game_id, kind=kind, config=json.dumps(cfg), seed=seed, nonce=nonce,
                      commitment=public, version=0, over=False, daily=daily, created=_now())
        seat_rows = [SeatRow(game_id=game_id, seat=i, name=names[i], bot=bots[i],
                             token_hash=_hash_token(tokens[i]) if i in tokens else None)
                     for i in range(len(seats))]
        with self._writes, Session(self.engine) as s, s.begin():
            s.add(row)
            s.flush()  # the game before its seats (foreign keys)
            s.add_all(seat_rows)
        with contextlib.suppress(ServiceError):  # the game and its tokens stand either way
            self._load(game_id)  # loading lets the bots make their first moves
        return {"id": game_id, "commitment": public,
                "seats": [{"seat": i, "name": names[i], "bot": bots[i], "token": tokens.get(i)}
                          for i in range(len(seats))]}

    # -- loading ----------------------------------------------------------------------------
    def _load(self, game_id: str) -> _Live:
        """The game in memory, read from the log if it is not there (then the moves of its
        bots cut short are made). Not locked: the caller locks it, then checks that it is
        still the current copy (it may be dropped or let go meanwhile)."""
        while True:
            live = self._cache.get(game_id)
            if live is not None:
                return live
            ticket = self._cache.begin(game_id)
            read: _Live | None = None
            try:
                read = self._read(game_id)
            finally:
                live = self._cache.keep(game_id, ticket, read)
            if live is None:
                continue  # the game was dropped while its log was read: the copy may be old
            if live is read:
                with live.lock:
                    if self._live.get(game_id) is live:
                        self._run_bots(live)  # a bot's turn cut short (a crash, a failed write) goes on
            return live

    def _read(self, game_id: str) -> _Live:
        """The game rebuilt from the database: its row, seats and log."""
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                raise ServiceError(404, "not_found", f"no game {game_id!r}")
            seats = list(s.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)))
            log = list(s.scalars(select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)))
            s.expunge_all()
        kind = KINDS[row.kind]
        config = json.loads(row.config)
        game = kind.new(row.seed, config, [x.name for x in seats])
        live = _Live(row, kind, game, config, seats)
        for entry in log:  # the log was checked when written: replay it as it is
            kind.apply(game, entry.seat, entry.text)
            live.affects.append(entry.affects)
            live.answers[entry.client_id] = (entry.seat, entry.result)
        live.agents = {x.seat: make_agent(row.kind, x.bot, row.seed * 1000 + x.seat) for x in seats if x.bot}
        return live

    def _forget(self, game_id: str) -> None:
        self._cache.drop(game_id)

    def _seat(self, live: _Live, token: str | None) -> int:
        if not token:
            raise ServiceError(401, "unauthorized", "this needs your seat's token")
        digest = _hash_token(token)
        for seat in live.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        raise ServiceError(403, "forbidden", "that token holds no seat in this game")

    # -- acting -----------------------------------------------------------------------------
    def act(self, game_id: str, token: str | None, client_id: str, version: int, text: str) -> dict[str, Any]:
        """Apply a person's action; see the module docstring for ids and versions."""
        self._check_request(client_id, text)
        while True:
            live = self._load(game_id)
            with live.lock:
                if self._live.get(game_id) is live:  # not dropped (a failed write) or let go meanwhile
                    return self._act(live, token, client_id, version, text)

    def _act(self, live: _Live, token: str | None, client_id: str, version: int, text: str) -> dict[str, Any]:
        seat, earlier = self._admit(live, token, client_id, version)
        if earlier is not None:
            return earlier
        result = self._apply(live, seat, text, client_id)
        if not self.bots_later:
            # The person's action stands even if a bot's move cannot be written now: the
            # bots go on when the game is next loaded.
            with contextlib.suppress(ServiceError):
                self._run_bots(live)
        return result

    async def act_now(self, game_id: str, token: str | None, client_id: str, version: int,
                      text: str) -> dict[str, Any] | None:
        """:meth:`act` on the event loop, for a game in memory that no thread is using;
        ``None`` otherwise (call :meth:`act` in a worker thread then). Bots do not move
        here: :meth:`bots_due` says when :meth:`run_bots` has work.

        The game's lock is held from the engine's check until the commit, as in
        :meth:`act`, and taken without waiting: a coroutine must not block the loop, and
        the lock is not re-entrant, so a second coroutine on the same game cannot slip in
        (it is sent to a worker thread, which waits its turn).
        """
        self._check_request(client_id, text)
        live = self._take_now(game_id)
        if live is None:
            return None
        release = True
        try:
            seat, earlier = self._admit(live, token, client_id, version)
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
                raise self._unwritten(live, exc) from exc
            return self._settle(live, staged)
        finally:
            if release:
                live.lock.release()

    async def _committed(self, done: Future[None]) -> None:
        """Wait for a write made by act_now. On SQLite the commit is made on this loop and
        settles ``done`` here, so the waiting task is woken directly: waking it through
        another thread's route (``asyncio.wrap_future``) would cost another turn of the
        loop, and under load a turn is several other players' moves."""
        if not self._inline:
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

    def _settle_later(self, live: _Live, staged: _Staged, done: Future[None]) -> None:
        try:
            if done.exception() is None:
                self._settle(live, staged)
            else:
                self._forget(live.row.id)
        finally:
            live.lock.release()

    def bots_due(self, game_id: str) -> bool:
        """Whether a bot of this game has a move to make (a hint read without the lock)."""
        live = self._live.get(game_id)
        if live is None or not live.agents or live.kind.is_over(live.game):
            return False
        return any(seat in live.agents for seat in live.kind.to_act(live.game))

    def run_bots(self, game_id: str) -> int:
        """Let the game's bots make their moves in this thread; how many they made (a move
        that cannot be written now is made when the game is next loaded)."""
        with self._current(game_id) as live:
            try:
                return len(self._run_bots(live))
            except ServiceError:
                return 0

    def play_bots(self, game_id: str) -> Future[int]:
        """:meth:`run_bots` in the bots' own threads, one move at a time in turn with other
        games' bots (bots.py): the future settles with the moves made once none is due."""
        return self._bots.play(game_id)

    def _bot_step(self, game_id: str) -> tuple[int, bool]:
        """The game's turn in the bots' threads: bot moves for up to ``BOT_SLICE`` seconds
        (one at least), so that a quick bot's few moves take one turn, not one turn each
        behind every other game. (moves made, whether more are due). A game that had to
        be loaded counts as moved: its bots went on in the load."""
        loaded = game_id in self._live
        moved = 0
        try:
            with self._current(game_id) as live:
                until = time.monotonic() + BOT_SLICE
                while (seat := self._bot_seat(live)) is not None:
                    if moved and time.monotonic() >= until:
                        return moved, True
                    self._bot_move(live, seat)
                    moved += 1
                return (moved if moved or loaded else 1), False
        except ServiceError:  # no such game, or a move not written: the bots go on at the next load
            return moved, False

    @staticmethod
    def _check_request(client_id: object, text: object) -> None:
        if not isinstance(client_id, str) or not 1 <= len(client_id) <= 64:
            raise ServiceError(422, "bad_request", "client_id is a string of 1 to 64 characters")
        if client_id.startswith(BOT_ID):
            raise ServiceError(422, "bad_request", f"client ids starting with {BOT_ID!r} are the bots'")
        if not isinstance(text, str) or not 1 <= len(text) <= 64:
            raise ServiceError(422, "bad_request", "action is a string of 1 to 64 characters")

    def _admit(self, live: _Live, token: str | None, client_id: str,
               version: int) -> tuple[int, dict[str, Any] | None]:
        """The acting seat, and the stored answer if this client id was seen before."""
        seat = self._seat(live, token)
        earlier = live.answers.get(client_id)  # the log's client ids, kept with the game
        if earlier is not None:
            if earlier[0] != seat:
                raise ServiceError(409, "conflict", "that client id was used by another seat")
            return seat, dict(json.loads(earlier[1]), repeated=True)
        if live.kind.is_over(live.game):
            raise ServiceError(409, "over", "the game is over", version=live.version)
        if live.row.daily is not None and live.row.daily < today():
            raise ServiceError(409, "over", f"the daily challenge of {live.row.daily} has ended",
                               version=live.version)
        if not isinstance(version, int) or isinstance(version, bool) or version < 0 \
                or version > live.version or any(a in (EVERYONE, seat) for a in live.affects[version:]):
            raise ServiceError(409, "stale", f"the game has moved on to version {live.version}; "
                               "here is the current state", version=live.version)
        return seat, None

    def _apply(self, live: _Live, seat: int, text: str, client_id: str) -> dict[str, Any]:
        """Check, apply, commit and settle one action (the caller holds the game's lock)."""
        staged = self._stage(live, seat, text, client_id)
        try:
            staged.done.result()
        except Exception as exc:
            raise self._unwritten(live, exc) from exc
        return self._settle(live, staged)

    def _stage(self, live: _Live, seat: int, text: str, client_id: str, on_loop: bool = False) -> _Staged:
        """The engine checks and applies the action in memory; its rows go to the writer
        (``on_loop``: the caller is the event loop, which must not wait for a commit)."""
        if text == "undo":
            self._check_undo(live, seat)
        try:
            canonical, affects = live.kind.apply(live.game, seat, text)
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
               "client_id": client_id, "result": answer, "created": _now()}
        stamp: dict[str, Any] = {"b_id": game_id, "b_version": seq, "b_over": over}
        if over:
            final = live.kind.result(live.game)
            stamp["b_result"] = json.dumps(final)
            stamp.update(self._standing(live, final), b_finished=row["created"])
        write = _Write(row, stamp)
        if not self._inline:
            self._writer.submit(write)
        elif on_loop:
            self._writer.write_soon(write)
        else:
            self._writer.write_now(write)
        return _Staged(client_id, affects, result, answer, write.done)

    @staticmethod
    def _check_undo(live: _Live, seat: int) -> None:
        """Refuse an undo past the limits (``MAX_UNDOS`` a round, ``MAX_LOG`` a game).

        Undo is the one action that does not move a game on, so place-and-undo in a loop
        grew a log without end, and with it the cost of every resync and replay. Counted
        from what every game in memory keeps (rebuilt by a load, so a restart resets
        nothing): the entries since the last one that affected everybody (in the Tomb,
        the end of the last round; Treasure takes no undo online), one answer per entry.
        """
        if live.version >= MAX_LOG:
            raise ServiceError(429, "too_many_undos", f"this game's log has reached {MAX_LOG} entries: "
                               "it takes no more undos (every other action still counts)", version=live.version)
        since = 0  # entries of the log since the round began
        for affects in reversed(live.affects):
            if affects == EVERYONE:
                break
            since += 1
        undos = sum(1 for who, answer in itertools.islice(reversed(live.answers.values()), since)
                    if who == seat and _UNDONE in answer)
        if undos >= MAX_UNDOS:
            raise ServiceError(429, "too_many_undos", f"at most {MAX_UNDOS} undos per seat in a round; "
                               "play on", version=live.version)

    @staticmethod
    def _standing(live: _Live, final: dict[str, Any]) -> dict[str, Any]:
        """A finished game's leaderboard columns, as parameters of the game-ending stamp.

        A board ranks a person's solo game on a secret seed (a chosen seed's dice are
        known; a bot's score is no record for people): the Tomb by its score on a map,
        Treasure by the fewest turns to fill a site (R4.3). ``ranking`` is the order of
        both, lower first, so one index per shape of query serves both games."""
        config = live.config
        solo = len(live.seats) == 1
        ranked = solo and live.seats[0].bot is None and not config.get("seed_chosen")
        if not solo:
            return {"b_ranked": False, "b_place": None, "b_score": None, "b_turns": None, "b_ranking": None}
        place, score, turns, ranking = live.kind.standing(config, final)
        return {"b_ranked": ranked and live.kind.rankable(final), "b_place": place, "b_score": score,
                "b_turns": turns, "b_ranking": ranking}

    def _unwritten(self, live: _Live, exc: Exception) -> ServiceError:
        """The write failed: the game in memory ran ahead of the log, so it is dropped and
        rebuilt from the log, the truth. What to raise."""
        self._forget(live.row.id)
        if isinstance(exc, IntegrityError):
            return ServiceError(409, "conflict", "the action could not be recorded (its client id or "
                                "place in the log was taken meanwhile); fetch the state and retry")
        return ServiceError(503, "unavailable", "the database did not take the action; retry")

    @staticmethod
    def _settle(live: _Live, staged: _Staged) -> dict[str, Any]:
        """The action is in the log: the game in memory counts it."""
        live.affects.append(staged.affects)
        live.answers[staged.client_id] = (staged.result["seat"], staged.answer)
        live.row.version, live.row.over = staged.result["version"], staged.result["over"]
        return staged.result

    def _run_bots(self, live: _Live) -> list[dict[str, Any]]:
        """Let bots play while it is a bot's turn (or a bot has dice to use)."""
        played = []
        while (seat := self._bot_seat(live)) is not None:
            played.append(self._bot_move(live, seat))
        return played

    @staticmethod
    def _bot_seat(live: _Live) -> int | None:
        """The first seat whose bot has a move to make, if any."""
        if live.kind.is_over(live.game):
            return None
        return next((s for s in live.kind.to_act(live.game) if s in live.agents), None)

    def _bot_move(self, live: _Live, seat: int) -> dict[str, Any]:
        """The bot thinks and its move is applied and written (the caller holds the lock)."""
        text = live.kind.text(live.game, seat, live.agents[seat].act(live.game, seat))
        return self._apply(live, seat, text, f"{BOT_ID}{live.version + 1}")

    # -- reading ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def _current(self, game_id: str) -> Iterator[_Live]:
        """The game in memory, locked, and still the current copy (a failed write drops it,
        the cache lets it go when idle)."""
        while True:
            live = self._load(game_id)
            with live.lock:
                if self._live.get(game_id) is live:
                    yield live
                    return

    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        """The game as a seat (or a spectator, without a token) sees it."""
        with self._current(game_id) as live:
            return self._view(live, token)

    def views(self, game_id: str, tokens: list[str | None]) -> list[dict[str, Any]]:
        """Each connection's view at one and the same version (one call for a broadcast)."""
        with self._current(game_id) as live:  # held across the views: no move slips in between
            return [self._view(live, token) for token in tokens]

    def views_now(self, game_id: str, tokens: list[str | None]) -> list[dict[str, Any]] | None:
        """:meth:`views` without waiting, for the event loop: ``None`` when the game is not
        in memory or busy (a move being written, a bot thinking); call :meth:`views` in a
        worker thread then."""
        live = self._take_now(game_id)
        if live is None:
            return None
        try:
            return [self._view(live, token) for token in tokens]
        finally:
            live.lock.release()

    def _take_now(self, game_id: str) -> _Live | None:
        """:meth:`_current` without waiting: the game locked (the caller releases it), or
        None when it is not in memory or busy. For the event loop, which must not block."""
        live = self._cache.get(game_id)
        if live is None or not live.lock.acquire(blocking=False):
            return None
        if self._live.get(game_id) is not live:  # dropped (a failed write) or let go meanwhile
            live.lock.release()
            return None
        return live

    def _view(self, live: _Live, token: str | None) -> dict[str, Any]:
        seat = self._seat(live, token) if token else None
        if seat is None and live.row.daily is not None and live.row.daily >= today():
            # Everybody plays on the same dice that day: a leader's sheet would show them.
            # Like its log (_check_log), a daily challenge is its player's until the day ends.
            raise ServiceError(403, "forbidden", f"a daily challenge is seen only by its player until "
                               f"the day ({live.row.daily}, UTC) is over")
        over = live.kind.is_over(live.game)
        out: dict[str, Any] = {
            "id": live.row.id,
            "game": live.row.kind,
            "version": live.version,
            "commitment": live.row.commitment,
            "config": live.config,
            "seats": [{"seat": x.seat, "name": x.name, "bot": x.bot} for x in live.seats],
            "to_act": live.kind.to_act(live.game),
            "over": over,
            "you": seat,
            "state": live.state(),
        }
        if seat is not None and not over:
            out["legal"] = live.legal(seat)
            out["actions"] = live.actions(seat)
            out["can_undo"] = live.kind.can_undo(live.game, seat)
        if over:
            out["result"] = live.kind.result(live.game)
            if self._revealable(live.row):
                out["reveal"] = {"seed": live.row.seed, "nonce": live.row.nonce}
        if live.row.daily:
            out["daily"] = live.row.daily
        return out

    @staticmethod
    def _revealable(row: GameRow) -> bool:
        """A seed is revealed when its game is over, and for the daily challenge only once
        the day is over too: others are still playing on the same dice."""
        return bool(row.over) and (row.daily is None or row.daily < today())

    def record(self, game_id: str) -> dict[str, Any]:
        """The finished game's record with its seed revealed (for ``mummy verify``)."""
        with self._current(game_id) as live:
            if not live.kind.is_over(live.game):
                raise ServiceError(409, "not_over", "the seed stays secret until the game is over")
            if not self._revealable(live.row):
                raise ServiceError(409, "not_over", "a daily challenge's seed stays secret until the day is over")
            record = live.kind.record(live.game)
            record["commitment"] = live.row.commitment
            record["nonce"] = live.row.nonce
            return record

    def games_of(self, tokens: list[str]) -> list[dict[str, Any]]:
        """The games in which these tokens hold seats ("my games"), newest first."""
        hashes = [_hash_token(t) for t in tokens[:100]]
        if not hashes:
            return []
        with Session(self.engine) as s:
            rows = s.execute(select(SeatRow, GameRow).join(GameRow, GameRow.id == SeatRow.game_id)
                             .where(SeatRow.token_hash.in_(hashes)).order_by(GameRow.created.desc())).all()
            return [{"id": g.id, "game": g.kind, "seat": seat.seat, "name": seat.name, "version": g.version,
                     "over": g.over} for seat, g in rows]

    # -- daily challenge, leaderboards, replays ---------------------------------------------
    def _secret(self, name: str) -> str:
        with self._writes, Session(self.engine) as s, s.begin():
            row = s.get(SecretRow, name)
            if row is None:
                row = SecretRow(name=name, value=secrets.token_hex(32))
                s.add(row)
            return row.value

    def daily_seed(self, kind: str, day: str) -> int:
        """The day's seed for a game: a keyed hash of the day, secret until the day is over."""
        key = self._secret("daily").encode()
        digest = hmac.new(key, f"{kind}:{day}".encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def create_daily(self, kind: str, name: str | None = None) -> dict[str, Any]:
        """A solo game on today's challenge seed (the same dice for everybody)."""
        if kind not in KINDS:
            raise ServiceError(422, "bad_request", f"unknown game {kind!r}")
        day = today()
        return self.create(kind, [{"name": name}], KINDS[kind].daily, seed=self.daily_seed(kind, day), daily=day)

    def leaderboard(self, kind: str, where: str | None = None, daily: str | None = None,
                    limit: int = 20) -> list[dict[str, Any]]:
        """Finished solo games, best first: the Tomb by score on a map, Treasure by the
        fewest turns to fill a site. ``daily`` restricts to one day's challenge.

        One query on an index with a limit (the columns stamped when a game ends, see
        :meth:`_standing`), so a board costs the same at any number of games: loading
        every finished game took seconds at 100k games, and failed at 260k. Ties go to
        whoever finished first."""
        if kind not in KINDS:
            raise ServiceError(422, "bad_request", f"unknown game {kind!r}")
        query = select(GameRow.id, GameRow.daily, GameRow.place, GameRow.score, GameRow.turns,
                       GameRow.finished).where(GameRow.kind == kind, GameRow.ranked == true())
        if daily is not None:
            query = query.where(GameRow.daily == daily)
        if where is not None:
            query = query.where(GameRow.place == where)
        query = query.order_by(GameRow.ranking, GameRow.finished).limit(max(1, min(limit, 100)))
        with Session(self.engine) as s:
            games = s.execute(query).all()
            names = dict(s.execute(select(SeatRow.game_id, SeatRow.name).where(
                SeatRow.game_id.in_([g.id for g in games]), SeatRow.seat == 0)).all()) if games else {}
        rows = []
        for g in games:
            entry: dict[str, Any] = {"id": g.id, "name": names.get(g.id), "daily": g.daily,
                                     "finished": g.finished.isoformat() if g.finished else None}
            entry.update(KINDS[kind].board_entry(g.place, g.score, g.turns))
            rows.append(entry)
        return rows

    def replay(self, game_id: str, step: int) -> dict[str, Any]:
        """A finished game as it stood after its first ``step`` log entries.

        Rebuilding the game from its log for every step cost a second of CPU on a 30,000
        entry log. The log of a finished game never changes: the game is kept at every
        ``REPLAY_EVERY`` entries passed (for the ``REPLAY_GAMES`` games replayed last), so
        a step costs at most that many applies, and the next step forward one."""
        with self._current(game_id) as live:
            if not self._revealable(live.row):
                raise ServiceError(409, "not_over", "replays open when the game (and its day) is over")
            kind, steps, seed, config = live.kind, live.version, live.row.seed, live.config
            names = [x.name for x in live.seats]
        if not 0 <= step <= steps:
            raise ServiceError(422, "bad_request", f"step is 0 to {steps}")
        tape = self._replays.tape(game_id, lambda: kind.new(seed, config, names))
        with tape.lock:
            game, at = tape.start(step)
            rows = self._entries(game_id, min(at, step - 1), step) if step else []
            for entry in rows:
                if entry.seq > at:
                    kind.apply(game, entry.seat, entry.text)
                    tape.passed(entry.seq, game)
            state = kind.view(game)
            tape.keep(step, game)
        return {"id": game_id, "step": step, "steps": steps,
                "action": {"seat": rows[-1].seat, "action": rows[-1].text} if step else None,
                "state": state}

    @functools.cached_property
    def _replays(self) -> _Replays:
        return _Replays()

    def _entries(self, game_id: str, after: int, upto: int) -> list[Any]:
        """The log entries ``after`` < seq <= ``upto`` (a range of the log's primary key)."""
        with Session(self.engine) as s:
            return list(s.execute(select(ActionRow.seq, ActionRow.seat, ActionRow.text).where(
                ActionRow.game_id == game_id, ActionRow.seq > after, ActionRow.seq <= upto)
                .order_by(ActionRow.seq)).all())

    def _check_log(self, live: _Live, token: str | None) -> None:
        """The gate of a game's log entries: anyone's (spectators saw every move as it was
        made), except a daily challenge's until its day is over, which are its seats'
        alone: everybody plays on the same dice that day, and a leader's moves would
        show them. (Records and replays wait for the end of the day even for a seat,
        see :meth:`_revealable`.)"""
        if live.row.daily is None or live.row.daily < today():
            return
        if not token:
            raise ServiceError(409, "not_over", f"the moves of a daily challenge are its player's until "
                               f"the day ({live.row.daily}) is over")
        self._seat(live, token)  # 403 unless the token holds a seat here

    def log_since(self, game_id: str, version: int, token: str | None = None,
                  limit: int = LOG_PAGE) -> dict[str, Any]:
        """What a client that comes back has missed: the log entries after ``version``, at
        most ``limit`` (``LOG_PAGE`` at most) of them, as ``{"missed": [...], "more":
        bool}``; with ``more``, ask again from the last version received. Paged, since a
        resync from version 0 on a long log answered megabytes to a 27-byte message.
        Refused (``not_over``, ``forbidden``) where :meth:`_check_log` says so."""
        with self._current(game_id) as live:
            self._check_log(live, token)
        limit = max(1, min(limit, LOG_PAGE))
        with Session(self.engine) as s:
            rows = s.execute(select(ActionRow.seq, ActionRow.seat, ActionRow.text)
                             .where(ActionRow.game_id == game_id, ActionRow.seq > version)
                             .order_by(ActionRow.seq).limit(limit + 1)).all()
        return {"missed": [{"version": r.seq, "seat": r.seat, "action": r.text} for r in rows[:limit]],
                "more": len(rows) > limit}


def _clone(game: Any) -> Any:
    """A copy of an engine game to play on, for replays: ``copy.deepcopy``, except that the
    content every game shares (maps, sites, tiles, piles' orders) is kept as it is, and so
    are the history's entries (tuples of a seat and an action, never changed). That makes
    a copy cost about two applies (60 µs for a finished solo Tomb game, against 0.9 ms for
    a plain deepcopy, which rebuilds every action of the history)."""
    memo: dict[int, Any] = {}
    for name in _SHARED:
        value = getattr(game, name, None)
        if value is not None:
            memo[id(value)] = value
            for item in value.values() if isinstance(value, dict) else value:
                memo[id(item)] = item
    history = getattr(game, "history", None)
    if isinstance(history, list):
        memo[id(history)] = list(history)
    return copy.deepcopy(game, memo)


_SHARED: Final = ("maps", "players", "boards", "seats", "tiles", "order", "pile_names")


class _Tape:
    """One finished game's replay: the game at every ``REPLAY_EVERY`` entries passed (never
    changed: each use starts from a copy), and the game where the last request left it, so
    that stepping forward costs one apply. The caller holds ``lock``."""

    def __init__(self, first: Any) -> None:
        self.lock = threading.Lock()
        self.snapshots: dict[int, Any] = {0: first}
        self.cursor: Any = None
        self.cursor_at = -1

    def start(self, step: int) -> tuple[Any, int]:
        """A game of the caller's own, at an entry at most ``step`` and at most
        ``REPLAY_EVERY`` before it (once the log up to ``step`` has been passed)."""
        base = step - step % REPLAY_EVERY
        while base not in self.snapshots:
            base -= REPLAY_EVERY
        if self.cursor is not None and base <= self.cursor_at <= step:
            game, at = self.cursor, self.cursor_at
            self.cursor = None  # the caller's now: changed in place
            return game, at
        return _clone(self.snapshots[base]), base

    def passed(self, at: int, game: Any) -> None:
        """The game has been taken to entry ``at``: keep a snapshot where one is due."""
        if at % REPLAY_EVERY == 0 and at not in self.snapshots:
            self.snapshots[at] = _clone(game)

    def keep(self, at: int, game: Any) -> None:
        self.cursor, self.cursor_at = game, at


class _Replays:
    """The tapes of the last ``REPLAY_GAMES`` games replayed (least recently used first out)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tapes: OrderedDict[str, _Tape] = OrderedDict()

    def tape(self, game_id: str, first: Callable[[], Any]) -> _Tape:
        """The game's tape; a new one starts from ``first()``, the game before any entry."""
        with self._lock:
            tape = self._tapes.get(game_id)
            if tape is None:
                tape = self._tapes[game_id] = _Tape(first())
                while len(self._tapes) > REPLAY_GAMES:
                    self._tapes.popitem(last=False)
            else:
                self._tapes.move_to_end(game_id)
            return tape
