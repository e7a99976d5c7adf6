"""A finished game's reviews, stored once computed.

A review is a whole game of the strongest bot's thinking (a minute or more of CPU), and
it was remembered only in one process's memory (32 of them): nine requests for public
finished games kept the reviewer busy, and the same reviews were worked out again after
every restart and in every process (issue 32). Now each seat's review is a row, written
when it is done and read before any work: computed once per game and seat.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("player", sa.Integer(), primary_key=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
