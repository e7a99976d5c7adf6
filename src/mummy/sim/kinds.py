"""The simulator's part of each game, by the game's name in :data:`mummy.games.KINDS`.

A :class:`SimKind` plays one game between bots from its spec, sums a run up, prints the
summary and writes the report's sections; the runner, the summary and the report look
the game up here and never ask which one it is.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from mummy.games import KINDS
from mummy.sim.spec import GameSpec
from mummy.sim.table import Column
from mummy.sim.tomb import TombSim
from mummy.sim.treasure import TreasureSim


class SimKind(Protocol):
    name: str
    rotate: bool  # whether the bots rotate through the seats from game to game
    needs: frozenset[str]  # the fields of one line of ``mummy sim --out``
    columns: tuple[Column, ...]  # the game's own columns of the flat table (mummy.sim.table)

    def problem(self, bots: list[str], sites: list[str]) -> str | None:
        """What is wrong with a run's seats (``--bots``, ``--sites``), if anything."""
        ...

    def play(self, spec: GameSpec) -> dict[str, Any]: ...

    def unflatten(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        """A line's game fields from one game's rows of the flat table, seats in order."""
        ...

    def summarise(self, rows: list[dict[str, Any]]) -> dict[str, Any]: ...

    def format(self, summary: dict[str, Any]) -> list[str]: ...

    def sections(self, rows: list[dict[str, Any]]) -> list[str]: ...


_TOMB: Final[SimKind] = TombSim()
_TREASURE: Final[SimKind] = TreasureSim()
SIMS: Final[dict[str, SimKind]] = {k.name: k for k in (_TOMB, _TREASURE)}
assert set(SIMS) == set(KINDS), "every game kind can be simulated"


def sim_named(name: str) -> SimKind:
    """The simulator's part of the game called ``name``."""
    try:
        return SIMS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(SIMS)}") from None
