"""Mummy's Treasure's actions in plain language: "Sphinx took the 2×2 chest, 24/36
covered", "Ann rerolled 3 dice: S P E", "Ann passed"; and as data for a page that shows
another player's turn step by step: a roll's dice (the faces, and which were held) and a
take's tile and squares (``Line.dice``, ``Line.tile``, ``Line.squares``).

The state of a Treasure game is immutable, so the snapshot before an action is the state
itself. A preview never rolls (the dice to come are the seed's, R2.2), and a take's
preview says nothing of the pile's next tile or of whether any tile could still be
taken afterwards: both would show what is still hidden.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from mummy.core.errors import IllegalActionError
from mummy.core.grid import iter_bits
from mummy.core.protocol import Chance
from mummy.render.narrate_words import UNKNOWN, Dice, Line, plural
from mummy.treasure.actions import PASS, REROLL, ROLL, TAKE, Action, fmt, parse
from mummy.treasure.content import sort_symbols
from mummy.treasure.game import State, TreasureGame


class Before(NamedTuple):
    """The state before the action (immutable) and how many rolls there were."""

    state: State
    chances: int


def symbols(dice: str) -> str:
    """Dice as their symbols' letters, spaced: ``S P E``."""
    return " ".join(dice)


def take_sentence(game: TreasureGame, seat: int, over_known: bool) -> str:
    """Who took which tile, and how much of their site is covered (R3.3, R4.1); with
    ``over_known``, how the game ended (R4.2, R4.3)."""
    name = game.seats[seat].name
    placed = game.state.placed[seat][-1]
    tile = game.tiles[placed.tile]
    site = game.boards[seat].squares.bit_count()
    covered = game.state.covered[seat].bit_count()
    sentence = f"{name} took the {tile.rows}×{tile.cols} {tile.pile}, {covered}/{site} covered"
    if game.state.reason == "full":
        return f"{sentence}: the site is full, {name} wins (R4.1)"
    if over_known and game.state.over:
        return f"{sentence}; no tile can be taken any more: the game is over (R4.2)"
    return sentence


def sentence_of(game: TreasureGame, seat: int, a: Action, over_known: bool = True) -> str:
    """The action ``a`` that ``seat`` has just made, from the game after it; with
    ``over_known``, the game's end too (a preview leaves it out: see the module)."""
    name = game.seats[seat].name
    if a.kind == ROLL:
        return f"{name} rolled: {symbols(game.state.dice)}"
    if a.kind == REROLL:
        new = sort_symbols(str(game.chances[-1].outcome))
        return f"{name} rerolled {plural(len(a.dice), 'die', 'dice')}: {symbols(new)}"
    if a.kind == TAKE:
        return take_sentence(game, seat, over_known)
    ended = "; no tile can be taken any more: the game is over (R4.2)" if over_known and game.state.over else ""
    return f"{name} passed{ended}"


def chance_line(game: TreasureGame, chances: list[Chance]) -> str | None:
    """After a roll or a reroll (R3.1), the five dice showing now (the sentence says
    which came up), in the symbols' order."""
    return f"The dice show {symbols(game.state.dice)}" if chances and game.state.dice else None


def rolled_dice(game: TreasureGame, a: Action, before: State) -> Dice | None:
    """A roll's or a reroll's dice as data (R3.1): the faces showing now, and which of
    them were held, the dice ``before`` showed less those the reroll named; the others
    are the engine's roll. None for any other action."""
    if a.kind not in (ROLL, REROLL):
        return None
    kept = before.dice if a.kind == REROLL else ""
    for die in a.dice:  # five letters at most: strings beat a Counter by far here
        kept = kept.replace(die, "", 1)
    held = []
    for face in game.state.dice:
        held.append(face in kept)
        kept = kept.replace(face, "", 1)
    return Dice(tuple(game.state.dice), tuple(held))


def taken_tile(game: TreasureGame, seat: int, a: Action) -> tuple[str | None, tuple[str, ...]]:
    """A take's tile (its id) and the squares it lies on, by name in the grid's order
    (R3.3; in the movable variant, where the arrangement put it, R5.1); none otherwise."""
    if a.kind != TAKE:
        return None, ()
    placed = game.state.placed[seat][-1]
    tile = game.tiles[placed.tile]
    board = game.boards[seat]
    mask = board.placements(tile.rows, tile.cols)[(placed.square, placed.orient)]
    return placed.tile, tuple(board.grid.square_name(sq) for sq in iter_bits(mask))


class TreasureNarrator:
    """Mummy's Treasure's narrator (see :class:`mummy.render.narrate.Narrator`)."""

    name = "treasure"

    def before(self, game: TreasureGame, seat: int, text: str) -> Before:
        return Before(game.state, len(game.chances))

    def narrate(self, game: TreasureGame, seat: int, text: str, before: Any) -> Line:
        assert isinstance(before, Before)
        action = parse(text, game.grid(seat))
        sentence = sentence_of(game, seat, action)
        tile, squares = taken_tile(game, seat, action)
        return Line(sentence, chance_line(game, game.chances[before.chances:]), squares,
                    rolled_dice(game, action, before.state), tile)

    def preview(self, game: TreasureGame, seat: int, text: str) -> dict[str, Any]:
        """Treasure warns of nothing (a pass is refused while a tile can be taken, R3.2)."""
        if text.strip().lower() == "undo":
            raise IllegalActionError("undo", "online, a tile taken or a turn passed stands")
        grid = game.grid(seat)
        action = game.check(seat, parse(text, grid))
        canonical = fmt(action, grid)
        name = game.seats[seat].name
        if action.kind == ROLL:
            sentence = f"{name} rolls the five dice"
        elif action.kind == REROLL:
            sentence = f"{name} rerolls {plural(len(action.dice), 'die', 'dice')}: {symbols(action.dice)}"
        elif action.kind == PASS:
            sentence = f"{name} passes"
        else:
            trial = game.copy()
            trial.push(seat, action, keep_undo=False)
            sentence = sentence_of(trial, seat, action, over_known=False)
        return {"action": canonical, "sentence": sentence, "warnings": [], "uses_after": UNKNOWN}


__all__ = ["TreasureNarrator", "chance_line", "rolled_dice", "sentence_of", "taken_tile"]
