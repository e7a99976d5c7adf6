"""Mummy's Treasure as integers and arrays: a fixed action space and observation tensors.

The same translation as :mod:`mummy.envs.tomb_codec`, for the dice game. One action
space serves every site and every seat, so that a table of two to four players (each
on their own site) shares it, and OpenSpiel has one ``num_distinct_actions``:

* ``0``: ``roll``;
* ``1``–``31``: a reroll, as the subset of the five dice *by position* in the dice's
  canonical order (bit *i* = the *i*-th die of ``SSAPJ``). Several subsets can name the
  same reroll (``reroll:S`` on ``SSAPJ`` is bit 0 or bit 1); the *canonical* one takes
  the first dice of each symbol, and only it is legal, so that the legal integers and
  the engine's legal list (distinct rerolls) correspond one to one;
* ``32``: ``pass``;
* ``33``–``38``: ``take:PILE`` in the movable-tiles variant (the game arranges, R5.1);
* then ``take:PILE@SQUARE.h|v`` for each pile (6) × orientation (h, v) × square of a
  9 × 6 canvas (column A–I, row 1–6), which holds every site's grid (oasis 6 × 6,
  valley 9 × 4, temple and pyramid 8 × 6); a square outside a seat's grid is never legal.

**Observations**: planes on that canvas, two per seat (the site's squares, the covered
squares), the observing seat first and then the others in play order; and a vector: each
pile's visible top tile (what it needs, how many tiles are left), the dice, the rolls made
this turn, whose turn it is, the turns started and the squares covered. Never a pile's
hidden order nor a die not yet rolled.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

import numpy as np

from mummy.envs._bits import F32, I64, unpack
from mummy.treasure.actions import PASS, REROLL, ROLL, TAKE, Action
from mummy.treasure.board import site_board
from mummy.treasure.content import DICE, ROLLS, SYMBOLS, TILES_PER_PILE, piles
from mummy.treasure.game import MAX_PLAYERS, TreasureGame, sub_multisets

CANVAS_W: Final = 9
CANVAS_H: Final = 6
CELLS: Final = CANVAS_W * CANVAS_H
PILES: Final = tuple(piles())
ROLL_INDEX: Final = 0
PASS_INDEX: Final = 32
ARRANGE_BASE: Final = 33
TAKE_BASE: Final = ARRANGE_BASE + len(PILES)
N_ACTIONS: Final = TAKE_BASE + len(PILES) * 2 * CELLS
ORIENTS: Final = ("h", "v")
#: Where every research interface cuts a Treasure game by default: turns a seat. The rules
#: end a game only when no tile can be taken (R4.2); a learner needs every episode finite.
MAX_TURNS: Final = 100
_PILE_INDEX: Final = {p: i for i, p in enumerate(PILES)}
#: What each pile's entry in the vector holds.
PILE_FIELDS: Final = ("present", *(f"needs_{s}" for s in SYMBOLS), "left")


@cache
def _site_cells(site: str) -> tuple[I64, F32, int]:
    """For a site: each canvas cell's bit in its grid (or the "off the grid" index), the
    plane of its squares, and the number of bits of a covered-squares board."""
    board = site_board(site)
    g = board.grid
    nbits = g.stride * g.height
    index = np.full(CELLS, nbits, dtype=np.int64)
    for y in range(g.height):
        for x in range(g.width):
            index[y * CANVAS_W + x] = g.square(x, y)
    squares = unpack(board.squares, nbits)[index].astype(np.float32)
    return index, squares, nbits


def reroll_subset(dice: str, reroll: str) -> int:
    """The canonical subset (bit per die position) of a reroll: the first dice of each
    symbol named. The engine keeps the dice in canonical order, so equal symbols are
    neighbours and "the first k" is a run of k bits. Raises ``ValueError`` when the
    dice do not show what the reroll names."""
    bits = 0
    for symbol in set(reroll):
        k = reroll.count(symbol)
        start = dice.find(symbol)
        if start < 0 or dice[start:start + k] != symbol * k:
            raise ValueError(f"the dice {dice!r} do not show {reroll!r}")
        bits |= ((1 << k) - 1) << start
    return bits


def encode(action: Action, game: TreasureGame, seat: int) -> int:
    """The integer of an action (for a reroll, its canonical subset of the dice showing).

    Raises ``ValueError`` for an action with no integer (a reroll of dice not showing)."""
    kind = action.kind
    if kind == ROLL:
        return ROLL_INDEX
    if kind == PASS:
        return PASS_INDEX
    if kind == REROLL:
        return reroll_subset(game.state.dice, action.dice)
    pile = game.tiles[action.pile].pile if action.pile in game.tiles else action.pile
    p = PILES.index(pile)
    if action.square < 0:
        return ARRANGE_BASE + p
    x, y = game.grid(seat).xy(action.square)
    return TAKE_BASE + (p * 2 + ORIENTS.index(action.orient)) * CELLS + y * CANVAS_W + x


def decode(index: int, game: TreasureGame, seat: int) -> Action | None:
    """The action of an integer for a seat now; ``None`` when it names nothing there
    (dice not showing, a square off the seat's grid)."""
    if index == ROLL_INDEX:
        return Action(ROLL)
    if index == PASS_INDEX:
        return Action(PASS)
    if index < PASS_INDEX:
        dice = game.state.dice
        if len(dice) != DICE:
            return None
        return Action(REROLL, dice="".join(dice[i] for i in range(DICE) if index >> i & 1))
    if index < TAKE_BASE:
        return Action(TAKE, pile=PILES[index - ARRANGE_BASE])
    k, cell = divmod(index - TAKE_BASE, CELLS)
    p, o = divmod(k, 2)
    y, x = divmod(cell, CANVAS_W)
    g = game.grid(seat)
    if not g.on_grid(x, y):
        return None
    return Action(TAKE, pile=PILES[p], square=g.square(x, y), orient=ORIENTS[o])


def describe(index: int) -> str:
    """A state-free name of an integer (``roll``, ``reroll:{0,3}``, ``take:scroll@B2.v``)."""
    if index == ROLL_INDEX:
        return "roll"
    if index == PASS_INDEX:
        return "pass"
    if index < PASS_INDEX:
        return "reroll:{" + ",".join(str(i) for i in range(DICE) if index >> i & 1) + "}"
    if index < TAKE_BASE:
        return f"take:{PILES[index - ARRANGE_BASE]}"
    k, cell = divmod(index - TAKE_BASE, CELLS)
    p, o = divmod(k, 2)
    y, x = divmod(cell, CANVAS_W)
    return f"take:{PILES[p]}@{chr(ord('A') + x)}{y + 1}.{ORIENTS[o]}"


def legal(game: TreasureGame, seat: int) -> list[int]:
    """The integers of the engine's legal list for the seat, in its order (the takes,
    then the distinct rerolls of :func:`~mummy.treasure.game.sub_multisets`)."""
    actions = game.legal_actions(seat)
    if not actions:
        return []
    stride = game.grid(seat).stride
    pile_index = _PILE_INDEX
    out = []
    for a in actions:
        kind = a.kind
        if kind == TAKE and a.square >= 0:
            y, x = divmod(a.square, stride)
            out.append(TAKE_BASE + (pile_index[a.pile] * 2 + (a.orient == "v")) * CELLS + y * CANVAS_W + x)
        elif kind == REROLL:  # the rerolls close the list: every sub-multiset of the dice
            out.extend(_reroll_ints(game.state.dice))
            break
        else:
            out.append(encode(a, game, seat))
    return out


@cache
def _reroll_ints(dice: str) -> tuple[int, ...]:
    return tuple(reroll_subset(dice, r) for r in sub_multisets(dice))


def mask(legal_ints: Sequence[int]) -> np.ndarray:
    out = np.zeros(N_ACTIONS, dtype=np.int8)
    out[list(legal_ints)] = 1
    return out


class TreasureObserver:
    """The observation of a table of ``players`` seats (planes and vector shapes fixed)."""

    def __init__(self, players: int, max_turns: int = MAX_TURNS) -> None:
        self.players = players
        self.max_turns = max_turns
        self.planes_shape = (2 * players, CANVAS_H, CANVAS_W)
        self.vector_size = len(self.vector_names())

    def vector_names(self) -> list[str]:
        names = [f"{p}_{f}" for p in PILES for f in PILE_FIELDS]
        names += [f"dice_{s}" for s in SYMBOLS] + [f"rolls_{r}" for r in range(ROLLS + 1)]
        names += [f"to_move_{k}" for k in range(MAX_PLAYERS)]
        names += [f"turns_{k}" for k in range(MAX_PLAYERS)] + [f"covered_{k}" for k in range(MAX_PLAYERS)]
        names += ["movable", "over"]
        return names

    def planes(self, game: TreasureGame, seat: int) -> F32:
        n = self.players
        out = np.zeros(self.planes_shape, dtype=np.float32)
        covered = game.state.covered
        for k in range(n):
            s = (seat + k) % n
            index, squares, nbits = _site_cells(game.seats[s].site)
            out[2 * k] = squares.reshape(CANVAS_H, CANVAS_W)
            out[2 * k + 1] = unpack(covered[s], nbits)[index].reshape(CANVAS_H, CANVAS_W)
        return out

    def vector(self, game: TreasureGame, seat: int, hidden: frozenset[str] = frozenset()) -> F32:
        """Seats are counted from the observer: entry 0 is the observer, 1 the next seat.
        ``hidden`` piles show no top tile (OpenSpiel's chance has not dealt it yet)."""
        st = game.state
        out: list[float] = []
        order, tiles = game.order, game.tiles
        for i, pile in enumerate(PILES):
            pile_order = order[pile]
            taken = st.tops[i]
            if taken >= len(pile_order) or pile in hidden:
                out += _EMPTY_PILE
            else:
                out += _NEEDS[tiles[pile_order[taken]].needs]
                out.append((len(pile_order) - taken) / TILES_PER_PILE)
        counts = [0.0] * len(SYMBOLS)
        for ch in st.dice:
            counts[SYMBOLS.index(ch)] += 1.0 / DICE
        out += counts
        out += _ONE_HOT_ROLLS[st.rolls]
        n = self.players
        to_move = [0.0] * MAX_PLAYERS
        turns = [0.0] * MAX_PLAYERS
        cover = [0.0] * MAX_PLAYERS
        for k in range(n):
            s = (seat + k) % n
            turns[k] = min(st.turns[s] / self.max_turns, 1.0)
            cover[k] = st.covered[s].bit_count() / 36.0
            if s == st.current and not st.over:
                to_move[k] = 1.0
        out += to_move + turns + cover
        out += [float(game.movable), float(st.over)]
        return np.array(out, dtype=np.float32)

    def flat(self, game: TreasureGame, seat: int) -> F32:
        """Planes and vector in one array (PettingZoo's and OpenSpiel's tensor)."""
        return np.concatenate([self.planes(game, seat).reshape(-1), self.vector(game, seat)])


def _needs_row(needs: str) -> list[float]:
    return [1.0, *(needs.count(s) / 3.0 for s in SYMBOLS)]


_EMPTY_PILE: Final = [0.0] * len(PILE_FIELDS)
_NEEDS: Final = {t.needs: _needs_row(t.needs) for p in piles().values() for t in p.tiles}
_ONE_HOT_ROLLS: Final = [[float(i == r) for i in range(ROLLS + 1)] for r in range(ROLLS + 1)]


__all__ = ["N_ACTIONS", "TreasureObserver", "decode", "describe", "encode", "legal", "mask"]
