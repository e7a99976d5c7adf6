"""Grid geometry: square and edge names, and the bitboard shifts (T1.1, T1.2)."""

import pytest

from mummy.core.grid import Grid, column_name, iter_bits

G = Grid(12, 12)


def test_T1_1_square_names_letters_then_numbers_from_top_left() -> None:
    assert G.square_name(G.square(0, 0)) == "A1"
    assert G.square_name(G.square(11, 11)) == "L12"
    assert G.parse_square("j1") == G.square(9, 0)
    assert column_name(26) == "AA"


@pytest.mark.parametrize("text", ["M1", "A13", "A0", "1A", "", "J", "A１", "Ａ1", "J١"])
def test_T1_1_off_grid_or_malformed_squares_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        G.parse_square(text)


def test_T1_2_every_edge_has_one_canonical_name_that_round_trips() -> None:
    seen = set()
    for sq in G.squares():
        for side in "NESW":
            e = G.edge(sq, side)
            name = G.edge_name(e)
            assert G.parse_edge(name) == e
            seen.add(e)
    assert len(seen) == 12 * 13 * 2


def test_T1_2_shared_edges_are_one_edge() -> None:
    assert G.edge(G.parse_square("E4"), "S") == G.edge(G.parse_square("E5"), "N")
    assert G.edge(G.parse_square("E4"), "E") == G.edge(G.parse_square("F4"), "W")
    assert G.edge_name(G.edge(G.parse_square("E4"), "S")) == "E5n"
    assert G.edge_name(G.edge(G.parse_square("L4"), "E")) == "L4e"  # far border keeps e


def test_T1_2_border_edges() -> None:
    assert G.is_border(G.parse_edge("A1n"))
    assert G.is_border(G.parse_edge("A1w"))
    assert G.is_border(G.parse_edge("L12s"))
    assert not G.is_border(G.parse_edge("B2n"))


def test_edges_of_matches_the_four_sides_of_each_square() -> None:
    mask = (1 << G.parse_square("A1")) | (1 << G.parse_square("C3"))
    expected = set()
    for sq in iter_bits(mask):
        expected |= {G.edge(sq, s) for s in "NESW"}
    assert set(iter_bits(G.edges_of(mask))) == expected


def test_edges_between_two_disjoint_sets_is_an_and() -> None:
    a = 1 << G.parse_square("B2")
    b = 1 << G.parse_square("B3")
    assert list(iter_bits(G.edges_of(a) & G.edges_of(b))) == [G.parse_edge("B3n")]


def test_horizontal_and_vertical_edge_masks_are_disjoint_and_complete() -> None:
    assert G.horizontal_edges & G.vertical_edges == 0
    assert G.horizontal_edges.bit_count() == 12 * 13
    assert G.vertical_edges.bit_count() == 13 * 12


def test_square_names_are_ascii_and_errors_repeat_little_of_the_input() -> None:
    """Full-width or other Unicode digits are no square name (the notation is ASCII), and a
    long bad name is not echoed back whole."""
    with pytest.raises(ValueError, match="ASCII"):
        G.parse_square("A\uff11")
    with pytest.raises(ValueError) as info:
        G.parse_square("Z" * 100_000)
    assert len(str(info.value)) < 200
