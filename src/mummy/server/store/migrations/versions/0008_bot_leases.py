"""A lease per game on its bots: which server process plays them, until when.

Several server processes may serve the same games from one PostgreSQL (issue 16), each
with its copies of games in memory. A game's bots must move in one process only: two
would think about every move twice, and a bot's tie-breaking randomness lives in its
process. The process that plays a game's bots holds its row here (its random ``owner``
name and an ``expires`` time in seconds since the epoch, by the database's clock), renews
it while it lives, and deletes it when it lets the game go or stops. A process that dies
stops renewing: once the time has passed, another process takes the row over.

No foreign key: a lease is a claim about a process, not part of a game, and the row is
written on the hot path of a game's first bot move.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_leases",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bot_leases")
