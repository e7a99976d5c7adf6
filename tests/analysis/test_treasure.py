"""Treasure par and review (mummy.analysis.treasure): par is the strongest bot's turns on
the same seed (R2.2, R4.3), reproducible; the value bot's own game has nothing to regret;
a planted blunder is the biggest loss, at its choice; the variant and races are refused
where the analysis does not reach (R5.1)."""

from __future__ import annotations

from typing import Any

import pytest

from mummy.analysis.common import ReviewError
from mummy.analysis.treasure import STRONGEST_TREASURE, ValueTreasureAgent, treasure_par, treasure_review
from mummy.treasure.game import TreasureGame
from mummy.treasure.record import replay_record, to_record
from tests.analysis.helpers import TINY_TREASURE, treasure_record


@pytest.fixture(scope="module")
def bot_record() -> dict[str, Any]:
    return treasure_record(9300)


def test_par_is_the_bot_on_the_same_seed_and_reproducible(bot_record: dict[str, Any]) -> None:
    first = treasure_par(bot_record, 0, TINY_TREASURE)
    assert first == treasure_par(bot_record, 0, TINY_TREASURE)
    assert first["par"] == first["score"] == bot_record["final"]["turns"][0]
    assert first["result"] == 0 and first["better"] == "lower"
    assert replay_record(first["record"]).ok


def test_the_value_bots_own_game_has_no_mistakes(bot_record: dict[str, Any]) -> None:
    seen: list[int] = []
    review = treasure_review(bot_record, 0, lambda done, total: seen.append(done), TINY_TREASURE)
    assert review["decisions"] and all(d["lost"] == 0 for d in review["decisions"])
    assert review["mistakes"] == [] and review["unit"] == "turns"
    # Every decision follows a roll (R3.1) and had a choice; the worths are expected turns.
    assert all(d["roll"] in (1, 2, 3) for d in review["decisions"])
    assert all(d["turn"] <= d["chosen"]["worth"] <= review["score"] + 40 for d in review["decisions"])
    assert seen == sorted(seen) and seen[-1] > 0


def test_a_planted_blunder_is_the_biggest_loss_at_its_choice() -> None:
    record = treasure_record(9301, blunder_turn=2)
    review = treasure_review(record, 0, None, TINY_TREASURE)
    decisions = review["decisions"]
    worst = decisions[review["mistakes"][0]]
    assert worst["turn"] == 2 and worst["lost"] > 0.05
    assert [d["index"] for d in decisions if d["lost"]] == [worst["index"]]
    assert worst["best"]["worth"] < worst["chosen"]["worth"] and worst["best"]["json"][0]["kind"] in ("take", "reroll")


def test_races_and_the_movable_variant() -> None:
    race = treasure_record(9302, seats=2)
    with pytest.raises(ReviewError, match="solo"):
        treasure_par(race, 0, TINY_TREASURE)
    review = treasure_review(race, 1, None, TINY_TREASURE)  # a seat's choices, valued on its own site
    assert all(d["lost"] == 0 for d in review["decisions"])
    movable = TreasureGame(5, 1, movable=True)
    movable.apply(0, movable.legal_actions(0)[0])
    with pytest.raises(ReviewError, match=r"R5\.1"):
        treasure_review(to_record(movable), 0, None, TINY_TREASURE)


def test_the_strongest_treasure_bot_is_the_value_bot(bot_record: dict[str, Any]) -> None:
    # It sets par (it beat the strong bot on seeds 9000-9029: docs/analysis.md), and its
    # games fill the site (R4.1).
    assert ValueTreasureAgent.name == STRONGEST_TREASURE
    assert bot_record["final"]["squares"] == [36]
