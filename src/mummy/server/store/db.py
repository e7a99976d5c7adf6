"""Engine creation and migrations. No engine is created at import time."""

from __future__ import annotations

import secrets
import weakref
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, Engine, create_engine, event

#: Seconds a connection in a thread waits for SQLite's write lock, held by another writer
#: (this process's writes queue on a lock of their own first, see ``GameService``).
SQLITE_WAIT = 30.0
#: ... and the event loop's connection: a few milliseconds. Whatever waits on the loop
#: holds up every game and every request of the process: another process holding the
#: file's write lock froze health checks for 30 s. When the database stays busy longer,
#: the loop hands the write to the writer thread, which may wait (see ``writer.Writer``).
LOOP_WAIT = 0.005
_BUSY = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED (primary result codes)
#: Engine -> the origin its connections name on PostgreSQL (:func:`origin_of`).
ORIGINS: weakref.WeakKeyDictionary[Engine, str] = weakref.WeakKeyDictionary()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files run in WAL mode with full syncing, so an
    acknowledged commit survives a crash of the server process."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": SQLITE_WAIT})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cur = dbapi_connection.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    engine = create_engine(url, pool_pre_ping=True)
    if engine.dialect.name == "postgresql":
        origin = ORIGINS[engine] = secrets.token_hex(8)

        @event.listens_for(engine, "connect")
        def _origin(dbapi_connection: Any, _record: Any) -> None:
            # Each notice of a commit names the process that made it (migration 0007):
            # a process skips its own.
            cur = dbapi_connection.cursor()
            cur.execute("SELECT set_config('mummy.origin', %s, false)", (origin,))
            cur.close()
            dbapi_connection.commit()

    return engine


def origin_of(engine: Engine) -> str | None:
    """The name this engine's connections give their commits on PostgreSQL (the
    ``mummy.origin`` setting, which the notices of migration 0007 carry), so that a
    process knows its own notices; None for an engine not made by :func:`make_engine`."""
    return ORIGINS.get(engine)


def wait_briefly(conn: Connection, seconds: float = LOOP_WAIT) -> None:
    """Make an SQLite connection give up on a lock after ``seconds`` (``busy_timeout``),
    for the event loop. Such a connection must not go back to the pool, where a thread
    would get it: invalidate it when done."""
    driver = conn.connection.driver_connection
    if conn.dialect.name == "sqlite" and driver is not None:
        driver.execute(f"PRAGMA busy_timeout = {max(1, round(seconds * 1000))}")


def is_busy(exc: BaseException) -> bool:
    """Whether a database error means SQLite was busy (another writer held the lock past
    the connection's wait), not that the write was wrong."""
    orig = getattr(exc, "orig", exc)
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in _BUSY
    text = str(orig).lower()
    return "database is locked" in text or "database is busy" in text


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
