"""The coaching jobs (mummy.server.coaching.coach_jobs) on the inputs of a practice game's hint:
the planner never knows a die that is not rolled yet (issue 32, "check, and fix if so")."""

from __future__ import annotations

import pytest

from mummy.analysis.review import TombAnalysis
from mummy.bots.registry import make_agent
from mummy.server.coaching.coach_jobs import hint_job
from mummy.tomb import game as tomb_game
from mummy.tomb.game import TombGame
from mummy.tomb.record import to_record

MAP1 = {"map": "map1", "mode": "standard"}


def before_a_purchase() -> TombGame:
    """Seed 1, 40 greedy moves: round 11 with coins, where the quick hint buys a die."""
    game = TombGame(1, 1)
    greedy = make_agent("tomb", "greedy", 1)
    for _ in range(40):
        game.apply(0, greedy.act(game, 0))
    return game


def test_a_hint_that_buys_a_die_stops_there_and_says_no_value() -> None:
    got = hint_job(to_record(before_a_purchase()), MAP1, 0, "quick", lambda done, total: None)
    assert got["actions"] == ["buy"]  # T4.3: rolled when bought; the plan goes no further
    assert got["sentences"] == ["Buy a die (2 coins)"]


def test_the_hint_is_the_same_whatever_the_bought_die_will_be(monkeypatch: pytest.MonkeyPatch) -> None:
    # T4.6: a bought die is a function of the seed; a planner that looked it up would
    # plan differently when only that die differs.
    plans = set()
    for face in range(1, 7):
        monkeypatch.setattr(tomb_game, "bought_die", lambda *args, face=face: face)
        plans.add(tuple(TombAnalysis().at("quick").hint(before_a_purchase(), 0)["actions"]))
    assert plans == {("buy",)}
