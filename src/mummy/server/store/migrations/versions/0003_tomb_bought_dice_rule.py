"""Tomb games stored before T4.6 gave each seat its own bought-die stream keep their rule.

A game is its seed plus its actions, replayed under the rules it was played by. Before
this revision every seat of a Tomb game bought the same k-th die; the set-up of each Tomb
game stored until now is marked ``"buys": "shared"`` so it replays exactly. New games
carry no mark and buy from their own seat's stream.

Revision ID: 0003
Revises: 0002
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_games = sa.table("games", sa.column("id", sa.String), sa.column("kind", sa.String), sa.column("config", sa.Text))


def upgrade() -> None:
    bind = op.get_bind()
    rows = bind.execute(sa.select(_games.c.id, _games.c.config).where(_games.c.kind == "tomb")).all()
    for game_id, config in rows:
        cfg = json.loads(config)
        if "buys" not in cfg:
            cfg["buys"] = "shared"
            bind.execute(_games.update().where(_games.c.id == game_id).values(config=json.dumps(cfg)))


def downgrade() -> None:
    bind = op.get_bind()
    rows = bind.execute(sa.select(_games.c.id, _games.c.config).where(_games.c.kind == "tomb")).all()
    for game_id, config in rows:
        cfg = json.loads(config)
        if cfg.pop("buys", None) == "shared":
            bind.execute(_games.update().where(_games.c.id == game_id).values(config=json.dumps(cfg)))
