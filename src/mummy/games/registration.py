"""What a game brings, declared once: a :class:`Game` registration.

A registration names the game's part in every layer as a reference, ``"module:attr"``
(the form of a Python entry point), not as an import: the rules and this registry sit
below the bots, the simulator, the terminal and the server, and a declaration that
imported them would make every layer depend on every other. Each layer loads its own
part when it first asks (:meth:`Game.part`), so `mummy play` never imports the server and
the server never imports the terminal.

The game kind (:class:`GameKind`) is the one part every layer needs: how a game is set up
from a stored configuration and a seed, its notation per seat, what a seat is told (never
the seed, a future roll or a pile's hidden order), its result, its record, and where it
stands on a leaderboard. It also describes the options a new game takes
(:meth:`GameKind.options`), so that the browser's form and the CLI's help are built from
what the kind itself validates.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypedDict

from mummy.core.records import ReplayResult

#: The parts a registration may name, each loaded by the layer that uses it.
PARTS = ("kind", "sim", "terminal", "narrator", "printer", "analysis", "content")


class Choice(TypedDict):
    value: str
    label: str


class Option(TypedDict):
    """One option of a new game, as a form shows it: ``key`` is the set-up's field (what
    :meth:`GameKind.validate` reads); ``type`` is ``choice`` (one of ``choices``),
    ``seat-choice`` (one of ``choices`` for each seat: a list), ``flag`` (true or false) or
    ``seat`` (a seat's number, from 0); ``rule`` the rule that defines it."""

    key: str
    label: str
    type: Literal["choice", "seat-choice", "flag", "seat"]
    choices: list[Choice]
    default: Any
    help: str
    rule: str | None


def load(ref: str) -> Any:
    """The object a ``"module:attr"`` reference names (``attr`` may be dotted)."""
    module_name, _, attr = ref.partition(":")
    if not module_name or not attr:
        raise ValueError(f"a reference is 'module:attr', not {ref!r}")
    obj: Any = importlib.import_module(module_name)
    for name in attr.split("."):
        obj = getattr(obj, name)
    return obj


@dataclass(frozen=True)
class Bot:
    """A bot a game offers: ``make`` names a factory ``seed -> agent``; ``strength`` says
    in a line how well it plays (people choose by it); ``extra`` is the optional extra of
    the package it needs (``pip install 'mummy[EXTRA]'``), if any."""

    name: str
    make: str
    strength: str
    extra: str | None = None


@dataclass(frozen=True)
class Page:
    """The browser's part: the module that draws the game (its ``mount``) and its
    stylesheet, both under ``/static``."""

    module: str
    stylesheet: str


@dataclass(frozen=True)
class Game:
    """Everything a game brings, found through the registry (:mod:`mummy.games`).

    ``kind`` is required; any other part may be None (a game without a printout, a
    review or a terminal front): the layer that would use it says the game has none.
    Parts are loaded on first use and kept; a part that is a class is made once, with no
    arguments.
    """

    name: str
    title: str
    summary: str
    kind: str
    bots: tuple[Bot, ...] = ()
    sim: str | None = None
    terminal: str | None = None
    narrator: str | None = None
    printer: str | None = None
    analysis: str | None = None
    content: str | None = None
    page: Page | None = None
    #: The parts loaded so far (not a field of the declaration: ``dataclasses.replace``
    #: makes a registration that loads its own).
    loaded: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def part(self, name: str) -> Any:
        """The game's part ``name`` (one of :data:`PARTS`), loaded once; a LookupError
        says the game has none."""
        if name in self.loaded:
            return self.loaded[name]
        ref = getattr(self, name) if name in PARTS else None
        if ref is None:
            raise LookupError(f"{self.title} has no {name}" if name in PARTS else f"no part called {name!r}")
        obj = load(ref)
        if isinstance(obj, type):
            obj = obj()
        self.loaded[name] = obj
        return obj

    def has(self, name: str) -> bool:
        """Whether the game names a part ``name``."""
        return name in PARTS and getattr(self, name) is not None

    def bot(self, name: str) -> Bot:
        """The bot ``name``; a ValueError lists the game's bots."""
        for bot in self.bots:
            if bot.name == name:
                return bot
        raise ValueError(f"unknown bot {name!r} for {self.name}; bots: {', '.join(b.name for b in self.bots)}")


class GameKind(Protocol):
    name: str
    title: str  # the game's name as people read it
    record_format: str  # the "format" of its records
    config_keys: tuple[str, ...]  # the set-up's fields (what validate reads)
    seats: tuple[int, int]  # the fewest and the most seats of a game
    engine: type  # the class of its games (what kind_of finds a kind by)

    @property
    def daily(self) -> dict[str, Any]:
        """The daily challenge's set-up: one solo game a day for everybody (a copy)."""
        ...

    def options(self) -> list[Option]:
        """The options a new game takes, as :meth:`validate` reads them."""
        ...

    def prepare(self) -> None:
        """Build the content's precomputed tables now, not in the first game's move."""
        ...

    def validate(self, config: dict[str, Any], seats: int) -> dict[str, Any]: ...

    def new(self, seed: int, config: dict[str, Any], names: list[str]) -> Any: ...

    def apply(self, game: Any, seat: int, text: str) -> tuple[str, int]:
        """Apply checked; return the canonical text and the seat it affects (or EVERYONE)."""
        ...

    def to_act(self, game: Any) -> list[int]: ...

    def is_over(self, game: Any) -> bool: ...

    def view(self, game: Any, keep: Mapping[int, Any] | None = None) -> dict[str, Any]:
        """The public state. ``keep``: parts of an earlier view still true, by the seat
        they show (a seat no action has affected since, see :meth:`apply`), which a view
        may take as they are instead of making them again (the server makes a view after
        every move of every game)."""
        ...

    def can_undo(self, game: Any, seat: int) -> bool:
        """Whether ``undo`` would take something back for this seat now."""
        ...

    def legal(self, game: Any, seat: int) -> list[str]: ...

    def text(self, game: Any, seat: int, action: Any) -> str:
        """An action value (a bot's choice) in the notation."""
        ...

    def legal_json(self, game: Any, seat: int) -> list[dict[str, Any]]:
        """The legal actions as data (each action's JSON form and its ``text``), in the
        order of :meth:`legal`: a client reads these and never parses the notation."""
        ...

    def record(self, game: Any) -> dict[str, Any]: ...

    def replay_record(self, obj: Any) -> ReplayResult[Any]:
        """Replay a record (checked); raises the game's ``RecordError`` if it is not one."""
        ...

    def result(self, game: Any) -> dict[str, Any]: ...

    def standing(self, config: dict[str, Any], result: dict[str, Any]) -> tuple[str, int | None, int | None, int]:
        """A finished solo game on a board: where it was played (map or site), its score,
        its turns, and the number it ranks by (lower first)."""
        ...

    def rankable(self, result: dict[str, Any]) -> bool:
        """Whether a finished solo game belongs on the board at all."""
        ...

    def board_entry(self, place: str | None, score: int | None, turns: int | None) -> dict[str, Any]:
        """A board's row in the game's own words (map and score, or site and turns)."""
        ...
