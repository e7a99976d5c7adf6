"""Content as data: the Tile Table and the maps load, and bad files are refused (T2.1, T9, T10)."""

from __future__ import annotations

from importlib import resources

import pytest

from mummy.core.errors import ContentError
from mummy.tomb.content import map_ids, map_spec, parse_map, parse_tiles, tile_table

MAP1 = resources.files("mummy.tomb").joinpath("data").joinpath("map1.txt").read_text()
TILES = resources.files("mummy.tomb").joinpath("data").joinpath("tiles.txt").read_text()


def test_T2_1_tile_table_has_twelve_shapes_and_the_room() -> None:
    t = tile_table()
    assert sorted(t) == sorted([f"{v}{c}" for v in range(1, 7) for c in "ab"] + ["room"])
    assert t["5a"].name == "cross" and len(t["5a"].cells) == 5 and len(t["5a"].openings) == 4
    assert len(t["room"].cells) == 9


def test_T9_map1_is_as_ruled() -> None:
    m = map_spec("map1")
    g = m.grid
    assert (g.width, g.height) == (12, 12)
    assert m.stone.bit_count() == 28
    assert {g.square_name(s) + side for s, side in m.entrances} == {"J1N", "L3E", "A11W", "C12S"}
    assert sum(m.coins.values()) == 18
    assert len(m.oozes) == 6 and len(m.mimics) == 6 and len(m.keys) == 4
    assert {g.square_name(r.square): r.finding for r in m.rooms}["G10"] == "gem"
    assert m.log["skeleton"] == (1, 1, 2, 2, 3, 3)
    assert m.golem_coins == {"red": 2, "blue": 2, "green": 3, "yellow": 3}
    assert (m.key_track, m.coin_track) == (6, 40)


def test_T10_map2_is_a_different_valid_layout_and_harder() -> None:
    # Map 2 has more stone and fewer coins than Map 1 (the strong bot scores about the same
    # on both: tests/sim/test_difficulty.py); maps 3 to 5 are the advanced maps we ship.
    assert map_ids() == ["map1", "map2", "map3", "map4", "map5"]
    m1, m2 = map_spec("map1"), map_spec("map2")
    assert m2.stone != m1.stone
    assert m2.stone.bit_count() > m1.stone.bit_count()
    assert sum(m2.coins.values()) < sum(m1.coins.values())
    assert len(m2.rooms) == 8 and len(m2.entrances) == 4


def _map_with(old: str, new: str) -> str:
    assert old in MAP1
    return MAP1.replace(old, new, 1)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(
    ("old", "new", "fault"),
    [
        ("room: C3 N sarcophagus", "room: C3 E sarcophagus", "does not face a free square"),
        ("room: C3 N sarcophagus", "room: C2 N sarcophagus", "is not a stone square"),
        ("key: A1", "key: C3", "on stone"),
        ("key: A1", "key: I6", "already holds a finding"),
        ("entrance: J1 N", "entrance: J2 N", "not on the border"),
        ("entrance: J1 N", "entrance: K4 N", "is stone"),
        ("log ooze: 1 1 1 1 1 1", "log ooze: 1 1 1 1 1", "log ooze has 5 entries"),
        ("golem: L10 red", "golem: L10 purple", "expected 'golem: SQUARE COLOUR'"),
        ("coins: I6 3", "coins: I6 three", "not a whole number"),
        ("item: G3 shovel", "item: G3 spade", "expected 'item: SQUARE ITEM'"),
        ("key: A1", "key: M1", "off the 12×12 grid"),
        ("mimic: F2", "treasure: F2", "unknown field"),
        ("  ..##........\n", "  ..##.......\n", "the first row has 12"),
        ("  ..##........\n", "  ..##...x....\n", "may hold only"),
    ],
)
def test_T10_bad_map_is_refused_naming_file_line_and_fault(old: str, new: str, fault: str) -> None:
    text = _map_with(old, new)
    with pytest.raises(ContentError) as info:
        parse_map(text, "bad.txt")
    err = info.value
    assert err.file == "bad.txt"
    assert fault in str(err)
    assert str(err).startswith(f"bad.txt:{err.line}: ")
    if "first row" not in fault and "may hold" not in fault and "log" not in fault:
        assert err.line == _line_of(text, new.strip().splitlines()[0])


def test_T10_counts_must_match_the_log() -> None:
    text = _map_with("mimic: F2\n", "")
    with pytest.raises(ContentError, match="log mimic has 6 entries, the map needs 5") as info:
        parse_map(text, "bad.txt")
    assert info.value.line == _line_of(text, "log mimic")


def test_T10_golems_and_gems_must_pair_by_colour() -> None:
    text = _map_with("golem: E11 yellow\n", "")
    with pytest.raises(ContentError, match="gem colours"):
        parse_map(text, "bad.txt")


def test_T10_a_room_has_one_opening() -> None:
    text = _map_with("room: K5 S sarcophagus", "room: K5 S sarcophagus\nroom: K5 W sarcophagus")
    with pytest.raises(ContentError, match="listed twice"):
        parse_map(text, "bad.txt")


def test_T2_1_bad_tile_table_is_refused() -> None:
    with pytest.raises(ContentError, match=r"tiles\.txt:\d+: opening 5,0:E is not on the outline"):
        parse_tiles(TILES.replace("0,0:W 1,0:E", "0,0:W 5,0:E", 1), "tiles.txt")
    with pytest.raises(ContentError, match="not one connected piece"):
        parse_tiles(TILES.replace("##            0,0:W 1,0:E", "#.#  0,0:W 2,0:E", 1), "tiles.txt")
    with pytest.raises(ContentError, match="missing shapes: 6b"):
        parse_tiles("\n".join(x for x in TILES.splitlines() if not x.startswith("6b")), "tiles.txt")


def test_unknown_map_id() -> None:
    with pytest.raises(ValueError, match="unknown map"):
        map_spec("map9")
