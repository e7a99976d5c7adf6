"""T1.3–T1.5 and T5.1: entrances, rooms, tiles' edges, the map state, where findings lie."""

from __future__ import annotations

from mummy.tomb.board import tomb_map
from mummy.tomb.content import tile_table
from tests.helpers import act, dice, game, names


def test_T1_3_entrances_are_border_edges_of_free_squares_and_rooms_have_one_opening() -> None:
    m = tomb_map("map1")
    g = m.grid
    for e in (g.parse_edge(n) for n in ("J1n", "L3e", "A11w", "C12s")):
        assert m.entrance_edges >> e & 1 and g.is_border(e)
    for room in m.spec.rooms:
        assert m.stone >> room.square & 1
        assert m.border_block >> g.edge(room.square, room.side) & 1  # a block edge
    assert m.room_edges.bit_count() == len(m.spec.rooms) == 8


def test_T1_4_inner_edges_are_neither_walls_nor_openings() -> None:
    g = game()
    act(g, "1:5a.r0@J1")
    s = g.sheets[0]
    assert s.inner & s.walls == 0
    assert "J2n" in names(g, s.inner) and "J2n" not in names(g, s.open_edges())
    for shape in tile_table().values():
        assert all(len(side) == 1 for _, side in shape.openings)  # openings are one edge long


def test_T1_5_state_is_covered_squares_and_walls_on_edges_touching_them() -> None:
    g = game()
    dice(g, 5, 5)
    act(g, "1:5a.r0@J1")
    s = g.sheets[0]
    grid = s.map.grid
    assert s.walls & ~grid.edges_of(s.covered) == 0  # every wall touches a covered square
    assert s.tile_at() == {grid.parse_square(n): 1 for n in ("J1", "I2", "J2", "K2", "J3")}
    touching = grid.edges_of(s.covered) & ~s.inner
    assert touching == s.walls | s.open_edges()  # each is a wall or open (T1.5)


def test_T5_1_findings_lie_on_free_squares_and_rooms_hold_sarcophagi_and_gems() -> None:
    m = tomb_map("map1")
    for sq in m.finding_at:
        assert m.free >> sq & 1
    kinds = {kind for kind, _ in m.finding_at.values()}
    assert kinds == {"coins", "key", "ooze", "golem", "mimic", "item"}
    assert sorted(r.finding for r in m.spec.rooms) == ["gem"] * 4 + ["sarcophagus"] * 4
