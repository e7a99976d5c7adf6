"""Orientations of shapes with openings (T2.2: identical orientations count once)."""

import pytest

from mummy.core.polyomino import distinct_orientations, orientations, parse_drawing, transform
from mummy.tomb.content import tile_table

# Distinct orientations of each shape *with its openings*.
EXPECTED = {"1a": 2, "1b": 4, "2a": 2, "2b": 4, "3a": 8, "3b": 4, "4a": 8, "4b": 4,
            "5a": 1, "5b": 4, "6a": 4, "6b": 4, "room": 1}


@pytest.mark.parametrize("shape", sorted(EXPECTED))
def test_T2_2_distinct_orientations_count_once(shape: str) -> None:
    t = tile_table()[shape]
    assert len(distinct_orientations(t.cells, t.openings)) == EXPECTED[shape]


def test_T2_2_canonical_name_is_the_first_transform_giving_that_orientation() -> None:
    t = tile_table()["5a"]
    assert {o.name for o in orientations(t.cells, t.openings).values()} == {"r0"}
    t = tile_table()["1a"]
    names = {k: v.name for k, v in orientations(t.cells, t.openings).items()}
    assert names["r2"] == "r0" and names["r3"] == "r1" and names["f0"] == "r0"


def test_rotation_is_clockwise_with_y_down() -> None:
    cells = parse_drawing(["##"])
    o = transform(cells, frozenset({((0, 0), "W")}), "r1")
    assert o.cells == frozenset({(0, 0), (0, 1)})
    assert o.marks == frozenset({((0, 0), "N")})


def test_anchor_is_top_most_then_left_most_cell() -> None:
    cells = parse_drawing([".#", "##"])
    assert transform(cells, frozenset(), "r0").anchor == (1, 0)


def test_bad_drawing_is_refused() -> None:
    with pytest.raises(ValueError):
        parse_drawing(["#x"])
    with pytest.raises(ValueError):
        transform(parse_drawing(["#"]), frozenset(), "r9")
