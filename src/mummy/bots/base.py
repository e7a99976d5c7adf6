"""One agent interface for both games.

An agent is seeded (its own :class:`random.Random`, never the global one) and
deterministic for a seed: the same game, seat and seed give the same action. Its
budget is *effort* (how much it searches), which keeps it deterministic; an optional
time limit caps each search on slow machines (the Tomb's strong bot may run several
searches for one decision, one per face of a die it thinks of buying; a search cut short
by the clock may differ from run to run, so simulations use effort only).

**A decision is a function of the game, not of the agent's past.** Before each decision
(each call of ``act``) a :class:`SeededAgent`'s random stream is set afresh from its name,
its seed and how many moves its seat has made in the game (:func:`moves_of`, counted in
the game's own history). So an agent made anew in the middle of a game (a server that
restarts and rebuilds the game from its log, a game whose bots move on to another
process) draws exactly what the agent that played the game so far would have drawn, and
goes on with the same moves; and since the count is the seat's own, how other seats'
moves fall in between (a person playing before or after a bot in a Tomb round) changes
nothing either. Agents that also remember plans between calls rebuild them from the game
the same way (:class:`mummy.bots.tomb.Planner`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    """Chooses an action for a seat. ``game`` is a TombGame or a TreasureGame."""

    name: str

    def act(self, game: Any, seat: int) -> Any:
        """A legal action for ``seat`` in ``game`` (which it must not change)."""
        ...


def moves_of(game: Any, seat: int) -> int:
    """How many moves ``seat`` has made in ``game`` (its entries in the game's history, an
    undo taking one back): the position a decision is seeded by. The same wherever the
    game is played and however it was rebuilt, since it is read from the game itself."""
    return sum(1 for who, _action in game.history if who == seat)


Act = Callable[[Any, Any, int], Any]


def _reseeding(act: Act) -> Act:
    """``act``, with the agent's random stream set for the position first (see the module)."""

    @functools.wraps(act)
    def reseeded(self: SeededAgent, game: Any, seat: int) -> Any:
        self.reseed(game, seat)
        return act(self, game, seat)

    return reseeded


class SeededAgent:
    """Base class: a name, a seed and a private random stream, set afresh for each
    decision from the seat's moves so far (see the module's docstring).

    Every subclass's own ``act`` is wrapped (:meth:`__init_subclass__`) so that it starts
    from :meth:`reseed`: an agent defined anywhere (the OpenSpiel MCTS bot in
    :mod:`mummy.envs.mcts`, the exact Treasure bot in :mod:`mummy.analysis.treasure`)
    gets it without a line of its own, and none can forget it."""

    name = "agent"

    def __init__(self, seed: int = 0, time_limit: float | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(f"{self.name}/{seed}")
        self.time_limit = time_limit

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("act")
        if callable(own):
            setattr(cls, "act", _reseeding(own))  # noqa: B010 (mypy refuses assigning to a method)

    def reseed(self, game: Any, seat: int) -> None:
        """Set the random stream for the decision at this position: from the agent's name
        and seed and the seat's moves so far (:func:`moves_of`), so that it is the same
        whatever this agent (or another made like it) drew before."""
        self.rng.seed(f"{self.name}/{self.seed}/{moves_of(game, seat)}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
