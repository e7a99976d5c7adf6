"""Exact dice odds (R6): the rulings' reference values to every digit, and agreement with
an independent brute force that enumerates every roll and every choice of dice."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product

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


def test_R6_a_five_symbol_goal_may_reroll_every_die() -> None:
    # Kept, an A fixes one of the five slots: the four S must all come from four dice
    # in two rolls, (11/36)**4. Rerolled, any die may become the A or an S.
    o = odds("SSSSA", "AAAAA", 2)
    assert o.chance == Fraction(283801, 30233088) and o.reroll == "AAAAA"
    assert _brute_kept((("SSSSA", 1),), ("A",), 1) == Fraction(14641, 1679616) < o.chance
    assert odds("SSSAE", "SSSJJ", 2).reroll == "JJ"  # where keeping what serves is best


def test_R6_three_one_one_from_a_fresh_turn_is_exact() -> None:
    assert chance("SSSAE") == Fraction(3173586521, 39182082048)
    assert chance("EPPPP") == chance("SSSSA") == brute("SSSSA", None, 3)


def _shapes(n: int, most: int) -> list[tuple[int, ...]]:
    """The partitions of n with parts at most ``most``, largest part first."""
    if n == 0:
        return [()]
    return [(k, *rest) for k in range(min(n, most), 0, -1) for rest in _shapes(n - k, k)]


SHAPES = [shape for n in range(1, 6) for shape in _shapes(n, n)]  # 18 shapes


@pytest.mark.parametrize("shape", SHAPES, ids=lambda shape: "+".join(map(str, shape)))
def test_R6_odds_are_exact_for_every_goal_showing_and_rolls_left(shape: tuple[int, ...]) -> None:
    """Every need shape, every showing (252 multisets), 0-2 rerolls left, and fresh turns.

    The dice are fair and the rules treat the six symbols alike, so renaming the symbols
    by a permutation maps every roll and every reroll of (goal, dice) onto (renamed goal,
    renamed dice) with the same chance. Every goal is a renaming of one shape's goal
    (``SSSAE`` for 3+1+1), so the brute force runs on that goal only, and ``odds`` is
    asked about a randomly renamed goal and showing (fixed seed) each time, which also
    exercises how it matches symbols to the shape. The reported reroll must reach the
    optimum and reroll as few dice as any keep that does.
    """
    need = "".join(s * k for s, k in zip(SYMBOLS, shape, strict=False))
    goals = ((need, 1),)
    rng = random.Random(need)

    def renaming() -> tuple[dict[int, int], dict[int, int]]:
        to = "".join(rng.sample(SYMBOLS, len(SYMBOLS)))
        return str.maketrans(SYMBOLS, to), str.maketrans(to, SYMBOLS)

    for rolls in range(1, 4):
        there, _ = renaming()
        assert odds(need.translate(there), None, rolls).chance == brute_value(list(goals), None, rolls)
    for combo in combinations_with_replacement(SYMBOLS, 5):
        state = tuple(sorted(combo))
        for rolls in range(3):
            there, back = renaming()
            o = odds(need.translate(there), "".join(state).translate(there), rolls)
            best = _brute_state(goals, state, rolls)
            assert o.chance == best, (need, state, rolls)
            reroll = o.reroll.translate(back)
            if rolls == 0 or _shows(state, need):
                assert reroll == ""
                continue
            assert reroll and Counter(reroll) <= Counter(state)
            kept = tuple(sorted((Counter(state) - Counter(reroll)).elements()))
            assert _brute_kept(goals, kept, rolls - 1) == best, (need, state, rolls, reroll)
            fewest = min(mask.bit_count() for mask in range(1, 32)
                         if _brute_kept(goals, _kept(state, mask), rolls - 1) == best)
            assert len(reroll) == fewest, (need, state, rolls, reroll)


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


Goals = tuple[tuple[str, int], ...]


@cache
def _brute_state(goals: Goals, state: tuple[str, ...], rolls: int) -> Fraction:
    """Five dice ``state`` showing, ``rolls`` rerolls left: stop with the best goal showing,
    or reroll any non-empty set of die positions (R3.1), whichever is best."""
    now = max((Fraction(v) for n, v in goals if _shows(state, n)), default=Fraction(0))
    if rolls == 0:
        return now
    return max(now, *(_brute_kept(goals, _kept(state, mask), rolls - 1) for mask in range(1, 32)))


def _kept(state: tuple[str, ...], mask: int) -> tuple[str, ...]:
    return tuple(sorted(d for i, d in enumerate(state) if not mask >> i & 1))


@cache
def _outcomes(kept: tuple[str, ...]) -> Counter[tuple[str, ...]]:
    """Every roll of the dice not kept, one by one (6**n of them), by the five dice shown."""
    return Counter(tuple(sorted(kept + r)) for r in product(SYMBOLS, repeat=5 - len(kept)))


@cache
def _brute_kept(goals: Goals, kept: tuple[str, ...], rolls: int) -> Fraction:
    """Keep ``kept``, roll the other dice over every outcome, then play on."""
    total = sum(ways * _brute_state(goals, state, rolls) for state, ways in _outcomes(kept).items())
    return Fraction(total, 6 ** (5 - len(kept)))


def brute_value(goals: list[tuple[str, int]], dice: str | None, rolls_left: int) -> Fraction:
    """The best expected value over every roll and every choice of dice to reroll; with
    ``dice`` None, from a fresh turn (the first roll is not a choice)."""
    if dice is None:
        return _brute_kept(tuple(goals), (), rolls_left - 1)
    return _brute_state(tuple(goals), tuple(sorted(dice)), rolls_left)


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
