"""Toy Tally, the engine: a tiny roll-and-write to show what a third game needs.

Each of ``boxes`` rounds rolls one shared die (a pure function of the seed). Every player,
at the same time, writes it in one empty box of their row; box *k* (from 1) scores the die
times *k*, so a high die belongs in a high box. Rule ids: X1 (the round's die), X2 (a box
is written once), X3 (the score). Pure: no I/O, no clock, no global random state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from mummy.core.errors import IllegalActionError
from mummy.core.protocol import EVERYONE, Chance
from mummy.core.rng import draw


class ToyGame:
    """The state: each seat's row of boxes (0: empty), and who has written this round."""

    def __init__(self, seed: int, seats: int, boxes: int = 4) -> None:
        self.seed = seed
        self.boxes = boxes
        self.rows = [[0] * boxes for _ in range(seats)]
        self.round = 0
        self.written: list[int | None] = [None] * seats  # this round's box of each seat
        self.history: list[tuple[int, int]] = []
        self.chances: list[Chance] = []
        self._roll()

    def _roll(self) -> None:
        self.round += 1
        self.written = [None] * len(self.rows)
        if self.round <= self.boxes:
            self.chances.append(Chance(EVERYONE, f"round {self.round}", (self.die,)))

    @property
    def die(self) -> int:
        """X1: the round's die, the same for every seat."""
        return draw(self.seed, "toy", self.round)

    @property
    def is_over(self) -> bool:
        return self.round > self.boxes

    @property
    def seat_count(self) -> int:
        return len(self.rows)

    def to_act(self) -> list[int]:
        return [] if self.is_over else [s for s, w in enumerate(self.written) if w is None]

    def legal_actions(self, seat: int) -> list[int]:
        if seat not in self.to_act():
            return []
        return [b for b, v in enumerate(self.rows[seat]) if v == 0]

    def check(self, seat: int, action: int) -> int:
        if seat not in self.to_act():
            raise IllegalActionError("X1", "you have written this round's die already")
        if not 0 <= action < self.boxes or self.rows[seat][action]:
            raise IllegalActionError("X2", "a box is written once", where=f"box {action + 1}")
        return action

    def is_legal(self, seat: int, action: int) -> bool:
        return action in self.legal_actions(seat)

    def apply(self, seat: int, action: int) -> int:
        return self.push(seat, self.check(seat, action))

    def push(self, seat: int, action: int, *, keep_undo: bool = True) -> int:
        self.rows[seat][action] = self.die
        self.written[seat] = action
        self.history.append((seat, action))
        if all(w is not None for w in self.written):
            self._roll()
        return action

    def can_undo(self, seat: int) -> bool:
        return not self.is_over and self.written[seat] is not None

    def undo(self, seat: int) -> int:
        box = self.written[seat]
        if box is None or self.is_over:
            raise IllegalActionError("X2", "nothing of yours to take back this round")
        self.rows[seat][box] = 0
        self.written[seat] = None
        last = max(i for i, (s, _) in enumerate(self.history) if s == seat)
        del self.history[last]
        return box

    def score(self, seat: int) -> int:
        """X3: each box's die times its number."""
        return sum(v * (k + 1) for k, v in enumerate(self.rows[seat]))

    def returns(self) -> Sequence[float]:
        return [float(self.score(s)) for s in range(len(self.rows))]

    def copy(self) -> Self:
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.rows = [list(r) for r in self.rows]
        other.written = list(self.written)
        other.history = list(self.history)
        other.chances = list(self.chances)
        return other
