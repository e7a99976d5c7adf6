"""Finished games keep their leaderboard columns, indexed; the finishing time is kept.

A leaderboard used to load and parse every finished game on each request (seconds at
100k games, and a query with one SQL variable per game, refused at 260k). Now a game's
rank is stamped when it ends, and a board is one indexed query with a limit. Games that
ended before this revision are filled here: whether they count (a person's solo game on
a secret seed; for Treasure, a filled site), the map or site, the score or the turns,
and when they ended (their last log entry: until now the boards showed the creation time).

Revision ID: 0004
Revises: 0003
"""

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

CHUNK = 500  # games per round of the backfill: well under any database's limit of variables

_games = sa.table("games", sa.column("id", sa.String), sa.column("kind", sa.String),
                  sa.column("config", sa.Text), sa.column("over", sa.Boolean), sa.column("result", sa.Text),
                  sa.column("ranked", sa.Boolean), sa.column("place", sa.String), sa.column("score", sa.Integer),
                  sa.column("turns", sa.Integer), sa.column("ranking", sa.Integer),
                  sa.column("finished", sa.DateTime))
_seats = sa.table("seats", sa.column("game_id", sa.String), sa.column("seat", sa.Integer),
                  sa.column("bot", sa.String))
_actions = sa.table("actions", sa.column("game_id", sa.String), sa.column("created", sa.DateTime))

INDEXES = {
    "ix_games_board": ["kind", "ranked", "place", "ranking", "finished"],
    "ix_games_board_all": ["kind", "ranked", "ranking", "finished"],
    "ix_games_board_daily": ["daily", "kind", "ranked", "ranking", "finished"],
}


def standing(kind: str, config: dict[str, Any], result: dict[str, Any], seats: int,
             person: bool) -> dict[str, Any]:
    """A finished game's leaderboard columns (the same rule as the service's, kept here as
    it was at this revision: a migration must not change when the code does)."""
    if seats != 1:
        return {"ranked": False, "place": None, "score": None, "turns": None, "ranking": None}
    if kind == "tomb":
        score = result["scores"][0]
        return {"ranked": person and not config.get("seed_chosen"), "place": config["map"],
                "score": score, "turns": None, "ranking": -score}
    turns = result["turns"][0]
    return {"ranked": person and not config.get("seed_chosen") and result["reason"] == "full",
            "place": config["sites"][0], "score": result["squares"][0], "turns": turns, "ranking": turns}


def upgrade() -> None:
    # Added in place (ALTER TABLE), never by copying the table: on SQLite a copy drops the
    # old table, which the seats' and actions' foreign keys forbid. Hence a default given
    # as text ("0" is false on both databases), which SQLite takes in an ALTER.
    with op.batch_alter_table("games", recreate="never") as batch:
        batch.add_column(sa.Column("ranked", sa.Boolean(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("place", sa.String(16), nullable=True))
        batch.add_column(sa.Column("score", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("turns", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("ranking", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("finished", sa.DateTime(), nullable=True))
    for name, columns in INDEXES.items():
        op.create_index(name, "games", columns)
    bind = op.get_bind()
    last = ""
    while True:  # finished games, by id, a chunk at a time
        rows = bind.execute(sa.select(_games.c.id, _games.c.kind, _games.c.config, _games.c.result)
                            .where(_games.c.over.is_(True), _games.c.result.is_not(None), _games.c.id > last)
                            .order_by(_games.c.id).limit(CHUNK)).all()
        if not rows:
            break
        last = rows[-1].id
        ids = [r.id for r in rows]
        seats: dict[str, list[str | None]] = {}
        for game_id, _seat, bot in bind.execute(sa.select(_seats.c.game_id, _seats.c.seat, _seats.c.bot)
                                                .where(_seats.c.game_id.in_(ids)).order_by(_seats.c.seat)):
            seats.setdefault(game_id, []).append(bot)
        ended = dict(bind.execute(sa.select(_actions.c.game_id, sa.func.max(_actions.c.created))
                                  .where(_actions.c.game_id.in_(ids)).group_by(_actions.c.game_id)).all())
        updates = []
        for r in rows:
            bots = seats.get(r.id, [])
            values = standing(r.kind, json.loads(r.config), json.loads(r.result), len(bots),
                              bool(bots) and bots[0] is None)
            updates.append({"b_id": r.id, **values, "finished": ended.get(r.id)})
        bind.execute(_games.update().where(_games.c.id == sa.bindparam("b_id")), updates)


def downgrade() -> None:
    for name in INDEXES:
        op.drop_index(name, "games")
    with op.batch_alter_table("games", recreate="never") as batch:  # SQLite 3.35+ drops in place
        for column in ("finished", "ranking", "turns", "score", "place", "ranked"):
            batch.drop_column(column)
