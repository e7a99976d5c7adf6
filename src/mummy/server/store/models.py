"""Database tables (storage only; the wire schemas are in ``schemas``, the SQL in ``repository``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """A game: its kind and set-up, its secret seed and the public commitment to it."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # "tomb" or "treasure"
    config: Mapped[str] = mapped_column(Text)  # JSON set-up (players, map, sites...)
    seed: Mapped[int] = mapped_column(BigInteger)  # secret until the game is over
    nonce: Mapped[str] = mapped_column(String(64))  # secret salt of the commitment
    commitment: Mapped[str] = mapped_column(String(64))  # SHA-256 hex, public from the start
    version: Mapped[int] = mapped_column(Integer, default=0)  # entries in the action log
    over: Mapped[bool] = mapped_column(default=False)
    daily: Mapped[str | None] = mapped_column(String(10), nullable=True, index=True)
    # A daily game's player, as a keyed hash of their address and name (migration 0005):
    # the daily board takes one game per player and day (see ``DailyEntryRow``). Deferred
    # like the boards' columns: only the statement that writes the entry reads it.
    entrant: Mapped[str | None] = mapped_column(String(64), nullable=True, deferred=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON, once over
    # The id of this game's rematch, once one is asked for (migration 0006): asking again
    # answers that game, whoever asks (``GameService.rematch``). No foreign key: the
    # column is claimed before the rematch's row is written (``Repository.add_rematch``).
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The leaderboards' columns, filled when a game ends (migration 0004), so that a board
    # is one indexed query with a limit, whatever the number of games: loading and
    # parsing every finished game took seconds at 100k games. Deferred: loading a game to
    # play it never reads them (the boards select them by name).
    ranked: Mapped[bool] = mapped_column(default=False, deferred=True)  # a person's solo game, secret seed
    place: Mapped[str | None] = mapped_column(String(16), deferred=True)  # solo: the map or the site
    score: Mapped[int | None] = mapped_column(Integer, deferred=True)  # solo: Tomb points, Treasure squares
    turns: Mapped[int | None] = mapped_column(Integer, deferred=True)  # solo Treasure: turns taken
    ranking: Mapped[int | None] = mapped_column(Integer, deferred=True)  # board order, lower first
    finished: Mapped[datetime | None] = mapped_column(DateTime, deferred=True)  # when it ended

    __table_args__ = (
        # One index per shape of board query: the equalities, then the order (ranking,
        # then who got there first), so that ORDER BY ... LIMIT reads only the rows shown.
        Index("ix_games_board", "kind", "ranked", "place", "ranking", "finished"),
        Index("ix_games_board_all", "kind", "ranked", "ranking", "finished"),
    )


class DailyEntryRow(Base):
    """A player's entry on a day's daily board: the first daily game they finished that
    day (migration 0005). The key is the rule, one entry per player, day and game; the
    game that ends first takes it (``INSERT ... ON CONFLICT DO NOTHING`` in the same
    transaction as its last move), so restarting to learn the dice earns nothing. Daily
    games stay off the all-time boards (their ``games.ranked`` is false)."""

    __tablename__ = "daily_entries"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    entrant: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    ranked: Mapped[bool] = mapped_column(default=False)  # whether it belongs on the board (R4.3: a filled site)
    ranking: Mapped[int | None] = mapped_column(Integer)  # as games.ranking: lower first
    finished: Mapped[datetime | None] = mapped_column(DateTime)

    __table_args__ = (
        # The daily board: the equalities, then its order, so ORDER BY ... LIMIT reads the rows shown.
        Index("ix_daily_entries_board", "day", "kind", "ranked", "ranking", "finished"),
    )


class SecretRow(Base):
    """Server secrets, made on first use (the key of the daily challenge seeds)."""

    __tablename__ = "secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class SeatRow(Base):
    """A seat: a person (who holds the token) or a bot."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class ActionRow(Base):
    """One accepted action, in order. The log is the game: seed + log replays it."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "client_id", name="uq_actions_client"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, ...
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(64))  # canonical notation, or "undo"
    affects: Mapped[int] = mapped_column(Integer)  # the seat whose view it changed; -1: everyone
    client_id: Mapped[str] = mapped_column(String(64))
    result: Mapped[str] = mapped_column(Text)  # the JSON answer, repeated for a repeated client id
    created: Mapped[datetime] = mapped_column(DateTime)


class BotLeaseRow(Base):
    """Which server process plays a game's bots, until when (migration 0008): several
    processes may hold copies of a game, its bots move in one only (``leases``). A row
    lives while its process holds the game; it is given back when the process lets the
    game go or stops, and taken over once expired (its process died)."""

    __tablename__ = "bot_leases"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(32))  # a random name of the holding process
    expires: Mapped[float] = mapped_column(Float)  # seconds since the epoch, by the database's clock


class MapRow(Base):
    """A custom map, by the hash of its text (migration 0010): any process finds a map
    stored by another. ``owner`` is a keyed hash of the address group that stored it."""

    __tablename__ = "custom_maps"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # custom-<12 hex digits>
    text: Mapped[str] = mapped_column(Text)  # the canonical text (tomb.content.canonical_map_text)
    owner: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (Index("ix_custom_maps_owner", "owner", "created"),)


class ReviewRow(Base):
    """A finished game's review of one seat, as the review lane made it (migration 0011):
    computed once, read before any work. No foreign key: written from the lane's thread
    after the game was settled; a game is never deleted."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[int] = mapped_column(Integer, primary_key=True)
    body: Mapped[str] = mapped_column(Text)  # JSON: the review (its decisions mapped to the replay's steps)
    created: Mapped[datetime] = mapped_column(DateTime)
