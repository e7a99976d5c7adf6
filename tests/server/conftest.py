"""A fresh database per test, migrated; the service and the app on it.

Every test runs on SQLite, and again on PostgreSQL when ``MUMMY_TEST_POSTGRES`` holds the
URL of a server the tests may wipe (``.ci/run`` starts one: ``.ci/postgres.sh``).
"""

from __future__ import annotations

import contextlib
import gc
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from mummy.server.app import create_app
from mummy.server.db import make_engine, migrate
from mummy.server.limits import Limits
from mummy.server.models import ActionRow
from mummy.server.service import GameService

POSTGRES = os.environ.get("MUMMY_TEST_POSTGRES")


@pytest.fixture(params=["sqlite", *(["postgresql"] if POSTGRES else [])])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    assert POSTGRES
    from sqlalchemy import create_engine, text

    engine = create_engine(POSTGRES)
    with engine.begin() as conn:  # a clean database for each test
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return POSTGRES


@pytest.fixture(autouse=True)
def _let_go_of_connections(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test on PostgreSQL, collect what it left: engines a test made and dropped
    hold their pooled connections until collected, and the app's ``gc.freeze()`` keeps
    the collector from them; the server's connections are few (100 by default)."""
    yield
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and callspec.params.get("db_url") == "postgresql":
        gc.unfreeze()
        gc.collect()


@pytest.fixture
def service(db_url: str) -> Iterator[GameService]:
    engine = make_engine(db_url)
    migrate(engine)
    svc = GameService(engine)
    yield svc
    # Its connections go back at once: left to the garbage collector (which the app's
    # gc.freeze() keeps from them), every test held some, and PostgreSQL ran out.
    svc.close()
    engine.dispose()


#: The tests play faster than any person: the rate limits are the server's, but wider
#: (tests/server/test_http_limits.py checks the limits themselves).
TEST_LIMITS = Limits(games_per_address="100000/minute", games_overall="100000/minute",
                     actions_per_address="100000/second", actions_overall="100000/second")


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
    from mummy.server.hub import SocketLimits

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
