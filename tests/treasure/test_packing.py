"""The packing search (R5.1) against brute force on small sites."""

from __future__ import annotations

import pytest

pytest.importorskip("hypothesis", reason="the property tests need Hypothesis (the dev extra)")

from hypothesis import given, settings
from hypothesis import strategies as st

from mummy.treasure.board import SiteBoard, site_board
from mummy.treasure.content import parse_sites


def small_site(rows: list[str]) -> SiteBoard:
    """A site drawn as in sites.txt, read by the same parser."""
    return SiteBoard(parse_sites("\n".join(["site: test", *rows, "end"]))["test"])


def brute_packs(board: SiteBoard, sizes: list[tuple[int, int]]) -> bool:
    """Try every placement of every tile, in every combination."""
    options = [list(board.placements(r, c).values()) for r, c in sizes]

    def rec(i: int, used: int) -> bool:
        if i == len(options):
            return True
        return any(not m & used and rec(i + 1, used | m) for m in options[i])

    return rec(0, 0)


def check_arrangement(board: SiteBoard, sizes: list[tuple[int, int]], found: list[tuple[int, str]]) -> None:
    used = 0
    for (r, c), (square, orient) in zip(sizes, found, strict=True):
        mask = board.placements(r, c)[(square, orient)]
        assert not mask & used
        used |= mask
    assert used & ~board.squares == 0


SIZES = st.lists(st.sampled_from([(1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (2, 4)]), min_size=1, max_size=6)
ROWS = st.lists(st.text(alphabet="#.", min_size=4, max_size=4), min_size=2, max_size=4).filter(
    lambda rows: "#" in "".join(rows))


@settings(max_examples=150, deadline=None)
@given(rows=ROWS, sizes=SIZES)
def test_R5_1_packing_agrees_with_brute_force_on_small_sites(rows: list[str],
                                                             sizes: list[tuple[int, int]]) -> None:
    board = small_site(rows)
    found = board.pack(sizes)
    assert (found is not None) == brute_packs(board, sizes)
    if found is not None:
        check_arrangement(board, sizes, found)


def test_R5_1_known_packings_on_the_oasis() -> None:
    oasis = site_board("oasis")
    four = [(2, 4)] * 4
    found = oasis.pack(four)
    assert found is not None
    check_arrangement(oasis, four, found)
    assert oasis.pack([*four, (1, 3)]) is None  # the pinwheel leaves a 2x2 hole only
    assert oasis.pack([(2, 3)] * 6) is not None
    assert oasis.pack([(2, 4)] * 5) is None  # area


def test_fits_respects_the_site_shape() -> None:
    temple = site_board("temple")
    assert temple.fits(0, 2, 4)
    assert not temple.fits(temple.squares, 1, 1)
    assert len(temple.placements(1, 1)) == 36
