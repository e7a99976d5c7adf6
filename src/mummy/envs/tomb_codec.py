"""The Mummy's Tomb as integers and arrays: a fixed action space and observation tensors.

Why a codec of its own: learning libraries want a ``Discrete(n)`` action space that is
the same at every step, a mask over it, and fixed-shape float arrays; the engine speaks
in :class:`~mummy.tomb.actions.Action` values and bitboards. This module is the one
translation between them, shared by the Gymnasium, PettingZoo and OpenSpiel wrappers,
and built only from the engine's public API (the rules never import it).

**Actions** (docs/research.md has the table). A die is named by its *value*, not its
slot: ``5a.r0@J1`` is one integer, played with the lowest unused slot showing a 5. That
is exactly how :meth:`~mummy.tomb.game.TombGame.legal_actions` lists actions (equal
dice once, at the lowest slot), so the legal integers and the engine's legal list are
in one-to-one correspondence, and a policy never has to learn that slots 1 and 2 holding
the same value are the same choice. In order, per map:

* every placement of the twelve table shapes (shape × orientation × anchor square, only
  those that lie on free squares of the map);
* the room: each pair of die values (21) × every room placement;
* the Shovel square: each source (a die of value 1–6, or a Shovel use) × every variant
  and square;
* the Wand's erase, then add: each source (die 1–6, or a Wand use) × every edge it could
  ever touch on this map;
* defeats: ooze, ooze+hammer, skeleton, zombie, each golem colour, mimic, mimic+skey,
  mummy;
* ``up``, ``down`` and ``discard`` of a die of each value, ``buy``, ``buy1``–``buy6``,
  ``open``, ``open+skey``, ``end``;
* ``wait``: not an action of the notation but the only move of a player who has ended
  the round (or the game) while others still play (the engine lists nothing for them); PettingZoo's
  parallel environment, where everyone moves at every step, needs it.

**Observations**: planes over the map (``C × H × W``) and a vector of the tracks; see
:data:`PLANES` and :meth:`TombCodec.vector_names`. Only what the player sees on the table:
the dice of the current row (never a future roll or a bought die not yet rolled).
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np

from mummy.core.grid import iter_bits
from mummy.envs._bits import F32, I64, unpack
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
)
from mummy.tomb.board import TombMap, tomb_map
from mummy.tomb.content import ITEMS, TABLE_SHAPES
from mummy.tomb.game import ROUNDS, TombGame
from mummy.tomb.scoring import LINES, Score, score
from mummy.tomb.sheet import AFTER, DONE, PLAY, WAITING, Die, Sheet

#: The pairs of die values a room may take, in order (21).
VALUE_PAIRS: Final = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
#: Where a die-or-item action's source sits: values 1–6 are indices 0–5, the item is 6.
ITEM_SOURCE: Final = 6
SOURCES: Final = 7
PHASES: Final = (PLAY, WAITING, AFTER, DONE)
DIE_SOURCES: Final = ("roll", "bonus", "buy", "choose")

#: The observation planes, in order (each ``H × W`` over the map's squares).
PLANES: Final = (
    "stone", "covered",
    "wall_n", "wall_e", "wall_s", "wall_w",
    "open_n", "open_e", "open_s", "open_w",
    "coins", "key", "ooze", "golem", "mimic", "item",
    "room_sarcophagus", "room_gem", "room_open", "room_connected", "room_closed",
    "entrance_open", "entrance_connected", "entrance_closed", "entrance_start",
)
PLANE: Final = {name: i for i, name in enumerate(PLANES)}


def _defeats(colours: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(monster, colour, helper) of every defeat action, in order."""
    out = [("ooze", "", ""), ("ooze", "", "hammer"), ("skeleton", "", ""), ("zombie", "", "")]
    out += [("golem", c, "") for c in colours]
    out += [("mimic", "", ""), ("mimic", "", "skey"), ("mummy", "", "")]
    return out


#: One integer's decoding entry: (kind, die value or 0 (a room: 10a + b), shape, orient,
#: square, edge, colour, item, chosen value).
Entry = tuple[str, int, str, str, int, int, str, str, int]


class TombCodec:
    """The integer action space and the observation encoding of one Tomb map."""

    def __init__(self, tomb: TombMap) -> None:
        self.map = tomb
        self.grid = tomb.grid
        # -- actions ---------------------------------------------------------------------
        # Decoding table: integer -> (kind, source value or 0, payload...). Kept as plain
        # tuples so that decoding is a list index and a few comparisons.
        self._decode: list[Entry] = []
        # Encoding: actions whose integer does not depend on the row (the die's value is
        # implied by the shape or the monster, or no die is spent), by the Action itself,
        # for every slot that might carry it.
        self._static: dict[Action, int] = {}
        self._placement_blocks()
        self._wand_blocks()
        self._fixed_blocks()
        #: The size of the action space.
        self.n_actions = len(self._decode)
        # -- observations ----------------------------------------------------------------
        self._gather_tables()
        self._static_planes, self._findings = self._map_planes()
        self.planes_shape = (len(PLANES), self.height, self.width)
        self.vector_size = len(self.vector_names())
        self._scale = self._scales()
        assert len(self._scale) == self.vector_size

    # -- building the action space, block by block, in the order of the module docstring --
    def _add(self, entry: Entry) -> int:
        """Append one integer's decoding entry; its integer is its place in the table."""
        self._decode.append(entry)
        return len(self._decode) - 1

    def _placement_blocks(self) -> None:
        """The table shapes, the room (a pair of values × a placement) and the Shovel
        square (a die of each value, then the item, × a placement): each block starts at
        a base, and the room and dig positions index a placement inside its block."""
        m = self.map
        table = [p for p in m.placements if p.shape in TABLE_SHAPES]
        rooms = [p for p in m.placements if p.shape == "room"]
        digs = [p for p in m.placements if p.shape == "dig"]
        self.place_base = len(self._decode)
        for p in table:
            i = self._add((PLACE, int(p.shape[0]), p.shape, p.orient, p.anchor, -1, "", "", 0))
            for slot in range(1, 5):
                self._static[Action(PLACE, (slot,), p.shape, p.orient, p.anchor)] = i
        self.room_base = len(self._decode)
        self._room_pos = {(p.orient, p.anchor): k for k, p in enumerate(rooms)}
        self._rooms = len(rooms)
        for a, b in VALUE_PAIRS:
            for p in rooms:
                self._add((PLACE, a * 10 + b, "room", p.orient, p.anchor, -1, "", "", 0))
        self.dig_base = len(self._decode)
        self._dig_pos = {(p.orient, p.anchor): k for k, p in enumerate(digs)}
        self._digs = len(digs)
        for source in range(SOURCES):
            for p in digs:
                item = "shovel" if source == ITEM_SOURCE else ""
                i = self._add((DIG, 0 if item else source + 1, "", p.orient, p.anchor, -1, "", item, 0))
                if item:
                    self._static[Action(DIG, (), "", p.orient, p.anchor, item="shovel")] = i

    def _wand_blocks(self) -> None:
        """The Wand's erase, then its add, each on every edge it could ever touch on this
        map: an erase on a free edge that the map lets be erased, an add on a free edge
        between two free squares."""
        m, g = self.map, self.grid
        free_edges = g.edges_of(m.free)
        erase_edges = list(iter_bits(free_edges & m.erasable_static))
        add_edges = [e for e in iter_bits(free_edges)
                     if all(sq is not None and m.free >> sq & 1 for sq in g.edge_squares(e))]
        self.erase_base = len(self._decode)
        self._erase_pos = {e: k for k, e in enumerate(erase_edges)}
        self._erases = len(erase_edges)
        self._wand(ERASE, erase_edges)
        self.add_base = len(self._decode)
        self._add_pos = {e: k for k, e in enumerate(add_edges)}
        self._adds = len(add_edges)
        self._wand(ADD, add_edges)

    def _wand(self, kind: str, edges: list[int]) -> None:
        """A block of the Wand's function on ``edges``: by a die of each value, then by a
        use of the item (whose integer does not depend on the row)."""
        for source in range(SOURCES):
            for e in edges:
                item = "wand" if source == ITEM_SOURCE else ""
                i = self._add((kind, 0 if item else source + 1, "", "", -1, e, "", item, 0))
                if item:
                    self._static[Action(kind, (), edge=e, item="wand")] = i

    def _fixed_blocks(self) -> None:
        """The actions that name no square: defeats, up/down/discard by value, buying,
        choosing a bought die, opening, ending, and ``wait``."""
        self.defeat_base = len(self._decode)
        for monster, colour, helper in _defeats(self.map.colours):
            i = self._add((DEFEAT, MONSTER_DIE[monster], monster, "", -1, -1, colour, helper, 0))
            for slot in range(1, 5):
                self._static[Action(DEFEAT, (slot,), monster, colour=colour, item=helper)] = i
        self.up_base = len(self._decode)
        for kind in (UP, DOWN, DISCARD):
            for v in range(1, 7):
                self._add((kind, v, "", "", -1, -1, "", "", 0))
        self._static[Action(BUY)] = self._add((BUY, 0, "", "", -1, -1, "", "", 0))
        for v in range(1, 7):
            self._static[Action(CHOOSE, value=v)] = self._add((CHOOSE, 0, "", "", -1, -1, "", "", v))
        self._static[Action(OPEN)] = self._add((OPEN, 0, "", "", -1, -1, "", "", 0))
        self._static[Action(OPEN, item="skey")] = self._add((OPEN, 0, "", "", -1, -1, "", "skey", 0))
        self.end = self._add((END, 0, "", "", -1, -1, "", "", 0))
        self._static[Action(END)] = self.end
        self.wait = self._add(("wait", 0, "", "", -1, -1, "", "", 0))

    # -- building the observation tables -----------------------------------------------------
    def _gather_tables(self) -> None:
        """One observation unpacks one integer: the covered squares, the walls, the open
        edges and the edges of covered squares side by side (at offsets 0, A, B, C), and
        every plane cell that reads a bit of it is one gather (``_src`` to ``_dst``); the
        "open" cells of rooms and entrances read a bit flipped (``_flip_src`` to
        ``_flip_dst``). Built once here so that :meth:`planes` is a few numpy calls."""
        m, g = self.map, self.grid
        self.height, self.width = g.height, g.width
        stride, off = g.stride, g.edge_offset
        sq = np.array([g.square(x, y) for y in range(g.height) for x in range(g.width)], dtype=np.int64)
        self._sq: I64 = sq
        self._cell = {int(s): k for k, s in enumerate(sq)}  # square index -> cell (row-major)
        self._sq_bits = stride * g.height
        self._edge_bits = off + stride * g.height + 1
        a = self._sq_bits
        b = a + self._edge_bits
        c = b + self._edge_bits
        self._offsets = (a, b, c)
        self._all_bits = c + self._edge_bits
        sides = np.stack([sq, sq + 1 + off, sq + stride, sq + off])  # N E S W edges of each square
        cells = g.height * g.width
        src: list[I64] = [sq, *(a + sides), *(b + sides)]
        dst: list[I64] = [PLANE["covered"] * cells + np.arange(cells)]
        dst += [(PLANE["wall_n"] + k) * cells + np.arange(cells) for k in range(4)]
        dst += [(PLANE["open_n"] + k) * cells + np.arange(cells) for k in range(4)]
        # Rooms and entrances: connected = the edge is open, closed = it carries a wall,
        # open = no covered square touches it (T1.6); each drawn on its own square.
        flip_src: list[int] = []
        flip_dst: list[int] = []
        places = [(g.edge(r.square, r.side), self._cell[r.square], "room") for r in m.spec.rooms]
        places += [(g.edge(s, side), self._cell[s], "entrance") for s, side in m.spec.entrances]
        for edge, cell, what in places:
            src.append(np.array([b + edge, a + edge]))
            dst.append(np.array([PLANE[f"{what}_connected"] * cells + cell, PLANE[f"{what}_closed"] * cells + cell]))
            flip_src.append(c + edge)
            flip_dst.append(PLANE[f"{what}_open"] * cells + cell)
        self._src: I64 = np.concatenate(src).astype(np.int64)
        self._dst: I64 = np.concatenate(dst).astype(np.int64)
        self._flip_src: I64 = np.array(flip_src, dtype=np.int64)
        self._flip_dst: I64 = np.array(flip_dst, dtype=np.int64)
        self._entrance_cells = {g.edge(s, side): PLANE["entrance_start"] * cells + self._cell[s]
                                for s, side in m.spec.entrances}

    def _map_planes(self) -> tuple[F32, F32]:
        """What the map prints, the same on every sheet: the stone and the rooms' findings
        as planes every observation starts from, and the findings under squares (coins
        by their amount) that :meth:`planes` shows while their square is uncovered."""
        m, g = self.map, self.grid
        where = self._cell
        static = np.zeros((len(PLANES), g.height, g.width), dtype=np.float32)
        static[PLANE["stone"]] = unpack(m.stone, self._sq_bits)[self._sq].reshape(g.height, g.width)
        findings = np.zeros((6, g.height * g.width), dtype=np.float32)
        kinds = {"coins": 0, "key": 1, "ooze": 2, "golem": 3, "mimic": 4, "item": 5}
        for square, (found, amount) in m.finding_at.items():
            coins = isinstance(amount, int) and found == "coins"
            findings[kinds[found], where[square]] = amount / 3.0 if coins and isinstance(amount, int) else 1.0
        for room in m.spec.rooms:
            y, x = divmod(where[room.square], g.width)
            static[PLANE["room_sarcophagus" if room.finding == "sarcophagus" else "room_gem"], y, x] = 1.0
        return static, findings

    # -- actions -------------------------------------------------------------------------
    def encode(self, action: Action, sheet: Sheet) -> int:
        """The integer of an action of the player of ``sheet`` (its dice named by value).

        Raises ``KeyError`` for an action that has no integer on this map (say, a
        placement on stone) and ``IndexError`` for a slot the row does not hold."""
        i = self._static.get(action)
        if i is not None:
            return i
        kind = action.kind
        row = sheet.row
        if kind == PLACE and action.shape == "room":
            a, b = (row[s - 1].value for s in action.dice)
            pair = VALUE_PAIRS.index((min(a, b), max(a, b)))
            return self.room_base + pair * self._rooms + self._room_pos[(action.orient, action.square)]
        source = row[action.dice[0] - 1].value - 1 if action.dice else ITEM_SOURCE
        if kind == DIG:
            return self.dig_base + source * self._digs + self._dig_pos[(action.orient, action.square)]
        if kind == ERASE:
            return self.erase_base + source * self._erases + self._erase_pos[action.edge]
        if kind == ADD:
            return self.add_base + source * self._adds + self._add_pos[action.edge]
        if kind in (UP, DOWN, DISCARD):
            return self.up_base + (UP, DOWN, DISCARD).index(kind) * 6 + source
        raise KeyError(f"no integer for {action!r}")

    def decode(self, index: int, sheet: Sheet) -> Action | None:
        """The action of integer ``index`` for this sheet now, with the lowest unused slot
        showing each value it needs (as the engine lists it), or ``None`` when the row has
        no such die (or for ``wait``, which is no action of the notation)."""
        kind, value, shape, orient, square, edge, colour, item, chosen = self._decode[index]
        if kind == "wait":
            return None
        if kind == PLACE and shape == "room":
            pair = _room_slots(sheet.row, value // 10, value % 10)
            return None if pair is None else Action(PLACE, pair, "room", orient, square)
        dice: tuple[int, ...] = ()
        if value:
            slot = _lowest_slot(sheet.row, value)
            if slot < 0:
                return None
            dice = (slot,)
        return Action(kind, dice, shape, orient, square, edge, colour, item, chosen)

    def describe(self, index: int) -> str:
        """A state-free name of an integer, as the notation writes it with its die's value
        in place of the slot (``v5:5a.r0@J1``, ``v3+v6:room.r0@C5``, ``wand:erase@E4n``)."""
        kind, value, shape, orient, square, edge, colour, item, chosen = self._decode[index]
        g = self.grid
        src = item if item in ("wand", "shovel") else (f"v{value}" if value else "")
        if kind == PLACE:
            if shape == "room":
                src = f"v{value // 10}+v{value % 10}"
            return f"{src}:{shape}.{orient}@{g.square_name(square)}"
        if kind == DIG:
            return f"{src}:dig.{orient}@{g.square_name(square)}"
        if kind in (ERASE, ADD):
            return f"{src}:{kind}@{g.edge_name(edge)}"
        if kind == DEFEAT:
            name = f"{shape}.{colour}" if colour else shape
            return f"{src}:{name}" + (f"+{item}" if item else "")
        if kind in (UP, DOWN, DISCARD):
            return f"{src}:{kind}"
        if kind == CHOOSE:
            return f"buy{chosen}"
        if kind == OPEN:
            return "open+skey" if item else "open"
        return kind

    def legal(self, game: TombGame, seat: int) -> list[int]:
        """The integers of the engine's legal list, in its order; ``[wait]`` for a player
        who has ended the round (or the game) while others still play."""
        sheet = game.sheets[seat]
        legal = game.legal_actions(seat)
        if not legal:
            return [self.wait] if sheet.phase in (WAITING, DONE) and not game.is_over else []
        static = self._static
        out = []
        for a in legal:
            i = static.get(a)
            out.append(self.encode(a, sheet) if i is None else i)
        return out

    def mask(self, legal: list[int]) -> np.ndarray:
        """A 0/1 ``int8`` vector over the action space."""
        out = np.zeros(self.n_actions, dtype=np.int8)
        out[legal] = 1
        return out

    # -- observations ----------------------------------------------------------------------
    def planes(self, sheet: Sheet) -> F32:
        """The ``C × H × W`` planes of a sheet (:data:`PLANES`)."""
        g = self.grid
        covered = sheet.covered
        a, b, c = self._offsets
        edges = g.edges_of(covered)
        open_edges = edges & ~sheet.walls & ~sheet.inner
        bits = unpack(covered | sheet.walls << a | open_edges << b | edges << c, self._all_bits)
        out = self._static_planes.copy()
        flat = out.reshape(-1)
        flat[self._dst] = bits[self._src]
        flat[self._flip_dst] = 1 - bits[self._flip_src]
        cells = self.height * self.width
        uncovered = 1 - flat[cells:2 * cells]
        flat[PLANE["coins"] * cells:(PLANE["item"] + 1) * cells] = (self._findings * uncovered).ravel()
        start = self._entrance_cells.get(sheet.start)
        if start is not None:
            flat[start] = 1.0
        return out

    def vector_names(self) -> list[str]:
        """What each entry of :meth:`vector` holds (scaled to about 0–1)."""
        names = [f"round_{r}" for r in range(1, ROUNDS + 1)] + [f"phase_{p}" for p in PHASES]
        for slot in range(1, 5):
            names += [f"slot{slot}_present", f"slot{slot}_used"]
            names += [f"slot{slot}_value_{v}" for v in range(1, 7)]
            names += [f"slot{slot}_from_{s}" for s in DIE_SOURCES]
        names += [f"carried_{v}" for v in range(1, 7)]
        names += ["coins", "coins_gained", "keys", "keys_gained", "bought"]
        names += [f"found_{i}" for i in ITEMS] + [f"uses_{i}" for i in ITEMS]
        names += [f"marked_{s}" for s in TABLE_SHAPES] + [f"row_paid_{v}" for v in range(1, 7)]
        names += ["column_paid_a", "column_paid_b"]
        names += ["oozes_circled", "oozes_defeated"] + [f"skeleton_{k}_defeated" for k in range(1, 7)]
        names += ["sarcophagi_circled", "sarcophagi_opened", "zombies_defeated"]
        for c in self.map.colours:
            names += [f"golem_{c}_circled", f"gem_{c}_collected", f"golem_{c}_defeated"]
        names += ["mimics_circled", "mimics_defeated", "alerts", "mummy_hits", "mummy_points"]
        names += [f"score_{line}" for line in LINES] + ["score_total"]
        return names

    def vector(self, game: TombGame, seat: int, row: tuple[Die, ...] | None = None,
               sc: Score | None = None) -> F32:
        """The tracks of a sheet as one vector (:meth:`vector_names`). ``row`` replaces
        the sheet's row (OpenSpiel's chance nodes hide dice not yet rolled); ``sc`` is the
        sheet's score if the caller has it already.

        Built from small precomputed tuples (one-hot rounds, dice and bit patterns) and
        scaled once by numpy: this runs at every step of every environment."""
        s = game.sheets[seat]
        out: list[float] = [*_ONE_HOT[ROUNDS][min(game.round, ROUNDS) - 1], *_ONE_HOT[4][PHASES.index(s.phase)]]
        dice = s.row if row is None else row
        for d in dice:
            out += _DIE[(d.value, d.used, d.source)]
        out += _NO_DIE * (4 - len(dice))
        carried = [0, 0, 0, 0, 0, 0]
        for v in s.next_bonus:
            carried[v - 1] += 1
        out += carried
        out += (s.coins, s.coins_gained, s.keys, s.keys_gained, s.buys)
        out += _BITS[4][s.items_found]
        out += s.item_uses
        out += _BITS[12][s.marks]
        out += _BITS[6][s.rows_paid]
        out += _BITS[2][s.cols_paid]
        out += (s.oozes_found, s.oozes_defeated)
        out += _BITS[6][s.skel_defeated]
        out += (s.sarc_found, s.sarc_opened, s.zombies_defeated)
        found, gems, beaten = _BITS[4][s.golems_found], _BITS[4][s.gems_found], _BITS[4][s.golems_defeated]
        for i in range(len(self.map.colours)):
            out += (found[i], gems[i], beaten[i])
        out += (s.mimics_found, s.mimics_defeated, s.alerts, len(s.hits), sum(p for _, p in s.hits))
        if sc is None:
            sc = score(s)
        lines = sc.lines
        out += [lines[line] for line in LINES]
        out.append(sc.total)
        vec = np.array(out, dtype=np.float32)
        vec *= self._scale
        return vec

    def _scales(self) -> F32:
        """What each raw entry of :meth:`vector` is multiplied by, to bring it near 0–1."""
        coin_track, key_track = self.map.spec.coin_track, self.map.spec.key_track
        scale = [1.0] * (ROUNDS + len(PHASES) + 4 * 12 + 6)
        scale[-6:] = [0.5] * 6
        scale += [1 / coin_track, 1 / coin_track, 1 / key_track, 1 / key_track, 1 / 20]
        scale += [1.0] * 4 + [1 / 3] * 4 + [1.0] * 20
        scale += [1 / 6, 1 / 6] + [1.0] * 6 + [1 / 4] * 3 + [1.0] * 3 * len(self.map.colours)
        scale += [1 / 6, 1 / 6, 1 / 18, 1 / 6, 1 / 100] + [1 / 50] * len(LINES) + [1 / 100]
        return np.array(scale, dtype=np.float32)


def _bits_table(width: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(n >> i & 1 for i in range(width)) for n in range(1 << width))


_BITS: Final = {w: _bits_table(w) for w in (2, 4, 6, 12)}
_ONE_HOT: Final = {n: tuple(tuple(int(i == k) for i in range(n)) for k in range(n)) for n in (4, ROUNDS)}
#: A die of the row: present, used, its value one-hot, its source one-hot.
_DIE: Final = {(v, used, src): (1, int(used), *(int(i == v) for i in range(1, 7)),
                                 *(int(src == x) for x in DIE_SOURCES))
               for v in range(1, 7) for used in (False, True) for src in DIE_SOURCES}
_NO_DIE: Final = [0] * 12


def _lowest_slot(row: tuple[Die, ...], value: int) -> int:
    for i, d in enumerate(row):
        if d.value == value and not d.used:
            return i + 1
    return -1


def _room_slots(row: tuple[Die, ...], a: int, b: int) -> tuple[int, int] | None:
    """The slots the engine lists for a room on values (a, b): the first pair of unused
    slots, in slot order, that shows those two values (TombGame.legal_actions)."""
    unused = [i + 1 for i, d in enumerate(row) if not d.used]
    for k, s in enumerate(unused):
        for t in unused[k + 1:]:
            va, vb = row[s - 1].value, row[t - 1].value
            if (min(va, vb), max(va, vb)) == (a, b):
                return (s, t)
    return None


@cache
def tomb_codec(map_id: str) -> TombCodec:
    """The codec of a packaged map, built once per process (a few milliseconds)."""
    return TombCodec(tomb_map(map_id))


__all__ = ["PLANES", "TombCodec", "tomb_codec"]
