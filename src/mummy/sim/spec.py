"""What one simulated game is: a pure function of its :class:`GameSpec`."""

from __future__ import annotations

from dataclasses import dataclass, field

from mummy.bots.registry import bot_seed as seat_seed


@dataclass(frozen=True)
class GameSpec:
    game: str  # a name in mummy.games.KINDS
    index: int
    seed: int
    bots: tuple[str, ...]  # one per seat, in seat order
    map: str = "map1"  # tomb
    mode: str = "standard"  # tomb
    sites: tuple[str, ...] = field(default=())  # treasure, one per seat
    movable: bool = False  # treasure


def bot_seed(spec: GameSpec, seat: int) -> int:
    """Each seat's bot gets its own seed, distinct across the games of a run (the same
    rule as everywhere: :func:`mummy.bots.registry.bot_seed`)."""
    return seat_seed(spec.seed, seat)
