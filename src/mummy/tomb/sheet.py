"""One player's game sheet: the map state, the tracks and the round's dice row.

A :class:`Sheet` is plain data (bitboards, counters, tuples). Everything in it is an
int, a str or a tuple, so :meth:`Sheet.copy` is a shallow copy: cheap enough to take
before every action, which is how undo works (back to the last random event).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from mummy.tomb.board import TombMap

# Player phases.
PLAY: Final = "play"  # using the current round's dice
WAITING: Final = "waiting"  # ended the round, waiting for the other players (T4.4)
AFTER: Final = "after"  # after round 20: items and die-less free actions only (T4.5)
DONE: Final = "done"  # finished; waiting for final scoring

MODES: Final = {"standard": (0, 0), "easy": (3, 0), "kids": (5, 1)}  # T8.2: coins, keys
ITEM_USES: Final = 3


class Die(NamedTuple):
    """A die in the round row: its current value, where it came from, and whether used."""

    value: int
    source: str  # "roll", "bonus", "buy" (2 coins, rolled), "choose" (3 coins)
    used: bool = False


class Sheet:
    """A player's sheet. Fields are public for the engine, renderers and tests; change
    them only through :class:`~mummy.tomb.game.TombGame` in play."""

    __slots__ = (
        "alerts",
        "buys",
        "coins",
        "coins_gained",
        "cols_paid",
        "covered",
        "events",
        "gems_found",
        "golems_defeated",
        "golems_found",
        "hits",
        "inner",
        "item_uses",
        "items_found",
        "keys_gained",
        "keys_used",
        "map",
        "marks",
        "mimics_defeated",
        "mimics_found",
        "mode",
        "next_bonus",
        "oozes_defeated",
        "oozes_found",
        "phase",
        "rooms_found",
        "row",
        "rows_paid",
        "sarc_found",
        "sarc_opened",
        "skel_defeated",
        "start",
        "tiles",
        "walls",
        "zombies_defeated",
    )

    def __init__(self, tomb_map: TombMap, mode: str = "standard") -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)} (T8.2)")
        self.map = tomb_map
        self.mode = mode
        self.covered = 0
        self.walls = 0
        self.inner = 0
        self.tiles: tuple[int, ...] = ()  # placement ids in the order placed
        self.start = -1  # entrance edge of the first tile (T3.2)
        self.marks = 0  # bit i: TABLE_SHAPES[i] marked (T2.3)
        self.rows_paid = 0
        self.cols_paid = 0
        coins, keys = MODES[mode]
        self.coins = coins
        self.coins_gained = coins
        self.keys_gained = keys
        self.keys_used = 0
        self.item_uses: tuple[int, int, int, int] = (0, 0, 0, 0)  # wand, shovel, hammer, skey
        self.items_found = 0  # bit per item in ITEMS order
        self.oozes_found = 0
        self.oozes_defeated = 0
        self.skel_defeated = 0  # bitmask over skeleton positions (Hammer breaks the order)
        self.sarc_found = 0
        self.sarc_opened = 0
        self.zombies_defeated = 0
        self.golems_found = 0  # bit per colour index
        self.gems_found = 0
        self.golems_defeated = 0
        self.mimics_found = 0
        self.mimics_defeated = 0
        self.rooms_found = 0  # bit per room index
        self.alerts = 0
        self.hits: tuple[tuple[int, int], ...] = ()  # (round, points) per Mummy hit
        self.row: tuple[Die, ...] = ()
        self.next_bonus: tuple[int, ...] = ()
        self.buys = 0
        self.phase = PLAY
        self.events: tuple[str, ...] = ()  # what the game told this player (lost dice...)

    def copy(self) -> Sheet:
        new = Sheet.__new__(Sheet)
        for name in Sheet.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sheet):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in Sheet.__slots__ if n != "map") \
            and self.map.id == other.map.id

    __hash__ = None  # type: ignore[assignment]

    # -- derived state (T1.6) --------------------------------------------------------------
    @property
    def keys(self) -> int:
        """Keys held now."""
        return self.keys_gained - self.keys_used

    def open_openings(self) -> int:
        """Open edges between a covered square and an uncovered free square (T1.6)."""
        g = self.map.grid
        covered = self.covered
        return g.edges_of(covered) & g.edges_of(self.map.free & ~covered) & ~self.walls

    def open_edges(self) -> int:
        """Open, non-inner edges touching a covered square: openings, passages, connections."""
        return self.map.grid.edges_of(self.covered) & ~self.walls & ~self.inner

    def connected_entrances(self) -> int:
        return self.map.entrance_edges & self.open_edges()

    def closed_entrances(self) -> int:
        return self.map.entrance_edges & self.walls

    def open_entrances(self) -> int:
        """Entrances whose free square is not covered (T1.6)."""
        return self.map.entrance_edges & ~self.map.grid.edges_of(self.covered)

    def connected_rooms(self) -> int:
        return self.map.room_edges & self.open_edges()

    def closed_rooms(self) -> int:
        return self.map.room_edges & self.walls

    def open_rooms(self) -> int:
        return self.map.room_edges & ~self.map.grid.edges_of(self.covered)

    def unused_slots(self) -> list[int]:
        return [i + 1 for i, d in enumerate(self.row) if not d.used]

    def skeletons_circled(self) -> int:
        """Skeleton k is circled once ooze k is defeated (T5.3)."""
        return self.oozes_defeated

    def tile_at(self) -> dict[int, int]:
        """Square -> tile number (1-based, in placing order)."""
        out: dict[int, int] = {}
        placements = self.map.placements
        for n, pid in enumerate(self.tiles, start=1):
            sq_mask = placements[pid].squares
            while sq_mask:
                low = sq_mask & -sq_mask
                out[low.bit_length() - 1] = n
                sq_mask ^= low
        return out
