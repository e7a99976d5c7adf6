"""The Tomb's narrator: each action's sentence (``narrate_tomb_words``), and the preview of
an action with the warnings a player needs before a harm the rules make permanent.

Warnings (contracts §2), each with the rule that makes the loss stick:

* ``sealed``: a tile, a Shovel square or a wall after which the dungeon has no open
  opening, so nothing can extend it (T3.2, T6.3) unless the Wand erases a wall (T6.1);
* ``no_use``: a coin on a die (or a chosen die) whose new value places no tile and
  defeats no monster: the coin bought nothing, since the Wand's and the Shovel's
  functions take a die of any value (T6.4); a bought die that no face could use;
* ``unused_dice``: an action after which other dice of the row that had a use have none
  (they must be discarded, T4.4), or a discard of a die that a coin would make usable
  (T4.3);
* ``unused_items``: finishing the game (after round 20) while the Wand or the Shovel
  still has a use (T4.5).

A preview never rolls: a bought die is weighed over its six faces and not shown, and
ending a round that starts the next shows neither its dice nor what they allow.
"""

from __future__ import annotations

from typing import Any

from mummy.core.errors import IllegalActionError
from mummy.render.narrate_tomb_words import (
    Before,
    chance_line,
    covered_squares,
    gains,
    head,
    sealed,
    undone_action,
)
from mummy.render.narrate_words import UNKNOWN, Line, joined, plural, said, warning
from mummy.tomb.actions import ADD, BUY, CHOOSE, DIG, DISCARD, DOWN, END, PLACE, UP, Action, fmt, parse
from mummy.tomb.board import ROOM, SHAPE_INDEX
from mummy.tomb.game import TombGame
from mummy.tomb.moves import die_actions, function_actions, legal_placements, room_possible_with
from mummy.tomb.rules import SHOVEL, WAND, monster_targets
from mummy.tomb.sheet import AFTER, Sheet

#: The kinds of action that change the dungeon's outline (and so may seal it).
OUTLINE_KINDS = (PLACE, DIG, ADD)


def die_uses(sheet: Sheet, slot: int) -> int:
    """Every legal use of the die in ``slot`` (1-based): its tiles, defeats and the Wand's
    and Shovel's functions, and the room's placements when another die could join it."""
    value = sheet.row[slot - 1].value
    uses = len(die_actions(sheet, slot, value, {}))
    if room_possible_with(sheet, slot):
        uses += len(legal_placements(sheet, ROOM))
    return uses


def value_uses(sheet: Sheet, value: int) -> int:
    """What only a die of this value can do now: its two shapes' placements and its
    defeats (T2.2, T5.3). The Wand's and Shovel's functions take any value (T6.4)."""
    tiles = sum(len(legal_placements(sheet, SHAPE_INDEX[f"{value}{c}"])) for c in "ab")
    return tiles + len(monster_targets(sheet, value))


def by_value(sheet: Sheet) -> dict[str, int]:
    """For each die value, what only it could do (:func:`value_uses`): the counts a page
    shows before a coin is paid for a die (keys are strings: JSON)."""
    return {str(v): value_uses(sheet, v) for v in range(1, 7)}


# -- warnings ---------------------------------------------------------------------------------
def sealed_warning(a: Action, prior: Sheet, after: Sheet) -> list[dict[str, Any]]:
    if a.kind not in OUTLINE_KINDS or not sealed(prior, after):
        return []
    return [warning("sealed", "T3.2", "After this your dungeon has no open opening: no tile or Shovel "
                    "square can ever be added to it (T3.2, T6.3), unless the Wand erases a wall (T6.1).")]


def coin_warning(a: Action, after: Sheet) -> list[dict[str, Any]]:
    """A coin on a die, or a chosen die, whose value only the Wand or the Shovel can use."""
    if a.kind not in (UP, DOWN, CHOOSE):
        return []
    slot = len(after.row) if a.kind == CHOOSE else a.dice[0]
    value = after.row[slot - 1].value
    if value_uses(after, value):
        return []
    rest = ("it can still work the Wand or the Shovel (T6.4), as any value can" if die_uses(after, slot)
            else "it has no use at all and must be discarded (T4.4)")
    paid = "choosing it" if a.kind == CHOOSE else "the coin"
    return [warning("no_use", "T4.3", f"A {value} places no tile and defeats no monster now: {paid} buys "
                    f"nothing, and {rest}.")]


def lost_dice(a: Action, prior: Sheet, after: Sheet) -> list[dict[str, Any]]:
    """Other dice of the row that had a use and have none after this action (T4.4)."""
    if a.kind in (UP, DOWN, DISCARD, END) or len(after.row) < len(prior.row):
        return []
    lost = [prior.row[i].value for i in range(len(prior.row))
            if not after.row[i].used and not prior.row[i].used and i + 1 not in a.dice
            and die_uses(prior, i + 1) and not die_uses(after, i + 1)]
    if not lost:
        return []
    dice = joined([f"a {v}" for v in lost])
    return [warning("unused_dice", "T4.4", f"After this, {dice} left in your row {'has' if len(lost) == 1 else 'have'} "
                    f"no use: {plural(len(lost), 'die', 'dice')} will have to be discarded (T4.4).")]


def discard_warning(a: Action, prior: Sheet) -> list[dict[str, Any]]:
    """A discarded die that coins would turn into a usable one (T4.3, T4.4)."""
    if a.kind != DISCARD:
        return []
    slot = a.dice[0]
    value = prior.row[slot - 1].value
    for k in range(1, min(prior.coins, 3) + 1):
        for new in ((value - 1 + k) % 6 + 1, (value - 1 - k) % 6 + 1):
            if value_uses(prior, new):
                return [warning("unused_dice", "T4.3", f"This {value} has no use as it is, but turned to {new} "
                                f"for {plural(k, 'coin')} it would (T4.3); discarded, it is lost (T4.4).")]
    return []


def items_warning(a: Action, prior: Sheet) -> list[dict[str, Any]]:
    """Finishing the game while the Wand or the Shovel still has a use (T4.5)."""
    if a.kind != END or prior.phase != AFTER:
        return []
    left = [f"the {name} ({plural(prior.item_uses[i], 'use')})" for i, name, item in
            ((WAND, "Wand", "wand"), (SHOVEL, "Shovel", "shovel"))
            if prior.item_uses[i] and function_actions(prior, (), item, {})]
    if not left:
        return []
    return [warning("unused_items", "T4.5", f"You can still use {joined(left)}: finishing now gives "
                    f"{'it' if len(left) == 1 else 'them'} up (T4.5).")]


# -- the preview ------------------------------------------------------------------------------
def buy_preview(game: TombGame, seat: int, canonical: str) -> dict[str, Any]:
    """A die rolled for 2 coins, weighed over its six faces and not rolled (T4.3, T4.6)."""
    sheet = game.sheets[seat]
    slot = len(sheet.row) + 1
    faces: dict[str, int] = {}
    usable = 0
    for v in range(1, 7):
        bought = game.with_bought_die(seat, v).sheets[seat]  # a copy: this game rolls nothing
        faces[str(v)] = value_uses(bought, v)
        usable += bool(die_uses(bought, slot))
    warnings = [] if usable else [warning("no_use", "T4.3", "No face of a bought die would have a use now: "
                                          "the 2 coins would buy a die to discard (T4.4).")]
    return {"action": canonical, "sentence": "Buy a die (2 coins)", "warnings": warnings,
            "uses_after": UNKNOWN, "by_value": faces}


def preview(game: TombGame, seat: int, text: str) -> dict[str, Any]:
    """See :meth:`TombNarrator.preview`."""
    if text.strip().lower() == "undo":
        raise IllegalActionError("undo", "an undo takes back your last action: there is nothing to preview")
    grid = game.maps[seat].grid
    action = game.check(seat, parse(text, grid))  # the engine's refusal, rule and square
    canonical = fmt(action, grid)
    if action.kind == BUY:
        return buy_preview(game, seat, canonical)
    prior = game.sheets[seat]
    trial = game.copy()
    chances = len(trial.chances)
    trial.push(seat, action, keep_undo=False)
    after = trial.sheets[seat]
    rolled = len(trial.chances) > chances  # the next round began: its dice stay unseen
    warnings = [*sealed_warning(action, prior, after), *coin_warning(action, after),
                *lost_dice(action, prior, after), *discard_warning(action, prior),
                *items_warning(action, prior)]
    out: dict[str, Any] = {"action": canonical,
                           "sentence": said(head(trial, seat, action, prior, after), gains(trial, seat, prior, after)),
                           "warnings": warnings}
    if rolled:
        out["uses_after"] = UNKNOWN
    elif action.kind in (UP, DOWN, CHOOSE):
        slot = len(after.row) if action.kind == CHOOSE else action.dice[0]
        out["uses_after"] = die_uses(after, slot)
        out["by_value"] = by_value(prior)
    else:
        out["uses_after"] = len(trial.legal_actions(seat))
    return out


class TombNarrator:
    """The Tomb's narrator (see :class:`mummy.render.narrate.Narrator`)."""

    name = "tomb"

    def before(self, game: TombGame, seat: int, text: str) -> Before:
        undone = undone_action(game, seat) if text == "undo" else None
        return Before(game.sheets[seat].copy(), game.round, len(game.chances), undone)

    def narrate(self, game: TombGame, seat: int, text: str, before: Any) -> Line:
        assert isinstance(before, Before)
        after = game.sheets[seat]
        if text == "undo":
            # The sheet is back where it was before the undone action: that action went
            # from this sheet to the one the undo left.
            what = head(game, seat, before.undone, after, before.sheet) if before.undone else "nothing"
            return Line(f"{game.players[seat].name} took back: {what}")
        action = parse(text, game.maps[seat].grid)
        prior = before.sheet
        sentence = said(head(game, seat, action, prior, after), gains(game, seat, prior, after))
        return Line(sentence, chance_line(game.chances[before.chances:]), covered_squares(game, seat, prior, after))

    def preview(self, game: TombGame, seat: int, text: str) -> dict[str, Any]:
        return preview(game, seat, text)


__all__ = ["TombNarrator", "by_value", "die_uses", "preview", "value_uses"]
