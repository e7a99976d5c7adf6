"""The Mummy's Treasure rules engine (R1–R5): turns, dice, takes, placement and the end.

Same shape as the Tomb's engine: a game is its seed plus its actions. The piles are
shuffled from the seed (R2.2) and the n-th die rolled in the game comes from the seed's
dice stream, so replaying the actions replays every roll. Chance is explicit: each turn
starts with a ``roll`` action, so a misplaced tile can be taken back (undo) until the
next roll. ``apply`` checks and refuses with the rule id, changing nothing; ``push`` is
the fast unchecked path.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Final

from mummy.core.errors import IllegalActionError, quote
from mummy.core.grid import Grid
from mummy.core.notation import round_trips
from mummy.core.protocol import Chance
from mummy.core.rng import draw
from mummy.treasure.actions import PASS, REROLL, ROLL, TAKE, Action, fmt, parse
from mummy.treasure.board import SiteBoard, site_board
from mummy.treasure.content import DICE, ROLLS, SYMBOLS, Tile, all_tiles, piles, sites, sort_symbols

MAX_PLAYERS: Final = 4


@dataclass(frozen=True)
class Seat:
    """A player and the site they dig (R2.1)."""

    name: str = "player"
    site: str = "oasis"


@dataclass(frozen=True)
class Placed:
    """A tile on a site: which tile, its top-left square and orientation."""

    tile: str
    square: int
    orient: str


@dataclass(frozen=True)
class State:
    """Everything that changes during a game; immutable, so undo keeps old states."""

    tops: tuple[int, ...]  # per pile (in pile order): how many tiles were taken
    placed: tuple[tuple[Placed, ...], ...]  # per seat
    covered: tuple[int, ...]  # per seat: squares covered (bitboard)
    current: int  # whose turn (R2.3)
    rolls: int  # rolls made this turn: 0 (not rolled yet) to 3
    dice: str  # the dice showing, canonical order ("" before the first roll)
    dice_rolled: int  # how many dice the game has rolled: the index into the dice stream
    turns: tuple[int, ...]  # turns started per seat
    over: bool = False
    reason: str = ""  # "full" (R4.1) or "stuck" (R4.2/R4.3)
    winner: int = -1  # the seat that filled its site first (R4.1)


def shuffle_pile(seed: int, pile: str, tiles: Sequence[str]) -> tuple[str, ...]:
    """The seeded order of a pile, top first (R2.2): a Fisher–Yates shuffle."""
    order = list(tiles)
    for i in range(len(order) - 1, 0, -1):
        j = draw(seed, f"pile/{pile}", i, sides=i + 1) - 1
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def deal_sites(seed: int, players: int) -> list[str]:
    """Distinct sites dealt at random from the seed (R2.1 "dealt at random")."""
    return list(shuffle_pile(seed, "sites", list(sites())))[:players]


def random_first(seed: int, players: int) -> int:
    """The first player chosen at random from the seed (R2.3)."""
    return draw(seed, "first", 0, sides=players) - 1


def roll_die(seed: int, n: int) -> str:
    """The n-th die rolled in the game (R2.2)."""
    return SYMBOLS[draw(seed, "treasure-dice", n) - 1]


@cache
def contains(dice: str, needs: str) -> bool:
    """Whether the dice show every needed symbol, each on its own die (R3.3)."""
    have = Counter(dice)
    return all(have[s] >= n for s, n in Counter(needs).items())


class TreasureGame:
    """A game of Mummy's Treasure for one to four seats."""

    def __init__(self, seed: int, seats: Sequence[Seat] | int = 2, movable: bool = False,
                 first: int = 0) -> None:
        if isinstance(seats, int):
            names = list(sites())
            seats = [Seat(f"player {i + 1}", names[i % len(names)]) for i in range(seats)]
        if not 1 <= len(seats) <= MAX_PLAYERS:
            raise ValueError(f"Mummy's Treasure is for 1 to {MAX_PLAYERS} players (R2.1)")
        if not 0 <= first < len(seats):
            raise ValueError("the first player is one of the seats (R2.3)")
        self.seed = seed
        self.seats: tuple[Seat, ...] = tuple(seats)
        self.movable = movable
        self.first = first
        self.boards: tuple[SiteBoard, ...] = tuple(site_board(s.site) for s in self.seats)
        self.pile_names: tuple[str, ...] = tuple(piles())
        self.tiles: dict[str, Tile] = all_tiles()
        self.order: dict[str, tuple[str, ...]] = {
            name: shuffle_pile(seed, name, [t.id for t in p.tiles]) for name, p in piles().items()}
        n = len(self.seats)
        self.state = State(tops=(0,) * len(self.pile_names), placed=((),) * n, covered=(0,) * n,
                           current=first, rolls=0, dice="", dice_rolled=0, turns=(0,) * n)
        self.history: list[tuple[int, Action]] = []
        self.chances: list[Chance] = []  # every roll so far: whose, and the dice that came up
        self._undo: list[State] = []

    def copy(self) -> TreasureGame:
        """A copy to search on: the state is immutable, so only the lists are new; the
        piles' order is copied (a search may put a guessed order in it); nothing to undo."""
        new = TreasureGame.__new__(TreasureGame)
        new.__dict__.update(self.__dict__, order=dict(self.order), history=list(self.history),
                            chances=list(self.chances), _undo=[])
        return new

    # -- views -----------------------------------------------------------------------------
    @property
    def solo(self) -> bool:
        return len(self.seats) == 1

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    def to_act(self) -> list[int]:
        """The seat whose turn it is (R2.3), or nobody once the game is over."""
        return [] if self.state.over else [self.state.current]

    def returns(self) -> list[float]:
        """Each seat's squares covered (R4): final once the game is over."""
        return [float(n) for n in self.scores()]

    @property
    def is_over(self) -> bool:
        return self.state.over

    def top(self, pile: str) -> Tile | None:
        """The visible tile of a pile (R2.2), or None when it is empty."""
        i = self.pile_names.index(pile)
        taken = self.state.tops[i]
        order = self.order[pile]
        return self.tiles[order[taken]] if taken < len(order) else None

    def pile_left(self, pile: str) -> int:
        return len(self.order[pile]) - self.state.tops[self.pile_names.index(pile)]

    def grid(self, seat: int) -> Grid:
        """The grid of a seat's site: squares in actions are named on it."""
        return self.boards[seat].grid

    def full(self, seat: int) -> bool:
        return self.state.covered[seat] == self.boards[seat].squares

    def free_squares(self, seat: int) -> int:
        """How many squares of a seat's site are still uncovered: what a solo game that
        ends unfilled costs (R4.3), and what a tile must leave for the site to fill."""
        return self.boards[seat].squares.bit_count() - self.state.covered[seat].bit_count()

    def can_fit(self, seat: int, tile: Tile) -> bool:
        """Whether the tile could go on this seat's site: on the free squares as they are,
        or in the movable variant in some arrangement with all its tiles (R3.3, R5.1)."""
        board = self.boards[seat]
        if not self.movable:
            return board.fits(self.state.covered[seat], tile.rows, tile.cols)
        return self._arrangement(seat, tile) is not None

    def _arrangement(self, seat: int, tile: Tile) -> list[tuple[int, str]] | None:
        sizes = [(self.tiles[p.tile].rows, self.tiles[p.tile].cols) for p in self.state.placed[seat]]
        return self.boards[seat].pack([*sizes, (tile.rows, tile.cols)])

    def scores(self) -> list[int]:
        """Squares covered per seat (R4.2)."""
        return [c.bit_count() for c in self.state.covered]

    def places(self) -> list[int]:
        """1 = winner. R4.1: the seat that filled its site; R4.2: most squares, ties shared."""
        st = self.state
        if st.winner >= 0:
            return [1 if i == st.winner else 2 for i in range(len(self.seats))]
        sc = self.scores()
        return [1 + sum(1 for o in sc if o > s) for s in sc]

    # -- checked path ----------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> Action:
        """Check and apply; returns the action as applied (in canonical form).

        A movable-variant ``take:PILE`` is recorded as it is: replaying it runs the same
        deterministic packing search (R5.1), which finds the same arrangement."""
        return self.push(seat, self.check(seat, action))

    def check(self, seat: int, action: Action) -> Action:
        """Raise :class:`IllegalActionError` unless the action is legal; return it canonical.

        The questions are asked in the order a player would: is it a well-formed action of
        a seat whose turn it is (:meth:`_check_turn`), then what its kind needs. The first
        refusal names its rule, so the order is part of the behaviour."""
        self._check_turn(seat, action)
        st = self.state
        kind = action.kind
        if kind == ROLL:
            if st.rolls:
                raise IllegalActionError("R3.1", "the dice are already rolled this turn: reroll some, or take a tile")
            return action
        if st.rolls == 0:
            if kind == TAKE and self._just_took(seat):
                raise IllegalActionError("R3.4", "one tile a turn: roll to start your next turn")
            raise IllegalActionError("R3.1", "roll the five dice first ('roll')")
        if kind == REROLL:
            return self._check_reroll(action)
        if kind == PASS:
            return self._check_pass(seat, action)
        return self._check_take(seat, action)

    def _check_turn(self, seat: int, action: Action) -> None:
        """What every action needs, whatever its kind: a seat, a game still on, notation
        that reads back as the same action (so a record replays it), and the seat's turn."""
        st = self.state
        if not 0 <= seat < len(self.seats):
            raise IllegalActionError("R2.1", f"there is no seat {seat}")
        if st.over:
            raise IllegalActionError("R4", "the game is over")
        if not round_trips(action, self.grid(seat), parse, fmt):
            raise IllegalActionError("notation", f"malformed action {quote(action)} (see docs/treasure-notation.md)")
        if seat != st.current:
            who = self.seats[st.current].name
            if action.kind == TAKE and self._just_took(seat):
                raise IllegalActionError("R3.4", f"one tile a turn: you took yours; it is {who}'s turn")
            raise IllegalActionError("R2.3", f"it is {who}'s turn; play goes in seat order")

    def _check_reroll(self, action: Action) -> Action:
        """A reroll after the first or second roll, of dice that show (R3.1)."""
        st = self.state
        if st.rolls >= ROLLS:
            raise IllegalActionError("R3.1", f"at most {ROLLS} rolls a turn")
        if not action.dice:
            raise IllegalActionError("R3.1", "reroll a non-empty set of dice")
        if not contains(st.dice, action.dice):
            raise IllegalActionError("R3.1", f"the dice show {st.dice}; there is no {action.dice} among them")
        return action

    def _check_pass(self, seat: int, action: Action) -> Action:
        """A pass only after the third roll, and only when no tile can be taken (R3.1, R3.2)."""
        takes = self._takes(seat, first_only=True)
        if self.state.rolls < ROLLS:
            raise IllegalActionError("R3.1", "after the first and second roll, take a tile or reroll")
        if takes:
            raise IllegalActionError("R3.2", "after the third roll you must take a tile when one can be taken: "
                                     + fmt(takes[0], self.grid(seat)))
        return action

    def _check_take(self, seat: int, action: Action) -> Action:
        """A take: of a top tile (:meth:`_top_named`) that the dice show (:meth:`_check_needs`),
        put where it fits (:meth:`_check_square`) or, in the movable variant, arranged (R5.1)."""
        action, tile = self._top_named(action)
        self._check_needs(tile)
        if action.square < 0:
            if not self.movable:
                raise IllegalActionError("R3.3", "say where the tile goes, like take:scroll@B2.h "
                                         "(the game arranges tiles only in the movable variant, R5.1)")
            if self._arrangement(seat, tile) is None:
                raise IllegalActionError("R5.1", f"{tile.id} fits in no arrangement of your tiles on the site")
            return action
        return self._check_square(seat, action, tile)

    def _top_named(self, action: Action) -> tuple[Action, Tile]:
        """The pile a take names, by its name or by the id of its top tile ("scroll-3"), and
        that top tile (R1.2, R3.3); the action comes back naming the pile."""
        if "-" in action.pile and action.pile not in self.tiles:
            raise IllegalActionError("R1.2", f"there is no tile {quote(action.pile)}")
        if action.pile in self.tiles:  # a tile named by id ("scroll-3") must be on top
            named = self.tiles[action.pile]
            top = self.top(named.pile)
            if top is None or top.id != named.id:
                raise IllegalActionError("R3.3", f"{named.id} is not on top of the {named.pile} pile "
                                         f"(the top is {top.id if top else 'nothing'}); only top tiles can be taken")
            action = action._replace(pile=named.pile)
        if action.pile not in self.pile_names:
            raise IllegalActionError("R1.2", f"there is no pile {quote(action.pile)}; "
                                     f"piles: {', '.join(self.pile_names)}")
        tile = self.top(action.pile)
        if tile is None:
            raise IllegalActionError("R3.3", f"the {action.pile} pile is empty")
        return action, tile

    def _check_needs(self, tile: Tile) -> None:
        """The dice show every symbol the tile needs, each on its own die (R3.3); a refusal
        says what is missing, and why a pair needs two dice."""
        dice = self.state.dice
        if not contains(dice, tile.needs):
            missing = Counter(tile.needs) - Counter(dice)
            need = "".join(missing.elements())
            twice = any(tile.needs.count(ch) > 1 for ch in set(need))
            raise IllegalActionError("R3.3", f"{tile.id} needs {tile.needs}; the dice show {dice}, "
                                     f"missing {need}" + (" (each needed symbol on its own die: a pair "
                                                          "needs two dice)" if twice else ""))

    def _check_square(self, seat: int, action: Action, tile: Tile) -> Action:
        """A placed take lies on the site and on free squares (R3.3); a square tile turned
        is the same tile, so its canonical orientation is ``h``."""
        board = self.boards[seat]
        g = board.grid
        if tile.rows == tile.cols and action.orient == "v":
            action = action._replace(orient="h")  # a square tile turned is the same tile
        mask = board.placements(tile.rows, tile.cols).get((action.square, action.orient))
        where = g.square_name(action.square)
        if mask is None:
            raise IllegalActionError("R3.3", f"{tile.id} ({tile.rows}x{tile.cols}, {action.orient}) "
                                     "would go off the site", where)
        overlap = mask & self.state.covered[seat]
        if overlap:
            sq = (overlap & -overlap).bit_length() - 1
            raise IllegalActionError("R3.3", "the tile would lie on another tile", g.square_name(sq))
        return action

    def _just_took(self, seat: int) -> bool:
        return bool(self.history) and self.history[-1][0] == seat and self.history[-1][1].kind == TAKE

    def is_legal(self, seat: int, action: Action) -> bool:
        try:
            self.check(seat, action)
        except IllegalActionError:
            return False
        return True

    # -- fast path -------------------------------------------------------------------------
    def push(self, seat: int, action: Action, *, keep_undo: bool = True) -> Action:
        """Apply a legal action without checking it."""
        st = self.state
        if keep_undo:
            self._undo.append(st)
        kind = action.kind
        if kind in (ROLL, REROLL):
            n = DICE if kind == ROLL else len(action.dice)
            kept = Counter(st.dice) - Counter(action.dice) if kind == REROLL else Counter()
            new = "".join(roll_die(self.seed, st.dice_rolled + i) for i in range(n))
            dice = sort_symbols("".join(kept.elements()) + new)
            self.chances.append(Chance(seat, kind, new))
            turns = st.turns
            if kind == ROLL:
                turns = tuple(t + (i == seat) for i, t in enumerate(turns))
            self.state = replace(st, rolls=st.rolls + 1, dice=dice, dice_rolled=st.dice_rolled + n,
                                 turns=turns)
            self._undo.clear()  # a roll is a random event: no undo past it
        elif kind == TAKE:
            action = self._take(seat, action)
        else:  # PASS
            self._next_turn()
        if self.state.over:
            self._undo.clear()  # the game is over: the result stands
        self.history.append((seat, action))
        return action

    def _take(self, seat: int, action: Action) -> Action:
        st = self.state
        tile = self.top(action.pile)
        assert tile is not None
        board = self.boards[seat]
        pi = self.pile_names.index(action.pile)
        tops = (*st.tops[:pi], st.tops[pi] + 1, *st.tops[pi + 1:])
        if action.square < 0:  # R5.1: rearrange everything
            arrangement = self._arrangement(seat, tile)
            assert arrangement is not None
            old = st.placed[seat]
            new_placed = tuple(Placed(p.tile, sq, o) for p, (sq, o) in zip(old, arrangement, strict=False))
            square, orient = arrangement[-1]
            new_placed = (*new_placed, Placed(tile.id, square, orient))
            covered = 0
            for p in new_placed:
                t = self.tiles[p.tile]
                covered |= board.placements(t.rows, t.cols)[(p.square, p.orient)]
        else:
            mask = board.placements(tile.rows, tile.cols)[(action.square, action.orient)]
            new_placed = (*st.placed[seat], Placed(tile.id, action.square, action.orient))
            covered = st.covered[seat] | mask
        placed = (*st.placed[:seat], new_placed, *st.placed[seat + 1:])
        covers = (*st.covered[:seat], covered, *st.covered[seat + 1:])
        self.state = replace(st, tops=tops, placed=placed, covered=covers)
        if covered == board.squares:  # R4.1: a full site wins at once
            self.state = replace(self.state, over=True, reason="full", winner=seat, rolls=0, dice="")
        else:
            self._next_turn()
        return action

    def _next_turn(self) -> None:
        st = self.state
        nxt = (st.current + 1) % len(self.seats)
        self.state = replace(st, current=nxt, rolls=0, dice="")
        if not self._any_takeable():  # R4.2 / R4.3: no tile can ever be taken again
            self.state = replace(self.state, over=True, reason="stuck")

    def _any_takeable(self) -> bool:
        for pile in self.pile_names:
            tile = self.top(pile)
            if tile is not None and any(self.can_fit(s, tile) for s in range(len(self.seats))):
                return True
        return False

    def undo(self, seat: int | None = None) -> Action:
        """Take back the last action, as far back as the last roll of the dice. The end of
        a game is final (R4): the take that ends it cannot be taken back. Given a seat, it
        must be the seat that made that action (the Tomb's ``undo(player)`` shape)."""
        if self.is_over:
            raise IllegalActionError("R4", "the game is over and its result stands; the last take cannot be undone")
        if not self._undo:
            raise IllegalActionError("undo", "nothing to undo since the last roll of the dice")
        if seat is not None and self.history[-1][0] != seat:
            who = self.seats[self.history[-1][0]].name
            raise IllegalActionError("undo", f"the last action was {who}'s: only they can take it back")
        self.state = self._undo.pop()
        return self.history.pop()[1]

    def can_undo(self, seat: int | None = None) -> bool:
        """Whether :meth:`undo` would take something back (for this seat, if given)."""
        return bool(self._undo) and (seat is None or self.history[-1][0] == seat)

    # -- legal actions ---------------------------------------------------------------------
    def _takes(self, seat: int, first_only: bool = False) -> list[Action]:
        st = self.state
        out: list[Action] = []
        covered = st.covered[seat]
        board = self.boards[seat]
        for pile in self.pile_names:
            tile = self.top(pile)
            if tile is None or not contains(st.dice, tile.needs):
                continue
            # In the movable variant (R5.1) the player may still put the tile where it fits
            # as things lie, or let the game rearrange the site ("take:PILE").
            if self.movable and self._arrangement(seat, tile) is not None:
                out.append(Action(TAKE, pile=pile))
            for (square, orient), mask in board.placements(tile.rows, tile.cols).items():
                if not mask & covered:
                    out.append(Action(TAKE, pile=pile, square=square, orient=orient))
            if first_only and out:
                return out
        return out

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of the seat now (none when it is not their turn)."""
        st = self.state
        if st.over or seat != st.current:
            return []
        if st.rolls == 0:
            return [Action(ROLL)]
        out = self._takes(seat)
        if st.rolls < ROLLS:
            out.extend(Action(REROLL, dice=d) for d in sub_multisets(st.dice))
        elif not out:
            out.append(Action(PASS))
        return out


@cache
def sub_multisets(dice: str) -> tuple[str, ...]:
    """Every non-empty sub-multiset of the dice, canonical order: the distinct rerolls.
    (A pure function of at most 252 dice strings, so it is cached.)"""
    counts = Counter(dice)
    symbols = sort_symbols("".join(counts))
    out = [""]
    for s in symbols:
        out = [prefix + s * k for prefix in out for k in range(counts[s] + 1)]
    return tuple(sorted((x for x in out if x), key=lambda x: (len(x), [SYMBOLS.index(c) for c in x])))
