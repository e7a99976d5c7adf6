"""What one simulated game is: a pure function of its :class:`GameSpec`."""

from __future__ import annotations

from dataclasses import dataclass, field


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

