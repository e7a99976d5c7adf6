"""Treasure bots: random, greedy and strong.

* ``random``: a uniformly random legal action.
* ``greedy``: takes the biggest tile it can as soon as it can, in the first place it fits
  (reading the site like a page); otherwise makes the exact best reroll (R6) towards the
  biggest top tile that fits (or, failing that, the next biggest).
* ``strong``: values each top tile by its area *and* by what its best placement does to
  the rest of the site: a square that no tile still in the piles can ever cover is a
  square lost, so placements that hug the border and the tiles already down, and leave
  no dead squares, are preferred. With those values it makes the exact best decision of
  :func:`mummy.treasure.odds.best_decision`: take now, or reroll the dice that maximise
  the expected value of the tile it will take (R6).
"""

from __future__ import annotations

from mummy.bots.base import SeededAgent
from mummy.treasure.actions import PASS, REROLL, ROLL, TAKE, Action
from mummy.treasure.board import SiteBoard
from mummy.treasure.content import ROLLS, Tile
from mummy.treasure.game import TreasureGame, contains
from mummy.treasure.odds import best_decision, odds


class RandomTreasureAgent(SeededAgent):
    name = "random"

    def act(self, game: TreasureGame, seat: int) -> Action:
        return self.rng.choice(game.legal_actions(seat))


def _fitting_tops(game: TreasureGame, seat: int) -> list[Tile]:
    tops = [game.top(p) for p in game.pile_names]
    return [t for t in tops if t is not None and game.can_fit(seat, t)]


class GreedyTreasureAgent(SeededAgent):
    """The biggest tile it can, at once, in the first place it fits."""

    name = "greedy"

    def act(self, game: TreasureGame, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if legal[0].kind in (ROLL, PASS) and len(legal) == 1:
            return legal[0]
        takes = [a for a in legal if a.kind == TAKE]
        if takes:
            biggest = max(game.top(a.pile).area for a in takes)  # type: ignore[union-attr]
            return next(a for a in takes if game.top(a.pile).area == biggest)  # type: ignore[union-attr]
        dice = game.state.dice
        fitting = sorted(_fitting_tops(game, seat), key=lambda t: -t.area)
        for tile in fitting:
            reroll = odds(tile.needs, dice, ROLLS - game.state.rolls).reroll
            if reroll:
                return Action(REROLL, dice=reroll)
        return next(a for a in legal if a.kind == REROLL)


def _reach(board: SiteBoard, covered: int, sizes: set[tuple[int, int]]) -> int:
    """The free squares that some tile of these sizes could still cover."""
    union = 0
    for rows, cols in sizes:
        for mask in board.placements(rows, cols).values():
            if not mask & covered:
                union |= mask
    return union


def _contact(board: SiteBoard, mask: int, covered: int) -> int:
    """How many neighbours of a placed tile are border or tiles: compact placements."""
    stride = board.grid.stride
    around = ((mask << 1) | (mask >> 1) | (mask << stride) | (mask >> stride)) & ~mask
    return (around & (covered | ~board.squares)).bit_count()


class StrongTreasureAgent(SeededAgent):
    """Exact best rerolls for tile values that account for how the site can still fill."""

    name = "strong"

    def __init__(self, seed: int = 0, time_limit: float | None = None, candidates: int = 8,
                 dead_weight: float = 1.0) -> None:
        super().__init__(seed, time_limit)
        self.candidates = candidates
        self.dead_weight = dead_weight

    def _sizes_left(self, game: TreasureGame) -> set[tuple[int, int]]:
        """Sizes of the tiles still in the piles (the piles' contents are public)."""
        out = set()
        for name in game.pile_names:
            if game.pile_left(name):
                top = game.top(name)
                assert top is not None
                out.add((top.rows, top.cols))
        return out

    def _best_placement(self, game: TreasureGame, seat: int, tile: Tile) -> tuple[float, Action]:
        """The placement of ``tile`` that leaves the fewest dead squares (then the most
        compact), and the worth of taking the tile there."""
        st = game.state
        board = game.boards[seat]
        covered = st.covered[seat]
        options = [(sq_o, mask) for sq_o, mask in board.placements(tile.rows, tile.cols).items()
                   if not mask & covered]
        if not options:
            return -1e9, Action(PASS)
        options.sort(key=lambda o: -_contact(board, o[1], covered))
        sizes = self._sizes_left(game)
        best: tuple[float, Action] | None = None
        for (square, orient), mask in options[: self.candidates]:
            after = covered | mask
            free = board.squares & ~after
            dead = (free & ~_reach(board, after, sizes)).bit_count() if free else 0
            worth = tile.area - self.dead_weight * dead + 0.05 * _contact(board, mask, covered)
            if best is None or worth > best[0]:
                best = (worth, Action(TAKE, pile=tile.pile, square=square, orient=orient))
        assert best is not None
        return best

    def act(self, game: TreasureGame, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        st = game.state
        if game.movable:
            return self._movable(game, seat, legal)
        board = game.boards[seat]
        covered = st.covered[seat]
        dead_now = ((board.squares & ~covered) & ~_reach(board, covered, self._sizes_left(game))).bit_count()
        plans: dict[str, tuple[float, Action]] = {}
        for tile in _fitting_tops(game, seat):
            worth, action = self._best_placement(game, seat, tile)
            plans[tile.needs] = max(plans.get(tile.needs, (-1e9, action)),
                                    (worth + self.dead_weight * dead_now, action), key=lambda x: x[0])
        goals = [(needs, max(worth, 0.01)) for needs, (worth, _a) in plans.items()]
        rolls_left = ROLLS - st.rolls
        decision = best_decision(goals, st.dice, rolls_left) if goals else None
        if decision is not None and decision.take is not None:
            return plans[decision.take][1]
        if decision is not None and decision.reroll:
            return Action(REROLL, dice=decision.reroll)
        takes = [a for a in legal if a.kind == TAKE]
        if takes:  # nothing worth waiting for: the best tile showing now
            showing = [(w, a) for needs, (w, a) in plans.items() if contains(st.dice, needs)]
            return max(showing, key=lambda x: x[0])[1] if showing else takes[0]
        return next(a for a in legal if a.kind in (REROLL, PASS))

    def _movable(self, game: TreasureGame, seat: int, legal: list[Action]) -> Action:
        """Movable variant (R5.1): the game arranges tiles, so a tile's worth is its area."""
        st = game.state
        goals = [(t.needs, float(t.area)) for t in _fitting_tops(game, seat)]
        decision = best_decision(goals, st.dice, ROLLS - st.rolls) if goals else None
        if decision is not None and decision.take is not None:
            for a in legal:
                if a.kind == TAKE and a.square < 0 and game.top(a.pile).needs == decision.take:  # type: ignore[union-attr]
                    return a
        if decision is not None and decision.reroll:
            return Action(REROLL, dice=decision.reroll)
        takes = [a for a in legal if a.kind == TAKE]
        if takes:
            return max(takes, key=lambda a: game.top(a.pile).area)  # type: ignore[union-attr]
        return next(a for a in legal if a.kind in (REROLL, PASS))


__all__ = ["GreedyTreasureAgent", "RandomTreasureAgent", "StrongTreasureAgent"]
