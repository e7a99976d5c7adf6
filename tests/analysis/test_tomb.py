"""Tomb par and review (mummy.analysis.tomb): par is the strongest bot on the same dice
(T4.6), reproducible; the bot's own game has result 0 and nothing to regret; a planted
blunder is the biggest loss, at its round; a die bought for 2 coins (T4.3) is weighed
over its six faces."""

from __future__ import annotations

from typing import Any

import pytest

from mummy.analysis.common import ReviewError
from mummy.analysis.tomb import DEFAULT, GROUPS, STRONGEST_TOMB, Judge, tomb_par, tomb_review
from mummy.bots.registry import make_agent
from mummy.tomb.actions import BUY, Action
from mummy.tomb.record import replay_record, to_record
from mummy.tomb.scoring import score
from tests.analysis.helpers import TINY_EXPERT, TINY_STRONG, tomb_game


@pytest.fixture(scope="module")
def bot_record() -> dict[str, Any]:
    """A whole game (all 20 rounds and the turn after, T4.5) played by the small strong bot."""
    return to_record(tomb_game(9200, TINY_STRONG))


def test_par_is_the_bot_on_the_same_dice_and_reproducible(bot_record: dict[str, Any]) -> None:
    first = tomb_par(bot_record, 0, TINY_STRONG)
    assert first == tomb_par(bot_record, 0, TINY_STRONG)  # the same record, the same par
    # The game was the bot's own, seeded as par seeds it: par is its score, result 0.
    assert first["par"] == first["score"] == bot_record["final"][0]
    assert first["result"] == 0 and first["better"] == "higher"
    replayed = replay_record(first["record"])
    assert replayed.ok and replayed.game.seed == bot_record["seed"]


def test_the_bots_own_game_has_no_mistakes(bot_record: dict[str, Any]) -> None:
    seen: list[tuple[int, int]] = []
    review = tomb_review(bot_record, 0, lambda done, total: seen.append((done, total)), TINY_STRONG)
    decisions = review["decisions"]
    assert len(decisions) >= 21  # at least a plan a round, and the turn after round 20 (T4.5)
    assert all(d["lost"] == 0 and d["chosen"]["actions"] == d["best"]["actions"] for d in decisions)
    assert review["mistakes"] == [] and review["total_lost"] == 0
    assert [g["group"] for g in review["lost_by_group"]] == list(GROUPS)
    assert decisions[-1]["group"] == "end" and review["score"] == bot_record["final"][0]
    assert seen[-1] == (len(decisions), len(decisions)) and len(seen) == len(decisions)


def test_the_experts_own_game_has_no_mistakes_either() -> None:
    # The expert's kind values a plan by its lookahead over the next round's 21 rolls.
    record = to_record(tomb_game(9201, TINY_EXPERT, rounds=2))
    review = tomb_review(record, 0, None, TINY_EXPERT)
    assert [d["round"] for d in review["decisions"]][-1] == 2
    assert all(d["lost"] == 0 for d in review["decisions"]) and review["mistakes"] == []


def test_a_planted_blunder_is_the_biggest_loss_at_its_round() -> None:
    record = to_record(tomb_game(9202, TINY_STRONG, rounds=7, blunder=4))
    review = tomb_review(record, 0, None, TINY_STRONG)
    decisions = review["decisions"]
    worst = decisions[review["mistakes"][0]]
    assert worst["round"] == 4 and worst["lost"] == max(d["lost"] for d in decisions)
    assert worst["lost"] >= 5 * max(d["lost"] for d in decisions if d["round"] != 4)
    assert worst["best"]["worth"] > worst["chosen"]["worth"] and worst["diverges_at"] is not None
    # The better move is there to draw: each action in the notation and as JSON.
    assert len(worst["best"]["actions"]) == len(worst["best"]["json"]) >= 1
    assert all("kind" in j for j in worst["best"]["json"])
    by_round = {g["group"]: g["lost"] for g in review["lost_by_group"]}
    assert by_round["4"] == pytest.approx(sum(d["lost"] for d in decisions if d["round"] == 4), abs=0.02)


def test_a_bought_die_is_weighed_over_its_six_faces() -> None:
    # Kids mode starts with 5 coins (T8.2): the first action buys a die (T4.3), a chance
    # event, so that purchase is a decision of its own, worth the mean of its faces.
    game = tomb_game(9203, TINY_STRONG, rounds=1, mode="kids", first=lambda g: Action(BUY))
    record = to_record(game)
    review = tomb_review(record, 0, None, TINY_STRONG)
    first = review["decisions"][0]
    assert first["chosen"]["actions"] == ["buy"] and first["round"] == 1
    assert review["decisions"][1]["first_action"] == 1  # the next plan starts after the roll
    start = replay_record({**record, "actions": []}).game
    judge = Judge(TINY_STRONG)
    faces = [judge.best_after(start.seated(0).with_bought_die(0, face)) for face in range(1, 7)]
    assert first["chosen"]["worth"] == pytest.approx(sum(faces) / 6, abs=0.01)


def test_bad_requests_are_refused(bot_record: dict[str, Any]) -> None:
    with pytest.raises(ReviewError, match="no player 1"):
        tomb_review(bot_record, 1, None, TINY_STRONG)
    with pytest.raises(ReviewError, match="does not replay"):
        tomb_par({**bot_record, "actions": [{"player": 0, "action": "end"}]}, 0, TINY_STRONG)


def test_the_default_analyst_is_the_registered_strongest_bot() -> None:
    mine, registered = DEFAULT.agent(7), make_agent("tomb", STRONGEST_TOMB, 7)
    assert type(mine) is type(registered) and mine.name == STRONGEST_TOMB
    assert vars(mine).keys() == vars(registered).keys()
    same = ("candidates", "outer", "inner", "weights", "beam", "branch", "depth")
    assert all(getattr(mine, k) == getattr(registered, k) for k in same if hasattr(registered, k))


def test_par_on_a_game_of_two_plays_the_players_seat(bot_record: dict[str, Any]) -> None:
    # Sheets do not meet in the Tomb (T4.1): par of seat 1 is the bot on seat 1's dice.
    two = {**bot_record, "players": [*bot_record["players"], {"name": "b", "map": "map1", "mode": "standard"}],
           "actions": [], "final": None}
    two.pop("final")
    got = tomb_par(two, 1, TINY_STRONG)
    game = replay_record(got["record"]).game
    assert got["par"] == score(game.sheets[1]).total and got["score"] is None and got["result"] is None
