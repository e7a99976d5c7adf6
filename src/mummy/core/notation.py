"""What both games' notations share: the test that an action value is one the notation
can write.

An action may come as a value built by code (the API, a bot, a test) rather than parsed
from text, and a record keeps only its text. So the checked path of each engine refuses
a value that does not read back from its own text as the same value: the record of a
game would otherwise replay another action, or none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from mummy.core.grid import Grid

A = TypeVar("A")


def round_trips(action: A, grid: Grid, parse: Callable[[str, Grid], A], fmt: Callable[[A, Grid], str]) -> bool:
    """Whether ``fmt`` writes the action on this grid and ``parse`` reads it back equal."""
    try:
        return parse(fmt(action, grid), grid) == action
    except (ValueError, IndexError):
        return False
