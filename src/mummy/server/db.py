"""Engine creation and migrations. No engine is created at import time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, create_engine, event


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files run in WAL mode with full syncing, so an
    acknowledged commit survives a crash of the server process."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cur = dbapi_connection.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to the newest migration, or up or down to ``revision`` (Alembic,
    run in-process; tests go back to an older schema to check a data migration)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        current = MigrationContext.configure(connection).get_current_revision()
        if revision != "head" and current is not None and int(current) > int(revision):
            command.downgrade(cfg, revision)
        else:
            command.upgrade(cfg, revision)
