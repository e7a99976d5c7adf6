"""Expected turns to fill a Mummy's Treasure site: exact on small positions, built on R6.

What a solo player wants (R4.3) is to fill the site in as few turns as possible, so the
worth of a position is ``E``: the expected number of turns still to play, this one
included, with the best play from here. This module computes it.

**What a position is.** Between two turns a player knows the squares covered and, for
each pile, its top tile and the tiles beneath it, but not their order (R2.2: only the top
is visible; the piles' contents are public, so the rest is known as a multiset). Taking a
tile shows the next one, any of those beneath with equal chance. That is
:class:`Position`; what beats chance inside a turn is the dice.

**One turn, exactly.** Given the worth of every position a take can lead to, a turn is a
small decision problem over the dice, solved exactly as :mod:`mummy.treasure.odds` does
for R6 (five dice as a multiset of symbols, 252 of them; a keep is a sub-multiset; a keep
is valued by rolling the free dice one at a time). The rules are followed to the letter:
after the first and second roll, take a tile that shows or reroll a non-empty set of dice
(R3.1); after the third, take one if any shows, even a bad one, else pass (R3.2). A pass
leaves the position as it was, so ``E`` appears on both sides of its own equation::

    E = 1 + (the best turn's expected E after it, where "nothing taken" is worth E)

The best turn's value is piecewise linear and concave in the worth of passing, with a
slope (the chance of passing) below one, so Newton's method on that equation is policy
iteration and ends in a few steps with the exact fixed point.

**Exact where it can be.** On a position with at most ``exact_free`` free squares the
recursion runs to the end of the game: every take, every next top tile with its chance,
every position after it, each solved exactly and remembered. Piles whose tiles no longer
fit anywhere can never be taken again (covered squares only grow, R3.3) and are dropped
from the position, which keeps the endgame small. ``tests/analysis`` checks these values
against a brute force that enumerates every keep of every roll.

Above that size the number of positions explodes, and a position's worth is
:meth:`TreasureValues.estimate`: free squares over the expected area of a turn's tile
(the exact R6 odds of the tiles on top, with the best rerolls for area), plus the cost
of being stuck when some free square can no longer be covered by any tile left. A turn
played from such a position is still solved exactly over its dice; only the worth of
where it leads is estimated, and every value says which (``exact``).

**A site that can no longer be filled** ends the solo game unfinished (R4.2, R4.3), which
ranks below any filled site. Its worth is :data:`STUCK_TURNS` turns, about three whole
games, so that the best play avoids it whenever it can.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Final

from mummy.treasure.board import SiteBoard
from mummy.treasure.content import DICE, ROLLS, SYMBOLS, sort_symbols
from mummy.treasure.odds import best_decision

#: The worth of a site that can no longer be filled (R4.2, R4.3), in turns.
STUCK_TURNS: Final = 30.0
#: Positions with at most this many free squares are solved exactly to the end.
EXACT_FREE: Final = 6
INF: Final = float("inf")


# ---------------------------------------------------------------------------------------
# Positions.
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class PileState:
    """A pile as a player knows it (R2.2): its tiles' size, the needs of its top tile
    (None when it is empty or can never be taken again) and the needs of the tiles
    beneath, sorted, since their order is hidden."""

    rows: int
    cols: int
    top: str | None
    rest: tuple[str, ...] = ()

    def drawn(self) -> list[tuple[float, PileState]]:
        """The pile after its top is taken: each possible next top with its chance."""
        if not self.rest:
            return [(1.0, PileState(self.rows, self.cols, None))]
        counts = Counter(self.rest)
        n = len(self.rest)
        out = []
        for needs, k in sorted(counts.items()):
            rest = list(self.rest)
            rest.remove(needs)
            out.append((k / n, PileState(self.rows, self.cols, needs, tuple(rest))))
        return out


@dataclass(frozen=True)
class Position:
    """Between two turns: the squares covered and the piles (in pile order)."""

    covered: int
    piles: tuple[PileState, ...]


@dataclass(frozen=True)
class Take:
    """One take: the pile (its index), the top-left square and orientation, the squares
    it covers, and its worth: the expected turns still to play after this turn."""

    pile: int
    square: int
    orient: str
    mask: int
    value: float


# ---------------------------------------------------------------------------------------
# The dice of one turn (R1.1, R3.1, R3.2).
# ---------------------------------------------------------------------------------------


def counts_of(symbols: str, alphabet: str = SYMBOLS) -> tuple[int, ...]:
    """How many of each letter of ``alphabet`` the symbols hold."""
    return tuple(symbols.count(s) for s in alphabet)


class TurnSolver:
    """The dice of a turn seen through the ``g`` symbols some top tile needs.

    A die showing a symbol no tile needs is a *blank*: kept, it serves nothing, and
    rerolled it can only come up more useful (R6's argument, true for several goals at
    once), so the best play never keeps one. Five dice are then their multiset ``m`` of
    needed symbols (at most five; the rest blanks), and a keep is such a multiset too.
    Rolling is done one die at a time over the pairs ``(m, n)``: ``m`` kept or rolled so
    far among ``n`` dice; each new die is one of the needed symbols (1/6 each) or a blank
    ((6 - g)/6). A keep that holds some blanks, as a player may choose, is the pair
    ``(m, n)`` with ``n`` the dice kept, so its worth is read off the same table."""

    def __init__(self, g: int) -> None:
        self.g = g
        ms = [tuple(combo.count(s) for s in range(g)) for n in range(DICE + 1)
              for combo in combinations_with_replacement(range(g), n)]
        self.ms = ms
        self.m_index = {m: i for i, m in enumerate(ms)}
        self.size = [sum(m) for m in ms]
        self.minus = [[self.m_index[_bump(m, s, -1)] for s in range(g) if m[s]] for m in ms]
        pairs = [(i, n) for i, m in enumerate(ms) for n in range(sum(m), DICE + 1 if g < len(SYMBOLS) else sum(m) + 1)]
        self.pairs = pairs
        self.pair_index = {p: k for k, p in enumerate(pairs)}
        self.final = [self.pair_index.get((i, DICE), -1) for i in range(len(ms))]
        self.kept = [self.pair_index[(i, self.size[i])] for i in range(len(ms))]
        self.up: list[list[int]] = []
        self.blank: list[int] = []
        for i, n in pairs:
            if n == DICE:
                self.up.append([])
                self.blank.append(-1)
                continue
            self.up.append([self.pair_index[(self.m_index[_bump(ms[i], s, 1)], n + 1)] for s in range(g)])
            self.blank.append(self.pair_index.get((i, n + 1), -1))
        self.order = sorted((k for k, (_i, n) in enumerate(pairs) if n < DICE), key=lambda k: -pairs[k][1])
        self.blanks = float(len(SYMBOLS) - g)
        self.by_size = sorted(range(len(ms)), key=lambda i: self.size[i])

    def roll(self, v: list[float], vp: list[float]) -> tuple[list[float], list[float]]:
        """The worth and passing chance of every pair ``(m, n)``: ``m`` kept among ``n``
        dice, the other dice rolled, then five dice worth ``v`` (passing chance ``vp``)."""
        w = [0.0] * len(self.pairs)
        wp = [0.0] * len(self.pairs)
        for i, k in enumerate(self.final):
            if k >= 0:
                w[k], wp[k] = v[i], vp[i]
        blanks = self.blanks
        for k in self.order:
            total = 0.0
            chance = 0.0
            for j in self.up[k]:
                total += w[j]
                chance += wp[j]
            b = self.blank[k]
            if b >= 0:
                total += blanks * w[b]
                chance += blanks * wp[b]
            w[k] = total / 6.0
            wp[k] = chance / 6.0
        return w, wp

    def level(self, show: list[float], w: list[float], wp: list[float]) -> tuple[list[float], list[float]]:
        """Five dice with a reroll left: take the best tile showing, or keep the best
        sub-multiset and reroll the rest, at least one die (R3.1)."""
        m = [w[k] for k in self.kept]
        mp = [wp[k] for k in self.kept]
        for i in self.by_size:  # the best keep inside each multiset, smallest first
            for j in self.minus[i]:
                if m[j] < m[i]:
                    m[i], mp[i] = m[j], mp[j]
        v = [0.0] * len(self.ms)
        vp = [0.0] * len(self.ms)
        for i in range(len(self.ms)):
            best, chance = show[i], 0.0
            if self.size[i] < DICE:  # some blank to reroll: every keep of m is allowed
                if m[i] < best:
                    best, chance = m[i], mp[i]
            else:
                for j in self.minus[i]:
                    if m[j] < best:
                        best, chance = m[j], mp[j]
            v[i], vp[i] = best, chance
        return v, vp

    def solve(self, show: list[float], x: float) -> tuple[list[list[float]], list[list[float]], float, float]:
        """The turn when the best tile showing in ``m`` is worth ``show[m]`` (INF: none)
        and ending it without a tile is worth ``x``; after the third roll a tile that shows
        must be taken (R3.2). Returns the worth of five dice per rerolls left, of each
        keep per rerolls left (``keep[r]``, the reroll made with ``r`` left), the turn
        before its first roll, and the chance it ends without a tile."""
        v = [s if s < INF else x for s in show]
        vp = [0.0 if s < INF else 1.0 for s in show]
        values = [v]
        keeps: list[list[float]] = [[]]
        for _ in range(ROLLS - 1):
            w, wp = self.roll(v, vp)
            v, vp = self.level(show, w, wp)
            values.append(v)
            keeps.append(w)
        w, wp = self.roll(v, vp)
        start = self.pair_index[(self.m_index[(0,) * self.g], 0)]
        return values, keeps, w[start], wp[start]


def _bump(c: tuple[int, ...], s: int, d: int) -> tuple[int, ...]:
    return (*c[:s], c[s] + d, *c[s + 1:])


_SOLVERS: dict[int, TurnSolver] = {}


def turn_solver(g: int) -> TurnSolver:
    """The solver for ``g`` needed symbols, built once per process."""
    hit = _SOLVERS.get(g)
    if hit is None:
        hit = _SOLVERS[g] = TurnSolver(g)
    return hit


@dataclass
class Turn:
    """A turn solved: the needed ``symbols`` (the solver's alphabet), the worths of the
    solver (see :meth:`TurnSolver.solve`), and how to read them for real dice."""

    symbols: str
    solver: TurnSolver
    values: list[list[float]]
    keeps: list[list[float]]
    start: float
    passing: float

    def showing(self, dice: str, rerolls: int) -> float:
        """The worth of five dice showing with ``rerolls`` left, with the best play."""
        return self.values[rerolls][self.solver.m_index[counts_of(dice, self.symbols)]]

    def keeping(self, kept: str, rerolls: int) -> float:
        """The worth of keeping these dice (any of them, blanks too) and rerolling the
        others, with ``rerolls`` left before this reroll."""
        m = self.solver.m_index[counts_of(kept, self.symbols)]
        return self.keeps[rerolls][self.solver.pair_index[(m, len(kept))]]


# ---------------------------------------------------------------------------------------
# The values.
# ---------------------------------------------------------------------------------------


@dataclass
class Analysis:
    """A position worked out: ``expected`` (E, this turn included), whether it is exact,
    every take with its worth, and the turn solved at the fixed point."""

    position: Position
    expected: float
    exact: bool
    takes: list[Take] = field(default_factory=list)
    turn: Turn | None = None

    def best_takes(self) -> dict[int, Take]:
        """The best placement of each pile's top tile."""
        out: dict[int, Take] = {}
        for t in self.takes:
            if t.pile not in out or t.value < out[t.pile].value:
                out[t.pile] = t
        return out


def renamed(position: Position) -> Position:
    """The position with its symbols renamed in the order they first appear in its piles
    (tops first): one name for many positions that are the same up to the symbols."""
    order: dict[str, str] = {}
    seen = "".join(p.top or "" for p in position.piles) + "".join("".join(p.rest) for p in position.piles)
    for s in seen:
        if s not in order:
            order[s] = SYMBOLS[len(order)]
    piles = tuple(PileState(p.rows, p.cols, None if p.top is None else sort_symbols("".join(order[s] for s in p.top)),
                            tuple(sorted(sort_symbols("".join(order[s] for s in n)) for n in p.rest)))
                  for p in position.piles)
    return Position(position.covered, piles)


class TreasureValues:
    """Expected turns to fill one site (see the module's docstring), remembered per
    position. ``exact_free``: positions with at most this many free squares are solved
    exactly to the end of the game."""

    def __init__(self, board: SiteBoard, exact_free: int = EXACT_FREE) -> None:
        self.board = board
        self.exact_free = exact_free
        self._exact: dict[Position, float] = {}
        self._seen: dict[Position, float] = {}
        self._fits: dict[tuple[int, int, int], bool] = {}
        self._rates: dict[tuple[tuple[str, int], ...], float] = {}
        self._coverable: dict[tuple[int, frozenset[tuple[int, int]]], int] = {}

    # -- positions --------------------------------------------------------------------------
    def canonical(self, covered: int, piles: Sequence[PileState]) -> Position:
        """The position with every pile that can never be taken again emptied: its tiles
        fit nowhere on the free squares, and covered squares only grow (R3.3)."""
        out = []
        for p in piles:
            if p.top is not None:
                key = (covered, p.rows, p.cols)
                fits = self._fits.get(key)
                if fits is None:
                    fits = self._fits[key] = self.board.fits(covered, p.rows, p.cols)
                if not fits:
                    p = PileState(p.rows, p.cols, None)
            out.append(p)
        return Position(covered, tuple(out))

    def free(self, position: Position) -> int:
        return (self.board.squares & ~position.covered).bit_count()

    def placements(self, position: Position, pile: int) -> list[tuple[int, str, int]]:
        """Where the pile's top tile fits now: (square, orientation, mask) (R3.3)."""
        p = position.piles[pile]
        covered = position.covered
        return [(sq, o, mask) for (sq, o), mask in self.board.placements(p.rows, p.cols).items()
                if not mask & covered]

    def after(self, position: Position, pile: int, mask: int) -> list[tuple[float, Position]]:
        """The positions after taking the pile's top onto ``mask``, with their chances."""
        covered = position.covered | mask
        out = []
        for chance, pile_after in position.piles[pile].drawn():
            piles = (*position.piles[:pile], pile_after, *position.piles[pile + 1:])
            out.append((chance, self.canonical(covered, piles)))
        return out

    # -- worths ------------------------------------------------------------------------------
    def expected(self, position: Position) -> float:
        """E of a position: exact when it is small enough, else the estimate."""
        if self.free(position) <= self.exact_free:
            return self.exact(position)
        return self.estimate(position)

    def exact(self, position: Position) -> float:
        """E solved to the end of the game (remembered). Positions that differ only by a
        renaming of the symbols have the same worth (the dice are fair and the rules treat
        the symbols alike, R1.1), so they are remembered under one name."""
        hit = self._seen.get(position)
        if hit is None:
            key = renamed(position)
            hit = self._exact.get(key)
            if hit is None:
                hit = self._exact[key] = self.analyse(position, exact=True).expected
            self._seen[position] = hit
        return hit

    def terminal(self, position: Position) -> float | None:
        """The worth of a finished position: 0 for a full site (R4.1), STUCK_TURNS when no
        top tile fits any more (R4.2, R4.3); None while the game goes on."""
        if position.covered == self.board.squares:
            return 0.0
        if all(p.top is None for p in position.piles):
            return STUCK_TURNS
        return None

    def analyse(self, position: Position, exact: bool | None = None) -> Analysis:
        """Every take from ``position`` with its worth, and the turn solved exactly over
        the dice. Takes lead to positions valued exactly when ``exact`` (by default: when
        this position is small enough), else by the estimate."""
        if exact is None:
            exact = self.free(position) <= self.exact_free
        end = self.terminal(position)
        if end is not None:
            return Analysis(position, end, True)
        worth = self.exact if exact else self.estimate
        takes = []
        for i, p in enumerate(position.piles):
            if p.top is None:
                continue
            for square, orient, mask in self.placements(position, i):
                value = sum(chance * worth(nxt) for chance, nxt in self.after(position, i, mask))
                takes.append(Take(i, square, orient, mask, value))
        analysis = Analysis(position, 0.0, exact, takes)
        analysis.expected, analysis.turn = self.turn(position, analysis.best_takes(), self.estimate(position))
        return analysis

    def turn(self, position: Position, best: dict[int, Take], guess: float) -> tuple[float, Turn]:
        """E = 1 + the best turn's worth when passing is worth E: Newton's method on a
        concave piecewise-linear equation (policy iteration), from ``guess``."""
        symbols = sort_symbols("".join(sorted({s for p in best for s in position.piles[p].top or ""})))
        solver = turn_solver(len(symbols))
        show = [INF] * len(solver.ms)
        for pile, take in best.items():
            need = counts_of(position.piles[pile].top or "", symbols)
            for i, m in enumerate(solver.ms):
                if take.value < show[i] and all(h >= n for h, n in zip(m, need, strict=True)):
                    show[i] = take.value
        x = guess
        values, keeps, start, passing = solver.solve(show, x)
        for _ in range(60):
            nxt = (1.0 + start - passing * x) / (1.0 - passing)
            done = abs(nxt - x) <= 1e-12 * max(1.0, abs(x))
            x = nxt
            values, keeps, start, passing = solver.solve(show, x)
            if done:
                break
        return x, Turn(symbols, solver, values, keeps, start, passing)

    def estimate(self, position: Position) -> float:
        """A quick worth for a position too big to solve: the free squares any tile left
        can still cover, over the expected area of the tile a turn takes (exact R6 odds
        of the tops that fit, rerolling for area), plus STUCK_TURNS if some free square can
        never be covered."""
        end = self.terminal(position)
        if end is not None:
            return end
        free = self.board.squares & ~position.covered
        sizes = frozenset((p.rows, p.cols) for p in position.piles if p.top is not None)
        key = (position.covered, sizes)
        reach = self._coverable.get(key)
        if reach is None:
            reach = 0
            for rows, cols in sizes:
                for mask in self.board.placements(rows, cols).values():
                    if not mask & position.covered:
                        reach |= mask
            reach = self._coverable[key] = reach & free
        goals = tuple(sorted((p.top, p.rows * p.cols) for p in position.piles if p.top is not None))
        rate = self._rates.get(goals)
        if rate is None:
            rate = self._rates[goals] = float(best_decision(goals, None).value)
        dead = (free & ~reach).bit_count()
        return reach.bit_count() / rate + (STUCK_TURNS if dead else 0.0)


__all__ = ["EXACT_FREE", "STUCK_TURNS", "Analysis", "PileState", "Position", "Take", "TreasureValues", "Turn",
           "TurnSolver", "counts_of", "turn_solver"]
