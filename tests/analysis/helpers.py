"""Games for the analysis tests, played with small searches so that they stay quick.

The analysts here are the strongest bots' kinds at a fraction of their effort: what the
tests check (par replays the bot, the bot's own game has nothing to regret, a blunder is
found where it was planted) holds for any size, and the default sizes take minutes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from mummy.analysis.tomb import TombAnalyst
from mummy.analysis.treasure import Options, TreasureAnalyst, ValueTreasureAgent
from mummy.analysis.treasure_values import TreasureValues
from mummy.bots.registry import bot_seed
from mummy.bots.tomb import evaluate
from mummy.bots.tomb_search import Beam
from mummy.tomb.actions import BUY, END, Action
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.treasure.game import Seat, TreasureGame
from mummy.treasure.record import to_record

TINY_STRONG = TombAnalyst("strong", Beam(2, 5, 4), None)
TINY_EXPERT = TombAnalyst("expert", Beam(2, 3, 4), Beam(1, 2, 2), 2)
TINY_TREASURE = TreasureAnalyst("exact", exact_free=3)


def worst(game: TombGame) -> Action:
    """A bad legal action: the one that leaves the sheet worth least to the strong bot's
    evaluation (never a purchase; the round's end only when nothing else is left)."""
    legal = game.legal_actions(0)
    candidates = [a for a in legal if a.kind not in (END, BUY)]
    if not candidates:
        return Action(END)

    def worth(action: Action) -> float:
        game.push(0, action)
        value = evaluate(game.sheets[0], game.round)
        game.undo(0)
        return value

    return min(candidates, key=worth)


def tomb_game(seed: int, analyst: TombAnalyst, rounds: int | None = None, blunder: int | None = None,
              mode: str = "standard", first: Callable[[TombGame], Action] | None = None) -> TombGame:
    """A solo game on map1 played by the analyst's bot (seeded as par seeds it), up to
    the end of round ``rounds``; in round ``blunder`` every action is :func:`worst`
    instead; ``first`` chooses the game's first action."""
    game = TombGame(seed, [PlayerSetup("player", "map1", mode)])
    bot = analyst.agent(bot_seed(seed, 0))
    if first is not None:
        game.apply(0, first(game))
    while not game.is_over and (rounds is None or game.round <= rounds):
        game.apply(0, worst(game) if game.round == blunder else bot.act(game, 0))
    return game


def treasure_game(seed: int, blunder_turn: int | None = None, seats: int = 1) -> TreasureGame:
    """A game played by the value bot of TINY_TREASURE in every seat; at seat 0's turn
    ``blunder_turn`` its first choice after a roll is the worst legal one by the values."""
    game = TreasureGame(seed, [Seat(f"p{i}", "oasis") for i in range(seats)])
    bots = [ValueTreasureAgent(bot_seed(seed, i), exact_free=TINY_TREASURE.exact_free) for i in range(seats)]
    options = Options(TreasureValues(game.boards[0], TINY_TREASURE.exact_free))
    blundered = False
    while not game.is_over:
        seat = game.state.current
        if (seat == 0 and not blundered and game.state.turns[0] == blunder_turn and game.state.rolls
                and len(game.legal_actions(0)) > 1):
            game.apply(0, max(options.of(game, 0)[0], key=lambda o: o[1])[0])
            blundered = True
            continue
        game.apply(seat, bots[seat].act(game, seat))
    return game


@cache
def _treasure_record_text(seed: int, blunder_turn: int | None, seats: int) -> str:
    return json.dumps(to_record(treasure_game(seed, blunder_turn, seats)))


def treasure_record(seed: int, blunder_turn: int | None = None, seats: int = 1) -> dict[str, Any]:
    """The record of :func:`treasure_game`, played once per test session (a fresh copy)."""
    out: dict[str, Any] = json.loads(_treasure_record_text(seed, blunder_turn, seats))
    return out
