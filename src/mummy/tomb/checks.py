"""Checking one action against the rules: the path of every action a person or a record sends.

Why apart from generation: a refusal must say *why*, naming the rule (T3.2...) and, where
there is one, the square or edge at fault, which the move generator never needs to work
out. The rules themselves are not written twice: whether a monster can be defeated, which
walls the Wand may erase and which placements fit come from :mod:`mummy.tomb.rules` and
:mod:`mummy.tomb.moves`, the same functions legal-move generation uses. A check changes
nothing; the engine applies the action only once it has passed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from mummy.core.errors import quote
from mummy.core.notation import round_trips
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
    MONSTER_DIE,
    OPEN,
    PLACE,
    UP,
    Action,
    fmt,
    parse,
)
from mummy.tomb.content import ITEMS
from mummy.tomb.moves import die_actions, room_possible_with
from mummy.tomb.rules import (
    BUY_COST,
    CHOOSE_COST,
    HAMMER,
    ROW_SIZE,
    SKEY,
    TURN_COST,
    erasable,
    golems_ready,
    illegal,
    mimic_ready,
    mummy_boxes_unlocked,
    mummy_ready,
    next_skeleton,
    ooze_ready,
    zombie_ready,
)
from mummy.tomb.sheet import AFTER, DONE, PLAY, WAITING, Sheet

Dice = tuple[int, ...]


class Checker:
    """Checks actions on one player's sheet in round ``round_no``; every refusal is an
    :class:`~mummy.core.errors.IllegalActionError` naming its rule."""

    def __init__(self, sheet: Sheet, round_no: int) -> None:
        self.round = round_no
        self.sheet = sheet
        self.m = sheet.map
        self.g = sheet.map.grid

    def check(self, a: Action) -> Action:
        """Refuse ``a`` unless it is legal now; return it in canonical form (T2.2)."""
        self._well_formed(a)
        if a.kind == PLACE:
            if a.shape not in self.m.tiles:
                raise illegal("T2.1", f"unknown shape {quote(a.shape)}; shapes are 1a..6b and room")
            a = a._replace(orient=self._canonical(a.shape, a.orient))
        elif a.kind == DIG:
            a = a._replace(orient=self._canonical("dig", a.orient))
        self._rules(a)
        return a

    def _well_formed(self, a: Action) -> None:
        """The API path may build any Action; refuse one the notation could not write
        (dice on a buy, a colour on an ooze, an edge off the grid...)."""
        if not round_trips(a, self.g, parse, fmt):
            raise illegal("notation", f"malformed action {quote(a)}: its fields do not fit "
                          f"a '{a.kind}' (see docs/tomb-notation.md)")

    def _canonical(self, shape: str, orient: str) -> str:
        try:
            return self.m.canonical_orient(shape, orient)
        except (KeyError, ValueError) as exc:
            raise illegal("T2.2", str(exc)) from None

    def _rules(self, a: Action) -> None:
        """The phase first (who may act at all), then the dice, then the kind's own rules."""
        s = self.sheet
        if s.phase == DONE:
            raise illegal("T4.5", "you have finished the game")
        if s.phase == WAITING:
            raise illegal("T4.4", f"you ended round {self.round}; waiting for the other players")
        if s.phase == AFTER and (a.dice or a.kind in (UP, DOWN, BUY, CHOOSE, DISCARD)):
            raise illegal("T4.5", "after round 20 only magic items and keys can be used, then 'end'")
        dice = self._dice(a)
        rule = self.BY_KIND.get(a.kind)
        if rule is None:
            raise illegal("notation", f"unknown action kind {quote(a.kind)}")
        rule(self, a, dice)

    # -- each kind's rules -----------------------------------------------------------------
    def _place(self, a: Action, dice: Dice) -> None:
        if a.item:
            raise illegal("T4.2", "tiles are placed with dice only")
        if a.shape == "room":
            if len(dice) != 2:
                raise illegal("T2.2", "the room takes two dice of any values, like 1+2:room.r0@C5")
        else:  # a table shape (check() refused unknown shapes, T2.1)
            if len(dice) != 1:
                raise illegal("T2.2", f"shape {a.shape} takes one die")
            need = int(a.shape[0])
            have = self.sheet.row[dice[0] - 1].value
            if have != need:
                raise illegal("T2.2", f"shape {a.shape} needs a die of value {need}; "
                              f"slot {dice[0]} shows {have}")
        self._tile(self._lookup(a.shape, a.orient, a.square))

    def _dig(self, a: Action, dice: Dice) -> None:
        self._function(a, dice, "shovel")
        self._tile(self._lookup("dig", a.orient, a.square))

    def _erase(self, a: Action, dice: Dice) -> None:
        self._function(a, dice, "wand")
        s = self.sheet
        name = self.g.edge_name(a.edge)
        if not (s.walls >> a.edge & 1):
            raise illegal("T6.1", "there is no wall of your dungeon on this edge", name)
        if not (self.m.erasable_static >> a.edge & 1):
            raise illegal("T6.1", "a border or stone edge cannot be erased "
                          "(only a closed entrance or room opening)", name)
        if not (erasable(s) >> a.edge & 1):
            raise illegal("T6.1", "erasing this wall would make an opening two edges wide: "
                          "an edge in line with it is already open", name)

    def _add(self, a: Action, dice: Dice) -> None:
        self._function(a, dice, "wand")
        if not (self.sheet.open_openings() >> a.edge & 1):
            raise illegal("T6.2", "the Wand adds a wall only on an open opening of your "
                          "dungeon (not a passage, connected entrance or room)",
                          self.g.edge_name(a.edge))

    def _defeat(self, a: Action, dice: Dice) -> None:
        if len(dice) != 1:
            raise illegal("T5.3", "a defeat takes one die")
        monster = a.shape
        if monster not in MONSTER_DIE:
            raise illegal("T5.3", f"unknown monster {quote(monster)}")
        need = MONSTER_DIE[monster]
        have = self.sheet.row[dice[0] - 1].value
        if have != need:
            raise illegal("T5.3", f"a {monster} takes a die of value {need}; slot {dice[0]} shows {have}")
        if a.item and (monster, a.item) not in (("ooze", "hammer"), ("mimic", "skey")):
            raise illegal("T5.3", f"the {a.item} cannot help against a {monster}")
        self._monster_ready(a)

    def _monster_ready(self, a: Action) -> None:
        """The monster's precondition (T5.3, T5.6), as :mod:`mummy.tomb.rules` states it,
        and the helping item's (T6.5, T6.6)."""
        s = self.sheet
        monster = a.shape
        if monster == "ooze":
            if not ooze_ready(s):
                raise illegal("T5.3", "no circled, undefeated ooze")
            if a.item == "hammer" and s.item_uses[HAMMER] <= 0:
                raise illegal("T6.6", "the Hammer has no use left"
                              if s.items_found >> HAMMER & 1 else "you have not found the Hammer")
        elif monster == "skeleton":
            if next_skeleton(s) < 0:
                raise illegal("T5.3", "no circled, undefeated skeleton (defeat its ooze first)")
        elif monster == "zombie":
            if not zombie_ready(s):
                raise illegal("T5.3", "no circled, undefeated zombie (open a sarcophagus first)")
        elif monster == "golem":
            self._golem_ready(a.colour)
        elif monster == "mimic":
            if not mimic_ready(s):
                raise illegal("T5.3", "no circled, undefeated mimic")
            self._key(a.item, "T5.3")
        elif monster == "mummy" and not mummy_ready(s):
            unlocked = mummy_boxes_unlocked(s)
            raise illegal("T5.6", f"no unlocked, empty Mummy box: {s.alerts} alerts unlock "
                          f"{unlocked} box(es), {len(s.hits)} already hit")

    def _golem_ready(self, colour: str) -> None:
        """A golem of this colour on the map that :func:`~mummy.tomb.rules.golems_ready`
        allows; if not, say which of its conditions fails (T5.3)."""
        s = self.sheet
        if colour not in s.map.colours:
            raise illegal("T5.3", f"no {colour} golem on this map")
        c = s.map.colours.index(colour)
        if golems_ready(s) >> c & 1:
            return
        if not s.golems_found >> c & 1:
            raise illegal("T5.3", f"the {colour} golem is not circled")
        if s.golems_defeated >> c & 1:
            raise illegal("T5.3", f"the {colour} golem is already defeated")
        raise illegal("T5.3", f"the {colour} golem needs its {colour} gem collected first")

    def _open(self, a: Action, dice: Dice) -> None:
        if a.item not in ("", "skey"):
            raise illegal("T5.4", "open a sarcophagus with a key ('open') "
                          "or the Skeleton Key ('open+skey')")
        if self.sheet.sarc_found <= self.sheet.sarc_opened:
            raise illegal("T5.4", "no circled, unopened sarcophagus")
        self._key(a.item, "T5.4")

    def _turn(self, a: Action, dice: Dice) -> None:
        self._one_die(a, dice)
        if self.sheet.coins < TURN_COST:
            raise illegal("T4.3", f"turning a die up or down costs {TURN_COST} coin")

    def _buy(self, a: Action, dice: Dice) -> None:
        """A die rolled for 2 coins ('buy') or chosen for 3 ('choose') (T4.3)."""
        s = self.sheet
        kind = a.kind
        cost = BUY_COST if kind == BUY else CHOOSE_COST
        if kind == CHOOSE and not 1 <= a.value <= 6:
            raise illegal("T4.3", "a chosen die is 1 to 6")
        if len(s.row) >= ROW_SIZE:
            raise illegal("T4.3", f"round {self.round}'s row is full ({ROW_SIZE} dice)")
        if s.coins < cost:
            raise illegal("T4.3", f"{'rolling' if kind == BUY else 'choosing'} a die costs "
                          f"{cost} coins; you have {s.coins}")

    def _discard(self, a: Action, dice: Dice) -> None:
        self._one_die(a, dice)
        s = self.sheet
        slot = dice[0]
        value = s.row[slot - 1].value
        if die_actions(s, slot, value, {}) or room_possible_with(s, slot):
            raise illegal("T4.4", f"the {value} in slot {slot} has a legal use; "
                          "only a die with no use may be discarded")

    def _end(self, a: Action, dice: Dice) -> None:
        s = self.sheet
        if s.phase == PLAY and any(not d.used for d in s.row):
            left = ", ".join(f"slot {i + 1} ({d.value})" for i, d in enumerate(s.row) if not d.used)
            raise illegal("T4.4", f"use every die before ending the round: {left}")

    #: Each kind's rules, after the phase and the dice are checked.
    BY_KIND: ClassVar[dict[str, Callable[[Checker, Action, Dice], None]]] = {
        PLACE: _place, DIG: _dig, ERASE: _erase, ADD: _add, DEFEAT: _defeat, OPEN: _open,
        UP: _turn, DOWN: _turn, BUY: _buy, CHOOSE: _buy, DISCARD: _discard, END: _end,
    }

    # -- pieces ----------------------------------------------------------------------------
    def _dice(self, a: Action) -> Dice:
        row = self.sheet.row
        for slot in a.dice:
            if not 1 <= slot <= len(row):
                raise illegal("T4.2", f"there is no die in slot {slot} of round "
                              f"{self.round}'s row")
            if row[slot - 1].used:
                raise illegal("T4.2", f"the die in slot {slot} is already used")
        if len(set(a.dice)) != len(a.dice):
            raise illegal("T4.2", "each die is used once")
        return a.dice

    def _one_die(self, a: Action, dice: Dice) -> None:
        if len(dice) != 1 or a.item:
            raise illegal("T4.2", f"'{a.kind}' takes exactly one die")

    def _function(self, a: Action, dice: Dice, item: str) -> None:
        """The Wand's/Shovel's function from a die (T6.4) or from a use of the item."""
        if a.item:
            if a.item != item:
                raise illegal("T6.4", f"the {a.item} cannot do that")
            if dice:
                raise illegal("T6.4", "spend a die or an item use, not both")
            if self.sheet.item_uses[ITEMS.index(item)] <= 0:
                rule = "T6.1" if item == "wand" else "T6.3"
                found = self.sheet.items_found >> ITEMS.index(item) & 1
                raise illegal(rule, f"the {item} has no use left" if found
                              else f"you have not found the {item}")
        elif len(dice) != 1:
            raise illegal("T6.4", f"the {item}'s function takes one die of any value")

    def _key(self, item: str, rule: str) -> None:
        s = self.sheet
        if item == "skey":
            if s.item_uses[SKEY] <= 0:
                raise illegal("T6.5", "the Skeleton Key has no use left"
                              if s.items_found >> SKEY & 1 else "you have not found the Skeleton Key")
        elif item:
            raise illegal(rule, f"the {item} cannot stand in for a key")
        elif s.keys <= 0:
            raise illegal(rule, "you need a key (or a Skeleton Key use: '+skey')")

    def _lookup(self, shape: str, orient: str, square: int) -> int:
        """The placement id of a canonical (shape, orientation, anchor)."""
        pid = self.m.index.get((shape, orient, square))
        if pid is None:
            # Off the map or on stone: find the first square at fault (T3.1).
            o = self.m.oriented(shape, orient)
            ax, ay = o.anchor
            x0, y0 = self.g.xy(square)
            for cx, cy in sorted(o.cells, key=lambda c: (c[1], c[0])):
                x, y = x0 + cx - ax, y0 + cy - ay
                if not self.g.on_grid(x, y):
                    raise illegal("T3.1", f"the tile with its top-left square on "
                                  f"{self.g.square_name(square)} would extend beyond the map's edge",
                                  self.g.square_name(square))
                if self.m.stone >> self.g.square(x, y) & 1:
                    raise illegal("T3.1", "the tile would cover stone",
                                  self.g.square_name(self.g.square(x, y)))
            raise AssertionError("placement missing from the table")
        return pid

    def _tile(self, pid: int) -> None:
        """A placement on this sheet: no overlap (T3.1), connected (T3.2), no wall on a
        wall (T3.3), and the Shovel's own conditions (T6.3)."""
        s = self.sheet
        p = self.m.placements[pid]
        overlap = p.squares & s.covered
        if overlap:
            sq = (overlap & -overlap).bit_length() - 1
            raise illegal("T3.1", "the tile would overlap a tile already placed", self.g.square_name(sq))
        anchor = self.g.square_name(p.anchor)
        if not s.covered:
            if p.shape == "dig":
                raise illegal("T6.3", "the Shovel extends the dungeon that exists and is never its first tile "
                              "(rulebook: an extension of your map; open entrances are not part of it)", anchor)
            if not p.openings & self.m.entrance_edges:
                raise illegal("T3.2", "the first tile must have an opening on an entrance", anchor)
        elif not p.openings & s.open_openings():
            raise illegal("T3.2", self._unconnected(p.openings, p.squares), anchor)
        if p.shape == "dig" and (p.walls | p.openings) & s.walls:
            e = ((p.walls | p.openings) & s.walls & -((p.walls | p.openings) & s.walls)).bit_length() - 1
            raise illegal("T6.3", "the Shovel digs only a square that has no wall yet "
                          f"(rulebook: Shovel of Excavation); {self.g.edge_name(e)} is a wall",
                          self.g.square_name(p.anchor))
        clash = p.walls & s.walls
        if clash:
            e = (clash & -clash).bit_length() - 1
            raise illegal("T3.3", "a wall of the tile would lie on an existing wall", self.g.edge_name(e))

    def _unconnected(self, openings: int, squares: int) -> str:
        """Why a later tile none of whose openings meets an open opening is refused (T3.2)."""
        if openings & self.m.entrance_edges:
            return ("a tile cannot restart the dungeon at another entrance; "
                    "one of its openings must meet an open opening of the map")
        if self._touches(squares):
            return ("none of the tile's openings meets an open opening of the map "
                    "(meeting a wall or a closed edge is no connection)")
        return "the tile does not reach an open opening of your dungeon (a corner or a gap is no connection)"

    def _touches(self, squares: int) -> bool:
        g = self.g
        return bool(g.edges_of(squares) & g.edges_of(self.sheet.covered))


__all__ = ["Checker", "Dice"]
