"""Helpers for Tomb tests: build positions quickly and compare states."""

from __future__ import annotations

import pytest

from mummy.core.errors import IllegalActionError
from mummy.core.grid import iter_bits
from mummy.tomb.actions import Action, fmt, parse
from mummy.tomb.game import TombGame, round_dice
from mummy.tomb.sheet import Die, Sheet

#: Seed 99 rolls 5 and 5 in round 1: the rulebook's First Round Example.
FIVE_FIVE_SEED = next(s for s in range(10_000) if round_dice(s, 1) == (5, 5))


def game(seed: int = FIVE_FIVE_SEED, players: int = 1) -> TombGame:
    return TombGame(seed, players)


def act(g: TombGame, text: str, player: int = 0) -> list[str]:
    """Apply an action given in notation (checked); what the player was told by it."""
    told = len(g.sheets[player].events)
    g.apply(player, parse(text, g.maps[player].grid))
    return list(g.sheets[player].events[told:])


def a(g: TombGame, text: str, player: int = 0) -> Action:
    return parse(text, g.maps[player].grid)


def dice(g: TombGame, *values: int, player: int = 0) -> None:
    """White-box setup: replace the player's round row by fresh dice of these values."""
    g.sheets[player].row = tuple(Die(v, "roll") for v in values)


def sq(g: TombGame, name: str) -> int:
    return g.maps[0].grid.parse_square(name)


def edge(g: TombGame, name: str) -> int:
    return g.maps[0].grid.parse_edge(name)


def names(g: TombGame, mask: int) -> set[str]:
    grid = g.maps[0].grid
    return {grid.edge_name(e) for e in iter_bits(mask)}


def squares(g: TombGame, mask: int) -> set[str]:
    grid = g.maps[0].grid
    return {grid.square_name(q) for q in iter_bits(mask)}


def legal_texts(g: TombGame, player: int = 0) -> set[str]:
    grid = g.maps[player].grid
    return {fmt(x, grid) for x in g.legal_actions(player)}


def state(g: TombGame) -> tuple[object, ...]:
    """Everything that defines a game's state, for 'nothing changed' checks."""
    return (g.round, tuple(sheet_state(s) for s in g.sheets), tuple(g.history),
            tuple(g.undo_depth(p) for p in range(g.seat_count)))


def sheet_state(s: Sheet) -> tuple[object, ...]:
    return tuple(getattr(s, n) for n in Sheet.__slots__ if n != "map")


def refused(g: TombGame, text: str, rule: str, where: str | None = None, player: int = 0) -> IllegalActionError:
    """Apply ``text`` expecting a refusal under ``rule`` (at ``where``) that changes nothing."""
    before = state(g)
    with pytest.raises(IllegalActionError) as info:
        act(g, text, player)
    assert info.value.rule == rule, str(info.value)
    if where is not None:
        assert info.value.where == where, str(info.value)
    assert state(g) == before, "a refused action changed the game"
    return info.value
