"""A fresh SQLite database per test, migrated; the service and the app on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from mummy.server.app import create_app
from mummy.server.db import make_engine, migrate
from mummy.server.service import GameService


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def service(db_url: str) -> GameService:
    engine = make_engine(db_url)
    migrate(engine)
    return GameService(engine)


@pytest.fixture
def client(service: GameService) -> Iterator[TestClient]:
    with TestClient(create_app(service=service)) as c:
        yield c
