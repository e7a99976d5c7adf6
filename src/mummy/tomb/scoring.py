"""Final scoring (T7): the score lines, tie-breaks and achievements.

Scoring is a pure function of a :class:`~mummy.tomb.sheet.Sheet`, so it can be shown
live during play ("if the game ended now") as well as at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from mummy.tomb.content import ITEMS
from mummy.tomb.sheet import Sheet

TIERS: Final = (0, 5, 10, 20, 30)  # zombies and golems: 1/2/3/4 defeated
ENTRANCE_POINTS: Final = (0, 0, 5, 15, 30)  # 1/2/3/4 connected entrances
PENALTY: Final = 3
ACHIEVEMENT_MIN: Final = 180
LINES: Final = ("oozes_x_skeletons", "zombies", "golems", "mimics", "mummy", "magic_items",
                "leftovers", "entrances", "penalties")


def _tier(table: tuple[int, ...], n: int) -> int:
    return table[min(n, len(table) - 1)]


@dataclass(frozen=True)
class Score:
    """One player's final score, line by line (T7)."""

    lines: dict[str, int]
    total: int
    open_openings: int
    open_entrances: int
    open_rooms: int
    achievements: tuple[str, ...] = field(default=())

    @property
    def penalty_points(self) -> int:
        return -self.lines["penalties"]

    @property
    def mummy_points(self) -> int:
        return self.lines["mummy"]


def score(sheet: Sheet) -> Score:
    """Score a sheet by the lines of T7 (rulebook "Final Scoring")."""
    s = sheet
    skeletons = s.skel_defeated.bit_count()
    golems = s.golems_defeated.bit_count()
    leftovers = (
        (s.oozes_found - s.oozes_defeated)
        + (s.skeletons_circled() - skeletons)
        + (s.sarc_opened - s.zombies_defeated)  # circled zombies not defeated
        + (s.golems_found & ~s.golems_defeated).bit_count()
        + (s.mimics_found - s.mimics_defeated)
        + (s.sarc_found - s.sarc_opened)
        + (s.gems_found & ~s.golems_defeated).bit_count()
        + s.keys
    )
    openings = s.open_openings().bit_count()
    entrances_open = s.open_entrances().bit_count()
    rooms_open = s.open_rooms().bit_count()
    lines = {
        "oozes_x_skeletons": s.oozes_defeated * skeletons,
        "zombies": _tier(TIERS, s.zombies_defeated),
        "golems": _tier(TIERS, golems),
        "mimics": 4 * s.mimics_defeated,
        "mummy": sum(points for _, points in s.hits),
        "magic_items": 5 * s.items_found.bit_count(),
        "leftovers": leftovers,
        "entrances": _tier(ENTRANCE_POINTS, s.connected_entrances().bit_count()),
        "penalties": -PENALTY * (openings + entrances_open + rooms_open),
    }
    total = sum(lines.values())
    achievements = []
    if total >= ACHIEVEMENT_MIN:
        spec = s.map.spec
        n_oozes = len(spec.oozes)
        if (s.oozes_defeated == n_oozes and skeletons == n_oozes
                and s.zombies_defeated == len(spec.log["zombie"])):
            achievements.append("Master of the Undead")
        if golems == len(spec.golems) and s.items_found.bit_count() == len(ITEMS):
            achievements.append("Magical Warden")
        if (s.mimics_defeated == len(spec.mimics) and s.keys_gained >= spec.key_track
                and s.items_found >> ITEMS.index("skeleton-key") & 1):
            achievements.append("Treasure Hunter")
        if lines["penalties"] == 0:
            achievements.append("The Mapmaker")
        if len(s.hits) == 6:
            achievements.append("Mummy Slayer")
    return Score(lines, total, openings, entrances_open, rooms_open, tuple(achievements))


def ranking(scores: Sequence[Score]) -> list[int]:
    """Places (1 = winner) per player: total, then fewest penalty points, then most Mummy
    points; still tied players share the place (T7)."""
    keys = [(-sc.total, sc.penalty_points, -sc.mummy_points) for sc in scores]
    return [1 + sum(1 for other in keys if other < k) for k in keys]
