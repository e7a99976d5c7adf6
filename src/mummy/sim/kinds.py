"""The simulator's part of each game, by the game's name in the registry (:mod:`mummy.games`).

A :class:`SimKind` plays one game between bots from its spec, sums a run up, prints the
summary and writes the report's sections; the runner, the summary and the report look
the game up here and never ask which one it is.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from mummy.games import Parts
from mummy.sim.columns import Column
from mummy.sim.spec import GameSpec


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


#: Each game's simulation, by the game's name (its registration's ``sim``).
SIMS: Final[Parts] = Parts("sim")


def sim_named(name: str) -> SimKind:
    """The simulator's part of the game called ``name``."""
    sim: SimKind = SIMS.named(name)
    return sim
