"""Exact dice odds for Mummy's Treasure (R6).

Two questions, two algorithms:

* **One goal** (:func:`chance`): the probability of showing a given set of symbols
  within the rolls left, with the best rerolls. A die *serves* the goal when it shows a
  needed symbol, counted up to the number needed (for ``SSA``, two S and one A). A die
  that does not serve is never worth keeping: rerolled, it may come up useful, and the
  dice kept beside it are the same. So the state is "how many of each needed symbol
  are kept", a handful of states. Keeping *every* serving die, though, is not always
  best: the serving counts are a vector, and a die kept for one symbol can block
  another. With a five-symbol goal every die must end up serving, and a kept die fixes
  one of the five slots, while rerolling everything lets any die take any role. On
  ``AAAAA`` with two rerolls left, ``SSSSA`` has 14641/1679616 keeping one A (each of
  the four other dice must become an S) but 283801/30233088 rerolling all five; ``SSSAE``
  has the same trap. So after each roll the programme tries every keep ``k <= m``
  (componentwise) of the serving counts ``m`` and takes the best, the largest keep on
  a tie. It runs on exact integers, a fraction of a millisecond for a tile. From a fresh
  turn only the *shape* of the need matters (a pair and one other, two pairs...), so
  one call shares work between tiles of the same shape.
* **Several goals with values** (:func:`best_decision`): the reroll that maximises the
  expected value of the tile finally taken. Here keeping a die for one goal may hurt
  another, so the state is the full multiset of five dice (252 of them). The expected
  value of keeping a sub-multiset ``K`` and rerolling the rest is computed die by die
  over all 462 multisets of up to five dice, and the best keep inside each multiset
  by one more pass, so a whole level costs a few thousand operations instead of
  enumerating every keep against every roll.

Both are checked in the tests against a brute force that enumerates every roll and
every non-empty set of dice to reroll (R3.1); for one goal, for every need shape, every
showing and every number of rolls left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from typing import TypeVar

from mummy.core.errors import quote
from mummy.treasure.content import DICE, ROLLS, SYMBOLS, sort_symbols

Num = TypeVar("Num", Fraction, float)


# ---------------------------------------------------------------------------------------
# One goal.
# ---------------------------------------------------------------------------------------


def _check_symbols(text: str, what: str) -> str:
    bad = set(text) - set(SYMBOLS)
    if bad:
        raise ValueError(f"{what} {quote(text)}: symbols are {' '.join(SYMBOLS)} (R1.1)")
    return sort_symbols(text)


def _six(k: int) -> int:
    """6**k as an int (for the type checker, int ** int may be a float)."""
    return int(6**k)


class _OneGoal:
    """The dynamic programme for one need shape ``c`` (counts of each needed symbol, R6).

    A state ``m <= c`` counts the serving dice of each needed symbol. Chances are kept
    as integer numerators over a power of 6, so the sums are exact integer arithmetic and
    only the answer becomes a :class:`Fraction`:

    * :meth:`showing` (over ``6 ** (5 * rolls)``): dice showing ``m`` with ``rolls``
      rerolls left. The goal shows, or no roll is left, or the best keep :meth:`best`;
    * :meth:`best`: the best keep ``k <= m`` (componentwise) to roll from. Keeping every
      serving die is not always best (``SSSSA`` on ``AAAAA``: reroll all five), so every
      ``k <= m`` is tried;
    * :meth:`roll` (over ``6 ** (5 * rolls)``): keep ``m`` and roll the other dice;
    * :meth:`_dice`: the same, the free dice rolled one at a time. Each die shows an
      unmet needed symbol (one case each) or anything else (the other cases together).
    """

    def __init__(self, need_counts: tuple[int, ...]) -> None:
        self.c = need_counts
        self.rolled: dict[tuple[tuple[int, ...], int, int], int] = {}
        self.kept: dict[tuple[tuple[int, ...], int], tuple[int, int, tuple[int, ...]]] = {}

    def showing(self, m: tuple[int, ...], rolls: int) -> int:
        if m == self.c:
            return _six(DICE * rolls)
        if rolls == 0:
            return 0
        return self.best(m, rolls)[0]

    def best(self, m: tuple[int, ...], rolls: int) -> tuple[int, int, tuple[int, ...]]:
        """(numerator, dice kept, keep) of the best keep ``k <= m``, with ``rolls >= 1``.

        ``best(m)`` is the better of keeping all of ``m`` and ``best(m - one die)``, so
        each keep is rolled once. Among equal chances the keep with more dice wins (fewer
        rerolled), then the larger count vector: the answer is deterministic.
        """
        key = (m, rolls)
        hit = self.kept.get(key)
        if hit is not None:
            return hit
        top = (self.roll(m, rolls), sum(m), m)
        for i, mi in enumerate(m):
            if mi:
                top = max(top, self.best((*m[:i], mi - 1, *m[i + 1:]), rolls))
        self.kept[key] = top
        return top

    def roll(self, m: tuple[int, ...], rolls: int) -> int:
        """Keep ``m`` and roll the other dice now, ``rolls`` rolls left counting this one."""
        if rolls == 0:
            return _six(0) if m == self.c else 0
        kept = sum(m)
        return self._dice(m, DICE - kept, rolls) * _six(kept)

    def _dice(self, m: tuple[int, ...], free: int, rolls: int) -> int:
        """``m`` kept, ``free`` dice still to roll: numerator over 6**(free + 5*(rolls-1))."""
        if free == 0:
            return self.showing(m, rolls - 1)
        if m == self.c:
            return _six(free + DICE * (rolls - 1))
        key = (m, free, rolls)
        hit = self.rolled.get(key)
        if hit is not None:
            return hit
        total, other = 0, len(SYMBOLS)
        for i, (mi, ci) in enumerate(zip(m, self.c, strict=True)):
            if mi < ci:
                total += self._dice((*m[:i], mi + 1, *m[i + 1:]), free - 1, rolls)
                other -= 1
        total += other * self._dice(m, free - 1, rolls)
        self.rolled[key] = total
        return total

    def p(self, m: tuple[int, ...], rolls: int) -> Fraction:
        return Fraction(self.showing(m, rolls), _six(DICE * rolls))


@dataclass(frozen=True)
class Odds:
    """The answer for one goal: the exact chance and the reroll that achieves it."""

    needs: str
    dice: str | None  # None: a fresh turn, nothing rolled yet
    rolls_left: int
    chance: Fraction
    reroll: str  # the dice to reroll now ("" when the goal already shows or no roll is left)

    @property
    def decimal(self) -> float:
        return float(self.chance)


def _need_counts(needs: str) -> tuple[str, tuple[int, ...]]:
    counts = Counter(needs)
    symbols = sort_symbols("".join(counts))
    return symbols, tuple(counts[s] for s in symbols)


def odds(needs: str, dice: str | None = None, rolls_left: int | None = None,
         _cache: dict[tuple[int, ...], _OneGoal] | None = None) -> Odds:
    """Exact chance to show ``needs`` with the best rerolls (R6).

    ``dice=None`` is a fresh turn: all five dice still to roll, ``rolls_left`` defaults
    to 3 (the first roll counts). With ``dice`` showing, ``rolls_left`` is the number of
    rerolls still allowed (default 2: just after the first roll), and ``reroll`` is a
    best reroll now: the one that rerolls fewest dice among those reaching the chance.
    It is usually every die that does not serve the goal, but may include serving ones
    (``SSSSA`` on ``AAAAA`` with two rerolls left: reroll all five).
    """
    needs = _check_symbols(needs.upper(), "needs")
    if not 1 <= len(needs) <= DICE:
        raise ValueError(f"a goal needs 1 to {DICE} symbols, not {len(needs)} (R6)")
    symbols, c = _need_counts(needs)
    shape = tuple(sorted(c, reverse=True))
    cache_ = _cache if _cache is not None else {}
    goal = cache_.get(shape) or cache_.setdefault(shape, _OneGoal(shape))
    order = sorted(range(len(c)), key=lambda i: -c[i])  # align the symbols to the shape
    if dice is None:
        rolls = ROLLS if rolls_left is None else rolls_left
        if not 0 <= rolls <= ROLLS:
            raise ValueError(f"rolls left are 0 to {ROLLS} (R6)")
        start = Fraction(goal.roll(tuple(0 for _ in c), rolls), _six(DICE * rolls))
        return Odds(needs, None, rolls, start, "")
    dice = _check_symbols(dice.upper(), "dice")
    if len(dice) != DICE:
        raise ValueError(f"{DICE} dice show, not {len(dice)} (R6)")
    rolls = ROLLS - 1 if rolls_left is None else rolls_left
    if not 0 <= rolls <= ROLLS - 1:
        raise ValueError(f"with dice showing, rerolls left are 0 to {ROLLS - 1} (R6)")
    have = Counter(dice)
    m = tuple(min(c[i], have[symbols[i]]) for i in order)
    chance = goal.p(m, rolls)
    reroll = ""
    if m != goal.c and rolls > 0:
        _, _, k = goal.best(m, rolls)
        keep = Counter({symbols[i]: k[j] for j, i in enumerate(order)})
        reroll = sort_symbols("".join((have - keep).elements()))
    return Odds(needs, dice, rolls, chance, reroll)


def chance(needs: str, dice: str | None = None, rolls_left: int | None = None) -> Fraction:
    """Just the exact probability (see :func:`odds`)."""
    return odds(needs, dice, rolls_left).chance


def odds_many(needs: Iterable[str], dice: str | None = None, rolls_left: int | None = None) -> list[Odds]:
    """Odds for several goals in one call, sharing the work between equal need shapes."""
    shared: dict[tuple[int, ...], _OneGoal] = {}
    return [odds(n, dice, rolls_left, shared) for n in needs]


# ---------------------------------------------------------------------------------------
# Several goals with values.
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Multisets:
    """All multisets of 0..5 dice over the six symbols, with add/remove transitions."""

    items: tuple[tuple[int, ...], ...]  # count vectors
    index: dict[tuple[int, ...], int]
    size: tuple[int, ...]
    plus: tuple[tuple[int, ...], ...]  # plus[i][s]: index of items[i] + symbol s (-1 if > 5)
    minus: tuple[tuple[int, ...], ...]  # minus[i]: indexes of items[i] - one symbol present
    by_size: tuple[tuple[int, ...], ...]


@cache
def _multisets() -> _Multisets:
    items: list[tuple[int, ...]] = []
    for n in range(DICE + 1):
        for combo in combinations_with_replacement(range(6), n):
            counts = [0] * 6
            for s in combo:
                counts[s] += 1
            items.append(tuple(counts))
    index = {c: i for i, c in enumerate(items)}
    size = tuple(sum(c) for c in items)
    plus = []
    minus = []
    for c in items:
        row = []
        for s in range(6):
            if sum(c) < DICE:
                up = list(c)
                up[s] += 1
                row.append(index[tuple(up)])
            else:
                row.append(-1)
        plus.append(tuple(row))
        down = []
        for s in range(6):
            if c[s]:
                d = list(c)
                d[s] -= 1
                down.append(index[tuple(d)])
        minus.append(tuple(down))
    by_size = tuple(tuple(i for i, c in enumerate(items) if sum(c) == n) for n in range(DICE + 1))
    return _Multisets(tuple(items), index, size, tuple(plus), tuple(minus), by_size)


def _counts(symbols: str) -> tuple[int, ...]:
    return tuple(symbols.count(s) for s in SYMBOLS)


def _text(counts: Sequence[int]) -> str:
    return "".join(s * n for s, n in zip(SYMBOLS, counts, strict=True))


@dataclass(frozen=True)
class Decision:
    """The best play now: take a goal (``take``), or reroll these dice, and its value."""

    value: Fraction | float
    take: str | None  # the needs of the goal to take now, or None
    reroll: str  # dice to reroll ("" when taking or when nothing can be done)


Value = Fraction | float


class _Plan:
    """The dynamic programme of :func:`best_decision` for one set of goals (R6).

    Why a class: the three passes share the multisets, the arithmetic (exact fractions or
    floats) and the value of taking, and each pass is a step one can read alone:

    * ``take[i]``: the best goal value showing in the five-dice multiset ``i`` (R3.3);
    * :meth:`level`: the expected value of keeping each multiset and rolling the rest,
      and the best such keep inside each multiset;
    * :meth:`values`: the value of each five-dice multiset with some rerolls left;
    * :meth:`best_keep`: the best keep from the dice showing that rerolls at least one die.
    """

    __slots__ = ("ms", "one", "take", "take_goal", "zero")

    def __init__(self, goals: Sequence[tuple[str, float | int | Fraction]], exact: bool) -> None:
        self.ms = ms = _multisets()
        self.one: Value = Fraction(1, 6) if exact else 1 / 6
        self.zero: Value = Fraction(0) if exact else 0.0
        parsed = [(_counts(_check_symbols(n.upper(), "needs")), Fraction(v) if exact else float(v))
                  for n, v in goals]
        self.take: dict[int, Value] = {}
        self.take_goal: dict[int, str | None] = {}
        for i in ms.by_size[DICE]:
            c = ms.items[i]
            best, which = self.zero, None
            for need, value in parsed:
                if value > best and all(h >= n for h, n in zip(c, need, strict=True)):
                    best, which = value, _text(need)
            self.take[i] = best
            self.take_goal[i] = which

    def level(self, after: dict[int, Value]) -> tuple[list[Value], list[Value]]:
        """W[k]: expected 'after' value keeping multiset k and rolling the rest, computed
        die by die from the five-dice multisets down; M[k]: the best W over the
        sub-multisets of k, from the empty multiset up."""
        ms, zero, one = self.ms, self.zero, self.one
        w: list[Value] = [zero] * len(ms.items)
        for i in ms.by_size[DICE]:
            w[i] = after[i]
        for n in range(DICE - 1, -1, -1):
            for i in ms.by_size[n]:
                total = zero
                for j in ms.plus[i]:
                    total += w[j]
                w[i] = total * one
        best: list[Value] = [zero] * len(ms.items)
        for n in range(DICE + 1):
            for i in ms.by_size[n]:
                b = w[i]
                for j in ms.minus[i]:
                    if best[j] > b:
                        b = best[j]
                best[i] = b
        return w, best

    def values(self, rerolls: int) -> dict[int, Value]:
        """The value of each five-dice multiset with this many rerolls left: take what
        shows, or the best keep that rerolls at least one die (R3.1)."""
        ms, take = self.ms, self.take
        value = dict(take)
        for _ in range(rerolls):
            _, best = self.level(value)
            value = {i: max(take[i], *(best[j] for j in ms.minus[i])) for i in ms.by_size[DICE]}
        return value

    def best_keep(self, here: int, w: list[Value]) -> tuple[Value, int]:
        """Taking now against every keep of the dice ``here`` that rerolls at least one
        die (R3.1): (value, keep), keep -1 when taking is best. Ties keep the first found."""
        best_value, best_keep = self.take[here], -1
        seen: set[int] = set()
        stack = list(self.ms.minus[here])
        while stack:
            k = stack.pop()
            if k in seen:
                continue
            seen.add(k)
            if w[k] > best_value:
                best_value, best_keep = w[k], k
            stack.extend(self.ms.minus[k])
        return best_value, best_keep


def best_decision(goals: Sequence[tuple[str, float | int | Fraction]], dice: str | None,
                  rolls_left: int | None = None, exact: bool = False) -> Decision:
    """The play that maximises the expected value of the tile finally taken.

    ``goals`` are (needs, value) pairs, such as the top tiles a player could take, each
    with the value a bot puts on it. ``dice=None`` is a fresh turn (then the decision is
    to roll all five, and the value is the expected value of the turn).
    """
    plan = _Plan(goals, exact)
    ms = plan.ms
    if dice is None:  # a fresh turn: roll all five, then play on with two rerolls
        rolls = ROLLS if rolls_left is None else rolls_left
        if not 1 <= rolls <= ROLLS:
            raise ValueError(f"a fresh turn has 1 to {ROLLS} rolls")
        w, _ = plan.level(plan.values(rolls - 1))
        return Decision(w[ms.index[(0,) * 6]], None, "")
    rolls = ROLLS - 1 if rolls_left is None else rolls_left
    if not 0 <= rolls <= ROLLS - 1:
        raise ValueError(f"with dice showing, rerolls left are 0 to {ROLLS - 1}")
    dice = _check_symbols(dice.upper(), "dice")
    if len(dice) != DICE:
        raise ValueError(f"{DICE} dice show, not {len(dice)}")
    here = ms.index[_counts(dice)]
    if rolls == 0:
        return Decision(plan.take[here], plan.take_goal[here], "")
    w, _ = plan.level(plan.values(rolls - 1))
    best_value, best_keep = plan.best_keep(here, w)
    if best_keep < 0:
        return Decision(best_value, plan.take_goal[here], "")
    reroll = _text([h - k for h, k in zip(ms.items[here], ms.items[best_keep], strict=True)])
    return Decision(best_value, None, reroll)
