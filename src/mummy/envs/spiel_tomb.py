"""The Mummy's Tomb as an OpenSpiel Python game: ``pyspiel.load_game("mummy_tomb")``.

Parameters ``players``, ``map``, ``mode``. A chance node rolls each round's two dice (36
ordered outcomes, 1/36 each, the same for every sheet, T4.1) and each die bought with 2
coins (6 outcomes, T4.3). The players act in seat order within a round: the lowest seat
still playing moves, so the sequential game is the rulebook's round played sheet by sheet
(sheets share only the dice, T8.1). Returns at the end: the final scores (T7),
general-sum. Importing this module registers the game; :mod:`mummy.envs.spiel` has the
overview of both games.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import pyspiel

from mummy.envs._bits import F32
from mummy.envs.spiel_base import HistoryStrings, game_type
from mummy.envs.tomb_codec import TombCodec, tomb_codec
from mummy.tomb.actions import BUY, END, fmt
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.scoring import score
from mummy.tomb.sheet import Die

TOMB_MAX_PLAYERS: Final = 8
#: A bound on one player's decisions in a Tomb game: 80 dice, 21 ends, at most 40 coins
#: spent one at a time, 12 item uses and 4 sarcophagi opened, rounded up.
TOMB_DECISIONS: Final = 200
TOMB_UTILITY: Final = 1000.0  # |score| stays far below: 4 × 30 + 202 Mummy points + ...
#: Tomb chance outcomes: a round's dice (a, b) are 6(a−1) + (b−1), a bought die v is 35 + v.
BUY_BASE: Final = 36

_TOMB_TYPE = game_type("mummy_tomb", "The Mummy's Tomb", TOMB_MAX_PLAYERS,
                       {"players": 1, "map": "map1", "mode": "standard"})


class TombCore:
    """The engine game inside an OpenSpiel state, and the chance event it waits for.

    ``chance`` is ``"round"`` (the round's two dice), ``"buy"`` (the die ``buyer`` bought
    with 2 coins) or ``""``. While it waits, the engine's row holds placeholder dice of its
    own seed in those slots; observations leave them out (:meth:`visible_row`).

    Clones copy the engine game with :meth:`TombGame.copy` (sheets copied, maps shared,
    nothing to undo), because OpenSpiel's MCTS clones at every step."""

    __slots__ = ("buyer", "chance", "game")

    def __init__(self, game: TombGame, chance: str = "", buyer: int = -1) -> None:
        self.game = game
        self.chance = chance
        self.buyer = buyer

    def __deepcopy__(self, memo: dict[int, Any]) -> TombCore:
        return TombCore(self.game.copy(), self.chance, self.buyer)

    @classmethod
    def from_engine(cls, game: TombGame) -> TombCore:
        """A copy of an engine game at a decision (never at a chance node: the engine
        rolls at once), for a search that must not read the seed's future dice."""
        return cls(game.copy())

    def current(self) -> int:
        if self.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.chance:
            return int(pyspiel.PlayerId.CHANCE)
        seats = self.game.to_act()
        if not seats:
            raise AssertionError("no sheet can move and the game is not over")
        return seats[0]

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
            rolled: tuple[int, ...] = (a + 1, b + 1)
        else:
            sheet = game.sheets[self.buyer]
            sheet.row = (*sheet.row[:-1], Die(outcome - BUY_BASE + 1, "buy"))
            rolled = (outcome - BUY_BASE + 1,)
        # The engine drew the seed's dice; the search's own outcome replaces them in the
        # game's log of chance events too.
        game.chances[-1] = game.chances[-1]._replace(outcome=rolled)
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
        return TombCore(self._prototype.copy(), "round")


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


class TombObserver(HistoryStrings):
    """Planes and vector of every sheet, the observer's first (OpenSpiel's PyObserver)."""

    def __init__(self, game: MummyTombGame, iig_obs_type: Any, params: Any) -> None:
        super().__init__(iig_obs_type, params)
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


pyspiel.register_game(_TOMB_TYPE, MummyTombGame)

__all__ = ["BUY_BASE", "TOMB_DECISIONS", "TOMB_MAX_PLAYERS", "TOMB_UTILITY", "MummyTombGame", "MummyTombState",
           "TombCore", "TombObserver", "tomb_info"]
