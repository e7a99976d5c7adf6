"""Treasure content: symbols, 48 tiles in six piles, four sites (R1)."""

from __future__ import annotations

from importlib import resources

import pytest

from mummy.core.errors import ContentError
from mummy.treasure.content import SYMBOLS, all_tiles, parse_piles, parse_sites, piles, sites

TILES = resources.files("mummy.treasure").joinpath("data").joinpath("tiles.txt").read_text()
SITES = resources.files("mummy.treasure").joinpath("data").joinpath("sites.txt").read_text()


def test_R1_1_six_symbols() -> None:
    assert SYMBOLS == "SAEPCJ"


def test_R1_2_48_tiles_in_six_piles_of_eight() -> None:
    p = piles()
    assert list(p) == ["amulet", "scroll", "dagger", "chest", "statue", "sarcophagus"]
    assert [(x.rows, x.cols) for x in p.values()] == [(1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (2, 4)]
    assert all(len(x.tiles) == 8 for x in p.values())
    assert len(all_tiles()) == 48
    assert [t.needs for t in p["chest"].tiles] == ["SSA", "AAE", "EEP", "PPC", "CCJ", "SJJ", "SPP", "ACC"]
    assert p["sarcophagus"].tiles[0].needs == "SSAA"


def test_R1_3_four_sites_of_36_squares() -> None:
    s = sites()
    assert list(s) == ["oasis", "valley", "temple", "pyramid"]
    assert all(site.area == 36 for site in s.values())
    assert (s["valley"].grid.width, s["valley"].grid.height) == (9, 4)


@pytest.mark.parametrize(("old", "new", "fault"), [
    ("S A E P C J A P", "S A E P C J A", "has 7 tiles"),
    ("SS AA EE PP CC JJ PP JJ", "SS AA EE PP CC JJ PP JA", "does not need 'pair'"),
    ("SA EP CJ", "SX EP CJ", "symbols are"),
    ("1x3", "1y3", "not ROWSxCOLS"),
    ("2x2  pair+one", "2x2  pair+two", "unknown need"),
])
def test_R1_2_bad_tile_file_is_refused_with_file_and_line(old: str, new: str, fault: str) -> None:
    text = TILES.replace(old, new, 1)
    line = next(i for i, x in enumerate(text.splitlines(), 1) if new in x)
    with pytest.raises(ContentError, match=fault) as info:
        parse_piles(text, "tiles.txt")
    assert (info.value.file, info.value.line) == ("tiles.txt", line)


def test_R1_3_bad_site_file_is_refused_with_file_and_line() -> None:
    with pytest.raises(ContentError, match=r"sites\.txt:\d+: site row has 5 squares"):
        short_second_row = SITES.replace("  ######\n", "  #####\n", 2).replace("  #####\n", "  ######\n", 1)
        parse_sites(short_second_row, "sites.txt")
    with pytest.raises(ContentError, match="may hold only"):
        parse_sites(SITES.replace("..####..", "..##x#..", 1), "sites.txt")
    with pytest.raises(ContentError, match="no closing 'end'"):
        parse_sites("site: x\n  ##\n", "sites.txt")
