"""A paper sheet's count, checked (T7): the engine's lines, total and achievements."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mummy.bots.registry import make_agent
from mummy.tomb.content import map_spec
from mummy.tomb.game import TombGame
from mummy.tomb.paper import check_tally, hit_round
from mummy.tomb.scoring import Tally, score, tally_of

MAP1 = map_spec("map1")
#: A strong paper game on Map 1: every undead, all golems and items, five hits, no penalty.
STRONG = Tally(oozes=6, skeletons=6, zombies=4, golems=4, mimics=3, hits=(18, 16, 26, 20, 18), items=4,
               leftovers=3, entrances=3, key_track_full=True, skeleton_key=True)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_sheet_and_its_tally_score_alike(seed: int) -> None:
    """The engine scores a sheet through its tally: a paper player typing the same counts
    gets the same lines, total and achievements."""
    game = TombGame(seed)
    bot = make_agent("tomb", "strong", seed)
    while not game.is_over:
        game.apply(0, bot.act(game, 0))
    sheet = game.sheets[0]
    checked = check_tally(tally_of(sheet), MAP1, lines=score(sheet).lines, total=score(sheet).total)
    assert checked.ok, (checked.faults, checked.differences)
    assert checked.score == score(sheet)


def test_lines_total_and_achievements_of_a_count() -> None:
    got = check_tally(STRONG, MAP1)
    assert got.faults == () and got.score.lines == {
        "oozes_x_skeletons": 36, "zombies": 30, "golems": 30, "mimics": 12, "mummy": 98, "magic_items": 20,
        "leftovers": 3, "entrances": 15, "penalties": 0}
    assert got.score.total == 244
    assert got.score.achievements == ("Master of the Undead", "Magical Warden", "The Mapmaker")  # T7


def test_achievements_need_a_total_of_180() -> None:
    """T7: each achievement also needs a total of at least 180."""
    low = replace(STRONG, hits=(), mimics=0, oozes=6, skeletons=6, items=4, leftovers=0, entrances=0)
    assert check_tally(low, MAP1).score.total < 180 and check_tally(low, MAP1).score.achievements == ()


def test_the_players_own_arithmetic_is_checked() -> None:
    got = check_tally(STRONG, MAP1, lines={"zombies": 20, "mimics": 12}, total=240)
    assert got.differences == ("zombies: you wrote 20, the count gives 30 (T7)",
                               "total: you wrote 240, the count gives 244 (your lines add up to 32) (T7)")
    assert not got.ok


@pytest.mark.parametrize(("tally", "fault"), [
    (Tally(oozes=7, skeletons=0), "oozes: 7 is more than the map's 6 (T5.3)"),
    (Tally(oozes=2, skeletons=3), "skeletons: 3 defeated, but only 2 oozes"),
    (Tally(oozes=6, skeletons=6, hits=(21,)), "Mummy box 1: 21 is not (21 − round) × 1 for any round (T5.6)"),
    (Tally(oozes=6, skeletons=6, hits=(10, 15)), "their rounds cannot go back"),
    (Tally(oozes=1, hits=(15,)), "1 hits need 3 defeats to unlock their boxes, the tally has 1 (T5.6)"),
    (Tally(items=5), "magic items: 5 is more than the map's 4 (T6)"),
])
def test_a_count_no_sheet_could_show_is_named_with_its_rule(tally: Tally, fault: str) -> None:
    faults = check_tally(tally, MAP1).faults
    assert any(fault in f for f in faults), faults


def test_a_hits_round_is_read_back_from_its_points() -> None:
    """T5.6: the k-th box records (21 − round) × m, m = 1, 1, 2, 2, 3, 3."""
    assert hit_round(1, 20) == 1 and hit_round(1, 1) == 20 and hit_round(3, 26) == 8
    assert hit_round(5, 20) is None and hit_round(6, 3) == 20
