"""Placing tiles: T1.6, T2.2, T3.1–T3.5 on Map 1, refusals included."""

from __future__ import annotations

import pytest

from tests.helpers import a, act, dice, game, legal_texts, names, refused, squares, state

# Gallery (4a) standing on J1..J4 from the top entrance: open openings K2w and J5n.
GALLERY = "1:4a.f3@J1"


def started():
    g = game()
    dice(g, 4, 1, 1, 2)
    act(g, GALLERY)
    return g


def test_T3_2_first_tile_opens_on_an_entrance_which_becomes_the_start() -> None:
    g = started()
    s = g.sheets[0]
    assert squares(g, s.covered) == {"J1", "J2", "J3", "J4"}
    assert names(g, s.open_openings()) == {"K2w", "J5n"}
    assert g.maps[0].grid.edge_name(s.start) == "J1n"
    assert names(g, s.connected_entrances()) == {"J1n"}


def test_T3_2_first_tile_elsewhere_is_refused() -> None:
    g = game()
    dice(g, 1, 1)
    err = refused(g, "1:1a.r0@E5", "T3.2", "E5")
    assert "entrance" in str(err)


def test_T3_2_restarting_at_a_second_entrance_is_refused() -> None:
    g = started()
    err = refused(g, "2:1a.r0@K3", "T3.2", "K3")  # K3-L3 opens on the L3 entrance only
    assert "restart" in str(err)


def test_T3_2_corner_only_contact_is_refused() -> None:
    g = started()
    err = refused(g, "2:1a.r0@H5", "T3.2", "H5")  # I5 meets J4 at a corner only
    assert "corner" in str(err)


def test_T3_2_a_gap_between_openings_is_refused() -> None:
    g = started()
    err = refused(g, "2:1a.r1@J6", "T3.2", "J6")  # opens towards J5n but J5 stays uncovered
    assert "gap" in str(err)


def test_T3_1_overlap_is_refused_naming_the_square() -> None:
    refused(started(), "2:1a.r1@J4", "T3.1", "J4")


def test_T3_1_stone_is_refused_naming_the_square() -> None:
    refused(started(), "2:1a.r0@B3", "T3.1", "C3")


def test_T3_1_off_map_is_refused() -> None:
    g = started()
    dice(g, 2, 2)
    err = refused(g, "1:2a.r0@K1", "T3.1")
    assert "beyond the map" in str(err)


def test_T3_3_wall_on_wall_is_refused_naming_the_edge() -> None:
    g = started()
    dice(g, 4, 4)
    refused(g, "2:4b.r1@K1", "T3.3", "K1w")


def test_T3_3_opening_on_a_border_edge_becomes_a_dead_end() -> None:
    g = started()
    act(g, "2:1a.r0@K2")  # K2-L2: K2w connects, L2e meets the border
    s = g.sheets[0]
    assert names(g, s.open_openings()) == {"J5n"}
    assert s.walls >> g.maps[0].grid.parse_edge("L2e") & 1


def test_T3_3_opening_on_an_existing_wall_stays_a_wall() -> None:
    g = game()
    dice(g, 6, 1, 4)
    act(g, "1:6a.r2@K1")
    act(g, "2:1b.r0@H2")
    s = g.sheets[0]
    k1w = g.maps[0].grid.parse_edge("K1w")
    assert s.walls >> k1w & 1
    act(g, "3:4a.r0@G1")  # its opening on K1w faces the tee's wall
    s = g.sheets[0]
    assert s.walls >> k1w & 1
    assert "K1w" not in names(g, s.open_edges())


def test_T3_3_wall_on_an_open_opening_makes_a_dead_end() -> None:
    g = game()
    dice(g, 2, 4, 3)
    act(g, "1:2b.r2@K2")
    act(g, "2:4a.f0@I1")
    assert "I1w" in names(g, g.sheets[0].open_openings())
    act(g, "3:3a.r0@H1")
    s = g.sheets[0]
    assert "I1w" not in names(g, s.open_openings())
    assert "I1w" in names(g, s.walls)


def test_T2_2_wrong_die_value_is_refused() -> None:
    refused(started(), "2:2a.r0@K2", "T2.2")


def test_T2_2_room_takes_two_dice_of_any_value() -> None:
    g = game()
    dice(g, 5, 5, 3, 6)
    act(g, "1:5a.r0@J1")  # cross: open openings I2w, K2e, J3s
    refused(g, "3:room.r0@F1", "T2.2")
    assert "3+4:room.r0@F1" in legal_texts(g)
    act(g, "3+4:room.r0@F1")  # its east opening on H2 meets I2w
    s = g.sheets[0]
    assert {"F1", "G1", "H1", "F2", "G2", "H2", "F3", "G3", "H3"} <= squares(g, s.covered)
    assert [d.used for d in s.row] == [True, False, True, True]
    assert s.marks == 1 << 8  # only the cross is marked: the room is outside the table (T2.3)
    assert s.item_uses[1] == 3  # the Shovel on G3


def test_T2_2_symmetric_orientations_count_once() -> None:
    g = started()
    texts = legal_texts(g)
    assert "2:1a.r0@K2" in texts and "2:1a.r2@K2" not in texts  # r2 of the stub is r0
    act(g, "2:1a.r2@K2")  # any name of the orientation is accepted...
    assert g.history[-1][1] == a(g, "2:1a.r0@K2")  # ...and recorded by its canonical name


def test_T2_2_equal_dice_are_listed_once_but_either_may_be_used() -> None:
    g = started()
    texts = legal_texts(g)
    assert "2:1a.r0@K2" in texts and "3:1a.r0@K2" not in texts
    act(g, "3:1a.r0@K2")
    assert [d.used for d in g.sheets[0].row] == [True, False, True, False]


def test_T3_4_placement_collects_findings_on_covered_squares() -> None:
    g = game()
    dice(g, 5, 5)
    act(g, "1:5a.r0@J1")
    assert g.sheets[0].coins == 0
    act(g, "2:5b.r3@J4")  # covers I6: 3 coins
    assert g.sheets[0].coins == 3


def test_T3_4_connecting_a_room_collects_its_finding() -> None:
    g = game()
    dice(g, 4)
    act(g, "1:4a.f0@I3")  # I3..L3 from the right entrance; its south opening on K3 meets K4n
    s = g.sheets[0]
    assert s.gems_found == 1 << s.map.colours.index("blue")
    assert names(g, s.connected_rooms()) == {"K4n"}
    assert names(g, s.connected_entrances()) == {"L3e"}
    assert s.open_rooms() & (1 << s.map.grid.parse_edge("K4n")) == 0


def test_T1_6_entrance_and_room_states() -> None:
    g = started()
    s = g.sheets[0]
    assert names(g, s.open_entrances()) == {"L3e", "A11w", "C12s"}
    assert names(g, s.open_rooms()) == names(g, s.map.room_edges)
    assert s.closed_entrances() == 0


def test_T3_5_every_refusal_names_a_rule_and_changes_nothing() -> None:
    g = started()
    for text in ("2:1a.r0@A1", "2:6a.r0@A1", "2:1a.r1@J4", "4:1a.r0@K2", "9:1a.r0@K2"):
        before = state(g)
        with pytest.raises(ValueError) as info:
            g.apply(0, a(g, text))
        assert getattr(info.value, "rule", "")
        assert state(g) == before
