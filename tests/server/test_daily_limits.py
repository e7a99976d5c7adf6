"""The rate limit of new games and the daily challenge (review of issue 13): "Play today's
challenge" when the player already has today's game resumes it, and a resume is no new
game, so it neither spends the address's allowance nor is refused once it is spent. Only a
creation counts, and a creation past the limit is still refused (429, Retry-After)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from mummy.server.admission.limits import Limits
from mummy.server.app import create_app
from mummy.server.play.service import GameService

pytestmark = pytest.mark.daily


@pytest.fixture
def day(today: str) -> str:
    """The test's day (pinned by tests/server/conftest.py; the date sweep's, with --days)."""
    return today


def test_resuming_todays_game_beyond_the_rate_is_answered_with_the_same_game(service: GameService, day: str) -> None:
    app = create_app(service=service, limits=Limits(games_per_address="3/minute", games_overall="1000/minute"))
    client = TestClient(app, client=("10.0.0.1", 1))
    created = client.post("/api/daily/tomb", json={"name": "ann"})
    assert created.status_code == 201
    token = created.json()["seats"][0]["token"]
    resumed = [client.post("/api/daily/tomb", json={"name": "ann", "tokens": [token]}) for _ in range(10)]
    assert [r.status_code for r in resumed] == [200] * 10
    assert {r.json()["id"] for r in resumed} == {created.json()["id"]}
    assert all(r.json()["seats"][0]["token"] == token for r in resumed)
    # The ten resumes spent nothing: two more games fit in the three a minute...
    assert [client.post("/api/games", json={"game": "tomb", "seats": [{"name": "ann"}]}).status_code,
            client.post("/api/daily/treasure", json={"name": "ann"}).status_code] == [201, 201]
    # ...and a fourth creation, daily or not, is refused as before.
    for refused in (client.post("/api/daily/tomb", json={"name": "ann"}),
                    client.post("/api/daily/tomb", json={"name": "ann", "tokens": ["not-a-seat"]}),
                    client.post("/api/games", json={"game": "tomb", "seats": [{"name": "ann"}]})):
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_requests"
        assert int(refused.headers["retry-after"]) >= 1 and "your address" in refused.json()["error"]["message"]
        assert "'self'" in refused.headers["content-security-policy"]
    # A spent allowance still lets the player back into today's game.
    again = client.post("/api/daily/tomb", json={"name": "ann", "tokens": [token]})
    assert again.status_code == 200 and again.json()["id"] == created.json()["id"]


def test_a_refused_daily_creation_counts_towards_shunning(service: GameService, day: str) -> None:
    """A script that asks for new daily games past the limit is refused by the route as the
    guard refuses the others: those refusals count towards closing its connections."""
    app = create_app(service=service, limits=Limits(games_per_address="1/minute", shun_after=3))
    client = TestClient(app, client=("10.0.0.7", 1))
    codes = [client.post("/api/daily/tomb", json={"name": "bot"}).status_code for _ in range(4)]
    assert codes == [201, 429, 429, 429]
    assert app.state.shunned.shunned("10.0.0.7")
