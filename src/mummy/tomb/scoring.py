"""Final scoring (T7): the score lines, tie-breaks and achievements.

Scoring is a pure function of a :class:`~mummy.tomb.sheet.Sheet`, so it can be shown
live during play ("if the game ended now") as well as at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from mummy.tomb.content import ITEMS, MapSpec
from mummy.tomb.sheet import Sheet

TIERS: Final = (0, 5, 10, 20, 30)  # zombies and golems: 1/2/3/4 defeated
ENTRANCE_POINTS: Final = (0, 0, 5, 15, 30)  # 1/2/3/4 connected entrances
PENALTY: Final = 3
ACHIEVEMENT_MIN: Final = 180
LINES: Final = ("oozes_x_skeletons", "zombies", "golems", "mimics", "mummy", "magic_items",
                "leftovers", "entrances", "penalties")
#: T7's achievements in the rulebook's order, as :func:`score` awards them (the browser
#: lists them from here, through the game's content: mummy.web.content).
ACHIEVEMENTS: Final = ("Master of the Undead", "Magical Warden", "Treasure Hunter", "The Mapmaker", "Mummy Slayer")
#: Each line's name as the sheet's scoring table writes it (T7), for every screen that shows one.
LINE_LABELS: Final = {"oozes_x_skeletons": "Oozes × skeletons", "zombies": "Zombies", "golems": "Golems",
                      "mimics": "Mimics", "mummy": "Mummy", "magic_items": "Magic items", "leftovers": "Leftovers",
                      "entrances": "Entrances", "penalties": "Penalties"}


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


@dataclass(frozen=True)
class Tally:
    """What the final score is counted from: the marks on a sheet at the end (T7).

    Why apart from the sheet: a paper player counts these on paper (mummy.tomb.paper),
    and both are scored by :func:`tally_score`, the one place the lines are computed."""

    oozes: int = 0  # defeated
    skeletons: int = 0
    zombies: int = 0
    golems: int = 0
    mimics: int = 0
    hits: tuple[int, ...] = ()  # the points written in the Mummy's boxes, left to right
    items: int = 0  # magic items collected
    leftovers: int = 0
    entrances: int = 0  # connected
    open_openings: int = 0
    open_entrances: int = 0
    open_rooms: int = 0
    key_track_full: bool = False  # every key slot filled at some point
    skeleton_key: bool = False  # the Skeleton Key collected


def tally_of(sheet: Sheet) -> Tally:
    """A sheet's marks at the end, counted."""
    s = sheet
    skeletons = s.skel_defeated.bit_count()
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
    return Tally(
        oozes=s.oozes_defeated, skeletons=skeletons, zombies=s.zombies_defeated,
        golems=s.golems_defeated.bit_count(), mimics=s.mimics_defeated,
        hits=tuple(points for _, points in s.hits), items=s.items_found.bit_count(), leftovers=leftovers,
        entrances=s.connected_entrances().bit_count(), open_openings=s.open_openings().bit_count(),
        open_entrances=s.open_entrances().bit_count(), open_rooms=s.open_rooms().bit_count(),
        key_track_full=s.keys_gained >= s.map.spec.key_track,
        skeleton_key=bool(s.items_found >> ITEMS.index("skeleton-key") & 1),
    )


def tally_score(t: Tally, spec: MapSpec) -> Score:
    """The lines of T7 (rulebook "Final Scoring") and the achievements, for a tally on
    the map ``spec``."""
    lines = {
        "oozes_x_skeletons": t.oozes * t.skeletons,
        "zombies": _tier(TIERS, t.zombies),
        "golems": _tier(TIERS, t.golems),
        "mimics": 4 * t.mimics,
        "mummy": sum(t.hits),
        "magic_items": 5 * t.items,
        "leftovers": t.leftovers,
        "entrances": _tier(ENTRANCE_POINTS, t.entrances),
        "penalties": -PENALTY * (t.open_openings + t.open_entrances + t.open_rooms),
    }
    total = sum(lines.values())
    achievements = []
    if total >= ACHIEVEMENT_MIN:
        n_oozes = len(spec.oozes)
        if t.oozes == n_oozes and t.skeletons == n_oozes and t.zombies == len(spec.log["zombie"]):
            achievements.append("Master of the Undead")
        if t.golems == len(spec.golems) and t.items == len(ITEMS):
            achievements.append("Magical Warden")
        if t.mimics == len(spec.mimics) and t.key_track_full and t.skeleton_key:
            achievements.append("Treasure Hunter")
        if lines["penalties"] == 0:
            achievements.append("The Mapmaker")
        if len(t.hits) == 6:
            achievements.append("Mummy Slayer")
    return Score(lines, total, t.open_openings, t.open_entrances, t.open_rooms, tuple(achievements))


def score(sheet: Sheet) -> Score:
    """Score a sheet by the lines of T7 (rulebook "Final Scoring")."""
    return tally_score(tally_of(sheet), sheet.map.spec)


def ranking(scores: Sequence[Score]) -> list[int]:
    """Places (1 = winner) per player: total, then fewest penalty points, then most Mummy
    points; still tied players share the place (T7)."""
    keys = [(-sc.total, sc.penalty_points, -sc.mummy_points) for sc in scores]
    return [1 + sum(1 for other in keys if other < k) for k in keys]
