"""Applying a legal action to a sheet: the effects of the rules (T2–T6), trusting the input.

Why apart from checking: search applies millions of actions that the move generator
already knows to be legal, so this path checks nothing (:class:`~mummy.tomb.checks.Checker`
does that for people and records). An effect changes the player's sheet, and for a die
bought with 2 coins the game's log of chance events; everything a player is told (a
coin lost to a full track...) is added to ``sheet.events``.
"""

from __future__ import annotations

from typing import Protocol

from mummy.core.grid import iter_bits
from mummy.core.protocol import Chance
from mummy.tomb.actions import (
    ADD,
    BUY,
    CHOOSE,
    DEFEAT,
    DIG,
    DOWN,
    END,
    ERASE,
    OPEN,
    PLACE,
    UP,
    Action,
)
from mummy.tomb.content import ITEMS, TABLE_SHAPES
from mummy.tomb.rules import (
    ALERTS,
    BUY_COST,
    CHOOSE_COST,
    HAMMER,
    HIT_MULTIPLIERS,
    ROUNDS,
    ROW_BONUS,
    ROW_SIZE,
    SHOVEL,
    SKEY,
    TURN_COST,
    WAND,
    bought_die,
    hit_worth,
    next_skeleton,
)
from mummy.tomb.sheet import DONE, ITEM_USES, PLAY, WAITING, Die, Sheet


class Table(Protocol):
    """What effects read and write of the game beyond a sheet: the round (bonus dice and
    Mummy hits depend on it) and the seeded stream of bought dice with its log."""

    seed: int
    shared_buys: bool
    round: int
    chances: list[Chance]


def apply(game: Table, seat: int, s: Sheet, a: Action) -> bool:
    """Apply a legal action to a sheet. Returns True when it was a random event."""
    kind = a.kind
    if a.dice and kind not in (UP, DOWN):
        use_dice(s, a.dice)
    if kind == PLACE:
        pid = s.map.index[(a.shape, a.orient, a.square)]
        place(s, pid)
        if a.shape != "room":
            mark(game, s, TABLE_SHAPES.index(a.shape))
    elif kind == DIG:
        use_item(s, SHOVEL, a.item)
        place(s, s.map.index[("dig", a.orient, a.square)])
    elif kind == ERASE:
        use_item(s, WAND, a.item)
        s.walls &= ~(1 << a.edge)
        if s.map.room_edges >> a.edge & 1:
            collect_room(s, a.edge)
    elif kind == ADD:
        use_item(s, WAND, a.item)
        s.walls |= 1 << a.edge
    elif kind == DEFEAT:
        defeat(game, s, a)
    elif kind == OPEN:
        spend_key(s, a.item)
        s.sarc_opened += 1
    elif kind in (UP, DOWN):
        turn(s, a.dice[0], kind == UP)
    elif kind == BUY:
        buy(game, seat, s, bought_die(game.seed, seat, s.buys, game.shared_buys))
        return True
    elif kind == CHOOSE:
        s.coins -= CHOOSE_COST
        s.row = (*s.row, Die(a.value, "choose"))
    elif kind == END:
        s.phase = WAITING if s.phase == PLAY else DONE
    # DISCARD: using the die was all of it (T4.4).
    return False


def use_dice(s: Sheet, slots: tuple[int, ...]) -> None:
    """Mark the dice in these slots used (T4.2)."""
    row = list(s.row)
    for slot in slots:
        d = row[slot - 1]
        row[slot - 1] = Die(d.value, d.source, True)
    s.row = tuple(row)


def turn(s: Sheet, slot: int, up: bool) -> None:
    """Turn a die one pip up or down for a coin, 6 to 1 and 1 to 6 (T4.3)."""
    d = s.row[slot - 1]
    value = d.value % 6 + 1 if up else (d.value - 2) % 6 + 1
    row = list(s.row)
    row[slot - 1] = Die(value, d.source, False)
    s.row = tuple(row)
    s.coins -= TURN_COST


def buy(game: Table, seat: int, s: Sheet, value: int) -> None:
    """A die rolled for 2 coins (T4.3) that showed ``value``: a chance event, logged."""
    s.coins -= BUY_COST
    game.chances.append(Chance(seat, "buy", (value,)))
    s.row = (*s.row, Die(value, "buy"))
    s.buys += 1


def use_item(s: Sheet, index: int, item: str) -> None:
    """Spend a use of the item at ``index`` if the action names one (T6)."""
    if item:
        uses = list(s.item_uses)
        uses[index] -= 1
        s.item_uses = (uses[0], uses[1], uses[2], uses[3])


def spend_key(s: Sheet, item: str) -> None:
    """A key, or a use of the Skeleton Key (T5.4, T6.5)."""
    if item == "skey":
        use_item(s, SKEY, "skey")
    else:
        s.keys_used += 1


def gain_coins(s: Sheet, n: int) -> None:
    """Coins fill the coin track; beyond its capacity they are lost (T5.2)."""
    room = s.map.spec.coin_track - s.coins_gained
    gain = min(n, max(room, 0))
    s.coins += gain
    s.coins_gained += gain
    if gain < n:
        s.events = (*s.events, f"coin track full: {n - gain} coin(s) lost (T5.2)")


def gain_key(s: Sheet) -> None:
    """A key fills the key track; beyond its capacity it is lost (T5.2)."""
    if s.keys_gained < s.map.spec.key_track:
        s.keys_gained += 1
    else:
        s.events = (*s.events, "key track full: key lost (T5.2)")


def place(s: Sheet, pid: int) -> None:
    """Draw a placement on the sheet (T3), collect what its squares hold (T5.1) and the
    rooms its openings connect (T3.4)."""
    m = s.map
    p = m.placements[pid]
    if not s.covered:
        s.start = (p.openings & m.entrance_edges & -(p.openings & m.entrance_edges)).bit_length() - 1
    s.covered |= p.squares
    s.walls |= p.walls_after
    s.inner |= p.inner
    s.tiles = (*s.tiles, pid)
    for sq in iter_bits(p.squares & m.findings_mask):
        collect_finding(s, sq)
    for e in iter_bits(p.connects & m.room_edges & ~s.walls):
        collect_room(s, e)


def collect_finding(s: Sheet, sq: int) -> None:
    """The finding on a square just covered (T5.1): coins, a key, a circled monster, an item."""
    m = s.map
    kind, what = m.finding_at[sq]
    if kind == "coins":
        assert isinstance(what, int)
        gain_coins(s, what)
    elif kind == "key":
        gain_key(s)
    elif kind == "ooze":
        s.oozes_found += 1
    elif kind == "mimic":
        s.mimics_found += 1
    elif kind == "golem":
        s.golems_found |= 1 << m.colours.index(str(what))
    elif kind == "item":
        i = ITEMS.index(str(what))
        s.items_found |= 1 << i
        uses = list(s.item_uses)
        uses[i] = ITEM_USES
        s.item_uses = (uses[0], uses[1], uses[2], uses[3])


def collect_room(s: Sheet, edge: int) -> None:
    """Connecting a room collects its finding (T3.4); each room once."""
    index, room = s.map.room_by_edge[edge]
    if s.rooms_found >> index & 1:
        return
    s.rooms_found |= 1 << index
    if room.finding == "sarcophagus":
        s.sarc_found += 1
    else:
        assert room.colour is not None
        s.gems_found |= 1 << s.map.colours.index(room.colour)


def mark(game: Table, s: Sheet, shape: int) -> None:
    """Mark a shape; pay a row's bonus die and a column's key once (T2.3, T2.4)."""
    if s.marks >> shape & 1:
        return
    s.marks |= 1 << shape
    row, col = divmod(shape, 2)
    if not s.rows_paid >> row & 1 and s.marks >> (2 * row) & 3 == 3:
        s.rows_paid |= 1 << row
        bonus_die(game, s, ROW_BONUS[row])
    col_mask = sum(1 << (2 * r + col) for r in range(6))
    if not s.cols_paid >> col & 1 and s.marks & col_mask == col_mask:
        s.cols_paid |= 1 << col
        gain_key(s)


def bonus_die(game: Table, s: Sheet, value: int) -> None:
    """T2.5: the current row's first free slot, else the next round's row, else lost."""
    if len(s.row) < ROW_SIZE:
        s.row = (*s.row, Die(value, "bonus"))
    elif game.round < ROUNDS and len(s.next_bonus) < ROW_SIZE - 2:
        s.next_bonus = (*s.next_bonus, value)
        s.events = (*s.events, f"bonus {value} goes to round {game.round + 1}'s row (T2.5)")
    else:
        s.events = (*s.events, f"bonus {value} lost: no free slot left (T2.5)")


def alert(s: Sheet) -> None:
    """Every defeat fills an alert mark (T5.5)."""
    s.alerts = min(s.alerts + 1, ALERTS)  # T5.5: alerts past the 18th are ignored


def defeat(game: Table, s: Sheet, a: Action) -> None:
    """A monster defeated (T5.3): its coins from the map's log and an alert; a hit on the
    Mummy records its points instead (T5.6)."""
    log = s.map.spec.log
    monster = a.shape
    if monster == "ooze":
        i = s.oozes_defeated
        s.oozes_defeated += 1
        gain_coins(s, log["ooze"][i])
        alert(s)
        if a.item == "hammer":  # T6.6: the same ooze's skeleton, even out of order
            use_item(s, HAMMER, "hammer")
            s.skel_defeated |= 1 << i
            gain_coins(s, log["skeleton"][i])
            alert(s)
    elif monster == "skeleton":
        i = next_skeleton(s)
        s.skel_defeated |= 1 << i
        gain_coins(s, log["skeleton"][i])
        alert(s)
    elif monster == "zombie":
        gain_coins(s, log["zombie"][s.zombies_defeated])
        s.zombies_defeated += 1
        alert(s)
    elif monster == "golem":
        c = s.map.colours.index(a.colour)
        s.golems_defeated |= 1 << c
        gain_coins(s, s.map.spec.golem_coins[a.colour])
        alert(s)
    elif monster == "mimic":
        spend_key(s, a.item)
        gain_coins(s, log["mimic"][s.mimics_defeated])
        s.mimics_defeated += 1
        alert(s)
    elif monster == "mummy":
        k = len(s.hits)
        s.hits = (*s.hits, (game.round, hit_worth(game.round) * HIT_MULTIPLIERS[k]))


__all__ = [
    "Table",
    "alert",
    "apply",
    "bonus_die",
    "buy",
    "collect_finding",
    "collect_room",
    "defeat",
    "gain_coins",
    "gain_key",
    "mark",
    "place",
    "spend_key",
    "turn",
    "use_dice",
    "use_item",
]
