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
* Bots play their seats right after the action that gives them the turn.
* SQLite commits in the thread that acts. For a move online that is the event loop,
  which commits at its next turn every move made meanwhile (one commit and one disk
  sync for a burst of moves): a local commit costs a fraction of a millisecond, less
  than a trip to another thread and back (a wait for the interpreter lock, then for a
  turn of the loop). Other databases are across a network and must not hold up the
  loop: their writes go to one writer thread that commits every action waiting in one
  transaction (a group commit).

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
import functools
import hashlib
import hmac
import json
import queue
import secrets
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, cast

from sqlalchemy import ClauseElement, Connection, Dialect, Engine, bindparam, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler

from mummy.bots.registry import bot_names, make_agent
from mummy.core.errors import RuleError
from mummy.core.rng import new_seed
from mummy.server.games import EVERYONE, KINDS, GameKind
from mummy.server.models import ActionRow, GameRow, SeatRow, SecretRow

MAX_NAME = 40
BOT_ID: Final = "bot:"  # the prefix of the client ids of bots' actions
#: The daily challenge: one solo set-up per game, on one seed a day for everybody.
DAILY: Final[dict[str, dict[str, Any]]] = {
    "tomb": {"map": "map1", "mode": "standard"},
    "treasure": {"sites": ["oasis"], "first": 0, "movable": False},
}


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
_STAMP_OVER: Final = _STAMP.values(result=bindparam("b_result"))
_ACTION_COLUMNS: Final = [c.name for c in ActionRow.__table__.columns]


def commitment(kind: str, seed: int, nonce: str) -> str:
    """SHA-256 of the game's secret seed (and nonce), published at the start."""
    return hashlib.sha256(f"mummy:{kind}:{seed}:{nonce}".encode()).hexdigest()


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
    """

    IDLE = 0.5  # seconds without a write before the thread ends

    def __init__(self, engine: Engine, writes: threading.Lock | contextlib.nullcontext[None]) -> None:
        self._engine = engine
        self._writes = writes
        self._queue: queue.SimpleQueue[_Write] = queue.SimpleQueue()
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None
        self._soon: list[_Write] = []  # for the event loop's next commit (write_soon)
        self._loop_conn: Connection | None = None  # used on the event loop only
        self._statements: tuple[_Compiled, _Compiled, _Compiled] | None = None

    def submit(self, write: _Write) -> None:
        """Queue an action's rows for the thread; ``write.done`` is settled after the commit."""
        with self._guard:
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
        self._loop_conn = self._commit_on(self._loop_conn, batch)

    def close(self) -> None:
        """Give back the event loop's connection (the thread gives back its own)."""
        if self._loop_conn is not None:
            self._loop_conn.close()
            self._loop_conn = None

    def _run(self) -> None:
        # One connection for the thread's life: taking one from the pool and giving it
        # back (with its reset) per batch is Python work on the hot path, and every call
        # into the driver is another wait for the interpreter lock.
        conn: Connection | None = None
        try:
            while (batch := self._next_batch()) is not None:
                conn = self._commit_on(conn, batch)
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
        """Write the batch, or each of its actions alone if it fails; False on a failure."""
        try:
            self._write(conn, batch)
        except Exception as exc:
            if len(batch) == 1:
                batch[0].done.set_exception(exc)
                return False
            for write in batch:  # which one failed? each alone, so the others stand
                try:
                    self._write(conn, [write])
                except Exception as one:
                    write.done.set_exception(one)
                else:
                    write.done.set_result(None)
            return False
        for write in batch:
            write.done.set_result(None)
        return True

    def _write(self, conn: Connection, batch: list[_Write]) -> None:
        with self._writes, conn.begin():
            self._execute(conn, batch)

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
    # What every connection is sent after a move, made once per version: the public state
    # and each seat's legal actions (a broadcast asks for them once per connection).
    cached_version: int = -1
    cached_state: dict[str, Any] = field(default_factory=dict)
    cached_legal: dict[int, list[str]] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return len(self.affects)

    def _fresh(self) -> None:
        if self.cached_version != self.version:
            self.cached_state = self.kind.view(self.game)
            self.cached_legal = {}
            self.cached_version = self.version

    def state(self) -> dict[str, Any]:
        """The public state at this version (shared: callers must not change it)."""
        self._fresh()
        return self.cached_state

    def legal(self, seat: int) -> list[str]:
        """The seat's legal actions at this version (shared: callers must not change it)."""
        self._fresh()
        if seat not in self.cached_legal:
            self.cached_legal[seat] = self.kind.legal(self.game, seat)
        return self.cached_legal[seat]


class GameService:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._live: dict[str, _Live] = {}
        self._guard = threading.Lock()
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
        """Give back the connection kept for commits on the event loop (at shutdown)."""
        self._writer.close()

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
        with self._guard:
            live = self._live.get(game_id)
            if live is not None:
                return live
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
        with self._guard:
            live = self._live.setdefault(game_id, live)
        with live.lock:
            self._run_bots(live)  # a bot's turn cut short (a crash, a failed write) goes on
        return live

    def _forget(self, game_id: str) -> None:
        with self._guard:
            self._live.pop(game_id, None)

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
                if self._live.get(game_id) is live:  # not dropped by a failed write meanwhile
                    return self._act(live, token, client_id, version, text)

    def _act(self, live: _Live, token: str | None, client_id: str, version: int, text: str) -> dict[str, Any]:
        seat, earlier = self._admit(live, token, client_id, version)
        if earlier is not None:
            return earlier
        result = self._apply(live, seat, text, client_id)
        # The person's action stands even if a bot's move cannot be written now: the bots
        # go on when the game is next loaded.
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
        waiter = asyncio.get_running_loop().create_future()

        def wake(_: Future[None]) -> None:
            if not waiter.done():  # not cancelled meanwhile
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
        """Let the game's bots make their moves; how many they made (a move that cannot
        be written now is made when the game is next loaded)."""
        with self._current(game_id) as live:
            try:
                return len(self._run_bots(live))
            except ServiceError:
                return 0

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
            stamp["b_result"] = json.dumps(live.kind.result(live.game))
        write = _Write(row, stamp)
        if not self._inline:
            self._writer.submit(write)
        elif on_loop:
            self._writer.write_soon(write)
        else:
            self._writer.write_now(write)
        return _Staged(client_id, affects, result, answer, write.done)

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
        while not live.kind.is_over(live.game):
            seats = [s for s in live.kind.to_act(live.game) if s in live.agents]
            if not seats:
                break
            seat = seats[0]
            text = live.kind.text(live.game, seat, live.agents[seat].act(live.game, seat))
            played.append(self._apply(live, seat, text, f"{BOT_ID}{live.version + 1}"))
        return played

    # -- reading ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def _current(self, game_id: str) -> Iterator[_Live]:
        """The game in memory, locked, and still the current copy (a failed write drops it)."""
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
        live = self._live.get(game_id)
        if live is None or not live.lock.acquire(blocking=False):
            return None
        if self._live.get(game_id) is not live:  # dropped by a failed write meanwhile
            live.lock.release()
            return None
        return live

    def _view(self, live: _Live, token: str | None) -> dict[str, Any]:
        seat = self._seat(live, token) if token else None
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
        if kind not in DAILY:
            raise ServiceError(422, "bad_request", f"unknown game {kind!r}")
        day = today()
        return self.create(kind, [{"name": name}], dict(DAILY[kind]), seed=self.daily_seed(kind, day), daily=day)

    def leaderboard(self, kind: str, where: str | None = None, daily: str | None = None,
                    limit: int = 20) -> list[dict[str, Any]]:
        """Finished solo games, best first: the Tomb by score on a map, Treasure by the
        fewest turns to fill a site. ``daily`` restricts to one day's challenge."""
        if kind not in KINDS:
            raise ServiceError(422, "bad_request", f"unknown game {kind!r}")
        with Session(self.engine) as s:
            query = select(GameRow).where(GameRow.kind == kind, GameRow.over.is_(True))
            if daily is not None:
                query = query.where(GameRow.daily == daily)
            games = list(s.scalars(query))
            seat_rows = list(s.scalars(select(SeatRow).where(SeatRow.game_id.in_([g.id for g in games]))))
            names = {(x.game_id, x.seat): x.name for x in seat_rows}
            bot_games = {x.game_id for x in seat_rows if x.seat == 0 and x.bot}
        rows = []
        for g in games:
            if (g.id, 1) in names or g.result is None:
                continue  # solo games only
            result, config = json.loads(g.result), json.loads(g.config)
            if config.get("seed_chosen") or g.id in bot_games:
                continue  # a known seed, or a bot's score: not a record for people
            entry: dict[str, Any] = {"id": g.id, "name": names.get((g.id, 0)), "daily": g.daily,
                                     "finished": g.created.isoformat()}
            if kind == "tomb":
                if where not in (None, config["map"]):
                    continue
                entry.update(map=config["map"], score=result["scores"][0])
            else:
                if result["reason"] != "full" or where not in (None, config["sites"][0]):
                    continue
                entry.update(site=config["sites"][0], turns=result["turns"][0])
            rows.append(entry)
        if kind == "tomb":
            rows.sort(key=lambda r: -r["score"])
        else:
            rows.sort(key=lambda r: r["turns"])
        return rows[:limit]

    def replay(self, game_id: str, step: int) -> dict[str, Any]:
        """A finished game as it stood after its first ``step`` log entries."""
        with self._current(game_id) as live:
            if not self._revealable(live.row):
                raise ServiceError(409, "not_over", "replays open when the game (and its day) is over")
        with Session(self.engine) as s:
            log = list(s.scalars(select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)))
        if not 0 <= step <= len(log):
            raise ServiceError(422, "bad_request", f"step is 0 to {len(log)}")
        game = live.kind.new(live.row.seed, live.config, [x.name for x in live.seats])
        for entry in log[:step]:
            live.kind.apply(game, entry.seat, entry.text)
        return {"id": game_id, "step": step, "steps": len(log),
                "action": {"seat": log[step - 1].seat, "action": log[step - 1].text} if step else None,
                "state": live.kind.view(game)}

    def log_since(self, game_id: str, version: int) -> list[dict[str, Any]]:
        """The log entries after ``version``: what a client that comes back has missed."""
        with Session(self.engine) as s:
            rows = s.scalars(select(ActionRow).where(ActionRow.game_id == game_id, ActionRow.seq > version)
                             .order_by(ActionRow.seq))
            return [{"version": r.seq, "seat": r.seat, "action": r.text} for r in rows]
