"""Daily results go on the daily board only, one entry per player and day.

Daily games used to be ranked like any solo game: on the all-time boards too, where a
player who restarted the day's challenge to learn its dice could set records, and on the
daily board once per attempt. Now a daily game has an ``entrant`` (a keyed hash of its
player's address and name, set when it is created) and the first daily game each entrant
finishes in a day is their entry in ``daily_entries`` (its key is the rule). Daily games
are no longer ranked on the all-time boards.

Games finished before this revision each become their own entrant: nothing tells who
played them (no address was kept), so the daily boards of past days stay as they were;
their games leave the all-time boards.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_games = sa.table("games", sa.column("id", sa.String), sa.column("kind", sa.String),
                  sa.column("daily", sa.String), sa.column("over", sa.Boolean),
                  sa.column("ranked", sa.Boolean), sa.column("ranking", sa.Integer),
                  sa.column("finished", sa.DateTime))
_entries = sa.table("daily_entries", sa.column("day", sa.String), sa.column("kind", sa.String),
                    sa.column("entrant", sa.String), sa.column("game_id", sa.String),
                    sa.column("ranked", sa.Boolean), sa.column("ranking", sa.Integer),
                    sa.column("finished", sa.DateTime))
#: The entrant of a game that has none: the game itself (also the service's rule, LEGACY_ENTRANT in
#: repository.py: a migration stands alone, so the rule is written here again).
LEGACY = "game:"


def upgrade() -> None:
    # In place, as 0004 (a copy of the table would drop it under the seats' foreign keys).
    with op.batch_alter_table("games", recreate="never") as batch:
        batch.add_column(sa.Column("entrant", sa.String(64), nullable=True))
    op.create_table(
        "daily_entries",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("entrant", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False, server_default="0"),
        sa.Column("ranking", sa.Integer(), nullable=True),
        sa.Column("finished", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_daily_entries_board", "daily_entries", ["day", "kind", "ranked", "ranking", "finished"])
    # Two statements whatever the number of games (no rows through Python).
    finished = sa.select(_games.c.daily, _games.c.kind, sa.literal(LEGACY, sa.String) + _games.c.id, _games.c.id,
                         _games.c.ranked, _games.c.ranking, _games.c.finished).where(
        _games.c.daily.is_not(None), _games.c.over.is_(True), _games.c.ranking.is_not(None))
    op.execute(_entries.insert().from_select(
        ["day", "kind", "entrant", "game_id", "ranked", "ranking", "finished"], finished))
    op.execute(_games.update().where(_games.c.daily.is_not(None)).values(ranked=False))
    op.drop_index("ix_games_board_daily", "games")  # the daily board reads daily_entries now


def downgrade() -> None:
    op.create_index("ix_games_board_daily", "games", ["daily", "kind", "ranked", "ranking", "finished"])
    # Each entry's game is ranked again (the games that were not entries stay off the board).
    entered = sa.select(_entries.c.game_id).where(_entries.c.ranked.is_(True))
    op.execute(_games.update().where(_games.c.id.in_(entered)).values(ranked=True))
    op.drop_index("ix_daily_entries_board", "daily_entries")
    op.drop_table("daily_entries")
    with op.batch_alter_table("games", recreate="never") as batch:
        batch.drop_column("entrant")
