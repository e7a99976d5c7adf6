"""Both games as OpenSpiel Python games: ``pyspiel.load_game("mummy_tomb")``, ``"mummy_treasure"``.

Importing this module registers them (``import mummy.envs`` does). They are the engines'
rules with **chance made explicit**, as OpenSpiel's algorithms need it: where the engines
draw from the seed's stateless streams, these games stop at a chance node and list the
outcomes with their probabilities, and OpenSpiel's chance player (or a sampler, or a
search) picks one. So a state is its history of integers, chance outcomes included, and
serialises as that history.

* **Tomb** (:mod:`mummy.envs.spiel_tomb`; ``players``, ``map``, ``mode``): a chance node
  rolls each round's two dice (36 ordered outcomes, 1/36 each, the same for every sheet,
  T4.1) and each die bought with 2 coins (6 outcomes, T4.3). The players act in seat
  order within a round: the lowest seat still playing moves, so the sequential game is
  the rulebook's round played sheet by sheet (sheets share only the dice, T8.1). Returns
  at the end: the final scores (T7), general-sum.
* **Treasure** (:mod:`mummy.envs.spiel_treasure`; ``players`` 1–4, ``sites``,
  ``movable``, ``max_turns``): chance deals each pile's top tile at the start, draws the
  next top tile of a pile when its top is taken (uniform over the tiles still in it:
  nobody knows the order, R2.2), and rolls the dice of a ``roll`` or ``reroll`` (one
  outcome per multiset of the dice rolled, with its multinomial probability). Returns:
  solo, minus the turns taken (R4.3) and minus the squares left uncovered when the site
  is not full; two to four players, a zero-sum share from the places (R4): each seat
  gains 1/(n−1) per seat it beats and loses as much per seat that beats it. A game that
  reaches ``max_turns`` turns a seat is cut there and ranked like a stuck one (R4.2), so
  every game is finite, as OpenSpiel requires.

Actions are the integers of :mod:`mummy.envs.tomb_codec` and
:mod:`mummy.envs.treasure_codec`; observation and information-state tensors are their
planes and vectors (a perfect-information game: everything on the table is seen), and the
information-state string is the history (:mod:`mummy.envs.spiel_base`, shared by both).
Clones copy the engine's state shallowly with the engines' own ``copy()`` (maps, sites and
placement tables are shared), because OpenSpiel's MCTS clones at every step.

This module is the one place to import both games from; each game lives in its own
module, which registers it when imported.
"""

from __future__ import annotations

from mummy.envs.spiel_base import HistoryStrings, game_type
from mummy.envs.spiel_tomb import (
    BUY_BASE,
    TOMB_DECISIONS,
    TOMB_MAX_PLAYERS,
    TOMB_UTILITY,
    MummyTombGame,
    MummyTombState,
    TombCore,
    TombObserver,
    tomb_info,
)
from mummy.envs.spiel_treasure import (
    DICE_ID,
    DICE_OUTCOMES,
    TILE_BASE,
    TILE_IDS,
    MummyTreasureGame,
    MummyTreasureState,
    TreasureCore,
    TreasureSpielObserver,
    arranged,
    dice_outcomes,
    treasure_sites,
)

__all__ = ["BUY_BASE", "DICE_ID", "DICE_OUTCOMES", "TILE_BASE", "TILE_IDS", "TOMB_DECISIONS", "TOMB_MAX_PLAYERS",
           "TOMB_UTILITY", "HistoryStrings", "MummyTombGame", "MummyTombState", "MummyTreasureGame",
           "MummyTreasureState", "TombCore", "TombObserver", "TreasureCore", "TreasureSpielObserver", "arranged",
           "dice_outcomes", "game_type", "tomb_info", "treasure_sites"]
