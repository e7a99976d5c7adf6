"""Expected turns to fill a Treasure site (mummy.analysis.treasure_values) against an
independent brute force on small sites: every ordered roll of the dice, every non-empty
set of die positions to reroll (R3.1), the forced take after the third roll (R3.2), each
next top tile of a pile with its chance (R2.2), and the fixed point of a pass found by
the secant method on the turn's worth instead of Newton's method on the pass's chance."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import combinations, product

import pytest

from mummy.analysis.treasure_values import STUCK_TURNS, PileState, Position, TreasureValues, counts_of, turn_solver
from mummy.core.grid import Grid
from mummy.treasure.board import SiteBoard
from mummy.treasure.content import SYMBOLS, Site

Dice = tuple[str, ...]


def small_site(width: int, height: int) -> SiteBoard:
    grid = Grid(width, height)
    return SiteBoard(Site("test", grid, grid.all_squares))


# -- the brute force ---------------------------------------------------------------------


@cache
def outcomes(kept: Dice) -> tuple[tuple[Dice, float], ...]:
    """Every ordered roll of the dice not kept, gathered by the sorted dice they give."""
    free = 5 - len(kept)
    counts: Counter[Dice] = Counter(tuple(sorted(kept + roll)) for roll in product(SYMBOLS, repeat=free))
    total = 6 ** free
    return tuple((dice, n / total) for dice, n in counts.items())


def shows(dice: Dice, needs: str) -> bool:
    have = Counter(dice)
    return all(have[s] >= n for s, n in Counter(needs).items())


def turn_worth(costs: dict[str, float], x: float) -> tuple[float, dict[tuple[Dice, int], float]]:
    """The best turn when a tile needing N is worth costs[N] and passing x: before the
    third roll take what shows or reroll any non-empty set of positions; after it take the
    best that shows, else pass. Returns the turn's worth and each keep's worth."""
    memo: dict[tuple[Dice, int], float] = {}
    keeps: dict[tuple[Dice, int], float] = {}

    def showing(dice: Dice) -> float:
        return min((c for n, c in costs.items() if shows(dice, n)), default=float("inf"))

    def value(dice: Dice, rerolls: int) -> float:
        hit = memo.get((dice, rerolls))
        if hit is not None:
            return hit
        best = showing(dice)
        if rerolls == 0:
            best = best if best < float("inf") else x
        else:
            for k in range(1, 6):
                for positions in combinations(range(5), k):
                    kept = tuple(d for i, d in enumerate(dice) if i not in positions)
                    best = min(best, keep(kept, rerolls))
        memo[(dice, rerolls)] = best
        return best

    def keep(kept: Dice, rerolls: int) -> float:
        hit = keeps.get((kept, rerolls))
        if hit is None:
            hit = keeps[(kept, rerolls)] = sum(p * value(d, rerolls - 1) for d, p in outcomes(kept))
        return hit

    start = sum(p * value(d, 2) for d, p in outcomes(()))
    return start, keeps


def rectangles(board: SiteBoard, rows: int, cols: int, covered: int) -> list[int]:
    g = board.grid
    out = set()
    for h, w in {(rows, cols), (cols, rows)}:
        for y in range(g.height - h + 1):
            for x in range(g.width - w + 1):
                mask = sum(1 << g.square(x + dx, y + dy) for dy in range(h) for dx in range(w))
                if not mask & covered and not mask & ~board.squares:
                    out.add(mask)
    return sorted(out)


class Brute:
    """E of every position by brute force (see the module's docstring)."""

    def __init__(self, board: SiteBoard) -> None:
        self.board = board
        self.memo: dict[Position, float] = {}

    def next_piles(self, piles: tuple[PileState, ...], i: int) -> list[tuple[float, tuple[PileState, ...]]]:
        p = piles[i]
        if not p.rest:
            return [(1.0, (*piles[:i], PileState(p.rows, p.cols, None), *piles[i + 1:]))]
        out = []
        for j, needs in enumerate(p.rest):
            rest = tuple(sorted(p.rest[:j] + p.rest[j + 1:]))
            out.append((1 / len(p.rest), (*piles[:i], PileState(p.rows, p.cols, needs, rest), *piles[i + 1:])))
        return out

    def costs(self, position: Position) -> dict[str, float]:
        costs: dict[str, float] = {}
        for i, p in enumerate(position.piles):
            if p.top is None:
                continue
            for mask in rectangles(self.board, p.rows, p.cols, position.covered):
                worth = sum(q * self.worth(Position(position.covered | mask, piles))
                            for q, piles in self.next_piles(position.piles, i))
                costs[p.top] = min(costs.get(p.top, float("inf")), worth)
        return costs

    def worth(self, position: Position) -> float:
        hit = self.memo.get(position)
        if hit is not None:
            return hit
        if position.covered == self.board.squares:
            return 0.0
        costs = self.costs(position)
        if not costs:
            self.memo[position] = STUCK_TURNS
            return STUCK_TURNS
        self.memo[position] = x = fixed_point(lambda x: 1.0 + turn_worth(costs, x)[0] - x)
        return x


def fixed_point(g: Callable[[float], float]) -> float:
    """The root of g(x) = 1 + turn(x) - x by the secant method (g falls with x: passing
    is worth x, with a chance below one)."""
    a, b = 0.0, 1.0
    ga, gb = g(a), g(b)
    for _ in range(100):
        if abs(gb) < 1e-13 or ga == gb:
            break
        a, b, ga = b, b - gb * (b - a) / (gb - ga), gb
        gb = g(b)
    assert abs(gb) < 1e-10
    return b


# -- the checks --------------------------------------------------------------------------

CASES = {
    # A 1x3 site: amulets, scrolls and a dagger; several next tops; a pass is likely.
    "1x3": (small_site(3, 1), (PileState(1, 1, "S", ("A", "E")), PileState(1, 2, "SA", ("CJ",)),
                               PileState(1, 3, "PP", ()))),
    # A 2x2 site with a chest that fills it at once, and tiles that can leave it stuck.
    "2x2": (small_site(2, 2), (PileState(1, 1, "S", ("A",)), PileState(1, 2, "EJ", ("SA",)),
                               PileState(2, 2, "SSA", ()))),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_exact_values_equal_the_brute_force(case: str) -> None:
    board, piles = CASES[case]
    values = TreasureValues(board, exact_free=board.squares.bit_count())
    brute = Brute(board)
    start = Position(0, piles)
    assert values.exact(values.canonical(0, piles)) == pytest.approx(brute.worth(start), abs=1e-9)
    # ... and every position the brute force met on the way (a stuck one counts as
    # STUCK_TURNS, R4.2/R4.3, in both).
    assert len(brute.memo) > 3
    for position, worth in brute.memo.items():
        assert values.exact(values.canonical(position.covered, position.piles)) == pytest.approx(worth, abs=1e-9)


def test_each_keep_is_worth_what_the_brute_force_says() -> None:
    # The review reads a reroll's worth from Turn.keeping: every keep of every showing,
    # blanks kept too, against the brute force at the same worth of passing.
    board, piles = CASES["1x3"]
    values = TreasureValues(board, exact_free=3)
    analysis = values.analyse(values.canonical(0, piles))
    assert analysis.turn is not None and analysis.exact
    costs = {piles[t.pile].top or "": t.value for t in analysis.best_takes().values()}
    start, keeps = turn_worth(costs, analysis.expected)
    assert 1.0 + start == pytest.approx(analysis.expected, abs=1e-9)
    checked = 0
    for (kept, rerolls), worth in keeps.items():
        if rerolls in (1, 2):
            assert analysis.turn.keeping("".join(kept), rerolls) == pytest.approx(worth, abs=1e-9), kept
            checked += 1
    assert checked > 400


def test_a_die_no_tile_needs_is_never_worth_keeping() -> None:
    # The solver drops blank dice (R6's argument); keeping one must never beat rerolling it.
    solver = turn_solver(2)
    show = [float("inf")] * len(solver.ms)
    for i, m in enumerate(solver.ms):
        if m[0] >= 1 and m[1] >= 1:
            show[i] = 1.0
    _values, keeps, _start, _passing = solver.solve(show, 3.0)
    for (i, n), k in solver.pair_index.items():
        if n > solver.size[i] and n < 5:
            assert keeps[2][k] >= keeps[2][solver.pair_index[(i, solver.size[i])]] - 1e-12
    assert counts_of("SSA", "SA") == (2, 1)
