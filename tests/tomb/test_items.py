"""Magic items and their functions: T6.1–T6.4 (the Wand, the Shovel; dice or item uses)."""

from __future__ import annotations

import pytest

from mummy.core.errors import IllegalActionError
from mummy.tomb.game import TombGame
from tests.helpers import act, dice, game, legal_texts, names, refused


def crossed() -> TombGame:
    """The cross on J1 (open openings I2w, L2w, J4n) and two dice left."""
    g = game()
    dice(g, 5, 2, 3)
    act(g, "1:5a.r0@J1")
    return g


def test_T6_1_wand_function_by_die_erases_a_wall_into_an_opening() -> None:
    g = crossed()
    act(g, "2:erase@I2n")
    s = g.sheets[0]
    assert "I2n" in names(g, s.open_openings())
    assert s.item_uses == (0, 0, 0, 0)  # no item needed or spent (T6.4)


def test_T6_1_wand_beside_an_opening_is_refused() -> None:
    g = game()
    dice(g, 5, 4, 1)
    act(g, "1:5a.r0@J1")
    act(g, "2:4b.f0@I4")  # chamber I4 J4 I5 J5 opening on J4n: its wall I4n is in line with it
    err = refused(g, "3:erase@I4n", "T6.1")
    assert "two edges wide" in str(err)


def test_T6_1_border_and_stone_edges_cannot_be_erased() -> None:
    g = game()
    dice(g, 6, 1)
    act(g, "1:6b.r0@J1")  # snake from the right entrance: K1n on the border gets a wall
    err = refused(g, "2:erase@K1n", "T6.1")
    assert "border" in str(err)
    err = refused(g, "2:erase@L4n", "T6.1")  # L3 over the stone of L4, not a room opening
    assert "stone" in str(err)



def test_T6_1_no_wall_there() -> None:
    g = crossed()
    refused(g, "2:erase@B2n", "T6.1")
    refused(g, "2:erase@J4n", "T6.1")  # an open opening


def test_T6_1_erasing_a_closed_entrance_connects_it() -> None:
    g = game()
    dice(g, 6, 1)
    act(g, "1:6b.r0@J1")  # J1..L3 from the L3 entrance; J1n is closed by the snake's wall
    s = g.sheets[0]
    assert names(g, s.closed_entrances()) == {"J1n"}
    act(g, "2:erase@J1n")
    s = g.sheets[0]
    assert names(g, s.connected_entrances()) == {"J1n", "L3e"}


def test_T6_1_erasing_a_closed_room_connects_it_and_collects_its_finding() -> None:
    g = game()
    dice(g, 3, 1)
    act(g, "1:3b.f0@J2")
    s = g.sheets[0]
    assert names(g, s.closed_rooms()) == {"K4n"} and s.gems_found == 0
    act(g, "2:erase@K4n")
    s = g.sheets[0]
    assert names(g, s.connected_rooms()) == {"K4n"}
    assert s.gems_found == 1 << s.map.colours.index("blue")


def test_T6_2_wand_adds_a_wall_on_an_open_opening() -> None:
    g = crossed()
    act(g, "2:add@I2w")
    s = g.sheets[0]
    assert names(g, s.open_openings()) == {"L2w", "J4n"}


def test_T6_2_passages_and_connected_entrances_cannot_be_walled() -> None:
    g = game()
    dice(g, 5, 5, 1, 1)
    act(g, "1:5a.r0@J1")
    act(g, "2:5b.r3@J4")  # J4n is now a passage
    refused(g, "3:add@J4n", "T6.2")
    refused(g, "3:add@J1n", "T6.2")  # the connected entrance
    refused(g, "3:add@B2n", "T6.2")  # not part of the map


def test_T6_3_shovel_item_digs_a_square_by_the_rules_of_T3() -> None:
    g = crossed()
    refused(g, "shovel:dig.e@H2", "T6.3")  # not found yet
    s = g.sheets[0]
    s.items_found = 1 << 1
    s.item_uses = (0, 3, 0, 0)
    act(g, "shovel:dig.ew@H2")
    s = g.sheets[0]
    assert s.item_uses[1] == 2 and "H2w" in names(g, s.open_openings())
    with pytest.raises(IllegalActionError) as info:
        act(g, "shovel:dig.n@C6")  # not connected
    assert info.value.rule == "T3.2"


def test_T6_3_shovel_square_has_one_or_two_openings() -> None:
    g = crossed()
    with pytest.raises(ValueError):
        act(g, "2:dig.nes@H2")
    assert {t for t in legal_texts(g) if t.startswith("2:dig") and t.endswith("@H2")} == {
        "2:dig.e@H2", "2:dig.ne@H2", "2:dig.es@H2", "2:dig.ew@H2"}


def test_T6_4_functions_by_die_need_one_die_of_any_value() -> None:
    g = crossed()
    texts = legal_texts(g)
    assert "2:add@I2w" in texts and "3:add@I2w" in texts
    assert "2:erase@I2n" in texts and "2:dig.e@H2" in texts


def test_T6_wand_uses_run_out() -> None:
    g = crossed()
    s = g.sheets[0]
    s.items_found = 1
    s.item_uses = (1, 0, 0, 0)
    act(g, "wand:add@I2w")
    err = refused(g, "wand:add@L2w", "T6.1")
    assert "no use left" in str(err)


def test_T6_3_shovel_square_must_not_have_a_wall_yet() -> None:
    g2 = game()
    dice(g2, 5, 1)
    act(g2, "1:5a.r0@J1")
    # H2 faces the cross's open opening I2w and has no wall yet: it may be dug.
    assert "2:dig.e@H2" in legal_texts(g2)
    s = g2.sheets[0]
    s.walls |= 1 << s.map.grid.parse_edge("H2n")  # give H2 a wall on its north side
    err = refused(g2, "2:dig.e@H2", "T6.3")
    assert "no wall yet" in str(err) and err.where == "H2"
    assert not any(t.endswith("@H2") for t in legal_texts(g2) if ":dig" in t)


def test_T6_3_shovel_is_never_the_first_tile() -> None:
    """A Shovel square extends the dungeon that exists: on a fresh sheet it is never listed,
    and the checked path refuses it under T6.3, whether by a die or by the item."""
    g = game()
    dice(g, 1, 2)
    assert not any(":dig." in t for t in legal_texts(g))
    err = refused(g, "1:dig.w@A11", "T6.3", where="A11")
    assert "first tile" in str(err)
    s = g.sheets[0]
    s.items_found = 1 << 1  # white-box: even holding the Shovel changes nothing
    s.item_uses = (0, 3, 0, 0)
    assert not any(t.startswith("shovel:") for t in legal_texts(g))
    refused(g, "shovel:dig.w@A11", "T6.3", where="A11")


def test_T6_3_an_open_entrance_is_not_part_of_the_dungeon() -> None:
    """Once the dungeon exists, a Shovel square whose only connection is an open entrance is
    refused like any tile (T3.2) and never listed."""
    g = crossed()
    assert not any(t.endswith("@A11") for t in legal_texts(g) if ":dig." in t)
    refused(g, "2:dig.w@A11", "T3.2", where="A11")
