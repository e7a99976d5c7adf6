"""The service's storage: every statement it runs, rows in and rows out (SQLAlchemy 2 over
the tables of ``models``; ``db`` makes the engines and runs the migrations).

Nothing here knows the rules of play: the service decides what to write and when, the
writer (``writer``) decides in which thread and transaction, and this module only says how.
The hot path (an action's row and its game's stamp) runs statements compiled once,
straight on the driver's cursor (:class:`_Compiled`); everything else goes through the
ORM, whose cost does not matter off that path.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from datetime import datetime
from typing import Any, Final, cast

from sqlalchemy import (
    Boolean,
    ClauseElement,
    Connection,
    CursorResult,
    DateTime,
    Dialect,
    Engine,
    Integer,
    Row,
    String,
    and_,
    bindparam,
    func,
    insert,
    literal_column,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler

from mummy.server.store.models import ActionRow, DailyEntryRow, GameRow, MapRow, SeatRow, SecretRow
from mummy.server.store.writes import Write, WriteLock

_INSERT_ACTION: Final = insert(ActionRow)
_STAMP: Final = (update(GameRow).where(GameRow.id == bindparam("b_id"))
                 .values(version=bindparam("b_version"), over=bindparam("b_over")))
# The game-ending move also stamps the leaderboard's columns (see LiveGame.standing).
_STAMP_OVER: Final = _STAMP.values(result=bindparam("b_result"), ranked=bindparam("b_ranked"),
                                   place=bindparam("b_place"), score=bindparam("b_score"),
                                   turns=bindparam("b_turns"), ranking=bindparam("b_ranking"),
                                   finished=bindparam("b_finished"))
_ACTION_COLUMNS: Final = [c.name for c in ActionRow.__table__.columns]
#: The entrant of a daily game stored before games had one (migration 0005): the game itself.
LEGACY_ENTRANT: Final = "game:"


def _insert_entry(dialect: Dialect) -> ClauseElement:
    """A daily game's ending also writes its player's entry on the day's board, unless they
    have one: the table's key (day, kind, entrant) keeps the first game finished, in the
    same transaction. ``INSERT ... SELECT`` from the game's row (its day, kind and entrant,
    which the game in memory does not load) ``... ON CONFLICT DO NOTHING``, in each
    dialect's own construct (the same SQL on SQLite and PostgreSQL)."""
    construct = postgresql.insert if dialect.name == "postgresql" else sqlite.insert
    # The parameters are typed: their values are converted as the columns' are, and
    # PostgreSQL's driver is told their types (a bare parameter in a SELECT has none).
    legacy = literal_column(f"'{LEGACY_ENTRANT}'", String) + GameRow.id
    source = select(GameRow.daily, GameRow.kind, func.coalesce(GameRow.entrant, legacy), GameRow.id,
                    bindparam("d_ranked", type_=Boolean), bindparam("d_ranking", type_=Integer),
                    bindparam("d_finished", type_=DateTime)).where(GameRow.id == bindparam("d_game_id"))
    return construct(DailyEntryRow).from_select(
        ["day", "kind", "entrant", "game_id", "ranked", "ranking", "finished"], source).on_conflict_do_nothing()

#: A game as stored: its row, its seats in order, and its log in order.
Stored = tuple[GameRow, list[SeatRow], list[ActionRow]]
#: A log entry as replays and resyncs read it: (seq, seat, text).
Entry = Row[int, int, str]
#: A log entry as a copy in memory follows it: (seq, seat, text, affects, client_id, result).
Followed = Row[int, int, str, int, str, str]
#: A seat held in "my games": (id, kind, seat, name, version, over, daily, result, place).
Held = Row[str, str, int, str, int, bool, str | None, str | None, str | None]
#: A board's game: (id, daily, place, score, turns, finished).
BoardGame = Row[str, str | None, str | None, int | None, int | None, datetime | None]


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


def insert_or_skip(engine: Engine) -> Any:
    """The dialect's ``insert`` of this engine, which has ``on_conflict_do_nothing``: a row
    two processes may write at once is kept once."""
    return postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert


class QuotaSpent(Exception):
    """An owner has stored as many custom maps as its quota allows for now."""

    def __init__(self, spent: int) -> None:
        super().__init__(f"{spent} maps stored")
        self.spent = spent


class Repository:
    """The games' rows on one engine, and the process's write lock for them."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # SQLite takes one writer at a time and makes the others sleep and retry (in steps
        # of up to 100 ms): writers of this process queue here instead, which is fast.
        self.writes: WriteLock = (threading.Lock() if engine.dialect.name == "sqlite"
                                  else contextlib.nullcontext())
        self._statements: tuple[_Compiled, _Compiled, _Compiled, _Compiled] | None = None

    # -- the hot path: an action's row and its game's stamp ---------------------------------
    def write_actions(self, conn: Connection, batch: list[Write]) -> None:
        """Insert the batch's log entries and stamp their games' versions (and results),
        in the caller's transaction: the writer's ``execute``."""
        if self._statements is None:
            dialect = self.engine.dialect
            self._statements = (_Compiled(_INSERT_ACTION, dialect, _ACTION_COLUMNS),
                                _Compiled(_STAMP, dialect), _Compiled(_STAMP_OVER, dialect),
                                _Compiled(_insert_entry(dialect), dialect))
        insert_action, stamp, stamp_over, insert_entry = self._statements
        cursor = conn.connection.cursor()
        try:
            insert_action.run(cursor, [w.row for w in batch])
            stamps = [w.stamp for w in batch if "b_result" not in w.stamp]
            if stamps:
                stamp.run(cursor, stamps)
            finals = [w.stamp for w in batch if "b_result" in w.stamp]
            if finals:
                stamp_over.run(cursor, finals)
                entries = [f for f in finals if "d_game_id" in f]  # daily games (Boards.daily_stamp)
                if entries:
                    insert_entry.run(cursor, entries)
        finally:
            cursor.close()

    def ping(self) -> None:
        """One trivial query: raises unless the database answers (readiness)."""
        with self.engine.connect() as conn:
            conn.execute(select(1)).scalar()

    # -- games ------------------------------------------------------------------------------
    def add_game(self, row: GameRow, seats: list[SeatRow]) -> None:
        """Store a new game and its seats, in one transaction."""
        with self.writes, Session(self.engine) as s, s.begin():
            s.add(row)
            s.flush()  # the game before its seats (foreign keys)
            s.add_all(seats)

    def read_game(self, game_id: str) -> Stored | None:
        """The game's row, seats and whole log (detached from the session), or None."""
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = list(s.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)))
            log = list(s.scalars(select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)))
            s.expunge_all()
        return row, seats, log

    def games_of(self, token_hashes: list[str], since: datetime, today: str) -> list[Held]:
        """The games in which these token hashes hold seats, newest first, each with its
        result (JSON, once over) and its board's place (a solo game's map or site); of the
        games with no move, only those created ``since`` and not a past day's challenge."""
        fresh = and_(GameRow.created >= since, or_(GameRow.daily.is_(None), GameRow.daily >= today))
        with Session(self.engine) as s:
            return list(s.execute(
                select(GameRow.id, GameRow.kind, SeatRow.seat, SeatRow.name, GameRow.version, GameRow.over,
                       GameRow.daily, GameRow.result, GameRow.place)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(SeatRow.token_hash.in_(token_hashes), or_(GameRow.version > 0, fresh))
                .order_by(GameRow.created.desc())).all())

    def add_rematch(self, old_id: str, row: GameRow, seats: list[SeatRow]) -> str | None:
        """Store ``row`` and its seats as the rematch of game ``old_id``, unless that game
        has one already: then nothing is stored and its id is answered (None: no such game).

        One transaction, and the old game's column is claimed first (``UPDATE ... WHERE
        rematch IS NULL``): a concurrent request (another worker, another process) waits on
        that row until this one commits, then finds the column taken and reads it."""
        with self.writes, Session(self.engine) as s, s.begin():
            claim = update(GameRow).where(GameRow.id == old_id, GameRow.rematch.is_(None)).values(rematch=row.id)
            claimed = cast(CursorResult[Any], s.execute(claim, execution_options={"synchronize_session": False}))
            if claimed.rowcount == 0:
                return s.scalar(select(GameRow.rematch).where(GameRow.id == old_id))
            s.add(row)
            s.flush()  # the game before its seats (foreign keys)
            s.add_all(seats)
            return row.id

    def changed_since_created(self, game_id: str) -> tuple[str | None, str | None, str | None] | None:
        """What any process may change in a game's row after it was created: its rematch
        (claimed), its stored result (where coaching keeps par and the hints' mark) and
        its set-up (the count of hints given); None for no such game."""
        with self.engine.connect() as conn:
            row = conn.execute(select(GameRow.rematch, GameRow.result, GameRow.config)
                               .where(GameRow.id == game_id)).one_or_none()
        return None if row is None else (row.rematch, row.result, row.config)

    def daily_seat(self, kind: str, day: str, token_hashes: list[str]) -> tuple[GameRow, SeatRow] | None:
        """The day's daily game of this kind in which one of these token hashes holds a seat
        (the first created), and that seat; or None."""
        with Session(self.engine) as s:
            found = s.execute(select(GameRow, SeatRow).join(SeatRow, SeatRow.game_id == GameRow.id)
                              .where(SeatRow.token_hash.in_(token_hashes), GameRow.daily == day,
                                     GameRow.kind == kind).order_by(GameRow.created).limit(1)).first()
            s.expunge_all()
        return None if found is None else (found[0], found[1])

    # -- the log ----------------------------------------------------------------------------
    def entries(self, game_id: str, after: int, upto: int) -> list[Entry]:
        """The log entries ``after`` < seq <= ``upto`` (a range of the log's primary key)."""
        with Session(self.engine) as s:
            return list(s.execute(select(ActionRow.seq, ActionRow.seat, ActionRow.text).where(
                ActionRow.game_id == game_id, ActionRow.seq > after, ActionRow.seq <= upto)
                .order_by(ActionRow.seq)).all())

    def entries_since(self, game_id: str, version: int) -> list[Followed]:
        """Every log entry after ``version``, in order, with what a copy in memory keeps of
        each (``LiveGame.follow``): what other processes committed since the copy's version.
        A range of the log's primary key, empty as a rule."""
        with self.engine.connect() as conn:
            return list(conn.execute(
                select(ActionRow.seq, ActionRow.seat, ActionRow.text, ActionRow.affects, ActionRow.client_id,
                       ActionRow.result).where(ActionRow.game_id == game_id, ActionRow.seq > version)
                .order_by(ActionRow.seq)).all())

    def entries_after(self, game_id: str, version: int, limit: int) -> list[Entry]:
        """At most ``limit`` log entries after ``version``, in order."""
        with Session(self.engine) as s:
            return list(s.execute(select(ActionRow.seq, ActionRow.seat, ActionRow.text)
                                  .where(ActionRow.game_id == game_id, ActionRow.seq > version)
                                  .order_by(ActionRow.seq).limit(limit)).all())

    # -- boards and secrets -----------------------------------------------------------------
    def board(self, kind: str, where: str | None, daily: str | None,
              limit: int) -> tuple[list[BoardGame], dict[str, str]]:
        """A board's finished games, best first (one query on an index, with a limit), and
        the names of their players (seat 0). A day's board reads the day's entries (one a
        player, ``DailyEntryRow``) in order, and each shown entry's game by its key."""
        columns = (GameRow.id, GameRow.daily, GameRow.place, GameRow.score, GameRow.turns, GameRow.finished)
        if daily is not None:
            entry = DailyEntryRow
            query = (select(*columns).select_from(entry).join(GameRow, GameRow.id == entry.game_id)
                     .where(entry.day == daily, entry.kind == kind, entry.ranked == true())
                     .order_by(entry.ranking, entry.finished))
        else:
            query = select(*columns).where(GameRow.kind == kind, GameRow.ranked == true())
            if where is not None:
                query = query.where(GameRow.place == where)
            query = query.order_by(GameRow.ranking, GameRow.finished)
        query = query.limit(limit)
        with Session(self.engine) as s:
            games = list(s.execute(query).all())
            names = dict(s.execute(select(SeatRow.game_id, SeatRow.name).where(
                SeatRow.game_id.in_([g.id for g in games]), SeatRow.seat == 0)).all()) if games else {}
        return games, names

    # -- custom maps ------------------------------------------------------------------------
    def map_text(self, map_id: str) -> str | None:
        """A stored custom map's canonical text, or None."""
        with Session(self.engine) as s:
            return s.scalars(select(MapRow.text).where(MapRow.id == map_id)).first()

    def add_map(self, map_id: str, text: str, owner: str, now: datetime, since: datetime, quota: int) -> bool:
        """Store a custom map unless it is stored already: whether it was new. ``owner``
        may have stored at most ``quota`` maps since ``since``: :class:`QuotaSpent`
        beyond (a map stored already costs nothing). Two processes storing the same map
        at once keep one row (``INSERT ... ON CONFLICT DO NOTHING``)."""
        with self.writes, Session(self.engine) as s, s.begin():
            if s.scalars(select(MapRow.id).where(MapRow.id == map_id)).first() is not None:
                return False
            spent = s.scalar(select(func.count()).select_from(MapRow).where(
                MapRow.owner == owner, MapRow.created >= since)) or 0
            if spent >= quota:
                raise QuotaSpent(spent)
            s.execute(insert_or_skip(self.engine)(MapRow).values(id=map_id, text=text, owner=owner, created=now)
                      .on_conflict_do_nothing())
            return True

    def secret(self, name: str) -> str:
        """A server secret, made (and stored) on first use. Two processes making it at once
        keep the first one stored (``INSERT ... ON CONFLICT DO NOTHING``, then read back):
        a plain insert failed the second with a taken key on PostgreSQL."""
        with self.writes, Session(self.engine) as s, s.begin():
            row = s.get(SecretRow, name)
            if row is not None:
                return row.value
            made = insert_or_skip(self.engine)(SecretRow).values(name=name, value=secrets.token_hex(32))
            s.execute(made.on_conflict_do_nothing())
            return s.scalars(select(SecretRow.value).where(SecretRow.name == name)).one()

