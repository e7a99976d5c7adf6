"""Seeded random play to reach varied states of both games, for the encoding tests."""

from __future__ import annotations

import random

from mummy.tomb.game import PlayerSetup, TombGame
from mummy.treasure.game import TreasureGame


def tomb_states(map_id: str, seeds: range, every: int = 7) -> list[TombGame]:
    """Copies of solo games of random play on a map, taken every few actions."""
    out = []
    for seed in seeds:
        game = TombGame(seed, [PlayerSetup("p", map_id)])
        rng = random.Random(seed)
        n = 0
        while not game.is_over:
            if n % every == 0:
                out.append(_replayed_tomb(game))
            game.push(0, rng.choice(game.legal_actions(0)))
            n += 1
    return out


def _replayed_tomb(game: TombGame) -> TombGame:
    copy = TombGame(game.seed, game.players)
    for seat, action in game.history:
        copy.push(seat, action)
    return copy


def treasure_states(players: int, seeds: range, movable: bool = False, every: int = 5) -> list[TreasureGame]:
    out = []
    for seed in seeds:
        game = TreasureGame(seed, players, movable=movable)
        rng = random.Random(seed)
        n = 0
        while not game.is_over and n < 400:
            if n % every == 0:
                copy = TreasureGame(seed, players, movable=movable)
                for seat, action in game.history:
                    copy.push(seat, action)
                out.append(copy)
            seat = game.state.current
            game.push(seat, rng.choice(game.legal_actions(seat)))
            n += 1
    return out
