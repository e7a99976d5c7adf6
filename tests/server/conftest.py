"""A fresh database per test, migrated; the service and the app on it.

Every test runs on SQLite, and again on PostgreSQL when ``MUMMY_TEST_POSTGRES`` holds the
URL of a server the tests may wipe (``.ci/run`` starts one: ``.ci/postgres.sh``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from mummy.server.app import create_app
from mummy.server.db import make_engine, migrate
from mummy.server.limits import Limits
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


@pytest.fixture
def service(db_url: str) -> GameService:
    engine = make_engine(db_url)
    migrate(engine)
    return GameService(engine)


#: The tests play faster than any person: the rate limits are the server's, but wider
#: (tests/server/test_http_limits.py checks the limits themselves).
TEST_LIMITS = Limits(games_per_address="100000/minute", games_overall="100000/minute",
                     actions_per_address="100000/second", actions_overall="100000/second")


@pytest.fixture
def client(service: GameService) -> Iterator[TestClient]:
    with TestClient(create_app(service=service, limits=TEST_LIMITS)) as c:
        yield c
