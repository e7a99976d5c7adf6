"""Fuzzing the HTTP API from its own OpenAPI schema (schemathesis): never a 5xx."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402

from mummy.server.app import create_app  # noqa: E402

_DB = Path(tempfile.mkdtemp(prefix="mummy-fuzz")) / "fuzz.db"
APP = create_app(f"sqlite:///{_DB}")
# A real game, so that some generated ids and tokens meet existing rows.
_CREATED = APP.state.service.create("tomb", [{"name": "fuzz"}], {}, seed=1)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case: schemathesis.Case) -> None:  # type: ignore[name-defined]
    response = case.call()
    assert response.status_code < 500, (case.method, case.path, response.text[:300])
