"""Legal-move generation for The Mummy's Tomb: the hot path of search and simulation.

Every function here reads a :class:`~mummy.tomb.sheet.Sheet` and lists actions; none
changes anything. Each legal action is listed once: equal dice in one row are
interchangeable, so an action is listed with the lowest slot holding that value, and
symmetric orientations count once (the map's placement table holds canonical ones).

Speed matters more here than anywhere else in the engine (``benchmarks/bench.py``
measures it): placements are found through the map's per-edge index
(the map's ``by_edge`` table), and work shared by several dice of one
call (the Wand's and the Shovel's targets) is computed once into a small cache.
"""

from __future__ import annotations

from mummy.core.grid import iter_bits
from mummy.tomb.actions import (
    ADD,
    BUY,
    CHOOSE,
    DEFEAT,
    DIG,
    DISCARD,
    DOWN,
    END,
    ERASE,
    OPEN,
    PLACE,
    UP,
    Action,
)
from mummy.tomb.board import DIG as DIG_INDEX
from mummy.tomb.board import ROOM, SHAPE_INDEX
from mummy.tomb.rules import (
    BUY_COST,
    CHOOSE_COST,
    HAMMER,
    ROW_SIZE,
    SHOVEL,
    SKEY,
    TURN_COST,
    WAND,
    erasable,
    monster_targets,
)
from mummy.tomb.sheet import DONE, PLAY, WAITING, Sheet

#: Work shared by the dice of one listing: "erase", "add" and "dig" targets.
Cache = dict[str, object]


def legal_placements(sheet: Sheet, shape_index: int) -> list[int]:
    """Placement ids of one shape that are legal on this sheet now (T3.1–T3.3)."""
    m = sheet.map
    covered = sheet.covered
    walls = sheet.walls
    # T3.2: the first tile opens on an entrance, every later one on an open opening.
    targets = sheet.open_openings() if covered else m.entrance_edges
    out: list[int] = []
    # The map's table, read inline (TombMap.candidates is the same lookup, but a call
    # per target edge costs a few per cent of the whole listing).
    by_edge = m.by_edge
    empty = m.empty_row
    all_targets = targets
    while targets:
        low = targets & -targets
        targets ^= low
        # A placement whose openings meet several target edges is listed once, at the
        # lowest of them.
        below = all_targets & (low - 1)
        for pid, squares, openings, tile_walls in by_edge.get(low.bit_length() - 1, empty)[shape_index]:
            if squares & covered or tile_walls & walls or openings & below:
                continue
            out.append(pid)
    return out


def die_actions(sheet: Sheet, slot: int, value: int, cache: Cache) -> list[Action]:
    """Every single-die action for a die of ``value`` in ``slot``."""
    out: list[Action] = []
    placements = sheet.map.placements
    dice = (slot,)
    for shape in (f"{value}a", f"{value}b"):
        for pid in legal_placements(sheet, SHAPE_INDEX[shape]):
            p = placements[pid]
            out.append(Action(PLACE, dice, shape, p.orient, p.anchor))
    for monster, colour in monster_targets(sheet, value):
        if monster == "mimic":
            if sheet.keys > 0:
                out.append(Action(DEFEAT, dice, "mimic"))
            if sheet.item_uses[SKEY] > 0:
                out.append(Action(DEFEAT, dice, "mimic", item="skey"))
            continue
        out.append(Action(DEFEAT, dice, monster, colour=colour))
        if monster == "ooze" and sheet.item_uses[HAMMER] > 0:
            out.append(Action(DEFEAT, dice, "ooze", item="hammer"))
    out.extend(function_actions(sheet, dice, "", cache))
    return out


def function_actions(sheet: Sheet, dice: tuple[int, ...], item: str, cache: Cache) -> list[Action]:
    """The Wand's and the Shovel's functions, from a die or from the item (T6.1–T6.4)."""
    out: list[Action] = []
    if item in ("", "wand"):
        erasable_edges = cache.get("erase")
        if erasable_edges is None:
            erasable_edges = cache["erase"] = list(iter_bits(erasable(sheet)))
            cache["add"] = list(iter_bits(sheet.open_openings()))
        assert isinstance(erasable_edges, list)
        adds = cache["add"]
        assert isinstance(adds, list)
        out.extend(Action(ERASE, dice, edge=e, item=item) for e in erasable_edges)
        out.extend(Action(ADD, dice, edge=e, item=item) for e in adds)
    if item in ("", "shovel"):
        digs = cache.get("dig")
        if digs is None:
            # T6.3: the Shovel extends the dungeon that exists; it is never the first tile.
            placements = sheet.map.placements
            pids = legal_placements(sheet, DIG_INDEX) if sheet.covered else []
            digs = cache["dig"] = [(placements[pid].orient, placements[pid].anchor) for pid in pids]
        assert isinstance(digs, list)
        out.extend(Action(DIG, dice, orient=o, square=sq, item=item) for o, sq in digs)
    return out


def room_possible_with(sheet: Sheet, slot: int) -> bool:
    """Whether the die in ``slot`` could go into a room with another unused die (T2.2):
    a die with such a use may not be discarded (T4.4)."""
    others = [i + 1 for i, d in enumerate(sheet.row) if not d.used and i + 1 != slot]
    return bool(others) and bool(legal_placements(sheet, ROOM))


def legal_actions(sheet: Sheet) -> list[Action]:
    """Every legal action on this sheet now, each once: the round's dice and coins while
    the round is played (T4.2–T4.4), 'end' after it (T4.5), keys and items at any time."""
    phase = sheet.phase
    if phase in (WAITING, DONE):
        return []
    cache: Cache = {}
    out = play_actions(sheet, cache) if phase == PLAY else [Action(END)]  # else AFTER (T4.5)
    # Keys and items: any time (T4.3, T6).
    if sheet.sarc_found > sheet.sarc_opened:
        if sheet.keys > 0:
            out.append(Action(OPEN))
        if sheet.item_uses[SKEY] > 0:
            out.append(Action(OPEN, item="skey"))
    if sheet.item_uses[WAND] > 0:
        out.extend(function_actions(sheet, (), "wand", cache))
    if sheet.item_uses[SHOVEL] > 0:
        out.extend(function_actions(sheet, (), "shovel", cache))
    return out


def play_actions(sheet: Sheet, cache: Cache) -> list[Action]:
    """The actions of the round's row while it is played: each die's uses (or its discard,
    T4.4), rooms, coins (T4.3), and 'end' once every die is used."""
    out: list[Action] = []
    first_slot: dict[int, int] = {}
    for i, die in enumerate(sheet.row):
        if not die.used and die.value not in first_slot:
            first_slot[die.value] = i + 1
    for value, slot in first_slot.items():
        acts = die_actions(sheet, slot, value, cache)
        out.extend(acts)
        if not acts and not room_possible_with(sheet, slot):
            out.append(Action(DISCARD, (slot,)))  # T4.4
    room_actions(sheet, out)
    # Coins (T4.3).
    if sheet.coins >= TURN_COST:
        for slot in first_slot.values():
            out.append(Action(UP, (slot,)))
            out.append(Action(DOWN, (slot,)))
    if len(sheet.row) < ROW_SIZE:
        if sheet.coins >= BUY_COST:
            out.append(Action(BUY))
        if sheet.coins >= CHOOSE_COST:
            out.extend(Action(CHOOSE, value=v) for v in range(1, 7))
    if not first_slot:
        out.append(Action(END))
    return out


def room_actions(sheet: Sheet, out: list[Action]) -> None:
    """Append the room's placements (T2.2): two unused dice of any values, one pair per
    pair of values (equal dice are interchangeable)."""
    unused = [i + 1 for i, d in enumerate(sheet.row) if not d.used]
    if len(unused) < 2:
        return
    rooms = legal_placements(sheet, ROOM)
    if not rooms:
        return
    pairs: dict[tuple[int, int], tuple[int, int]] = {}
    for a_i, a in enumerate(unused):
        for b in unused[a_i + 1:]:
            va, vb = sheet.row[a - 1].value, sheet.row[b - 1].value
            key = (min(va, vb), max(va, vb))
            pairs.setdefault(key, (a, b))
    placements = sheet.map.placements
    for dice in pairs.values():
        for pid in rooms:
            p = placements[pid]
            out.append(Action(PLACE, dice, "room", p.orient, p.anchor))


__all__ = [
    "Cache",
    "die_actions",
    "function_actions",
    "legal_actions",
    "legal_placements",
    "play_actions",
    "room_actions",
    "room_possible_with",
]
