"""Replays of finished games: the game as it stood after any step of its log.

Rebuilding the game from its log for every step cost a second of CPU on a 30,000 entry
log. The log of a finished game never changes, so each game replayed keeps a tape: the
game at every ``REPLAY_EVERY`` entries passed, for the ``REPLAY_GAMES`` games replayed
last, so that a step costs at most that many applies, and the next step forward one.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final

#: A snapshot of the game every this many log entries, so a step costs at most this many
#: applies once its game has been replayed (snapshots are made on the way) ...
REPLAY_EVERY: Final = 50
#: ... for this many games at most (the least recently replayed go first).
REPLAY_GAMES: Final = 4
#: An engine game's attributes that every copy shares: the content (maps, sites, tiles,
#: piles' orders), never changed by play.
_SHARED: Final = ("maps", "players", "boards", "seats", "tiles", "order", "pile_names")


def clone(game: Any) -> Any:
    """A copy of an engine game to play on, for replays: ``copy.deepcopy``, except that the
    content every game shares (maps, sites, tiles, piles' orders) is kept as it is, and so
    are the history's entries (tuples of a seat and an action, never changed). That makes
    a copy cost about two applies (60 µs for a finished solo Tomb game, against 0.9 ms for
    a plain deepcopy, which rebuilds every action of the history)."""
    memo: dict[int, Any] = {}
    for name in _SHARED:
        value = getattr(game, name, None)
        if value is not None:
            memo[id(value)] = value
            for item in value.values() if isinstance(value, dict) else value:
                memo[id(item)] = item
    history = getattr(game, "history", None)
    if isinstance(history, list):
        memo[id(history)] = list(history)
    return copy.deepcopy(game, memo)


class Tape:
    """One finished game's replay: the game at every ``REPLAY_EVERY`` entries passed (never
    changed: each use starts from a copy), and the game where the last request left it, so
    that stepping forward costs one apply. The caller holds ``lock``."""

    def __init__(self, first: Any) -> None:
        self.lock = threading.Lock()
        self.snapshots: dict[int, Any] = {0: first}
        self.cursor: Any = None
        self.cursor_at = -1

    def start(self, step: int) -> tuple[Any, int]:
        """A game of the caller's own, at an entry at most ``step`` and at most
        ``REPLAY_EVERY`` before it (once the log up to ``step`` has been passed)."""
        base = step - step % REPLAY_EVERY
        while base not in self.snapshots:
            base -= REPLAY_EVERY
        if self.cursor is not None and base <= self.cursor_at <= step:
            game, at = self.cursor, self.cursor_at
            self.cursor = None  # the caller's now: changed in place
            return game, at
        return clone(self.snapshots[base]), base

    def passed(self, at: int, game: Any) -> None:
        """The game has been taken to entry ``at``: keep a snapshot where one is due."""
        if at % REPLAY_EVERY == 0 and at not in self.snapshots:
            self.snapshots[at] = clone(game)

    def keep(self, at: int, game: Any) -> None:
        """The caller is done with the game at entry ``at``: the next step forward starts here."""
        self.cursor, self.cursor_at = game, at


class Replays:
    """The tapes of the last ``REPLAY_GAMES`` games replayed (least recently used first out)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tapes: OrderedDict[str, Tape] = OrderedDict()

    def tape(self, game_id: str, first: Callable[[], Any]) -> Tape:
        """The game's tape; a new one starts from ``first()``, the game before any entry."""
        with self._lock:
            tape = self._tapes.get(game_id)
            if tape is None:
                tape = self._tapes[game_id] = Tape(first())
                while len(self._tapes) > REPLAY_GAMES:
                    self._tapes.popitem(last=False)
            else:
                self._tapes.move_to_end(game_id)
            return tape
