"""A finished game keeps the id of its rematch, so that asking for it again finds it.

A rematch used to be a new game per request: two clicks on Rematch, or two players each
clicking it, made two games, and whoever asked got every seat's token. Now the old game
keeps its rematch's id (``games.rematch``), set in the same transaction that stores the
rematch, and only while it is empty (``UPDATE ... WHERE rematch IS NULL``): the first
request makes the game, every later one is answered with it.

No foreign key: the column is claimed before the new game's row is written (the claim is
what makes concurrent requests wait for each other), and SQLite cannot add a constraint
in place. Games finished before this revision have no rematch recorded: their next
rematch is a new game, as it was.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # In place, as 0004 and 0005 (a copy of the table would drop it under the seats' foreign keys).
    with op.batch_alter_table("games", recreate="never") as batch:
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", recreate="never") as batch:
        batch.drop_column("rematch")
