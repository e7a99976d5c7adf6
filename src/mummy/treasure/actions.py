"""Treasure actions as values, with a text notation and a JSON form (docs/treasure-notation.md).

    roll               roll all five dice: the first roll of a turn (R3.1)
    reroll:SJ          reroll one Scarab die and the Jackal die (any non-empty subset, R3.1)
    take:scroll@B2.v   take the top tile of the scroll pile and place it with its top-left
                       square on B2, turned upright (h: lying as listed, v: a quarter turn)
    take:scroll        movable-tiles variant (R5.1): the game finds the arrangement
    take:scroll-3@B2.h the same naming the tile: refused unless it is the pile's top (R3.3)
    pass               after the third roll, when no tile can be taken (R3.2)
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple

from mummy.core.errors import InvalidActionError, quote
from mummy.core.grid import Grid
from mummy.treasure.content import SYMBOLS, sort_symbols

ROLL: Final = "roll"
REROLL: Final = "reroll"
TAKE: Final = "take"
PASS: Final = "pass"
KINDS: Final = (ROLL, REROLL, TAKE, PASS)


class Action(NamedTuple):
    """One Treasure action; unused fields keep their defaults."""

    kind: str
    dice: str = ""  # reroll: the symbols of the dice rerolled, canonical order
    pile: str = ""  # take: the pile whose top tile is taken
    square: int = -1  # take: top-left square on the site (-1: the game arranges, R5.1)
    orient: str = ""  # take: "h" or "v"


def _bad(text: str, why: str) -> InvalidActionError:
    return InvalidActionError("notation", f"cannot read {quote(text)}: {why} (see docs/treasure-notation.md)")


def parse(text: str, grid: Grid) -> Action:
    """Parse one action. Raises :class:`InvalidActionError` on malformed text."""
    raw = text.strip()
    low = raw.lower()
    if low in (ROLL, PASS):
        return Action(low)
    if not raw.isascii():
        raise _bad(text, "the notation is plain ASCII (letters, digits, : @ .)")
    match = re.match(r"\s*([A-Za-z]+)\s*[:\s]\s*(.*)$", raw)
    if not match:
        raise _bad(text, "expected roll, reroll:DICE, take:PILE@SQUARE.h|v or pass")
    verb, rest = match.group(1).lower(), match.group(2).strip()
    if verb == REROLL:
        dice = re.sub(r"[\s,:]", "", rest.upper())
        if not dice or set(dice) - set(SYMBOLS) or len(dice) > 5:
            raise _bad(text, f"reroll names 1 to 5 dice by symbol ({' '.join(SYMBOLS)}), like reroll:SJ")
        return Action(REROLL, dice=sort_symbols(dice))
    if verb == TAKE:
        pile, at, where = re.sub(r"\s", "", rest.lower()).partition("@")
        name, dash, number = pile.partition("-")
        if not name.isalpha() or (dash and not number.isdigit()):
            raise _bad(text, "take names a pile (or a tile such as scroll-3), like take:scroll@B2.h")
        if not at:
            return Action(TAKE, pile=pile)
        square, _dot, orient = where.partition(".")
        orient = orient or "h"
        if orient not in ("h", "v"):
            raise _bad(text, "the orientation is h (lying as listed) or v (turned)")
        try:
            return Action(TAKE, pile=pile, square=grid.parse_square(square), orient=orient)
        except ValueError as exc:
            raise _bad(text, str(exc)) from None
    raise _bad(text, "expected roll, reroll:DICE, take:PILE@SQUARE.h|v or pass")


def fmt(action: Action, grid: Grid) -> str:
    """Canonical text of an action: ``parse(fmt(a)) == a``."""
    if action.kind in (ROLL, PASS):
        return action.kind
    if action.kind == REROLL:
        return f"reroll:{action.dice}"
    if action.kind == TAKE:
        if action.square < 0:
            return f"take:{action.pile}"
        return f"take:{action.pile}@{grid.square_name(action.square)}.{action.orient}"
    raise ValueError(f"unknown action kind {action.kind!r}")


def to_json(action: Action, grid: Grid) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": action.kind}
    if action.dice:
        out["dice"] = action.dice
    if action.pile:
        out["pile"] = action.pile
    if action.square >= 0:
        out["square"] = grid.square_name(action.square)
        out["orient"] = action.orient
    return out


def from_json(obj: Any, grid: Grid) -> Action:
    """Inverse of :func:`to_json`; refuses unknown kinds, fields and types."""
    if not isinstance(obj, dict) or obj.get("kind") not in KINDS:
        raise InvalidActionError("json", f"an action is an object with a kind in {', '.join(KINDS)}")
    extra = set(obj) - {"kind", "dice", "pile", "square", "orient"}
    if extra:
        raise InvalidActionError("json", f"unknown field(s) {sorted(extra)}")
    if not all(isinstance(obj.get(k, ""), str) for k in ("dice", "pile", "square", "orient")):
        raise InvalidActionError("json", "dice, pile, square and orient are strings")
    kind = obj["kind"]
    text = kind
    if kind == REROLL:
        text = f"reroll:{obj.get('dice', '')}"
    elif kind == TAKE:
        text = f"take:{obj.get('pile', '')}"
        if "square" in obj:
            text += f"@{obj['square']}.{obj.get('orient', '')}"
    action = parse(text, grid)
    if to_json(action, grid) != obj:  # one canonical JSON form per action
        raise InvalidActionError("json", f"bad action {quote(obj)}: fields do not fit its kind")
    return action
