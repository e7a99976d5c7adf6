"""The Tomb's actions in plain language: "Hook at B11: 3 coins and an ooze circled".

A sentence is what the action did (:func:`head`, from the action and the die it spent)
and what it gained (:func:`gains`, the difference between the player's sheet before and
after: coins, keys, items, circled monsters and gems, entrances, the Tile Table's row
and column rewards, Mummy boxes, and whatever the engine told the player on
``sheet.events``, such as coins lost to a full track). Shapes are named as the Tile
Table names them (``tomb/data/tiles.txt``). What chance showed (the next round's dice,
a bought die) is the entry's chance line.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from mummy.core.grid import iter_bits
from mummy.core.protocol import Chance
from mummy.render.narrate_words import a_or_n, capital, plural
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
from mummy.tomb.content import ITEMS, tile_table
from mummy.tomb.game import TombGame
from mummy.tomb.rules import BUY_COST, CHOOSE_COST, ROW_BONUS, TURN_COST, mummy_boxes_unlocked
from mummy.tomb.scoring import score
from mummy.tomb.sheet import DONE, PLAY, Sheet

ITEM_NAMES: Final = {"wand": "the Wand", "shovel": "the Shovel", "hammer": "the Hammer",
                     "skeleton-key": "the Skeleton Key", "skey": "the Skeleton Key"}
SIDE_NAMES: Final = {"n": "north", "e": "east", "s": "south", "w": "west"}
MONSTER_NAMES: Final = {"ooze": "an ooze", "skeleton": "a skeleton", "zombie": "a zombie", "mimic": "a mimic"}


class Before(NamedTuple):
    """What a Tomb sentence needs of the game before the action: the player's sheet (a
    copy of plain data), the round, how many chance events there were, and for an undo
    the action it takes back."""

    sheet: Sheet
    round: int
    chances: int
    undone: Action | None


def shape_name(shape: str) -> str:
    """A shape as the Tile Table names it (``3a`` is the hook)."""
    return tile_table()[shape].name


def edge_words(game: TombGame, seat: int, edge: int) -> str:
    """``E5 (north side)``: an edge by its square and side."""
    name = game.maps[seat].grid.edge_name(edge)
    return f"{name[:-1]} ({SIDE_NAMES[name[-1]]} side)"


def square_name(game: TombGame, seat: int, square: int) -> str:
    return game.maps[seat].grid.square_name(square)


def source(a: Action, prior: Sheet) -> str:
    """What an action spends, in words: ``the Shovel`` or ``a 5`` (the die's value)."""
    if a.item in ("wand", "shovel"):
        return ITEM_NAMES[a.item]
    return a_or_n(1, str(prior.row[a.dice[0] - 1].value)) if a.dice else "nothing"


# -- what the action did ----------------------------------------------------------------------
def head(game: TombGame, seat: int, a: Action, prior: Sheet, after: Sheet) -> str:
    """What the action did, from the sheet before (``prior``: the dice it spent) and after
    (``after``: a bought die, a hit's points). No gains: see :func:`gains`."""
    k = a.kind
    if k == PLACE:
        where = square_name(game, seat, a.square)
        if a.shape == "room":
            v1, v2 = (prior.row[d - 1].value for d in a.dice)
            return f"Room at {where} with a {v1} and a {v2}"
        return f"{capital(shape_name(a.shape))} at {where}"
    if k == DIG:
        return f"Dug at {square_name(game, seat, a.square)} with {source(a, prior)}"
    if k in (ERASE, ADD):
        what = "Erased the wall at" if k == ERASE else "Wall at"
        return f"{what} {edge_words(game, seat, a.edge)} with {source(a, prior)}"
    if k == DEFEAT:
        return defeat_head(a, after)
    if k == OPEN:
        key = ITEM_NAMES["skey"] if a.item == "skey" else "a key"
        return f"Opened a sarcophagus with {key}"
    return die_head(game, seat, a, prior, after)


def defeat_head(a: Action, after: Sheet) -> str:
    """A defeat: the monster, and the item or key it took (T5.3, T6.5, T6.6)."""
    if a.shape == "mummy":
        rnd, points = after.hits[-1]
        return f"Hit the Mummy in round {rnd}: {plural(points, 'point')}"
    if a.shape == "golem":
        return f"Defeated the {a.colour} golem"
    if a.item == "hammer":
        return "Defeated an ooze and its skeleton with the Hammer"
    if a.shape == "mimic":
        return f"Defeated a mimic with {ITEM_NAMES['skey'] if a.item == 'skey' else 'a key'}"
    return f"Defeated {MONSTER_NAMES[a.shape]}"


def die_head(game: TombGame, seat: int, a: Action, prior: Sheet, after: Sheet) -> str:
    """The actions on the row itself: coins on a die, a die bought or chosen, a discard,
    and the end of a round or of the game (T4.3–T4.5)."""
    k = a.kind
    name = game.players[seat].name
    if k in (UP, DOWN):
        old = prior.row[a.dice[0] - 1].value
        new = after.row[a.dice[0] - 1].value
        return f"Turned a {old} {'up' if k == UP else 'down'} to {new} ({plural(TURN_COST, 'coin')})"
    if k == BUY:
        return f"Bought a die: {after.row[-1].value} ({plural(BUY_COST, 'coin')})"
    if k == CHOOSE:
        return f"Chose a {a.value} ({plural(CHOOSE_COST, 'coin')})"
    if k == DISCARD:
        return f"Discarded a {prior.row[a.dice[0] - 1].value}: it had no use (T4.4)"
    if k == END and prior.phase == PLAY:
        return f"{name} ended round {game_round(game, prior, after)}"
    if k == END:
        done = f" with {plural(score(after).total, 'point')}" if after.phase == DONE else ""
        return f"{name} finished the game{done}"
    raise ValueError(f"unknown Tomb action kind {k!r}")


def game_round(game: TombGame, prior: Sheet, after: Sheet) -> int:
    """The round a player just ended: the game's round, one less if ending it started the
    next one for everybody (the player is in the new round's play again)."""
    return game.round - 1 if after.phase == PLAY else game.round


# -- what it gained ---------------------------------------------------------------------------
def gains(game: TombGame, seat: int, prior: Sheet, after: Sheet) -> list[str]:
    """Everything the sheet gained from ``prior`` to ``after``, in words, then what the
    engine told the player (a coin lost to a full track, a bonus die carried over)."""
    out = findings(prior, after)
    out += table_rewards(prior, after)
    out += passages(game, seat, prior, after)
    unlocked = mummy_boxes_unlocked(after) - mummy_boxes_unlocked(prior)
    if unlocked > 0:
        out.append(f"{a_or_n(unlocked, 'Mummy box')} unlocked (T5.6)")
    out += list(after.events[len(prior.events):])
    return out


def findings(prior: Sheet, after: Sheet) -> list[str]:
    """Coins, keys (beyond the Tile Table's), items, circled monsters and gems (T5.1, T5.2)."""
    out = []
    coins = after.coins_gained - prior.coins_gained
    if coins > 0:
        out.append(plural(coins, "coin"))
    column_keys = (after.cols_paid & ~prior.cols_paid).bit_count()
    keys = after.keys_gained - prior.keys_gained - column_keys
    if keys > 0:
        out.append(a_or_n(keys, "key"))
    out += [f"{ITEM_NAMES[ITEMS[i]]} found" for i in iter_bits(after.items_found & ~prior.items_found)]
    for word, was, now in (("ooze", prior.oozes_found, after.oozes_found),
                           ("mimic", prior.mimics_found, after.mimics_found),
                           ("zombie", prior.sarc_opened, after.sarc_opened)):
        if now > was:
            out.append(f"{a_or_n(now - was, word)} circled")
    colours = after.map.colours
    out += [f"the {colours[i]} golem circled" for i in iter_bits(after.golems_found & ~prior.golems_found)]
    rooms = after.map.spec.rooms
    for i in iter_bits(after.rooms_found & ~prior.rooms_found):
        room = rooms[i]
        out.append("a sarcophagus circled" if room.finding == "sarcophagus" else f"the {room.colour} gem circled")
    return out


def table_rewards(prior: Sheet, after: Sheet) -> list[str]:
    """A Tile Table row's bonus die and a column's key (T2.4)."""
    out = []
    for r in iter_bits(after.rows_paid & ~prior.rows_paid):
        out.append(f"the Tile Table's row {r + 1} complete, a bonus {ROW_BONUS[r]} (T2.4)")
    for c in iter_bits(after.cols_paid & ~prior.cols_paid):
        out.append(f"the Tile Table's column {'ab'[c]} complete, a key (T2.4)")
    return out


def passages(game: TombGame, seat: int, prior: Sheet, after: Sheet) -> list[str]:
    """The dungeon's way in and out: the first tile's entrance, entrances connected or
    walled off, and a dungeon left with no opening open (T1.6, T3.2)."""
    out = []
    grid = game.maps[seat].grid
    if not prior.covered and after.covered and after.start >= 0:
        sq = next(s for s in grid.edge_squares(after.start) if s is not None)
        out.append(f"the way in at {grid.square_name(sq)}")
    connected = (after.connected_entrances() & ~prior.connected_entrances()).bit_count()
    connected -= int(not prior.covered and after.covered != 0)
    if connected > 0:
        out.append(f"{a_or_n(connected, 'entrance')} connected")
    closed = (after.closed_entrances() & ~prior.closed_entrances()).bit_count()
    if closed > 0:
        out.append(f"{a_or_n(closed, 'entrance')} walled off")
    if sealed(prior, after):
        out.append("no opening left open (T3.2)")
    return out


def sealed(prior: Sheet, after: Sheet) -> bool:
    """Whether the dungeon had an open opening and has none now, with free squares left:
    no tile or Shovel square can extend it any more (T3.2, T6.3)."""
    free_left = after.map.free & ~after.covered
    return bool(prior.covered) and bool(prior.open_openings()) and not after.open_openings() and bool(free_left)


def covered_squares(game: TombGame, seat: int, prior: Sheet, after: Sheet) -> tuple[str, ...]:
    """The squares the action covered on the sheet (a tile's, a room's, a Shovel square;
    T3.1, T6.3), by name in the grid's order: what a page lights up when it shows another
    player's step. One mask difference, so nearly free per action."""
    grid = game.maps[seat].grid
    return tuple(grid.square_name(sq) for sq in iter_bits(after.covered & ~prior.covered))


def chance_line(chances: list[Chance]) -> str | None:
    """What chance showed: a round's two dice, a bought die (T4.1, T4.3)."""
    parts = []
    for c in chances:
        if c.label.startswith("round "):
            dice = [str(v) for v in c.outcome]
            parts.append(f"{capital(c.label)}: the dice are {' and '.join(dice)}")
        elif c.label == "buy":
            parts.append(f"The bought die shows {c.outcome[0]}")
    return "; ".join(parts) or None


def undone_action(game: TombGame, seat: int) -> Action | None:
    """The seat's last action, which an undo would take back."""
    for who, action in reversed(game.history):
        if who == seat:
            return action
    return None


__all__ = ["Before", "chance_line", "covered_squares", "gains", "head", "sealed", "shape_name", "undone_action"]
