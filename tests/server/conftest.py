"""A fresh database per test, migrated; the service and the app on it; a pinned day.

Every test runs on SQLite, and again on PostgreSQL when ``MUMMY_TEST_POSTGRES`` holds the
URL of a server the tests may wipe (``.ci/run`` starts one: ``.ci/postgres.sh``). Under
pytest-xdist each worker has a database of its own on that server (``mummy_test_gw0``, ...),
made on first use, so that two workers never wipe each other's tables.

Every test here runs on a fixed day (``today``: time-machine moves this process's clock
to noon of ``DAY``, and lets it run on from there), and every database holds the same key
of the daily seeds (``DAILY_SECRET``): a day's dice are then known in advance, whatever
the real date, and a test can pick a day on which what it needs happens. ``--days N``
runs the tests marked ``daily`` on N other days as well (the date sweep, docs/testing.md).
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import socket
import threading
import time
import weakref
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx", reason="the server's test client needs httpx (the dev extra)")

import uvicorn
from alembic.config import Config
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, event, func, inspect, make_url, select, text

import mummy.server.store.db
from mummy.server import clock
from mummy.server.admission.limits import Limits
from mummy.server.app import create_app
from mummy.server.play.service import GameService
from mummy.server.store.db import make_engine, migrate
from mummy.server.store.models import ActionRow, SecretRow

time_machine = pytest.importorskip("time_machine", reason="time-machine (the dev extra) pins the server tests' day")

POSTGRES = os.environ.get("MUMMY_TEST_POSTGRES")

#: The day the server's tests run on, at noon UTC (half a day from either midnight). On
#: it, with ``DAILY_SECRET``, the greedy bot fills the daily Treasure site (the board by
#: par needs a ranked game, R4.3: tests/server/test_coaching.py asserts it did).
DAY = "2026-03-14"
#: The key of the daily seeds in every test database (a server makes a random one).
DAILY_SECRET = "7e57" * 16


def day_after(day: str, days: int = 1) -> str:
    """The day ``days`` after ``day`` (ISO dates, as the daily challenge names them)."""
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def sweep_days(count: int) -> list[str]:
    """``count`` days for the date sweep, spread over years, months and weekdays: the
    first and last of months and years, a leap day, and days in between."""
    first = date(2024, 1, 1)
    fixed = [date(2024, 2, 29), date(2024, 12, 31), date(2025, 1, 1), date(2026, 6, 30), date(2027, 3, 1)]
    spread = [first + timedelta(days=37 * n + n % 7) for n in range(max(0, count - len(fixed)))]
    return [d.isoformat() for d in (fixed + spread)[:count]]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    days = metafunc.config.getoption("--days")
    if days and "today" in metafunc.fixturenames and metafunc.definition.get_closest_marker("daily"):
        metafunc.parametrize("today", [DAY, *sweep_days(days)], indirect=True, ids=lambda d: f"day={d}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The sweep's other days run on SQLite alone: what a day changes is the same on both
    databases (the day is a string the service compares and the queries match), and on
    PostgreSQL the daily tests run on ``DAY``; so the sweep costs half."""
    keep, drop = [], []
    for item in items:
        params = getattr(item, "callspec", None)
        swept = params is not None and params.params.get("today", DAY) != DAY
        (drop if swept and params.params.get("db_url") == "postgresql" else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(autouse=True)
def today(request: pytest.FixtureRequest) -> Iterator[str]:
    """The day of the test (``DAY``, or the sweep's): this process's clock starts at its
    noon and runs on. A test that sets ``clock.today`` or ``clock.now`` itself still can."""
    day: str = getattr(request, "param", DAY)
    with time_machine.travel(datetime.fromisoformat(f"{day}T12:00:00+00:00"), tick=True):
        assert clock.today() == day
        yield day


def _worker_database(base: str) -> str:
    """The PostgreSQL database of this xdist worker (``base`` itself without xdist),
    created when missing."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return base
    url = make_url(base)
    name = f"{url.database}_{worker}"
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            if conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).scalar() is None:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return url.set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    assert POSTGRES
    return _worker_database(POSTGRES)


@pytest.fixture(params=["sqlite", *(["postgresql"] if POSTGRES else [])])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A clean database for the test: a new SQLite file (not made yet), or the worker's
    PostgreSQL database emptied: its tables truncated when its schema is the newest (a
    tenth of the time of dropping it and migrating again), else its schema dropped."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("postgres_url")
    engine = create_engine(url)
    with engine.begin() as conn:
        names = inspect(conn).get_table_names()
        tables = [t for t in names if t != "alembic_version"]
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar() \
            if "alembic_version" in names else None
        if version == _head() and tables:
            conn.execute(text(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE"))
        else:
            conn.execute(text("DROP SCHEMA public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url


@functools.cache
def _head() -> str:
    """The newest migration."""
    config = Config()
    config.set_main_option("script_location", str(Path(mummy.server.store.db.__file__).parent / "migrations"))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file at the newest migration, for this worker: each test's database is a
    copy of it (a copy is a millisecond, migrating a new file a tenth of a second)."""
    path = tmp_path_factory.mktemp("template") / "games.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()  # (the last connection checkpoints the write-ahead log into the file)
    return path


#: Every engine that has connected during the test (weakly: a dropped one may be collected).
_ENGINES: weakref.WeakSet[Engine] = weakref.WeakSet()


@event.listens_for(Engine, "engine_connect")
def _connected(connection: Any) -> None:
    _ENGINES.add(connection.engine)


@pytest.fixture(autouse=True)
def _let_go_of_connections() -> Iterator[None]:
    """After each test, close the pooled connections of every engine it made: engines a
    test made and dropped hold theirs until collected (or for good, when the first app
    of the worker froze them: ``app.freeze_long_lived``), so PostgreSQL ran out (100 by
    default). Disposing them is immediate, where a full collection after every
    PostgreSQL test took half a second. Nothing is unfrozen: the app freezes once per
    process, and thawing made every test's app start walk all the worker's objects."""
    yield
    for engine in list(_ENGINES):
        engine.dispose()
    _ENGINES.clear()


@pytest.fixture
def service(db_url: str, request: pytest.FixtureRequest) -> Iterator[GameService]:
    if db_url.startswith("sqlite:///") and not Path(db_url.removeprefix("sqlite:///")).exists():
        shutil.copyfile(request.getfixturevalue("sqlite_template"), db_url.removeprefix("sqlite:///"))
    engine = make_engine(db_url)
    migrate(engine)  # (nothing to do on a copy of the template, or a truncated database)
    with engine.begin() as conn:  # the day's dice known in advance (see the module)
        conn.execute(SecretRow.__table__.insert().values(name="daily", value=DAILY_SECRET))
    svc = GameService(engine)
    yield svc
    # Its connections go back at once: left to the garbage collector (which the app's
    # gc.freeze() keeps from them), every test held some, and PostgreSQL ran out.
    svc.close()
    engine.dispose()


#: The tests play faster than any person: the rate limits are the server's, but wider
#: (tests/server/test_http_limits.py checks the limits themselves).
TEST_LIMITS = Limits(games_per_address="100000/minute", games_overall="100000/minute",
                     actions_per_address="100000/second", actions_overall="100000/second",
                     sockets_per_address="100000/minute", sockets_overall="100000/minute")


@pytest.fixture
def client(service: GameService) -> Iterator[TestClient]:
    with TestClient(create_app(service=service, limits=TEST_LIMITS)) as c:
        yield c


@contextlib.contextmanager
def running(app: Any, sock: socket.socket, **options: Any) -> Iterator[str]:
    """A real uvicorn serving ``app`` in a thread on the listening socket ``sock`` (bound to
    127.0.0.1 by the caller, with whatever socket options the test needs); yields
    ``host:port`` once it answers, and stops it after."""
    server = uvicorn.Server(uvicorn.Config(app, log_level="critical", **options))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@contextlib.contextmanager
def two_processes(service: GameService, db_url: str, **service_options: Any) -> Iterator[tuple[str, str, list[Any]]]:
    """Two servers on one PostgreSQL, as two processes would be (each its own service,
    engine and relay, named "one" and "two"), each listening with a socket rate the tests'
    pace needs; yields their ``host:port`` and apps once both relays listen. Skips on
    SQLite, which one process owns."""
    if service.engine.dialect.name != "postgresql":
        pytest.skip("several processes need PostgreSQL")
    from mummy.server.play.hub import SocketLimits

    apps = [create_app(service=GameService(make_engine(db_url), owner=name, **service_options), limits=TEST_LIMITS)
            for name in ("one", "two")]
    for app in apps:  # the tests play faster than people
        app.state.hub.limits = SocketLimits(rate=100_000)
    try:
        with running(apps[0], listening()) as one, running(apps[1], listening()) as two:
            for app in apps:
                assert app.state.relay is not None and app.state.relay.listening.wait(10)
            yield one, two, apps
    finally:
        for app in apps:
            app.state.service.engine.dispose()


def listening(send_buffer: int | None = None) -> socket.socket:
    """A listening socket on a free loopback port (with a small kernel send buffer, which
    every accepted socket inherits, when ``send_buffer`` is given)."""
    sock = socket.socket()
    if send_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


def logged(service: GameService, game_id: str) -> int:
    """The game's entries in the action log, as stored."""
    with service.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(ActionRow)
                                .where(ActionRow.game_id == game_id)).scalar_one())
