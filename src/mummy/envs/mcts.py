"""OpenSpiel's MCTS as a bot of both games: ``--bots mcts``.

The search is OpenSpiel's own (``open_spiel.python.algorithms.mcts.MCTSBot``) on the
games of :mod:`mummy.envs.spiel`, where the dice and the pile draws are chance nodes. The
bot never reads the engine's seed: it copies what a player sees (the sheets and the dice
showing; the sites, the tiles taken and the piles' tops) into an OpenSpiel state whose
future is chance, and searches that.

The evaluators are *chance-aware*: at a chance node their ``prior`` is the chance
outcomes with their true probabilities (OpenSpiel's MCTS samples chance children by it),
and a rollout samples every roll and draw by the same law.

* **Tomb** (:class:`TombEvaluator`): sheets share only the dice (T8.1), so the bot
  searches its own sheet as a solo game. A leaf is valued by the strong bot's evaluation
  of a sheet (``mummy.bots.tomb.evaluate``, in points, like the final score that ends a
  search at the last leaf); the prior drops the actions the greedy and strong bots
  never consider (a Wand erase that connects nothing, a two-way Shovel square), which
  leaves a few dozen children where the legal list has hundreds.
* **Treasure** (:class:`TreasureEvaluator`): the whole table is searched (max^n: each
  seat maximises its own return). A leaf is valued by a rollout to the end of the game
  with a fast policy (take the biggest tile showing where it touches most; otherwise
  reroll the dice that do not serve the biggest top tile that fits), and the prior keeps
  the few placements of each pile with the fewest free neighbours.

Budgets are effort (simulations), never time, so the bot is deterministic for its seed
like every bot here.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from mummy.bots.base import SeededAgent
from mummy.bots.tomb import evaluate
from mummy.envs import treasure_codec as tc
from mummy.envs.spiel import (
    DICE_ID,
    TILE_BASE,
    TILE_IDS,
    MummyTombGame,
    MummyTombState,
    MummyTreasureGame,
    MummyTreasureState,
    TombCore,
    TreasureCore,
)
from mummy.envs.tomb_codec import tomb_codec
from mummy.tomb.actions import DIG, ERASE
from mummy.tomb.actions import Action as TombAction
from mummy.tomb.game import ROUNDS, TombGame
from mummy.tomb.sheet import AFTER
from mummy.treasure.actions import PASS, REROLL, ROLL, TAKE
from mummy.treasure.actions import Action as TreasureAction
from mummy.treasure.content import SYMBOLS, piles, sort_symbols
from mummy.treasure.game import TreasureGame

Outcomes = list[tuple[int, float]]


@cache
def _tomb_game(map_id: str, mode: str) -> MummyTombGame:
    game = pyspiel.load_game("mummy_tomb", {"players": 1, "map": map_id, "mode": mode})
    assert isinstance(game, MummyTombGame)
    return game


@cache
def _treasure_game(sites: str, movable: bool, max_turns: int) -> MummyTreasureGame:
    players = sites.count("+") + 1
    game = pyspiel.load_game("mummy_treasure", {"players": players, "sites": sites, "movable": movable,
                                                "max_turns": max_turns})
    assert isinstance(game, MummyTreasureGame)
    return game


def tomb_search_state(game: TombGame, seat: int) -> MummyTombState:
    """An OpenSpiel state of ``seat``'s sheet alone, at its decision now: sheets share
    only the dice (T8.1), so the engine's one-seat copy (:meth:`TombGame.seated`) is
    everything the search needs, and it never touches the real game."""
    setup = game.players[seat]
    spiel_game = _tomb_game(setup.map, setup.mode)
    state = spiel_game.new_initial_state()
    state.core = TombCore(game.seated(seat))
    return state


def treasure_search_state(game: TreasureGame, max_turns: int) -> MummyTreasureState:
    """An OpenSpiel state of the whole table at the seat's decision now."""
    sites = "+".join(s.site for s in game.seats)
    spiel_game = _treasure_game(sites, game.movable, max_turns)
    state = spiel_game.new_initial_state()
    state.core = TreasureCore.from_engine(game, max_turns)
    return state


class TombEvaluator(mcts.Evaluator):
    """Leaves valued by the strong bot's sheet evaluation; chance by its probabilities."""

    def evaluate(self, state: MummyTombState) -> np.ndarray:
        core = state.core
        game = core.game
        if game.is_over:
            return np.array(core.returns())
        # After an 'end' the engine has moved to the next round: the sheet is an end of
        # the round before it.
        round_no = game.round - 1 if core.chance == "round" else game.round
        if game.sheets[0].phase == AFTER:
            round_no = ROUNDS
        return np.array([evaluate(s, round_no) for s in game.sheets])

    def prior(self, state: MummyTombState) -> Outcomes:
        core = state.core
        if core.chance:
            return core.chance_outcomes()
        seat = core.current()
        game = core.game
        codec = tomb_codec(game.maps[seat].id)
        sheet = game.sheets[seat]
        connectable = sheet.map.connectable
        keep = []
        for i in codec.legal(game, seat):
            a = codec.decode(i, sheet)
            if a is not None and _worth_searching(a, connectable):
                keep.append(i)
        if not keep:
            keep = codec.legal(game, seat)
        return [(i, 1.0 / len(keep)) for i in keep]


def _worth_searching(a: TombAction, connectable: int) -> bool:
    """The bots' pruning: an erase that connects no entrance or room, and a Shovel square
    open on two sides (it only moves an opening along), are never worth a die."""
    if a.kind == ERASE:
        return bool(connectable >> a.edge & 1)
    return not (a.kind == DIG and len(a.orient) == 2)


class TreasureEvaluator(mcts.Evaluator):
    """Rollouts with a fast policy, rolls and draws sampled by their probabilities."""

    def __init__(self, rng: random.Random, rollouts: int = 1, placements: int = 4) -> None:
        self.rng = rng
        self.rollouts = rollouts
        self.placements = placements

    def evaluate(self, state: MummyTreasureState) -> np.ndarray:
        total: np.ndarray | None = None
        for _ in range(self.rollouts):
            core = copy.deepcopy(state.core)
            returns = np.array(rollout(core, self.rng))
            total = returns if total is None else total + returns
        assert total is not None
        return total / self.rollouts

    def prior(self, state: MummyTreasureState) -> Outcomes:
        core = state.core
        if core.pending:
            return core.chance_outcomes()
        game = core.game
        seat = game.state.current
        actions = game.legal_actions(seat)
        keep = _best_placements(game, seat, actions, self.placements)
        ints = [tc.encode(a, game, seat) for a in keep]
        return [(i, 1.0 / len(ints)) for i in ints]


def _free_neighbours(game: TreasureGame, seat: int, mask: int) -> int:
    board = game.boards[seat]
    stride = board.grid.stride
    around = ((mask << 1) | (mask >> 1) | (mask << stride) | (mask >> stride)) & ~mask
    return (around & board.squares & ~game.state.covered[seat]).bit_count()


def _best_placements(game: TreasureGame, seat: int, actions: list[TreasureAction], k: int) -> list[TreasureAction]:
    """Every action but placed takes, and of those the k per pile that leave the fewest
    free squares beside them (tiles that hug the border and the tiles already down)."""
    out: list[TreasureAction] = []
    by_pile: dict[str, list[tuple[int, int, TreasureAction]]] = {}
    for n, a in enumerate(actions):
        if a.kind != TAKE or a.square < 0:
            out.append(a)
            continue
        tile = game.top(a.pile)
        assert tile is not None
        mask = game.boards[seat].placements(tile.rows, tile.cols)[(a.square, a.orient)]
        by_pile.setdefault(a.pile, []).append((_free_neighbours(game, seat, mask), n, a))
    for options in by_pile.values():
        out += [a for _, _, a in sorted(options)[:k]]
    return out


def rollout_action(game: TreasureGame, seat: int, rng: random.Random) -> TreasureAction:
    """The rollout policy: roll; take the biggest tile showing where it has the fewest free
    neighbours; else reroll every die that does not serve the biggest top tile that fits."""
    actions = game.legal_actions(seat)
    first = actions[0]
    if first.kind in (ROLL, PASS):
        return first
    takes = [a for a in actions if a.kind == TAKE]
    if takes:
        area = {p: t.area for p in {a.pile for a in takes} if (t := game.top(p)) is not None}
        biggest = max(area.values())
        # An arranged take (movable variant) comes first, else the snuggest placement.
        return _best_placements(game, seat, [a for a in takes if area[a.pile] == biggest], 1)[0]
    dice = game.state.dice
    fitting = [t for p in game.pile_names if (t := game.top(p)) is not None and game.can_fit(seat, t)]
    if fitting:
        goal = max(fitting, key=lambda t: (t.area, t.id))
        serving = Counter(dice) & Counter(goal.needs)
        reroll = sort_symbols("".join((Counter(dice) - serving).elements()))
        if reroll:
            return TreasureAction(REROLL, dice=reroll)
    rerolls = [a for a in actions if a.kind == REROLL]
    return rng.choice(rerolls)


def rollout(core: TreasureCore, rng: random.Random) -> list[float]:
    """Play a core to its end (a finished site, a stuck table or ``max_turns``)."""
    game = core.game
    while not core.terminal():
        pending = core.pending
        if pending:
            if pending[0] == "dice":
                rolled = sort_symbols("".join(rng.choice(SYMBOLS) for _ in range(pending[1])))
                core.apply_chance(DICE_ID[rolled])
            else:
                pile = pending[1]
                left = [t.id for t in piles()[pile].tiles if t.id not in core.drawn[pile]]
                core.apply_chance(TILE_BASE + TILE_IDS.index(rng.choice(left)))
            continue
        seat = game.state.current
        core.apply(tc.encode(rollout_action(game, seat, rng), game, seat))
    return core.returns()


class MctsAgent(SeededAgent):
    """OpenSpiel's MCTS on the chance-explicit game (docs/research.md, docs/bots-and-simulation.md).

    ``uct_c`` defaults to the exploration constant that played best on the scale of each
    game's returns: 5 for the Tomb, whose values are points (2, 5, 20 and 60 were tried on
    ten seeds: 5 scored highest), 1.5 at a Treasure table (returns in −1..1), 5 for solo
    Treasure (returns in turns)."""

    name = "mcts"

    def __init__(self, seed: int = 0, time_limit: float | None = None, simulations: int = 200,
                 uct_c: float | None = None, max_turns: int = tc.MAX_TURNS) -> None:
        super().__init__(seed, time_limit)
        self.simulations = simulations
        self.uct_c = uct_c
        self.max_turns = max_turns

    def _bot(self, spiel_game: pyspiel.Game, evaluator: mcts.Evaluator, uct_c: float) -> mcts.MCTSBot:
        return mcts.MCTSBot(spiel_game, uct_c, self.simulations, evaluator, solve=False,
                            random_state=np.random.RandomState(self.rng.getrandbits(32)))

    def act(self, game: Any, seat: int) -> Any:
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if isinstance(game, TombGame):
            tomb_state = tomb_search_state(game, seat)
            bot = self._bot(tomb_state.get_game(), TombEvaluator(), self.uct_c or 5.0)
            index = bot.step(tomb_state)
            action: TombAction | TreasureAction | None = tomb_codec(game.maps[seat].id).decode(index,
                                                                                               game.sheets[seat])
        else:
            treasure_state = treasure_search_state(game, self.max_turns)
            solo = len(game.seats) == 1
            evaluator = TreasureEvaluator(random.Random(self.rng.getrandbits(64)))
            bot = self._bot(treasure_state.get_game(), evaluator, self.uct_c or (5.0 if solo else 1.5))
            index = bot.step(treasure_state)
            action = tc.decode(index, game, seat)
        assert action is not None and action in legal, (index, action)
        return action


__all__ = ["MctsAgent", "TombEvaluator", "TreasureEvaluator", "rollout", "rollout_action"]
