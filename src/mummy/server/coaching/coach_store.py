"""Coaching's storage: the few statements it runs on the games' tables (``models``), apart
from the repository of play (``repository``), whose hot path it never touches.

Par and the hints' mark are JSON in columns the games already have (``marks``): a
finished game's ``result`` and its set-up, ``config``. So no migration, and "my games"
(which reads the stored result) shows them as it is. Reviews have a table of their own
(migration 0011): computed once per game and seat. A day's board by par reads the day's
entries with their games' results.

Several processes may hold a copy of the game in memory, and each copy's views
show the par and the mark it read. So on PostgreSQL a write here tells the other processes,
in its own transaction, that the game's row changed: the notice migration 0007's trigger
sends for a rematch claimed (``{game} {version} {origin} rematch``), which the relay hands
to ``Copies.hear`` as "read the row again", and the copies' ``catch_up`` reads its rematch,
result and mark. (No migration: a trigger on ``result`` would fire on every game's end,
already announced by its last log entry.)
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from sqlalchemy import Engine, Row, TextClause, select, text, true, update
from sqlalchemy.orm import Session

from mummy.server.store.models import DailyEntryRow, GameRow, ReviewRow, SeatRow
from mummy.server.store.repository import insert_or_skip
from mummy.server.store.writes import WriteLock

#: A day's entry with its game: (id, place, score, turns, finished, result, name).
DayRow = Row[str, str | None, int | None, int | None, datetime | None, str | None, str]

#: The other processes are told that a game's row changed (PostgreSQL; see the module):
#: the payload of migration 0007's notice of a rematch, which they read as "read it again".
ROW_CHANGED: Final[TextClause] = text(
    "SELECT pg_notify('mummy', id || ' ' || version || ' ' || coalesce(current_setting('mummy.origin', true), '') "
    "|| ' rematch') FROM games WHERE id = :game_id")


class CoachStore:
    """Coaching's reads and writes on one engine, under the process's write lock."""

    def __init__(self, engine: Engine, writes: WriteLock) -> None:
        self.engine = engine
        self.writes = writes
        self.shared = engine.dialect.name == "postgresql"  # other processes may hold the games

    def _changed(self, s: Session, game_id: str) -> None:
        """Tell the other processes, when the transaction commits, that the game's row changed."""
        if self.shared:
            s.execute(ROW_CHANGED, {"game_id": game_id})

    def result(self, game_id: str) -> str | None:
        """The game's stored result (JSON text, once over)."""
        with self.engine.connect() as conn:
            return conn.execute(select(GameRow.result).where(GameRow.id == game_id)).scalar()

    def update_result(self, game_id: str, change: Any) -> str | None:
        """Rewrite the stored result as ``change(old text)`` says, in one transaction;
        the new text (None: the game has no stored result yet, nothing written)."""
        with self.writes, Session(self.engine) as s, s.begin():
            old = s.execute(select(GameRow.result).where(GameRow.id == game_id)).scalar()
            if old is None:
                return None
            new: str = change(old)
            s.execute(update(GameRow).where(GameRow.id == game_id).values(result=new),
                      execution_options={"synchronize_session": False})
            self._changed(s, game_id)
            return new

    def set_config(self, game_id: str, config: str) -> None:
        """Store the game's set-up (JSON text): a hint's mark."""
        with self.writes, Session(self.engine) as s, s.begin():
            s.execute(update(GameRow).where(GameRow.id == game_id).values(config=config),
                      execution_options={"synchronize_session": False})
            self._changed(s, game_id)

    def unrank(self, game_id: str) -> None:
        """Take a game off the all-time boards (a hint given: another process may have
        stamped its end with the set-up it had before)."""
        with self.writes, Session(self.engine) as s, s.begin():
            s.execute(update(GameRow).where(GameRow.id == game_id, GameRow.ranked == true()).values(ranked=False),
                      execution_options={"synchronize_session": False})

    def review(self, game_id: str, player: int) -> str | None:
        """A seat's stored review (JSON text), or None."""
        with self.engine.connect() as conn:
            return conn.execute(select(ReviewRow.body).where(ReviewRow.game_id == game_id,
                                                             ReviewRow.player == player)).scalar()

    def store_review(self, game_id: str, player: int, body: str, now: datetime) -> None:
        """Store a seat's review; one already stored (another process's) stays."""
        with self.writes, Session(self.engine) as s, s.begin():
            row = {"game_id": game_id, "player": player, "body": body, "created": now}
            s.execute(insert_or_skip(self.engine)(ReviewRow).values(**row).on_conflict_do_nothing())

    def day(self, kind: str, day: str, limit: int) -> list[DayRow]:
        """A day's board entries (those that rank), best score first, with their games'
        stored results and players' names: at most ``limit`` (the board's index, in order)."""
        entry = DailyEntryRow
        query = (select(GameRow.id, GameRow.place, GameRow.score, GameRow.turns, GameRow.finished, GameRow.result,
                        SeatRow.name)
                 .select_from(entry).join(GameRow, GameRow.id == entry.game_id)
                 .join(SeatRow, (SeatRow.game_id == GameRow.id) & (SeatRow.seat == 0))
                 .where(entry.day == day, entry.kind == kind, entry.ranked == true())
                 .order_by(entry.ranking, entry.finished).limit(limit))
        with Session(self.engine) as s:
            return list(s.execute(query).all())


__all__ = ["ROW_CHANGED", "CoachStore", "DayRow"]
