"""A game's log in plain language, and a preview of an action before it is made.

A player reads "Hook at B11: 3 coins and an ooze circled", not ``1:3a.r0@B11``. Each
game has a :class:`Narrator`, named by its registration and found in :data:`NARRATORS`
by the game's name (like the other layers' parts, ``sim/kinds.py``, ``terminal/kinds.py``):
it takes a light snapshot of what an action may change (:meth:`Narrator.before`), and
once the engine has applied the action it says in a sentence what the action did and gained, read from the
difference between the game before and after (the sheet's tracks, the engine's events on
``sheet.events``), and what chance revealed (:class:`Line`). Each action is narrated
once, when it is applied: the server keeps the last few sentences with the game.

:meth:`Narrator.preview` answers "what would this do?" on a copy of the game: the
sentence, warnings of harm the rules make permanent (sealing the dungeon in, a coin
that gives a die no use), and how many uses follow. A preview never makes a roll: a die
or a roll it would reveal is not shown before it is paid for (a daily challenge's dice
are everybody's that day).

Pure functions of the games: no I/O, no clock.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from mummy.games import Parts
from mummy.render.narrate_words import Dice, Line

__all__ = ["LOG_TAIL", "NARRATORS", "Dice", "Line", "Narrator", "log_entry", "narrator_named"]

#: How many of a game's last log entries a view carries (contracts §1).
LOG_TAIL: Final = 12


class Narrator(Protocol):
    name: str

    def before(self, game: Any, seat: int, text: str) -> Any:
        """What the sentence of ``text`` (about to be applied by ``seat``) needs to know
        of the game as it is now: a light snapshot, never the whole game."""
        ...

    def narrate(self, game: Any, seat: int, text: str, before: Any) -> Line:
        """The sentence of the action ``text`` that ``seat`` has just made (canonical
        notation), from ``before`` (:meth:`before`) and the game as it is now."""
        ...

    def preview(self, game: Any, seat: int, text: str) -> dict[str, Any]:
        """What ``text`` would do for ``seat``, worked out on a copy: ``action``
        (canonical), ``sentence``, ``warnings`` and ``uses_after`` (contracts §2; -1 when
        it depends on a roll not made). Raises the engine's ``RuleError`` (or a
        ``ValueError`` for text that is no action); the game does not change."""
        ...


#: Each game's narrator, by the game's name (its registration's ``narrator``).
NARRATORS: Final[Parts] = Parts("narrator")


def narrator_named(name: str) -> Narrator:
    """The narrator of the game called ``name``."""
    narrator: Narrator = NARRATORS.named(name)
    return narrator


def log_entry(version: int, seat: int, name: str, text: str, line: Line) -> dict[str, Any]:
    """A log entry as a view carries it (contracts §1): ``version`` is the game's version
    after the action, ``text`` its notation, ``sentence`` and ``chance`` its words,
    ``squares`` the squares it covered on the seat's sheet or site (none for most
    actions); a Treasure roll's ``dice`` (``faces`` and ``held``) and a take's ``tile``
    (its id), ``null`` for every other action."""
    dice = {"faces": list(line.dice.faces), "held": list(line.dice.held)} if line.dice else None
    return {"version": version, "seat": seat, "name": name, "text": text, "sentence": line.sentence,
            "chance": line.chance, "squares": list(line.squares), "dice": dice, "tile": line.tile}
