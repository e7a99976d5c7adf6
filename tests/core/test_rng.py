"""Seeded, stateless dice streams (T4.6)."""

from collections import Counter

from mummy.core.rng import draw, parse_seed


def test_T4_6_same_seed_same_values_and_streams_differ() -> None:
    a = [draw(7, "round", i) for i in range(40)]
    assert a == [draw(7, "round", i) for i in range(40)]
    assert a != [draw(8, "round", i) for i in range(40)]
    assert a != [draw(7, "buy", i) for i in range(40)]


def test_faces_are_fair_enough() -> None:
    counts = Counter(draw(1, "x", i) for i in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values())


def test_parse_seed() -> None:
    assert parse_seed("42") == 42
    for bad in ("-1", "x"):
        try:
            parse_seed(bad)
        except ValueError:
            continue
        raise AssertionError(bad)
