"""The shape every game's state has, so that callers need not ask which game it is.

After OpenSpiel's ``State``: whoever plays a game (a terminal, the simulator, the server,
a bot, a research environment) asks the same questions of either engine:

* who may act now (:meth:`GameState.to_act`: the Tomb lets every player act on the
  round's shared dice at once, Treasure one seat at a time);
* what they may do (:meth:`~GameState.legal_actions`), checked (:meth:`~GameState.apply`,
  refusing with the rule and changing nothing) or fast (:meth:`~GameState.push`, for
  search), both returning the action as recorded (canonical form);
* :meth:`~GameState.undo` of a seat's last action, back to the last chance event;
* the chance events so far (:attr:`~GameState.chances`: every roll of the dice, in order,
  with whom it was for), which are a pure function of the seed;
* whether it is over and each seat's :meth:`~GameState.returns`;
* a :meth:`~GameState.copy` to search on.

The rules modules depend on this module, never the other way round. The registry that maps
a game's name to its engine, notation and record lives above the rules, in
:mod:`mummy.games`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple, Protocol, Self, TypeVar, runtime_checkable

EVERYONE: Final = -1  # a chance event or a change that concerns every seat


class Chance(NamedTuple):
    """One chance event: whom it was for (a seat, or :data:`EVERYONE`), what was rolled
    (``"round 3"``, ``"buy"``, ``"roll"``, ``"reroll"``) and what came up."""

    seat: int
    label: str
    outcome: tuple[int, ...] | str


A = TypeVar("A")


@runtime_checkable
class GameState(Protocol[A]):
    """What both engines offer (see the module's docstring)."""

    seed: int
    history: list[tuple[int, A]]
    chances: list[Chance]

    @property
    def is_over(self) -> bool: ...

    @property
    def seat_count(self) -> int: ...

    def to_act(self) -> list[int]: ...

    def legal_actions(self, seat: int) -> list[A]: ...

    def check(self, seat: int, action: A) -> A: ...

    def is_legal(self, seat: int, action: A) -> bool: ...

    def apply(self, seat: int, action: A) -> A: ...

    def push(self, seat: int, action: A, *, keep_undo: bool = True) -> A: ...

    def undo(self, seat: int) -> A: ...

    def can_undo(self, seat: int) -> bool: ...

    def returns(self) -> Sequence[float]: ...

    def copy(self) -> Self: ...
