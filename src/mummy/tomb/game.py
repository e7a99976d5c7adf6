"""The Mummy's Tomb rules engine (T1–T8): state, legal actions, checked and fast apply.

Design, after python-chess and OpenSpiel:

* A :class:`TombGame` holds the seed, the players' sheets and the action history. The
  dice are a pure function of the seed (:mod:`mummy.core.rng`), so a game is its seed
  plus its actions and replays exactly (T4.6).
* :meth:`TombGame.legal_actions` lists every legal action of a player, each once
  (equal dice in one row are interchangeable, so an action is listed with the lowest
  slot holding that value; symmetric orientations count once).
* :meth:`TombGame.apply` is the checked path: it refuses an illegal action with an
  :class:`~mummy.core.errors.IllegalActionError` naming the rule and the square or edge,
  and then nothing has changed. :meth:`TombGame.push` is the fast unchecked path for
  search, which trusts its caller to pass a legal action.
* :meth:`TombGame.undo` goes back one action of a player, as far as the last random
  event (a roll of the round's dice or a die bought with 2 coins).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from mummy.core.errors import IllegalActionError, quote
from mummy.core.grid import iter_bits
from mummy.core.protocol import EVERYONE, Chance
from mummy.core.rng import draw
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
from mummy.tomb.board import DIG as DIG_INDEX
from mummy.tomb.board import ROOM, SHAPE_INDEX, TombMap, tomb_map
from mummy.tomb.content import COLOURS, ITEMS, TABLE_SHAPES
from mummy.tomb.scoring import score
from mummy.tomb.sheet import AFTER, DONE, ITEM_USES, PLAY, WAITING, Die, Sheet

ROUNDS: Final = 20
ROW_SIZE: Final = 4  # T4.1
ALERTS: Final = 18  # T5.5
HIT_MULTIPLIERS: Final = (1, 1, 2, 2, 3, 3)  # T5.6
WAND, SHOVEL, HAMMER, SKEY = range(4)  # indices into Sheet.item_uses (ITEMS order)


@dataclass(frozen=True)
class PlayerSetup:
    """Who sits at a sheet: a name, a map (T8.3) and a mode (T8.2)."""

    name: str = "player"
    map: str = "map1"
    mode: str = "standard"


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


def _illegal(rule: str, message: str, where: str | None = None) -> IllegalActionError:
    return IllegalActionError(rule, message, where)


class TombGame:
    """A game of The Mummy's Tomb for one or more players on shared seeded dice."""

    def __init__(self, seed: int, players: Sequence[PlayerSetup] | int = 1, *,
                 shared_buys: bool = False) -> None:
        """``shared_buys`` is the rule before T4.6 gave each seat its own bought-die stream:
        the k-th bought die was the same for every player. Only old records (version 1)
        and games stored under that rule replay with it."""
        if isinstance(players, int):
            players = [PlayerSetup(name=f"player {i + 1}") for i in range(players)]
        if not players:
            raise ValueError("a game needs at least one player (T8.1)")
        self.seed = seed
        self.shared_buys = shared_buys
        self.players: tuple[PlayerSetup, ...] = tuple(players)
        self.maps: tuple[TombMap, ...] = tuple(tomb_map(p.map) for p in self.players)
        self.sheets: list[Sheet] = [Sheet(m, p.mode) for m, p in zip(self.maps, self.players,
                                                                     strict=True)]
        self.round = 1
        self.history: list[tuple[int, Action]] = []
        self.chances: list[Chance] = []  # every roll so far: the rounds' dice, bought dice
        self._undo: list[list[Sheet]] = [[] for _ in self.players]
        self._start_round()

    def copy(self) -> TombGame:
        """A copy to search on: sheets copied (plain data), maps shared, nothing to undo."""
        new = TombGame.__new__(TombGame)
        new.__dict__.update(self.__dict__)
        new.sheets = [s.copy() for s in self.sheets]
        new.history = list(self.history)
        new.chances = list(self.chances)
        new._undo = [[] for _ in self.sheets]
        return new

    def seated(self, seat: int) -> TombGame:
        """A one-player game of this seat's sheet as it stands (for solo search): the
        same seed, map and round, nothing to undo, no history."""
        new = self.copy()
        new.players = (self.players[seat],)
        new.maps = (self.maps[seat],)
        new.sheets = [self.sheets[seat].copy()]
        new.history = []
        new.chances = [c for c in self.chances if c.seat in (EVERYONE, seat)]
        new._undo = [[]]
        return new

    # -- rounds ----------------------------------------------------------------------------
    def _start_round(self) -> None:
        a, b = round_dice(self.seed, self.round)
        self.chances.append(Chance(EVERYONE, f"round {self.round}", (a, b)))
        for sheet in self.sheets:
            carried = tuple(Die(v, "bonus") for v in sheet.next_bonus)
            sheet.row = (*carried, Die(a, "roll"), Die(b, "roll"))
            sheet.next_bonus = ()
            sheet.phase = PLAY
        for stack in self._undo:
            stack.clear()

    def _maybe_advance(self) -> None:
        phases = {s.phase for s in self.sheets}
        if phases == {WAITING}:
            if self.round < ROUNDS:
                self.round += 1
                self._start_round()
            else:
                for sheet in self.sheets:
                    sheet.phase = AFTER
                    sheet.row = ()
                for stack in self._undo:
                    stack.clear()

    @property
    def is_over(self) -> bool:
        """True once every player has finished (T4.5); final scoring applies."""
        return all(s.phase == DONE for s in self.sheets)

    @property
    def seat_count(self) -> int:
        return len(self.sheets)

    def to_act(self) -> list[int]:
        """The players who may act now: everyone still playing the round (T4.2) or the
        turn after the last round (T4.5), at once."""
        return [i for i, s in enumerate(self.sheets) if s.phase in (PLAY, AFTER)]

    def returns(self) -> list[float]:
        """Each player's score as it stands (T7): final once the game is over."""
        return [float(score(s).total) for s in self.sheets]

    @property
    def dice(self) -> tuple[int, int]:
        """The current round's two shared dice."""
        return round_dice(self.seed, self.round)

    # -- checked path ----------------------------------------------------------------------
    def apply(self, player: int, action: Action) -> Action:
        """Check and apply an action; return it as recorded (canonical form). What happened
        worth telling (a lost die...) is added to the player's ``sheet.events``.

        Raises :class:`IllegalActionError` naming the rule, and leaves everything as it
        was, if the action is not legal for this player now.
        """
        return self.push(player, self.check(player, action))

    def check(self, player: int, action: Action) -> Action:
        """Raise :class:`IllegalActionError` unless ``action`` is legal for ``player``.

        Returns the action in canonical form: a tile written with another name of the
        same orientation (``5a.r1`` for the symmetric cross) becomes the canonical name
        (T2.2), which is what the engine records and what :meth:`legal_actions` lists.
        """
        if not 0 <= player < len(self.sheets):
            raise _illegal("T8.1", f"there is no player {player}")
        return _Checker(self, self.sheets[player]).check(action)

    def is_legal(self, player: int, action: Action) -> bool:
        try:
            self.check(player, action)
        except IllegalActionError:
            return False
        return True

    # -- fast path -------------------------------------------------------------------------
    def push(self, player: int, action: Action, *, keep_undo: bool = True) -> Action:
        """Apply an action without checking it (the caller guarantees it is legal)."""
        sheet = self.sheets[player]
        if keep_undo:
            self._undo[player].append(sheet.copy())
        random_event = _apply(self, player, sheet, action)
        self.history.append((player, action))
        if random_event:
            self._undo[player].clear()
        if action.kind == END:
            self._maybe_advance()
            if self.is_over:  # the game is over: final scores stand
                for stack in self._undo:
                    stack.clear()
        return action

    def undo(self, player: int) -> Action:
        """Take back the player's last action, back to the last random event (T4.6)."""
        stack = self._undo[player]
        if not stack:
            raise _illegal("undo", "nothing to undo since the last roll of the dice")
        self.sheets[player] = stack.pop()
        for i in range(len(self.history) - 1, -1, -1):
            if self.history[i][0] == player:
                return self.history.pop(i)[1]
        raise AssertionError("undo stack and history disagree")

    def can_undo(self, player: int) -> bool:
        return bool(self._undo[player])

    # -- legal actions ---------------------------------------------------------------------
    def legal_actions(self, player: int) -> list[Action]:
        """Every legal action of the player, each once."""
        return _legal(self, self.sheets[player])

    def placements(self, sheet: Sheet, shape_index: int) -> list[int]:
        """Placement ids of one shape that are legal on this sheet now (T3.1–T3.3)."""
        return _placements(sheet, shape_index)


# ======================================================================================
# Legal-move generation (the hot path).
# ======================================================================================


def _placements(sheet: Sheet, shape_index: int) -> list[int]:
    m = sheet.map
    covered = sheet.covered
    walls = sheet.walls
    # T3.2: the first tile opens on an entrance, every later one on an open opening.
    targets = sheet.open_openings() if covered else m.entrance_edges
    out: list[int] = []
    by_edge = m.by_edge
    empty = m._empty_row
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


def _erasable(sheet: Sheet) -> int:
    """Walls the Wand may erase (T6.1)."""
    m = sheet.map
    open_edges = sheet.open_edges()
    oh = open_edges & m.h_edges
    ov = open_edges & m.v_edges
    stride = m.grid.stride
    beside = (((oh << 1) | (oh >> 1)) & m.h_edges) | (((ov << stride) | (ov >> stride)) & m.v_edges)
    return sheet.walls & m.erasable_static & ~beside


def _monster_targets(sheet: Sheet, value: int) -> list[tuple[str, str]]:
    """(monster, colour) a die of this value can defeat now (T5.3, T5.6)."""
    if value == 1:
        return [("ooze", "")] if sheet.oozes_found > sheet.oozes_defeated else []
    if value == 2:
        return [("skeleton", "")] if _next_skeleton(sheet) >= 0 else []
    if value == 3:
        return [("zombie", "")] if sheet.sarc_opened > sheet.zombies_defeated else []
    if value == 4:
        ready = sheet.golems_found & sheet.gems_found & ~sheet.golems_defeated
        return [("golem", sheet.map.colours[i]) for i in iter_bits(ready)]
    if value == 5:
        return [("mimic", "")] if sheet.mimics_found > sheet.mimics_defeated else []
    if value == 6:
        return [("mummy", "")] if len(sheet.hits) < min(sheet.alerts, ALERTS) // 3 else []
    return []


def _next_skeleton(sheet: Sheet) -> int:
    for i in range(sheet.oozes_defeated):
        if not sheet.skel_defeated >> i & 1:
            return i
    return -1


def _die_actions(sheet: Sheet, slot: int, value: int, cache: dict[str, object]) -> list[Action]:
    """Every single-die action for a die of ``value`` in ``slot``."""
    out: list[Action] = []
    placements = sheet.map.placements
    dice = (slot,)
    for shape in (f"{value}a", f"{value}b"):
        for pid in _placements(sheet, SHAPE_INDEX[shape]):
            p = placements[pid]
            out.append(Action(PLACE, dice, shape, p.orient, p.anchor))
    for monster, colour in _monster_targets(sheet, value):
        if monster == "mimic":
            if sheet.keys > 0:
                out.append(Action(DEFEAT, dice, "mimic"))
            if sheet.item_uses[SKEY] > 0:
                out.append(Action(DEFEAT, dice, "mimic", item="skey"))
            continue
        out.append(Action(DEFEAT, dice, monster, colour=colour))
        if monster == "ooze" and sheet.item_uses[HAMMER] > 0:
            out.append(Action(DEFEAT, dice, "ooze", item="hammer"))
    out.extend(_function_actions(sheet, dice, "", cache))
    return out


def _function_actions(sheet: Sheet, dice: tuple[int, ...], item: str,
                      cache: dict[str, object]) -> list[Action]:
    """The Wand's and the Shovel's functions, from a die or from the item (T6.1–T6.4)."""
    out: list[Action] = []
    if item in ("", "wand"):
        erasable = cache.get("erase")
        if erasable is None:
            erasable = cache["erase"] = list(iter_bits(_erasable(sheet)))
            cache["add"] = list(iter_bits(sheet.open_openings()))
        assert isinstance(erasable, list)
        adds = cache["add"]
        assert isinstance(adds, list)
        out.extend(Action(ERASE, dice, edge=e, item=item) for e in erasable)
        out.extend(Action(ADD, dice, edge=e, item=item) for e in adds)
    if item in ("", "shovel"):
        digs = cache.get("dig")
        if digs is None:
            # T6.3: the Shovel extends the dungeon that exists; it is never the first tile.
            placements = sheet.map.placements
            pids = _placements(sheet, DIG_INDEX) if sheet.covered else []
            digs = cache["dig"] = [(placements[pid].orient, placements[pid].anchor) for pid in pids]
        assert isinstance(digs, list)
        out.extend(Action(DIG, dice, orient=o, square=sq, item=item) for o, sq in digs)
    return out


def _legal(game: TombGame, sheet: Sheet) -> list[Action]:
    phase = sheet.phase
    if phase in (WAITING, DONE):
        return []
    out: list[Action] = []
    cache: dict[str, object] = {}
    if phase == PLAY:
        first_slot: dict[int, int] = {}
        for i, die in enumerate(sheet.row):
            if not die.used and die.value not in first_slot:
                first_slot[die.value] = i + 1
        all_used = not first_slot
        for value, slot in first_slot.items():
            acts = _die_actions(sheet, slot, value, cache)
            out.extend(acts)
            if not acts and not _room_possible_with(sheet, slot):
                out.append(Action(DISCARD, (slot,)))  # T4.4
        # The room: two dice of any values (T2.2).
        unused = [i + 1 for i, d in enumerate(sheet.row) if not d.used]
        if len(unused) >= 2:
            rooms = _placements(sheet, ROOM)
            if rooms:
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
        # Coins (T4.3).
        if sheet.coins >= 1:
            for slot in first_slot.values():
                out.append(Action(UP, (slot,)))
                out.append(Action(DOWN, (slot,)))
        if len(sheet.row) < ROW_SIZE:
            if sheet.coins >= 2:
                out.append(Action(BUY))
            if sheet.coins >= 3:
                out.extend(Action(CHOOSE, value=v) for v in range(1, 7))
        if all_used:
            out.append(Action(END))
    else:  # AFTER (T4.5)
        out.append(Action(END))
    # Keys and items: any time (T4.3, T6).
    if sheet.sarc_found > sheet.sarc_opened:
        if sheet.keys > 0:
            out.append(Action(OPEN))
        if sheet.item_uses[SKEY] > 0:
            out.append(Action(OPEN, item="skey"))
    if sheet.item_uses[WAND] > 0:
        out.extend(_function_actions(sheet, (), "wand", cache))
    if sheet.item_uses[SHOVEL] > 0:
        out.extend(_function_actions(sheet, (), "shovel", cache))
    return out


def _room_possible_with(sheet: Sheet, slot: int) -> bool:
    others = [i + 1 for i, d in enumerate(sheet.row) if not d.used and i + 1 != slot]
    return bool(others) and bool(_placements(sheet, ROOM))


# ======================================================================================
# Checking (the user-input path): every refusal names its rule.
# ======================================================================================


class _Checker:
    def __init__(self, game: TombGame, sheet: Sheet) -> None:
        self.game = game
        self.sheet = sheet
        self.m = sheet.map
        self.g = sheet.map.grid

    def check(self, a: Action) -> Action:
        self._well_formed(a)
        if a.kind == PLACE:
            if a.shape not in self.m.tiles:
                raise _illegal("T2.1", f"unknown shape {quote(a.shape)}; shapes are 1a..6b and room")
            a = a._replace(orient=self._canonical(a.shape, a.orient))
        elif a.kind == DIG:
            a = a._replace(orient=self._canonical("dig", a.orient))
        self._rules(a)
        return a

    def _well_formed(self, a: Action) -> None:
        """The API path may build any Action; refuse one the notation could not write
        (dice on a buy, a colour on an ooze, an edge off the grid...)."""
        try:
            ok = parse(fmt(a, self.g), self.g) == a
        except (ValueError, IndexError):
            ok = False
        if not ok:
            raise _illegal("notation", f"malformed action {quote(a)}: its fields do not fit "
                           f"a '{a.kind}' (see docs/tomb-notation.md)")

    def _canonical(self, shape: str, orient: str) -> str:
        try:
            return self.m.canonical_orient(shape, orient)
        except (KeyError, ValueError) as exc:
            raise _illegal("T2.2", str(exc)) from None

    def _rules(self, a: Action) -> None:
        s = self.sheet
        if s.phase == DONE:
            raise _illegal("T4.5", "you have finished the game")
        if s.phase == WAITING:
            raise _illegal("T4.4", f"you ended round {self.game.round}; waiting for the other players")
        kind = a.kind
        if s.phase == AFTER and (a.dice or kind in (UP, DOWN, BUY, CHOOSE, DISCARD)):
            raise _illegal("T4.5", "after round 20 only magic items and keys can be used, then 'end'")
        dice = self._dice(a)
        if kind == PLACE:
            self._place(a, dice)
        elif kind == DIG:
            self._function(a, dice, "shovel")
            self._tile(self._lookup("dig", a.orient, a.square))
        elif kind == ERASE:
            self._function(a, dice, "wand")
            self._erase(a.edge)
        elif kind == ADD:
            self._function(a, dice, "wand")
            if not (s.open_openings() >> a.edge & 1):
                raise _illegal("T6.2", "the Wand adds a wall only on an open opening of your "
                               "dungeon (not a passage, connected entrance or room)",
                               self.g.edge_name(a.edge))
        elif kind == DEFEAT:
            self._defeat(a, dice)
        elif kind == OPEN:
            if a.item not in ("", "skey"):
                raise _illegal("T5.4", "open a sarcophagus with a key ('open') "
                               "or the Skeleton Key ('open+skey')")
            if s.sarc_found <= s.sarc_opened:
                raise _illegal("T5.4", "no circled, unopened sarcophagus")
            self._key(a.item, "T5.4")
        elif kind in (UP, DOWN):
            self._one_die(a, dice)
            if s.coins < 1:
                raise _illegal("T4.3", "turning a die up or down costs 1 coin")
        elif kind in (BUY, CHOOSE):
            cost = 2 if kind == BUY else 3
            if kind == CHOOSE and not 1 <= a.value <= 6:
                raise _illegal("T4.3", "a chosen die is 1 to 6")
            if len(s.row) >= ROW_SIZE:
                raise _illegal("T4.3", f"round {self.game.round}'s row is full ({ROW_SIZE} dice)")
            if s.coins < cost:
                raise _illegal("T4.3", f"{'rolling' if kind == BUY else 'choosing'} a die costs "
                               f"{cost} coins; you have {s.coins}")
        elif kind == DISCARD:
            self._one_die(a, dice)
            slot = dice[0]
            value = s.row[slot - 1].value
            cache: dict[str, object] = {}
            if _die_actions(s, slot, value, cache) or _room_possible_with(s, slot):
                raise _illegal("T4.4", f"the {value} in slot {slot} has a legal use; "
                               "only a die with no use may be discarded")
        elif kind == END:
            if s.phase == PLAY and any(not d.used for d in s.row):
                left = ", ".join(f"slot {i + 1} ({d.value})" for i, d in enumerate(s.row) if not d.used)
                raise _illegal("T4.4", f"use every die before ending the round: {left}")
        else:
            raise _illegal("notation", f"unknown action kind {quote(kind)}")

    # -- pieces ----------------------------------------------------------------------------
    def _dice(self, a: Action) -> tuple[int, ...]:
        row = self.sheet.row
        for slot in a.dice:
            if not 1 <= slot <= len(row):
                raise _illegal("T4.2", f"there is no die in slot {slot} of round "
                               f"{self.game.round}'s row")
            if row[slot - 1].used:
                raise _illegal("T4.2", f"the die in slot {slot} is already used")
        if len(set(a.dice)) != len(a.dice):
            raise _illegal("T4.2", "each die is used once")
        return a.dice

    def _one_die(self, a: Action, dice: tuple[int, ...]) -> None:
        if len(dice) != 1 or a.item:
            raise _illegal("T4.2", f"'{a.kind}' takes exactly one die")

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
                    raise _illegal("T3.1", f"the tile with its top-left square on "
                                   f"{self.g.square_name(square)} would extend beyond the map's edge",
                                   self.g.square_name(square))
                if self.m.stone >> self.g.square(x, y) & 1:
                    raise _illegal("T3.1", "the tile would cover stone",
                                   self.g.square_name(self.g.square(x, y)))
            raise AssertionError("placement missing from the table")
        return pid

    def _tile(self, pid: int) -> None:
        s = self.sheet
        p = self.m.placements[pid]
        overlap = p.squares & s.covered
        if overlap:
            sq = (overlap & -overlap).bit_length() - 1
            raise _illegal("T3.1", "the tile would overlap a tile already placed", self.g.square_name(sq))
        anchor = self.g.square_name(p.anchor)
        if not s.covered:
            if p.shape == "dig":
                raise _illegal("T6.3", "the Shovel extends the dungeon that exists and is never its first tile "
                               "(rulebook: an extension of your map; open entrances are not part of it)", anchor)
            if not p.openings & self.m.entrance_edges:
                raise _illegal("T3.2", "the first tile must have an opening on an entrance", anchor)
        else:
            if not p.openings & s.open_openings():
                if p.openings & self.m.entrance_edges:
                    why = ("a tile cannot restart the dungeon at another entrance; "
                           "one of its openings must meet an open opening of the map")
                elif self._touches(p.squares):
                    why = ("none of the tile's openings meets an open opening of the map "
                           "(meeting a wall or a closed edge is no connection)")
                else:
                    why = ("the tile does not reach an open opening of your dungeon "
                           "(a corner or a gap is no connection)")
                raise _illegal("T3.2", why, anchor)
        if p.shape == "dig" and (p.walls | p.openings) & s.walls:
            e = ((p.walls | p.openings) & s.walls & -((p.walls | p.openings) & s.walls)).bit_length() - 1
            raise _illegal("T6.3", "the Shovel digs only a square that has no wall yet "
                           f"(rulebook: Shovel of Excavation); {self.g.edge_name(e)} is a wall",
                           self.g.square_name(p.anchor))
        clash = p.walls & s.walls
        if clash:
            e = (clash & -clash).bit_length() - 1
            raise _illegal("T3.3", "a wall of the tile would lie on an existing wall", self.g.edge_name(e))

    def _touches(self, squares: int) -> bool:
        g = self.g
        return bool(g.edges_of(squares) & g.edges_of(self.sheet.covered))

    def _place(self, a: Action, dice: tuple[int, ...]) -> None:
        if a.item:
            raise _illegal("T4.2", "tiles are placed with dice only")
        if a.shape == "room":
            if len(dice) != 2:
                raise _illegal("T2.2", "the room takes two dice of any values, like 1+2:room.r0@C5")
        else:  # a table shape (check() refused unknown shapes, T2.1)
            if len(dice) != 1:
                raise _illegal("T2.2", f"shape {a.shape} takes one die")
            need = int(a.shape[0])
            have = self.sheet.row[dice[0] - 1].value
            if have != need:
                raise _illegal("T2.2", f"shape {a.shape} needs a die of value {need}; "
                               f"slot {dice[0]} shows {have}")
        self._tile(self._lookup(a.shape, a.orient, a.square))

    def _function(self, a: Action, dice: tuple[int, ...], item: str) -> None:
        """The Wand's/Shovel's function from a die (T6.4) or from a use of the item."""
        if a.item:
            if a.item != item:
                raise _illegal("T6.4", f"the {a.item} cannot do that")
            if dice:
                raise _illegal("T6.4", "spend a die or an item use, not both")
            if self.sheet.item_uses[ITEMS.index(item)] <= 0:
                rule = "T6.1" if item == "wand" else "T6.3"
                found = self.sheet.items_found >> ITEMS.index(item) & 1
                raise _illegal(rule, f"the {item} has no use left" if found
                               else f"you have not found the {item}")
        elif len(dice) != 1:
            raise _illegal("T6.4", f"the {item}'s function takes one die of any value")

    def _erase(self, edge: int) -> None:
        s = self.sheet
        name = self.g.edge_name(edge)
        if not (s.walls >> edge & 1):
            raise _illegal("T6.1", "there is no wall of your dungeon on this edge", name)
        if not (self.m.erasable_static >> edge & 1):
            raise _illegal("T6.1", "a border or stone edge cannot be erased "
                           "(only a closed entrance or room opening)", name)
        if not (_erasable(s) >> edge & 1):
            raise _illegal("T6.1", "erasing this wall would make an opening two edges wide: "
                           "an edge in line with it is already open", name)

    def _key(self, item: str, rule: str) -> None:
        s = self.sheet
        if item == "skey":
            if s.item_uses[SKEY] <= 0:
                raise _illegal("T6.5", "the Skeleton Key has no use left"
                               if s.items_found >> SKEY & 1 else "you have not found the Skeleton Key")
        elif item:
            raise _illegal(rule, f"the {item} cannot stand in for a key")
        elif s.keys <= 0:
            raise _illegal(rule, "you need a key (or a Skeleton Key use: '+skey')")

    def _defeat(self, a: Action, dice: tuple[int, ...]) -> None:
        s = self.sheet
        if len(dice) != 1:
            raise _illegal("T5.3", "a defeat takes one die")
        monster = a.shape
        if monster not in MONSTER_DIE:
            raise _illegal("T5.3", f"unknown monster {quote(monster)}")
        need = MONSTER_DIE[monster]
        have = s.row[dice[0] - 1].value
        if have != need:
            raise _illegal("T5.3", f"a {monster} takes a die of value {need}; slot {dice[0]} shows {have}")
        if a.item and not ((monster == "ooze" and a.item == "hammer")
                           or (monster == "mimic" and a.item == "skey")):
            raise _illegal("T5.3", f"the {a.item} cannot help against a {monster}")
        if monster == "ooze":
            if s.oozes_found <= s.oozes_defeated:
                raise _illegal("T5.3", "no circled, undefeated ooze")
            if a.item == "hammer" and s.item_uses[HAMMER] <= 0:
                raise _illegal("T6.6", "the Hammer has no use left"
                               if s.items_found >> HAMMER & 1 else "you have not found the Hammer")
        elif monster == "skeleton":
            if _next_skeleton(s) < 0:
                raise _illegal("T5.3", "no circled, undefeated skeleton (defeat its ooze first)")
        elif monster == "zombie":
            if s.sarc_opened <= s.zombies_defeated:
                raise _illegal("T5.3", "no circled, undefeated zombie (open a sarcophagus first)")
        elif monster == "golem":
            if a.colour not in s.map.colours:
                raise _illegal("T5.3", f"no {a.colour} golem on this map")
            c = s.map.colours.index(a.colour)
            if not s.golems_found >> c & 1:
                raise _illegal("T5.3", f"the {a.colour} golem is not circled")
            if s.golems_defeated >> c & 1:
                raise _illegal("T5.3", f"the {a.colour} golem is already defeated")
            if not s.gems_found >> c & 1:
                raise _illegal("T5.3", f"the {a.colour} golem needs its {a.colour} gem collected first")
        elif monster == "mimic":
            if s.mimics_found <= s.mimics_defeated:
                raise _illegal("T5.3", "no circled, undefeated mimic")
            self._key(a.item, "T5.3")
        elif monster == "mummy":
            unlocked = min(s.alerts, ALERTS) // 3
            if len(s.hits) >= unlocked:
                raise _illegal("T5.6", f"no unlocked, empty Mummy box: {s.alerts} alerts unlock "
                               f"{unlocked} box(es), {len(s.hits)} already hit")


# ======================================================================================
# Applying (trusted input).
# ======================================================================================


def _apply(game: TombGame, seat: int, s: Sheet, a: Action) -> bool:
    """Apply a legal action to a sheet. Returns True when it was a random event."""
    kind = a.kind
    if a.dice:
        row = list(s.row)
        for slot in a.dice:
            if kind not in (UP, DOWN):
                d = row[slot - 1]
                row[slot - 1] = Die(d.value, d.source, True)
        s.row = tuple(row)
    if kind == PLACE:
        pid = s.map.index[(a.shape, a.orient, a.square)]
        _place(game, s, pid)
        if a.shape != "room":
            _mark(game, s, TABLE_SHAPES.index(a.shape))
    elif kind == DIG:
        _use_item(s, SHOVEL, a.item)
        _place(game, s, s.map.index[("dig", a.orient, a.square)])
    elif kind == ERASE:
        _use_item(s, WAND, a.item)
        s.walls &= ~(1 << a.edge)
        if s.map.room_edges >> a.edge & 1:
            _collect_room(s, a.edge)
    elif kind == ADD:
        _use_item(s, WAND, a.item)
        s.walls |= 1 << a.edge
    elif kind == DEFEAT:
        _defeat(game, s, a)
    elif kind == OPEN:
        _spend_key(s, a.item)
        s.sarc_opened += 1
    elif kind in (UP, DOWN):
        slot = a.dice[0]
        d = s.row[slot - 1]
        value = d.value % 6 + 1 if kind == UP else (d.value - 2) % 6 + 1
        row = list(s.row)
        row[slot - 1] = Die(value, d.source, False)
        s.row = tuple(row)
        s.coins -= 1
    elif kind == BUY:
        s.coins -= 2
        value = bought_die(game.seed, seat, s.buys, game.shared_buys)
        game.chances.append(Chance(seat, "buy", (value,)))
        s.row = (*s.row, Die(value, "buy"))
        s.buys += 1
        return True
    elif kind == CHOOSE:
        s.coins -= 3
        s.row = (*s.row, Die(a.value, "choose"))
    elif kind == DISCARD:
        pass
    elif kind == END:
        s.phase = WAITING if s.phase == PLAY else DONE
    return False


def _use_item(s: Sheet, index: int, item: str) -> None:
    if item:
        uses = list(s.item_uses)
        uses[index] -= 1
        s.item_uses = (uses[0], uses[1], uses[2], uses[3])


def _spend_key(s: Sheet, item: str) -> None:
    if item == "skey":
        _use_item(s, SKEY, "skey")
    else:
        s.keys_used += 1


def _gain_coins(s: Sheet, n: int) -> None:
    """Coins fill the coin track; beyond its capacity they are lost (T5.2)."""
    room = s.map.spec.coin_track - s.coins_gained
    gain = min(n, max(room, 0))
    s.coins += gain
    s.coins_gained += gain
    if gain < n:
        s.events = (*s.events, f"coin track full: {n - gain} coin(s) lost (T5.2)")


def _gain_key(s: Sheet) -> None:
    if s.keys_gained < s.map.spec.key_track:
        s.keys_gained += 1
    else:
        s.events = (*s.events, "key track full: key lost (T5.2)")


def _place(game: TombGame, s: Sheet, pid: int) -> None:
    m = s.map
    p = m.placements[pid]
    if not s.covered:
        s.start = (p.openings & m.entrance_edges & -(p.openings & m.entrance_edges)).bit_length() - 1
    s.covered |= p.squares
    s.walls |= p.walls_after
    s.inner |= p.inner
    s.tiles = (*s.tiles, pid)
    found = p.squares & m.findings_mask
    for sq in iter_bits(found):
        kind, what = m.finding_at[sq]
        if kind == "coins":
            assert isinstance(what, int)
            _gain_coins(s, what)
        elif kind == "key":
            _gain_key(s)
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
    for e in iter_bits(p.connects & m.room_edges & ~s.walls):
        _collect_room(s, e)


def _collect_room(s: Sheet, edge: int) -> None:
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


def _mark(game: TombGame, s: Sheet, shape: int) -> None:
    """Mark a shape; pay a row's bonus die and a column's key once (T2.3, T2.4)."""
    if s.marks >> shape & 1:
        return
    s.marks |= 1 << shape
    row, col = divmod(shape, 2)
    if not s.rows_paid >> row & 1 and s.marks >> (2 * row) & 3 == 3:
        s.rows_paid |= 1 << row
        _bonus_die(game, s, 6 - row)  # row of value v = row + 1 pays 7 - v
    col_mask = sum(1 << (2 * r + col) for r in range(6))
    if not s.cols_paid >> col & 1 and s.marks & col_mask == col_mask:
        s.cols_paid |= 1 << col
        _gain_key(s)


def _bonus_die(game: TombGame, s: Sheet, value: int) -> None:
    """T2.5: the current row's first free slot, else the next round's row, else lost."""
    if len(s.row) < ROW_SIZE:
        s.row = (*s.row, Die(value, "bonus"))
    elif game.round < ROUNDS and len(s.next_bonus) < ROW_SIZE - 2:
        s.next_bonus = (*s.next_bonus, value)
        s.events = (*s.events, f"bonus {value} goes to round {game.round + 1}'s row (T2.5)")
    else:
        s.events = (*s.events, f"bonus {value} lost: no free slot left (T2.5)")


def _alert(s: Sheet) -> None:
    s.alerts = min(s.alerts + 1, ALERTS)  # T5.5: alerts past the 18th are ignored


def _defeat(game: TombGame, s: Sheet, a: Action) -> None:
    log = s.map.spec.log
    monster = a.shape
    if monster == "ooze":
        i = s.oozes_defeated
        s.oozes_defeated += 1
        _gain_coins(s, log["ooze"][i])
        _alert(s)
        if a.item == "hammer":  # T6.6: the same ooze's skeleton, even out of order
            _use_item(s, HAMMER, "hammer")
            s.skel_defeated |= 1 << i
            _gain_coins(s, log["skeleton"][i])
            _alert(s)
    elif monster == "skeleton":
        i = _next_skeleton(s)
        s.skel_defeated |= 1 << i
        _gain_coins(s, log["skeleton"][i])
        _alert(s)
    elif monster == "zombie":
        _gain_coins(s, log["zombie"][s.zombies_defeated])
        s.zombies_defeated += 1
        _alert(s)
    elif monster == "golem":
        c = s.map.colours.index(a.colour)
        s.golems_defeated |= 1 << c
        _gain_coins(s, s.map.spec.golem_coins[a.colour])
        _alert(s)
    elif monster == "mimic":
        _spend_key(s, a.item)
        _gain_coins(s, log["mimic"][s.mimics_defeated])
        s.mimics_defeated += 1
        _alert(s)
    elif monster == "mummy":
        k = len(s.hits)
        s.hits = (*s.hits, (game.round, (21 - game.round) * HIT_MULTIPLIERS[k]))


def replay(seed: int, players: Sequence[PlayerSetup], actions: Iterable[tuple[int, Action]], *,
           shared_buys: bool = False) -> TombGame:
    """Rebuild a game from its seed and actions (checked); raises on the first bad one."""
    game = TombGame(seed, players, shared_buys=shared_buys)
    for player, action in actions:
        game.apply(player, action)
    return game


__all__ = ["COLOURS", "ROUNDS", "PlayerSetup", "TombGame", "bought_die", "replay", "round_dice"]
