"""Exact dice odds (R6): the rulings' reference values to every digit, and agreement with
an independent brute force that enumerates every roll and every choice of dice."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from mummy.treasure.content import SYMBOLS, all_tiles
from mummy.treasure.odds import best_decision, chance, odds, odds_many

# R6: "For reference (three rolls, exact)".
REFERENCE = [("S", "0.93509"), ("SA", "0.82835"), ("SS", "0.69884"), ("SSA", "0.54316"),
             ("SSS", "0.35485"), ("SSAA", "0.27526"), ("SSSSS", "0.0132721")]


@pytest.mark.parametrize(("needs", "text"), REFERENCE)
def test_R6_reference_odds_to_every_digit(needs: str, text: str) -> None:
    digits = len(text.split(".")[1])
    assert f"{float(chance(needs)):.{digits}f}" == text


def test_R6_one_symbol_is_one_minus_five_sixths_to_the_fifteenth() -> None:
    assert chance("J") == 1 - Fraction(5, 6) ** 15


# -- an independent brute force: every roll of every die, every subset of dice ----------


def _shows(dice: tuple[str, ...], needs: str) -> bool:
    have = Counter(dice)
    return all(have[s] >= n for s, n in Counter(needs).items())


def brute(needs: str, dice: str | None, rolls_left: int) -> Fraction:
    """The chance of showing ``needs``: one goal worth 1 (see :func:`brute_value`)."""
    return brute_value([(needs, 1)], dice, rolls_left)


@pytest.mark.parametrize(("needs", "dice", "rolls"), [
    ("S", None, 3), ("SA", None, 2), ("PP", None, 3), ("EEP", None, 3), ("CCC", None, 2),
    ("SSAA", "SSAJP", 2), ("SSAA", "SAJJP", 1), ("AAA", "AAJJC", 2), ("CJ", "SSAAE", 1),
    ("EEPP", "EPPPP", 2), ("SSSSS", "SSSJA", 2),
])
def test_R6_odds_agree_with_brute_force(needs: str, dice: str | None, rolls: int) -> None:
    assert odds(needs, dice, rolls).chance == brute(needs, dice, rolls)


def test_R6_best_reroll_keeps_what_serves_the_goal() -> None:
    o = odds("SSAA", "SSAJP")
    assert o.reroll == "PJ" and o.chance == Fraction(671, 1296)
    assert odds("SSS", "SSJPA").reroll == "APJ"
    assert odds("SS", "SSSJP").reroll == "" and odds("SS", "SSSJP").chance == 1
    assert odds("SA", "SAJJP").reroll == "" and odds("SA", "SAJJP").chance == 1
    assert odds("SA", "JJJJP", 0).chance == 0


def test_R6_odds_refuse_bad_input() -> None:
    for args in (("SX",), ("",), ("SSAAPJ",), ("S", "SSA"), ("S", None, 4), ("S", "SSAAP", 3)):
        with pytest.raises(ValueError):
            odds(*args)  # type: ignore[arg-type]


def test_R6_all_48_tiles_from_a_fresh_turn() -> None:
    tiles = list(all_tiles().values())
    result = odds_many([t.needs for t in tiles])
    assert len(result) == 48
    by_need = {o.needs: o.chance for o in result}
    assert by_need["SSA"] == by_need["AAE"]  # only the shape of the need matters
    assert by_need["SA"] > by_need["SS"] > by_need["SSA"] > by_need["SSS"] > by_need["SSAA"]


# -- several goals with values ------------------------------------------------------------


def brute_value(goals: list[tuple[str, int]], dice: str | None, rolls_left: int) -> Fraction:
    """The best expected value over every roll and every choice of dice to reroll; with
    ``dice`` None, from a fresh turn (the first roll is not a choice)."""
    @cache
    def value(state: tuple[str, ...], rolls: int) -> Fraction:
        now = max((Fraction(v) for n, v in goals if _shows(state, n)), default=Fraction(0))
        if rolls == 0:
            return now
        best = now
        for mask in range(1, 32):
            kept = tuple(d for i, d in enumerate(state) if not mask >> i & 1)
            best = max(best, expect(tuple(sorted(kept)), rolls - 1))
        return best

    @cache
    def expect(kept: tuple[str, ...], rolls: int) -> Fraction:
        n = 5 - len(kept)
        total = sum(value(tuple(sorted(kept + r)), rolls) for r in product(SYMBOLS, repeat=n))
        return Fraction(total, 6**n)

    if dice is None:
        return expect((), rolls_left - 1)
    return value(tuple(sorted(dice)), rolls_left)


@pytest.mark.parametrize(("goals", "dice", "rolls"), [
    ([("SSA", 4), ("SS", 3), ("A", 1), ("EEPP", 8)], "SSAJP", 2),
    ([("CCJJ", 8), ("JJJ", 6), ("CJ", 2)], "CJJAE", 2),
    ([("PP", 3), ("SAEP", 9)], "PPAEJ", 1),
])
def test_R6_best_decision_for_several_goals_agrees_with_brute_force(
        goals: list[tuple[str, int]], dice: str, rolls: int) -> None:
    d = best_decision(goals, dice, rolls, exact=True)
    assert d.value == brute_value(goals, dice, rolls)
    fast = best_decision(goals, dice, rolls)
    assert abs(float(fast.value) - float(d.value)) < 1e-9


def test_R6_single_goal_decision_matches_the_single_goal_odds() -> None:
    assert best_decision([("SSAA", 1)], None, exact=True).value == chance("SSAA")
    d = best_decision([("SSAA", 1)], "SSAJP", exact=True)
    assert d.value == Fraction(671, 1296) and d.reroll == "PJ" and d.take is None
    assert best_decision([("SA", 5)], "SAJJP").take == "SA"
