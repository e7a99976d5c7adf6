"""Helpers for Treasure tests."""

from __future__ import annotations

from dataclasses import replace

from mummy.treasure.actions import Action, parse
from mummy.treasure.game import Seat, TreasureGame


def game(players: int = 2, seed: int = 7, movable: bool = False) -> TreasureGame:
    sites = ["oasis", "valley", "temple", "pyramid"]
    return TreasureGame(seed, [Seat(f"p{i}", sites[i]) for i in range(players)], movable=movable)


def set_dice(g: TreasureGame, dice: str, rolls: int = 1) -> None:
    """White-box: the current player has rolled ``rolls`` times and shows ``dice``."""
    g.state = replace(g.state, dice=dice, rolls=rolls)


def act(g: TreasureGame, text: str, seat: int | None = None) -> Action:
    seat = g.state.current if seat is None else seat
    return g.apply(seat, parse(text, g.grid(seat)))


def put_on_top(g: TreasureGame, tile_id: str) -> None:
    """White-box: reorder a pile so that ``tile_id`` is its top tile."""
    pile = g.tiles[tile_id].pile
    order = list(g.order[pile])
    order.remove(tile_id)
    taken = g.state.tops[g.pile_names.index(pile)]
    order.insert(taken, tile_id)
    g.order[pile] = tuple(order)
