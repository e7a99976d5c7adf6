"""Custom maps kept by their content hash, in the database.

A custom map (the editor's) lived in each process's memory only: ``POST /api/maps`` told
one process, and a game created by the map's id on another (``mummy serve --workers``)
did not know it. The map's text also filled a registry of at most 2,000 maps per process,
after which every game on a custom map not yet loaded failed (issue 32). Now each map is
a row, keyed by its id (``custom-`` and the start of the SHA-256 of its canonical text):
any process finds it, and the process's registry is a cache that lets maps go. A game
keeps its map's text in its set-up as before (``map_text``), so a game never depends on
this table either.

``owner`` is a keyed hash of the address group that stored the map first (no address is
kept): each may store so many new maps a day (``Limits.maps_per_address_per_day``).

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "custom_maps",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_custom_maps_owner", "custom_maps", ["owner", "created"])


def downgrade() -> None:
    op.drop_index("ix_custom_maps_owner", table_name="custom_maps")
    op.drop_table("custom_maps")
