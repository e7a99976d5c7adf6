"""One agent interface for both games.

An agent is seeded (its own :class:`random.Random`, never the global one) and
deterministic for a seed: the same game, seat and seed give the same action. Its
budget is *effort* (how much it searches), which keeps it deterministic; an optional
time limit caps each search on slow machines (the Tomb's strong bot may run several
searches for one decision, one per face of a die it thinks of buying; a search cut short
by the clock may differ from run to run, so simulations use effort only).
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    """Chooses an action for a seat. ``game`` is a TombGame or a TreasureGame."""

    name: str

    def act(self, game: Any, seat: int) -> Any:
        """A legal action for ``seat`` in ``game`` (which it must not change)."""
        ...


class SeededAgent:
    """Base class: a name, a seed and a private random stream."""

    name = "agent"

    def __init__(self, seed: int = 0, time_limit: float | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(f"{self.name}/{seed}")
        self.time_limit = time_limit

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
