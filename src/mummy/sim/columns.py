"""A column of the simulation's flat table (:mod:`mummy.sim.table`): the common ones are
the table's, each game's own are its simulation's (:attr:`mummy.sim.kinds.SimKind.columns`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Column:
    """One column of the table: its name, type (a key of :data:`TYPES`), what it means,
    and its value for a seat of a game line."""

    name: str
    type: str
    meaning: str
    value: Callable[[dict[str, Any], int], object]


def seat_item(field: str, *keys: str) -> Callable[[dict[str, Any], int], object]:
    """The value of a column read from a line as ``line[field][seat][key]...``."""
    def value(line: dict[str, Any], seat: int) -> object:
        item = line[field][seat]
        for key in keys:
            item = item[key]
        return item
    return value


def game_item(field: str, *keys: str) -> Callable[[dict[str, Any], int], object]:
    """The value of a column read from a line as ``line[field][key]...``, the same for
    every seat of the game."""
    def value(line: dict[str, Any], seat: int) -> object:
        item = line[field]
        for key in keys:
            item = item[key]
        return item
    return value
