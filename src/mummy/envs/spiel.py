"""Both games as OpenSpiel Python games: ``pyspiel.load_game("mummy_tomb")``, ``"mummy_treasure"``.

Importing this module registers them (``import mummy.envs`` does). They are the engines'
rules with **chance made explicit**, as OpenSpiel's algorithms need it: where the engines
draw from the seed's stateless streams, these games stop at a chance node and list the
outcomes with their probabilities, and OpenSpiel's chance player (or a sampler, or a
search) picks one. So a state is its history of integers, chance outcomes included, and
serialises as that history.

* **Tomb** (``players``, ``map``, ``mode``): a chance node rolls each round's two dice
  (36 ordered outcomes, 1/36 each, the same for every sheet, T4.1) and each die bought
  with 2 coins (6 outcomes, T4.3). The players act in seat order within a round: the
  lowest seat still playing moves, so the sequential game is the rulebook's round played
  sheet by sheet (sheets share only the dice, T8.1). Returns at the end: the final scores
  (T7), general-sum.
* **Treasure** (``players`` 1–4, ``sites``, ``movable``, ``max_turns``): chance deals
  each pile's top tile at the start, draws the next top tile of a pile when its top is
  taken (uniform over the tiles still in it: nobody knows the order, R2.2), and rolls the
  dice of a ``roll`` or ``reroll`` (one outcome per multiset of the dice rolled, with its
  multinomial probability). Returns: solo, minus the turns taken (R4.3) and minus the
  squares left uncovered when the site is not full; two to four players, a zero-sum
  share from the places (R4): each seat gains 1/(n−1) per seat it beats and loses as much
  per seat that beats it. A game that reaches ``max_turns`` turns a seat is cut there and
  ranked like a stuck one (R4.2), so every game is finite, as OpenSpiel requires.

Actions are the integers of :mod:`mummy.envs.tomb_codec` and
:mod:`mummy.envs.treasure_codec`; observation and information-state tensors are their
planes and vectors (a perfect-information game: everything on the table is seen), and the
information-state string is the history. Clones copy the engine's state shallowly (maps,
sites and placement tables are shared), because OpenSpiel's MCTS clones at every step.
"""

from __future__ import annotations

import copy
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
from mummy.envs.tomb_codec import TombCodec, tomb_codec
from mummy.tomb.actions import BUY, END, fmt
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.scoring import score
from mummy.tomb.sheet import AFTER, PLAY, Die
from mummy.treasure.actions import REROLL, ROLL, TAKE
from mummy.treasure.actions import fmt as treasure_fmt
from mummy.treasure.content import DICE, SYMBOLS, all_tiles, piles, sites, sort_symbols
from mummy.treasure.game import MAX_PLAYERS, Seat, TreasureGame

TOMB_MAX_PLAYERS: Final = 8
#: A bound on one player's decisions in a Tomb game: 80 dice, 21 ends, at most 40 coins
#: spent one at a time, 12 item uses and 4 sarcophagi opened, rounded up.
TOMB_DECISIONS: Final = 200
TOMB_UTILITY: Final = 1000.0  # |score| stays far below: 4 × 30 + 202 Mummy points + ...
#: Tomb chance outcomes: a round's dice (a, b) are 6(a−1) + (b−1), a bought die v is 35 + v.
BUY_BASE: Final = 36

def _game_type(short_name: str, long_name: str, max_players: int, parameters: dict[str, Any]) -> Any:
    """Both games are sequential, with explicit chance, perfect information (nothing is
    hidden from a seat that the others know) and terminal general-sum returns."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


_TOMB_TYPE = _game_type("mummy_tomb", "The Mummy's Tomb", TOMB_MAX_PLAYERS,
                        {"players": 1, "map": "map1", "mode": "standard"})
_TREASURE_TYPE = _game_type("mummy_treasure", "Mummy's Treasure", MAX_PLAYERS,
                            {"players": 2, "sites": "", "movable": False, "max_turns": 100})


# ======================================================================================
# The Mummy's Tomb
# ======================================================================================


class TombCore:
    """The engine game inside an OpenSpiel state, and the chance event it waits for.

    ``chance`` is ``"round"`` (the round's two dice), ``"buy"`` (the die ``buyer`` bought
    with 2 coins) or ``""``. While it waits, the engine's row holds placeholder dice of its
    own seed in those slots; observations leave them out (:meth:`visible_row`)."""

    __slots__ = ("buyer", "chance", "game")

    def __init__(self, game: TombGame, chance: str = "", buyer: int = -1) -> None:
        self.game = game
        self.chance = chance
        self.buyer = buyer

    def __deepcopy__(self, memo: dict[int, Any]) -> TombCore:
        return TombCore(copy_tomb(self.game), self.chance, self.buyer)

    @classmethod
    def from_engine(cls, game: TombGame) -> TombCore:
        """A copy of an engine game at a decision (never at a chance node: the engine
        rolls at once), for a search that must not read the seed's future dice."""
        return cls(copy_tomb(game))

    def current(self) -> int:
        if self.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.chance:
            return int(pyspiel.PlayerId.CHANCE)
        for seat, sheet in enumerate(self.game.sheets):
            if sheet.phase in (PLAY, AFTER):
                return seat
        raise AssertionError("no sheet can move and the game is not over")

    def visible_row(self, seat: int) -> tuple[Die, ...]:
        row = self.game.sheets[seat].row
        if self.chance == "round":
            return row[:-2]
        if self.chance == "buy" and seat == self.buyer:
            return row[:-1]
        return row

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.chance == "round":
            return [(o, 1 / 36) for o in range(36)]
        return [(BUY_BASE + v, 1 / 6) for v in range(6)]

    def apply_chance(self, outcome: int) -> None:
        game = self.game
        if self.chance == "round":
            a, b = divmod(outcome, 6)
            for sheet in game.sheets:
                sheet.row = (*sheet.row[:-2], Die(a + 1, "roll"), Die(b + 1, "roll"))
        else:
            sheet = game.sheets[self.buyer]
            sheet.row = (*sheet.row[:-1], Die(outcome - BUY_BASE + 1, "buy"))
        self.chance = ""
        self.buyer = -1

    def apply(self, seat: int, index: int, codec: TombCodec) -> None:
        game = self.game
        action = codec.decode(index, game.sheets[seat])
        if action is None:
            raise ValueError(f"action {index} ({codec.describe(index)}) names no die of player {seat}'s row")
        round_before = game.round
        game.push(seat, action, keep_undo=False)
        if action.kind == BUY:
            self.chance, self.buyer = "buy", seat
        elif action.kind == END and game.round != round_before:
            self.chance = "round"

    def returns(self) -> list[float]:
        if not self.game.is_over:
            return [0.0] * len(self.game.sheets)
        return [float(score(s).total) for s in self.game.sheets]


def copy_tomb(game: TombGame) -> TombGame:
    """A search copy of an engine game: sheets copied (plain data), maps shared, no undo.

    The engine has no copy method; a shallow copy with fresh sheets, history and (empty)
    undo stacks is everything its state is made of."""
    new = copy.copy(game)
    new.sheets = [s.copy() for s in game.sheets]
    new.history = list(game.history)
    new._undo = [[] for _ in game.sheets]
    return new


def tomb_info(players: int, map_id: str) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=tomb_codec(map_id).n_actions,
        max_chance_outcomes=BUY_BASE + 6,
        num_players=players,
        min_utility=-TOMB_UTILITY,
        max_utility=TOMB_UTILITY,
        utility_sum=None,
        max_game_length=players * (TOMB_DECISIONS + 20) + 20,
    )


class MummyTombGame(pyspiel.Game):
    """OpenSpiel's view of a Tomb game (parameters ``players``, ``map``, ``mode``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.players = int(params.get("players", 1))
        self.map_id = str(params.get("map", "map1"))
        self.mode = str(params.get("mode", "standard"))
        if not 1 <= self.players <= TOMB_MAX_PLAYERS:
            raise ValueError(f"mummy_tomb: 1 to {TOMB_MAX_PLAYERS} players")
        self.codec = tomb_codec(self.map_id)
        self.setups = [PlayerSetup(f"player {i + 1}", self.map_id, self.mode) for i in range(self.players)]
        self._prototype = TombGame(0, self.setups)
        super().__init__(_TOMB_TYPE, tomb_info(self.players, self.map_id),
                         {"players": self.players, "map": self.map_id, "mode": self.mode})

    def new_initial_state(self) -> MummyTombState:
        return MummyTombState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TombObserver:
        return TombObserver(self, iig_obs_type, params)

    def fresh_core(self) -> TombCore:
        """Round 1 about to be rolled (the prototype's placeholder dice wait for chance)."""
        return TombCore(copy_tomb(self._prototype), "round")


class MummyTombState(pyspiel.State):
    """A Tomb state: the engine game plus the chance event it waits for."""

    def __init__(self, game: MummyTombGame) -> None:
        super().__init__(game)
        self.core = game.fresh_core()

    def current_player(self) -> int:
        return self.core.current()

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(tomb_codec(self.core.game.maps[player].id).legal(self.core.game, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        core = self.core
        if core.chance:
            core.apply_chance(action)
        else:
            seat = core.current()
            core.apply(seat, action, tomb_codec(core.game.maps[seat].id))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if action >= BUY_BASE:
                return f"bought {action - BUY_BASE + 1}"
            return f"roll {action // 6 + 1},{action % 6 + 1}"
        return tomb_codec(self.core.game.maps[player].id).describe(action)

    def is_terminal(self) -> bool:
        return self.core.game.is_over

    def returns(self) -> list[float]:
        return self.core.returns()

    def notation(self, action: int) -> str:
        """The engine's notation of a legal action now (``1:5a.r0@J1``)."""
        seat = self.core.current()
        game = self.core.game
        decoded = tomb_codec(game.maps[seat].id).decode(action, game.sheets[seat])
        if decoded is None:
            raise ValueError(f"action {action} is no action of player {seat} now")
        return fmt(decoded, game.maps[seat].grid)

    def __str__(self) -> str:
        game = self.core.game
        lines = [f"round {game.round}" + (f", waiting for chance: {self.core.chance}" if self.core.chance else "")]
        for seat, s in enumerate(game.sheets):
            row = " ".join(f"{d.value}{'*' if d.used else ''}" for d in self.core.visible_row(seat))
            lines.append(f"p{seat} {s.phase} row [{row}] carried {list(s.next_bonus)} score {score(s).total} "
                         f"tiles {list(s.tiles)} walls {s.walls:x} coins {s.coins}/{s.coins_gained} "
                         f"keys {s.keys_gained}-{s.keys_used} items {s.item_uses} found "
                         f"{s.oozes_found},{s.oozes_defeated},{s.skel_defeated},{s.sarc_found},{s.sarc_opened},"
                         f"{s.zombies_defeated},{s.golems_found},{s.gems_found},{s.golems_defeated},"
                         f"{s.mimics_found},{s.mimics_defeated},{s.alerts},{s.hits} marks {s.marks}")
        return "\n".join(lines)


class TombObserver:
    """Planes and vector of every sheet, the observer's first (OpenSpiel's PyObserver)."""

    def __init__(self, game: MummyTombGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        c = game.codec
        n = game.players
        planes = n * int(np.prod(c.planes_shape))
        self.tensor: F32 = np.zeros(planes + n * c.vector_size, np.float32)
        self.dict = {"planes": self.tensor[:planes].reshape(n, *c.planes_shape),
                     "vector": self.tensor[planes:].reshape(n, c.vector_size)}
        self.players = n

    def set_from(self, state: MummyTombState, player: int) -> None:
        core = state.core
        game = core.game
        for k in range(self.players):
            seat = (player + k) % self.players
            codec = tomb_codec(game.maps[seat].id)
            self.dict["planes"][k] = codec.planes(game.sheets[seat])
            self.dict["vector"][k] = codec.vector(game, seat, row=core.visible_row(seat))

    def string_from(self, state: MummyTombState, player: int) -> str:
        if self.perfect_recall:
            return str(state.history_str())
        return str(state)


# ======================================================================================
# Mummy's Treasure
# ======================================================================================

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


class TreasureCore:
    """The engine game inside an OpenSpiel state, the tiles drawn so far, and the chance
    event it waits for: ``("deal", pile)`` at the start, ``("dice", k, kept, action)``
    after a roll or reroll, ``("draw", pile, take)`` before a take that reveals the next
    top tile. The engine's pile order past the drawn tiles is a placeholder nobody reads."""

    __slots__ = ("drawn", "game", "max_turns", "pending")

    def __init__(self, game: TreasureGame, drawn: dict[str, list[str]], pending: tuple[Any, ...],
                 max_turns: int) -> None:
        self.game = game
        self.drawn = drawn
        self.pending = pending
        self.max_turns = max_turns

    def __deepcopy__(self, memo: dict[int, Any]) -> TreasureCore:
        return TreasureCore(copy_treasure(self.game), {p: list(t) for p, t in self.drawn.items()},
                            self.pending, self.max_turns)

    @classmethod
    def from_engine(cls, game: TreasureGame, max_turns: int = 100) -> TreasureCore:
        """A copy of an engine game at a decision that knows what a player sees: the tiles
        taken and each pile's top, not the order below (a search must not read it)."""
        new = copy_treasure(game)
        drawn = {}
        for i, pile in enumerate(game.pile_names):
            upto = game.state.tops[i] + 1  # the tiles taken and the top showing now
            drawn[pile] = list(game.order[pile][:upto])
        core = cls(new, drawn, (), max_turns)
        for pile in game.pile_names:
            core._arrange(pile)
        return core

    def _arrange(self, pile: str) -> None:
        """Put the drawn tiles first in the engine's order, the others after in file order."""
        known = self.drawn[pile]
        rest = [t.id for t in piles()[pile].tiles if t.id not in known]
        self.game.order[pile] = (*known, *rest)

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
            game.state = replace(game.state, dice=sort_symbols(kept + DICE_OUTCOMES[outcome]))
            self.pending = ()
            return
        tile = TILE_IDS[outcome - TILE_BASE]
        pile = self.pending[1]
        self.drawn[pile].append(tile)
        self._arrange(pile)
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
            fills = (game.state.covered[seat].bit_count() + tile.area == game.boards[seat].squares.bit_count())
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
            left = game.boards[0].squares.bit_count() - st.covered[0].bit_count()
            return [-float(st.turns[0] + left)]
        places = game.places()
        return [(sum(1 for q in places if q > p) - sum(1 for q in places if q < p)) / (n - 1) for p in places]


def copy_treasure(game: TreasureGame) -> TreasureGame:
    """A search copy of an engine game: the state is immutable and shared; the pile order,
    the history and the (empty) undo stack are fresh."""
    new = copy.copy(game)
    new.order = dict(game.order)
    new.history = list(game.history)
    new._undo = []
    return new


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
        self.max_turns = int(params.get("max_turns", 100))
        seats = [Seat(f"player {i + 1}", s) for i, s in enumerate(self.sites)]
        self._prototype = TreasureGame(0, seats, movable=self.movable)
        self.observer_shape = tc.TreasureObserver(self.players, self.max_turns)
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
        game = copy_treasure(self._prototype)
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


class TreasureSpielObserver:
    """The :class:`~mummy.envs.treasure_codec.TreasureObserver` tensor, as OpenSpiel's PyObserver."""

    def __init__(self, game: MummyTreasureGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
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

    def string_from(self, state: MummyTreasureState, player: int) -> str:
        if self.perfect_recall:
            return str(state.history_str())
        return str(state)


pyspiel.register_game(_TOMB_TYPE, MummyTombGame)
pyspiel.register_game(_TREASURE_TYPE, MummyTreasureGame)

__all__ = ["MummyTombGame", "MummyTombState", "MummyTreasureGame", "MummyTreasureState", "TombCore",
           "TreasureCore"]
