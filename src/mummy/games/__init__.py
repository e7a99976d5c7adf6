"""The registry of games: the one place that knows which games there are.

Each game is declared once, by a :class:`~mummy.games.registration.Game` registration
that names everything it brings: its kind (set-up, notation, views, record, result,
leaderboard), its bots and their strengths, its simulation, terminal front, narrator,
printout, analysis, browser content and page. The two games of the package are
registered here (``mummy/games/tomb.py``, ``mummy/games/treasure.py``); another package
adds one with :func:`register`, or by an entry point in the group ``mummy.games`` that
names its registration (``pip install`` is then all it takes). Every layer looks a game
up here (:func:`game_named`, :data:`KINDS` for the kinds by name, :func:`kind_of` for an
engine game in hand, :func:`kind_of_record` for a record) and never asks which game it is.

``docs/architecture.md`` walks through adding a game.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator, Mapping
from importlib.metadata import entry_points
from typing import Any, Final

from mummy.core.protocol import EVERYONE, GameState
from mummy.games.registration import PARTS, Bot, Choice, Game, GameKind, Option, Page, load
from mummy.games.tomb import TOMB
from mummy.games.treasure import TREASURE

__all__ = ["EVERYONE", "KINDS", "PARTS", "Bot", "Choice", "Game", "GameKind", "Option", "Page", "Parts", "commitment",
           "game_named", "games", "kind_named", "kind_of", "kind_of_record", "load", "prepare_content", "register",
           "unregister"]

#: The entry-point group in which an installed package names a game's registration.
ENTRY_POINTS: Final = "mummy.games"

_lock = threading.Lock()
_registered: dict[str, Game] = {TOMB.name: TOMB, TREASURE.name: TREASURE}
_discovered = False


def register(game: Game) -> Game:
    """Add a game (or replace the registration of the same name): from then on every
    layer finds it. Returns it, so a module may write ``GAME = register(Game(...))``."""
    if not game.name.isidentifier() or not game.name.islower():
        raise ValueError(f"a game's name is a lower-case identifier (it is a URL's part), not {game.name!r}")
    with _lock:
        _registered[game.name] = game
    return game


def unregister(name: str) -> None:
    """Take a game out of the registry (a test's own game, when it is done)."""
    with _lock:
        _registered.pop(name, None)


def _discover() -> None:
    """Register the games that installed packages name in the entry-point group, once."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for point in entry_points(group=ENTRY_POINTS):
        game = point.load()
        if not isinstance(game, Game):
            raise TypeError(f"entry point {point.name} = {point.value!r} is not a mummy.games.Game")
        _registered.setdefault(game.name, game)


def _game(name: str) -> Game | None:
    """The registration called ``name``, if any: one lookup, no copy (a layer looks its part
    up on every action; a dict's ``get`` needs no lock)."""
    _discover()
    return _registered.get(name)


def games() -> dict[str, Game]:
    """Every registered game by name, in the order registered."""
    _discover()
    with _lock:
        return dict(_registered)


def game_named(name: str) -> Game:
    """The registration of the game called ``name``; a ValueError lists the games there are."""
    registered = games()
    try:
        return registered[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(registered)}") from None


class Parts(Mapping[str, Any]):
    """One part of every game that has it, by the game's name: a live view of the
    registry (a game registered later is in it). Each layer keeps one for its part
    (``NARRATORS = Parts("narrator")``) instead of a table of its own."""

    def __init__(self, part: str) -> None:
        if part not in PARTS:
            raise ValueError(f"no part called {part!r}; parts: {', '.join(PARTS)}")
        self.part = part

    def __getitem__(self, name: str) -> Any:
        game = _game(name)
        if game is None or not game.has(self.part):
            raise KeyError(name)
        return game.part(self.part)

    def __iter__(self) -> Iterator[str]:
        return iter([name for name, game in games().items() if game.has(self.part)])

    def __len__(self) -> int:
        return sum(game.has(self.part) for game in games().values())

    def named(self, name: str) -> Any:
        """The part of the game called ``name``; a ValueError says which games have one."""
        try:
            return self[name]
        except KeyError:
            having = ", ".join(self)
            raise ValueError(f"unknown game {name!r}; games: {having}" if name not in games() else
                             f"{game_named(name).title} has no {self.part}; games that have: {having}") from None


#: Each game's kind by name.
KINDS: Final[Mapping[str, GameKind]] = Parts("kind")


def commitment(kind: str, seed: int | str | None, nonce: str) -> str:
    """The public SHA-256 commitment to a game's secret seed (with a secret nonce): it
    is published when the game starts, and the record reveals seed and nonce at the end."""
    return hashlib.sha256(f"mummy:{kind}:{seed}:{nonce}".encode()).hexdigest()


def kind_named(name: str) -> GameKind:
    """The kind of the game called ``name``; a ValueError lists the games there are."""
    kind: GameKind = game_named(name).part("kind")
    return kind


def kind_of(game: GameState[Any]) -> GameKind:
    """The kind of an engine game in hand."""
    for kind in KINDS.values():
        if type(game) is kind.engine:
            return kind
    raise ValueError(f"no registered game plays {type(game).__name__}")


def kind_of_record(obj: Any) -> GameKind | None:
    """The kind whose records carry this object's ``format``, if any."""
    fmt = obj.get("format") if isinstance(obj, dict) else None
    return next((k for k in KINDS.values() if k.record_format == fmt), None)


def prepare_content() -> None:
    """Build every game's precomputed tables now, not in the first game's move."""
    for kind in KINDS.values():
        kind.prepare()
