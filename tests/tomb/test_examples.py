"""The rulebook's worked examples as scenario tests: the First Round Example (T9) and the
Scoring Example (134 points, T7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mummy.tomb.content import ITEMS
from mummy.tomb.game import round_dice
from mummy.tomb.scoring import score
from mummy.tomb.sheet import Die
from tests.helpers import FIVE_FIVE_SEED, act, game, names, squares

RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "000_4ef9018938704364.txt"


def test_T9_first_round_example_on_map1() -> None:
    g = game(FIVE_FIVE_SEED)
    s = g.sheets[0]
    assert [d.value for d in s.row] == [5, 5]  # "She rolls two 5s"

    act(g, "1:5a.r0@J1")  # the cross from the top entrance
    s = g.sheets[0]
    assert squares(g, s.covered) == {"J1", "I2", "J2", "K2", "J3"}
    assert names(g, s.open_openings()) == {"I2w", "L2w", "J4n"}  # I2 W, K2 E, J3 S
    assert s.marks == 1 << 8

    act(g, "2:5b.r3@J4")  # the corner through J3 S, onto the 3 coins of I6
    s = g.sheets[0]
    assert squares(g, s.covered) >= {"J4", "J5", "J6", "I6", "H6"}
    assert s.coins == 3
    assert len(names(g, s.open_openings())) == 3  # "open openings still three"
    assert s.row[2] == Die(2, "bonus")  # row 5 complete: a bonus 2 into slot 3

    act(g, "3:2a.r0@E6")  # the hall G6 F6 E6 through H6 W
    s = g.sheets[0]
    assert {"E6", "F6", "G6"} <= squares(g, s.covered)

    act(g, "buy2")  # 3 coins buy a 2 into slot 4
    s = g.sheets[0]
    assert s.coins == 0 and s.row[3] == Die(2, "choose")

    events = act(g, "4:2b.r0@F2")  # the fork F2 G2 H2 G3 through I2 W
    s = g.sheets[0]
    assert {"F2", "G2", "H2", "G3"} <= squares(g, s.covered)
    assert s.mimics_found == 1  # the mimic on F2
    assert s.items_found == 1 << ITEMS.index("shovel") and s.item_uses[1] == 3  # the Shovel on G3
    assert s.rows_paid == 1 << 1 | 1 << 4  # rows 2 and 5
    assert s.next_bonus == (5,) and any("round 2" in e for e in events)  # the bonus 5 waits

    act(g, "end")
    s = g.sheets[0]
    assert g.round == 2
    assert [(d.value, d.source) for d in s.row] == [(5, "bonus"),
                                                    *((v, "roll") for v in round_dice(g.seed, 2))]


def _scoring_example():
    """Jane's sheet at the end of the Scoring Example, built directly (T7)."""
    g = game()
    s = g.sheets[0]
    m = s.map
    grid = m.grid
    uncovered = grid.squares_mask([grid.parse_square(n) for n in ("A11", "C12", "G11")])
    s.covered = m.free & ~uncovered
    outside = grid.all_squares & ~s.covered
    s.inner = grid.edges_of(s.covered) & ~grid.edges_of(outside) & ~m.border_block
    # The two top-right entrances and every room but the yellow gem's stay connected.
    keep_open = (1 << grid.parse_edge("J1n")) | (1 << grid.parse_edge("L3e")) | (m.room_edges & ~(
        1 << grid.parse_edge("G11n")))
    s.walls = (grid.edges_of(s.covered) & grid.edges_of(uncovered)) | (
        m.border_block & grid.edges_of(s.covered) & ~keep_open)
    s.oozes_found, s.oozes_defeated, s.skel_defeated = 4, 3, 0b111
    s.sarc_found, s.sarc_opened, s.zombies_defeated = 4, 3, 3
    s.golems_found, s.golems_defeated, s.gems_found = 0b1111, 0b0111, 0b0111
    s.mimics_found = s.mimics_defeated = 6
    s.hits = ((8, 13), (11, 10), (13, 16), (18, 6))
    s.items_found = 0b0111
    s.keys_gained, s.keys_used = 6, 4
    return s


def test_T7_scoring_example_134_points() -> None:
    sc = score(_scoring_example())
    assert sc.lines == {
        "oozes_x_skeletons": 9,
        "zombies": 20,
        "golems": 20,
        "mimics": 24,
        "mummy": 45,
        "magic_items": 15,
        "leftovers": 5,
        "entrances": 5,
        "penalties": -9,
    }
    assert (sc.open_openings, sc.open_entrances, sc.open_rooms) == (0, 2, 1)
    assert sc.total == 134
    assert sc.achievements == ()  # below 180


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook lives in ../shared")
def test_T7_the_rulebook_says_134() -> None:
    text = RULEBOOK.read_text()
    assert "total final score of 134 Fame points" in text
    assert "13+10+16+6=45" in text
