"""The Tomb's rule constants and the rule predicates more than one place asks.

Why a module of its own: the move generator (:mod:`mummy.tomb.moves`), the checker
(:mod:`mummy.tomb.checks`), the effects (:mod:`mummy.tomb.effects`) and the bots all need
to know, for instance, whether a zombie can be defeated now or how many alerts the Mummy
counts. Each such rule is written here once, so the places that ask cannot drift apart.
Everything here reads a :class:`~mummy.tomb.sheet.Sheet` and changes nothing.
"""

from __future__ import annotations

from typing import Final

from mummy.core.errors import IllegalActionError
from mummy.core.grid import iter_bits
from mummy.core.rng import draw
from mummy.tomb.sheet import Sheet

ROUNDS: Final = 20
ROW_SIZE: Final = 4  # T4.1
ALERTS: Final = 18  # T5.5
HIT_MULTIPLIERS: Final = (1, 1, 2, 2, 3, 3)  # T5.6
MUMMY_BOXES: Final = len(HIT_MULTIPLIERS)  # T5.6: six boxes ...
ALERTS_PER_BOX: Final = ALERTS // MUMMY_BOXES  # ... of three alert marks each
WAND, SHOVEL, HAMMER, SKEY = range(4)  # indices into Sheet.item_uses (ITEMS order)
#: T4.3: the coins a die costs: turned one pip up or down, rolled ("buy") or chosen.
TURN_COST: Final = 1
BUY_COST: Final = 2
CHOOSE_COST: Final = 3
#: T2.4: the bonus die a full row of the Tile Table pays, by row (the row of die value v
#: pays 7 - v).
ROW_BONUS: Final = tuple(6 - row for row in range(6))


def illegal(rule: str, message: str, where: str | None = None) -> IllegalActionError:
    """A refusal naming its rule and, where there is one, the square or edge at fault."""
    return IllegalActionError(rule, message, where)


# -- dice (T4.1, T4.6) -----------------------------------------------------------------------
def round_dice(seed: int, round_no: int) -> tuple[int, int]:
    """The two shared dice of a round (T4.1, T4.6)."""
    return draw(seed, "round", round_no * 2), draw(seed, "round", round_no * 2 + 1)


def bought_die(seed: int, seat: int, k: int, shared: bool = False) -> int:
    """The k-th die the player at ``seat`` rolls with 2 coins (T4.6).

    Each seat has its own stream, so in a game of several players nobody learns their own
    next bought die from another player's purchase. Seat 0's stream is the one every seat
    shared before (``shared=True``, records of version 1 replay with it), so a solo game on
    one seed, such as a daily challenge, still gets the same k-th bought die.
    """
    return draw(seed, "buy" if shared or seat == 0 else f"buy/{seat}", k)


# -- monster preconditions (T5.3, T5.6): what a die of the monster's value may defeat now --
def ooze_ready(sheet: Sheet) -> bool:
    """A circled ooze is still undefeated (T5.3)."""
    return sheet.oozes_found > sheet.oozes_defeated


def next_skeleton(sheet: Sheet) -> int:
    """The first circled, undefeated skeleton, or -1 (T5.3). Skeleton k is circled once
    ooze k is defeated; the Hammer may have defeated a later one out of order (T6.6)."""
    for i in range(sheet.oozes_defeated):
        if not sheet.skel_defeated >> i & 1:
            return i
    return -1


def zombie_ready(sheet: Sheet) -> bool:
    """An opened sarcophagus has circled a zombie that is still undefeated (T5.3, T5.4)."""
    return sheet.sarc_opened > sheet.zombies_defeated


def golems_ready(sheet: Sheet) -> int:
    """Colour bits of the golems that are circled, undefeated, and whose gem is collected
    (T5.3)."""
    return sheet.golems_found & sheet.gems_found & ~sheet.golems_defeated


def mimic_ready(sheet: Sheet) -> bool:
    """A circled mimic is still undefeated (T5.3); defeating it also takes a key."""
    return sheet.mimics_found > sheet.mimics_defeated


def mummy_boxes_unlocked(sheet: Sheet) -> int:
    """Mummy boxes unlocked by the alerts (T5.5, T5.6): one per three marks."""
    return min(sheet.alerts, ALERTS) // ALERTS_PER_BOX


def mummy_ready(sheet: Sheet) -> bool:
    """An unlocked Mummy box is still empty, so a 6 may hit the Mummy (T5.6)."""
    return len(sheet.hits) < mummy_boxes_unlocked(sheet)


def hit_worth(round_no: int) -> int:
    """What a hit on the Mummy in ``round_no`` records before its box's multiplier:
    ``21 - round`` (T5.6)."""
    return ROUNDS + 1 - round_no


def monster_targets(sheet: Sheet, value: int) -> list[tuple[str, str]]:
    """(monster, colour) a die of this value can defeat now (T5.3, T5.6)."""
    if value == 1:
        return [("ooze", "")] if ooze_ready(sheet) else []
    if value == 2:
        return [("skeleton", "")] if next_skeleton(sheet) >= 0 else []
    if value == 3:
        return [("zombie", "")] if zombie_ready(sheet) else []
    if value == 4:
        return [("golem", sheet.map.colours[i]) for i in iter_bits(golems_ready(sheet))]
    if value == 5:
        return [("mimic", "")] if mimic_ready(sheet) else []
    if value == 6:
        return [("mummy", "")] if mummy_ready(sheet) else []
    return []


# -- the Wand (T6.1) -------------------------------------------------------------------------
def erasable(sheet: Sheet) -> int:
    """Walls the Wand may erase (T6.1): none on the border or against stone unless it closes
    an entrance or a room opening, and none beside an open edge in line with it (erasing
    it would make an opening two edges wide)."""
    m = sheet.map
    open_edges = sheet.open_edges()
    oh = open_edges & m.h_edges
    ov = open_edges & m.v_edges
    stride = m.grid.stride
    beside = (((oh << 1) | (oh >> 1)) & m.h_edges) | (((ov << stride) | (ov >> stride)) & m.v_edges)
    return sheet.walls & m.erasable_static & ~beside


__all__ = [
    "ALERTS",
    "ALERTS_PER_BOX",
    "HAMMER",
    "HIT_MULTIPLIERS",
    "MUMMY_BOXES",
    "ROUNDS",
    "ROW_SIZE",
    "SHOVEL",
    "SKEY",
    "WAND",
    "bought_die",
    "erasable",
    "golems_ready",
    "hit_worth",
    "illegal",
    "mimic_ready",
    "monster_targets",
    "mummy_boxes_unlocked",
    "mummy_ready",
    "next_skeleton",
    "ooze_ready",
    "round_dice",
    "zombie_ready",
]
