"""Mummy's Treasure as an OpenSpiel Python game: ``pyspiel.load_game("mummy_treasure")``.

Parameters ``players`` 1–4, ``sites``, ``movable``, ``max_turns``. Chance deals each
pile's top tile at the start, draws the next top tile of a pile when its top is taken
(uniform over the tiles still in it: nobody knows the order, R2.2), and rolls the dice of
a ``roll`` or ``reroll`` (one outcome per multiset of the dice rolled, with its
multinomial probability). Returns: solo, minus the turns taken (R4.3) and minus the
squares left uncovered when the site is not full; two to four players, a zero-sum share
from the places (R4): each seat gains 1/(n−1) per seat it beats and loses as much per
seat that beats it. A game that reaches ``max_turns`` turns a seat is cut there and ranked
like a stuck one (R4.2), so every game is finite, as OpenSpiel requires. Importing this
module registers the game; :mod:`mummy.envs.spiel` has the overview of both games.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from functools import cache
from itertools import combinations_with_replacement
from typing import Any, Final

import numpy as np
import pyspiel

from mummy.envs import treasure_codec as tc
from mummy.envs._bits import F32
from mummy.envs.spiel_base import HistoryStrings, game_type
from mummy.treasure.actions import REROLL, ROLL, TAKE
from mummy.treasure.actions import fmt as treasure_fmt
from mummy.treasure.content import DICE, SYMBOLS, all_tiles, piles, sites, sort_symbols
from mummy.treasure.game import MAX_PLAYERS, Seat, TreasureGame

_TREASURE_TYPE = game_type("mummy_treasure", "Mummy's Treasure", MAX_PLAYERS,
                           {"players": 2, "sites": "", "movable": False, "max_turns": tc.MAX_TURNS})

#: Every multiset of 1 to 5 dice in canonical order: a dice chance outcome's id is its index.
DICE_OUTCOMES: Final = tuple("".join(c) for k in range(1, DICE + 1)
                             for c in combinations_with_replacement(SYMBOLS, k))
DICE_ID: Final = {d: i for i, d in enumerate(DICE_OUTCOMES)}
#: Tile outcomes (a pile's next top tile) follow the dice outcomes, in file order.
TILE_IDS: Final = tuple(all_tiles())
TILE_BASE: Final = len(DICE_OUTCOMES)
_TILE_ID: Final = {t: i for i, t in enumerate(TILE_IDS)}


@cache
def dice_outcomes(k: int) -> tuple[tuple[int, float], ...]:
    """The outcomes of rolling k dice, with their multinomial probabilities."""
    out = []
    for i, d in enumerate(DICE_OUTCOMES):
        if len(d) == k:
            ways = math.factorial(k)
            for n in Counter(d).values():
                ways //= math.factorial(n)
            out.append((i, ways / 6 ** k))
    return tuple(out)


def arranged(pile: str, drawn: list[str]) -> tuple[str, ...]:
    """A pile's order for a state that knows only the tiles drawn from it: those first, in
    the order drawn, then the others in file order. Why: the engine reads its top tile
    from its order, and nothing may read the seed's real order below what was drawn."""
    return (*drawn, *(t.id for t in piles()[pile].tiles if t.id not in drawn))


class TreasureCore:
    """The engine game inside an OpenSpiel state, the tiles drawn so far, and the chance
    event it waits for: ``("deal", pile)`` at the start, ``("dice", k, kept, action)``
    after a roll or reroll, ``("draw", pile, take)`` before a take that reveals the next
    top tile. The engine's pile order past the drawn tiles is a placeholder nobody reads.

    Clones copy the engine game with :meth:`TreasureGame.copy` (the state is immutable and
    shared; the pile order and the history are new), because OpenSpiel's MCTS clones at
    every step."""

    __slots__ = ("drawn", "game", "max_turns", "pending")

    def __init__(self, game: TreasureGame, drawn: dict[str, list[str]], pending: tuple[Any, ...],
                 max_turns: int) -> None:
        self.game = game
        self.drawn = drawn
        self.pending = pending
        self.max_turns = max_turns

    def __deepcopy__(self, memo: dict[int, Any]) -> TreasureCore:
        return TreasureCore(self.game.copy(), {p: list(t) for p, t in self.drawn.items()},
                            self.pending, self.max_turns)

    @classmethod
    def from_engine(cls, game: TreasureGame, max_turns: int = tc.MAX_TURNS) -> TreasureCore:
        """A copy of an engine game at a decision that knows what a player sees: the tiles
        taken and each pile's top, not the order below (a search must not read it)."""
        new = game.copy()
        drawn = {}
        for i, pile in enumerate(game.pile_names):
            upto = game.state.tops[i] + 1  # the tiles taken and the top showing now
            drawn[pile] = list(game.order[pile][:upto])
            new.order[pile] = arranged(pile, drawn[pile])
        return cls(new, drawn, (), max_turns)

    def truncated(self) -> bool:
        st = self.game.state
        return not st.over and not self.pending and st.rolls == 0 and st.turns[st.current] >= self.max_turns

    def terminal(self) -> bool:
        return self.game.is_over or self.truncated()

    def current(self) -> int:
        if self.terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.pending:
            return int(pyspiel.PlayerId.CHANCE)
        return self.game.state.current

    def hidden(self) -> frozenset[str]:
        """Piles whose top tile has not been dealt yet."""
        return frozenset(p for p, known in self.drawn.items()
                         if len(known) <= self.game.state.tops[self.game.pile_names.index(p)])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        kind = self.pending[0]
        if kind == "dice":
            return list(dice_outcomes(self.pending[1]))
        pile = self.pending[1]
        left = [t.id for t in piles()[pile].tiles if t.id not in self.drawn[pile]]
        return [(TILE_BASE + _TILE_ID[t], 1 / len(left)) for t in left]

    def apply_chance(self, outcome: int) -> None:
        game = self.game
        kind = self.pending[0]
        if kind == "dice":
            _, _k, kept, action = self.pending
            seat = game.state.current
            game.push(seat, action, keep_undo=False)
            # The engine rolled the seed's dice; the search's own outcome replaces them, in
            # the state and in the game's log of chance events alike.
            game.state = replace(game.state, dice=sort_symbols(kept + DICE_OUTCOMES[outcome]))
            game.chances[-1] = game.chances[-1]._replace(outcome=DICE_OUTCOMES[outcome])
            self.pending = ()
            return
        tile = TILE_IDS[outcome - TILE_BASE]
        pile = self.pending[1]
        self.drawn[pile].append(tile)
        game.order[pile] = arranged(pile, self.drawn[pile])
        if kind == "draw":
            take = self.pending[2]
            self.pending = ()
            game.push(game.state.current, take, keep_undo=False)
        else:  # deal: the next pile, until every pile shows its top
            self.pending = ()
            for p in game.pile_names:
                if not self.drawn[p]:
                    self.pending = ("deal", p)
                    break

    def apply(self, index: int) -> None:
        game = self.game
        seat = game.state.current
        action = tc.decode(index, game, seat)
        if action is None:
            raise ValueError(f"action {index} ({tc.describe(index)}) names nothing for seat {seat} now")
        if action.kind in (ROLL, REROLL):
            kept = "" if action.kind == ROLL else "".join((Counter(game.state.dice) - Counter(action.dice)).elements())
            k = DICE if action.kind == ROLL else len(action.dice)
            self.pending = ("dice", k, kept, action)
            return
        if action.kind == TAKE:
            tile = game.top(action.pile)
            assert tile is not None
            i = game.pile_names.index(action.pile)
            fills = tile.area == game.free_squares(seat)
            more = len(self.drawn[action.pile]) < len(piles()[action.pile].tiles)
            if more and not fills and len(self.drawn[action.pile]) == game.state.tops[i] + 1:
                self.pending = ("draw", action.pile, action)
                return
        game.push(seat, action, keep_undo=False)

    def returns(self) -> list[float]:
        game = self.game
        n = len(game.seats)
        if not self.terminal():
            return [0.0] * n
        st = game.state
        if n == 1:
            return [-float(st.turns[0] + game.free_squares(0))]
        places = game.places()
        return [(sum(1 for q in places if q > p) - sum(1 for q in places if q < p)) / (n - 1) for p in places]


def treasure_sites(players: int, text: str) -> list[str]:
    # "+" separates them in OpenSpiel's game strings, where a comma separates parameters.
    names = [s.strip() for s in text.replace(",", "+").split("+") if s.strip()] if text else []
    if not names:
        order = list(sites())
        return [order[i % len(order)] for i in range(players)]
    if len(names) != players or any(n not in sites() for n in names):
        raise ValueError(f"mummy_treasure: sites is one of {', '.join(sites())} per player")
    return names


class MummyTreasureGame(pyspiel.Game):
    """OpenSpiel's view of a Treasure game (``players``, ``sites``, ``movable``, ``max_turns``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.players = int(params.get("players", 2))
        if not 1 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"mummy_treasure: 1 to {MAX_PLAYERS} players (R2.1)")
        self.sites = treasure_sites(self.players, str(params.get("sites", "")))
        self.movable = bool(params.get("movable", False))
        self.max_turns = int(params.get("max_turns", tc.MAX_TURNS))
        seats = [Seat(f"player {i + 1}", s) for i, s in enumerate(self.sites)]
        self._prototype = TreasureGame(0, seats, movable=self.movable)
        solo = self.players == 1
        info = pyspiel.GameInfo(
            num_distinct_actions=tc.N_ACTIONS,
            max_chance_outcomes=TILE_BASE + len(TILE_IDS),
            num_players=self.players,
            min_utility=-float(self.max_turns + 36) if solo else -1.0,
            max_utility=0.0 if solo else 1.0,
            utility_sum=None,  # a general-sum type (solo); the shares of 2-4 players do sum to 0
            # Per turn at most: roll, two rerolls and a take or pass, 3 rolls of dice, one draw.
            max_game_length=len(piles()) + self.players * self.max_turns * 8,
        )
        super().__init__(_TREASURE_TYPE, info, {"players": self.players, "sites": "+".join(self.sites),
                                                "movable": self.movable, "max_turns": self.max_turns})

    def new_initial_state(self) -> MummyTreasureState:
        return MummyTreasureState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TreasureSpielObserver:
        return TreasureSpielObserver(self, iig_obs_type, params)

    def fresh_core(self) -> TreasureCore:
        game = self._prototype.copy()
        return TreasureCore(game, {p: [] for p in game.pile_names}, ("deal", game.pile_names[0]), self.max_turns)


class MummyTreasureState(pyspiel.State):
    """A Treasure state: the engine game, the tiles drawn, and the chance event it waits for."""

    def __init__(self, game: MummyTreasureGame) -> None:
        super().__init__(game)
        self.core = game.fresh_core()

    def current_player(self) -> int:
        return self.core.current()

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(tc.legal(self.core.game, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.core.pending:
            self.core.apply_chance(action)
        else:
            self.core.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if action >= TILE_BASE:
                return f"draw {TILE_IDS[action - TILE_BASE]}"
            return f"dice {DICE_OUTCOMES[action]}"
        return tc.describe(action)

    def is_terminal(self) -> bool:
        return self.core.terminal()

    def returns(self) -> list[float]:
        return self.core.returns()

    def notation(self, action: int) -> str:
        """The engine's notation of a legal action now (``take:scroll@B2.v``)."""
        game = self.core.game
        seat = game.state.current
        decoded = tc.decode(action, game, seat)
        if decoded is None:
            raise ValueError(f"action {action} is no action of seat {seat} now")
        return treasure_fmt(decoded, game.grid(seat))

    def __str__(self) -> str:
        core = self.core
        st = core.game.state
        return (f"drawn {core.drawn} pending {core.pending[:2] if core.pending else ''} "
                f"tops {st.tops} current {st.current} rolls {st.rolls} dice {st.dice or '-'} "
                f"turns {st.turns} placed {[[(p.tile, p.square, p.orient) for p in s] for s in st.placed]} "
                f"over {st.over} {st.reason}")


class TreasureSpielObserver(HistoryStrings):
    """The :class:`~mummy.envs.treasure_codec.TreasureObserver` tensor, as OpenSpiel's PyObserver."""

    def __init__(self, game: MummyTreasureGame, iig_obs_type: Any, params: Any) -> None:
        super().__init__(iig_obs_type, params)
        self.observer = tc.TreasureObserver(game.players, game.max_turns)
        o = self.observer
        planes = int(np.prod(o.planes_shape))
        self.tensor: F32 = np.zeros(planes + o.vector_size, np.float32)
        self.dict = {"planes": self.tensor[:planes].reshape(o.planes_shape),
                     "vector": self.tensor[planes:]}

    def set_from(self, state: MummyTreasureState, player: int) -> None:
        core = state.core
        self.dict["planes"][:] = self.observer.planes(core.game, player)
        self.dict["vector"][:] = self.observer.vector(core.game, player, hidden=core.hidden())


pyspiel.register_game(_TREASURE_TYPE, MummyTreasureGame)

__all__ = ["DICE_ID", "DICE_OUTCOMES", "TILE_BASE", "TILE_IDS", "MummyTreasureGame", "MummyTreasureState",
           "TreasureCore", "TreasureSpielObserver", "arranged", "dice_outcomes", "treasure_sites"]
