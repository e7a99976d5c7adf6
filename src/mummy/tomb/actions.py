"""Tomb actions as small immutable values, with a text notation and a JSON form.

Like python-chess's ``Move``, an :class:`Action` is a hashable value that knows nothing
of the rules; :func:`parse` / :func:`fmt` turn it to and from a short text (the notation
is documented in ``docs/tomb-notation.md``) and :func:`to_json` / :func:`from_json` to and
from a JSON object. Squares and edges are indices on a :class:`~mummy.core.grid.Grid`, so
both directions take the grid. Whether an action is *legal* is the engine's business.

Notation at a glance (what is spent comes before the colon)::

    1:5a.r0@J1     die 1 places shape 5a, orientation r0, top-left square J1
    1+2:room.r0@C5 dice 1 and 2 place the room
    3:dig.ne@F4    die 3 digs a Shovel square on F4 open north and east
    shovel:dig.ne@F4, wand:erase@E4n, wand:add@E4n, 3:erase@E4n, 3:add@E4n
    1:ooze  1:ooze+hammer  2:skeleton  3:zombie  4:golem.red  2:mimic  2:mimic+skey  4:mummy
                   (the number before the colon is a slot 1-4 of the row, not a value)
    open  open+skey  1:up  1:down  buy  buy5  1:discard  end
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from mummy.core.errors import InvalidActionError, quote
from mummy.core.grid import Grid
from mummy.core.polyomino import TRANSFORMS

PLACE: Final = "place"
DIG: Final = "dig"
ERASE: Final = "erase"
ADD: Final = "add"
DEFEAT: Final = "defeat"
OPEN: Final = "open"
UP: Final = "up"
DOWN: Final = "down"
BUY: Final = "buy"
CHOOSE: Final = "choose"
DISCARD: Final = "discard"
END: Final = "end"

KINDS: Final = (PLACE, DIG, ERASE, ADD, DEFEAT, OPEN, UP, DOWN, BUY, CHOOSE, DISCARD, END)
MONSTER_DIE: Final = {"ooze": 1, "skeleton": 2, "zombie": 3, "golem": 4, "mimic": 5, "mummy": 6}
#: Items that can stand before the colon (their function spent from a use, T6).
SOURCE_ITEMS: Final = {"wand": (ERASE, ADD), "shovel": (DIG,)}
#: Items that modify an action after a '+'.
HELPERS: Final = ("hammer", "skey")


class Action(NamedTuple):
    """One action of one player. Unused fields keep their defaults.

    ``dice`` are 1-based slots of the player's current round row; ``item`` is the magic
    item spent (``wand``, ``shovel``, ``hammer``, ``skey``), if any.
    """

    kind: str
    dice: tuple[int, ...] = ()
    shape: str = ""  # place: "5a"/"room"; defeat: the monster
    orient: str = ""  # place: r0..f3; dig: open sides such as "ne"
    square: int = -1  # place/dig: the tile's top-most, then left-most square
    edge: int = -1  # erase/add
    colour: str = ""  # defeat golem
    item: str = ""
    value: int = 0  # choose: the die value bought

    # Convenience so that Actions read well in reprs and tests.
    def uses_die(self) -> bool:
        return bool(self.dice)


def _bad(text: str, why: str) -> InvalidActionError:
    return InvalidActionError("notation", f"cannot read {quote(text)}: {why} (see docs/tomb-notation.md)")


def _slots(text: str, source: str) -> tuple[int, ...]:
    parts = source.split("+")
    if not all(p in ("1", "2", "3", "4") for p in parts):
        raise _bad(text, f"{quote(source)} is not a die slot 1-4 or slots like 1+2")
    slots = tuple(int(p) for p in parts)
    if len(set(slots)) != len(slots):
        raise _bad(text, "the same die twice")
    return slots


def parse(text: str, grid: Grid) -> Action:
    """Parse one action in the notation. Raises :class:`InvalidActionError` on bad text.

    In steps: a word that spends nothing ('end', 'open', 'buy'...), else SOURCE:VERB where
    the source is dice or an item, and the verb either names a place after '@' (a tile,
    a Shovel square, a Wand edge) or is a die's own verb or a defeat."""
    raw = text.strip()
    low = raw.lower()
    if not low:
        raise _bad(text, "empty")
    if not raw.isascii():
        raise _bad(text, "the notation is plain ASCII (letters, digits, : + . @)")
    word = _word(text, low)
    if word is not None:
        return word
    source, colon, rest = low.partition(":")
    if not colon or not rest:
        raise _bad(text, "expected SOURCE:VERB, 'end', 'open', 'buy' or 'buyN'")
    item = ""
    dice: tuple[int, ...] = ()
    if source in SOURCE_ITEMS:
        item = source
    else:
        dice = _slots(text, source)
    verb, at, where = rest.partition("@")
    if item and verb.split(".")[0] not in SOURCE_ITEMS[item]:
        raise _bad(text, f"the {item} can do {', '.join(SOURCE_ITEMS[item])}, not {quote(verb)}")
    try:
        placed = _placed(text, verb, bool(at), where, dice, item, grid)
    except ValueError as exc:
        if isinstance(exc, InvalidActionError):
            raise
        raise _bad(text, str(exc)) from None
    if placed is not None:
        return placed
    if item:
        raise _bad(text, f"the {item} cannot {quote(verb)}")
    return _die_verb(text, verb, dice)


def _word(text: str, low: str) -> Action | None:
    """The actions written as one word, spending no die: 'end', 'open', 'open+skey',
    'buy' and 'buyN' (a chosen die); None for anything else."""
    if low == "end":
        return Action(END)
    if low in ("open", "open+skey"):
        return Action(OPEN, item="skey" if low.endswith("skey") else "")
    if low == "buy":
        return Action(BUY)
    if low.startswith("buy") and low[3:].isascii() and low[3:].isdigit():
        value = int(low[3:])
        if not 1 <= value <= 6:
            raise _bad(text, "a chosen die is 1 to 6")
        return Action(CHOOSE, value=value)
    return None


def _placed(text: str, verb: str, at: bool, where: str, dice: tuple[int, ...], item: str,
            grid: Grid) -> Action | None:
    """A verb with a place after '@': the Wand on an edge, a Shovel square or a tile on a
    square; None when the verb is none of these. A bad square or edge raises ValueError."""
    if verb in (ERASE, ADD):
        if not at:
            raise _bad(text, f"{verb} needs an edge, like {verb}@E4n")
        if len(dice) > 1:
            raise _bad(text, "the Wand's function takes one die")
        return Action(verb, dice=dice, edge=grid.parse_edge(where), item=item)
    if verb.startswith(DIG + "."):
        if not at:
            raise _bad(text, "dig needs a square, like dig.ne@F4")
        sides = verb[4:]
        canon = "".join(s for s in "nesw" if s in sides)
        if len(canon) != len(sides) or not 1 <= len(sides) <= 2:
            raise _bad(text, "a Shovel square is open on one or two sides, like dig.ne")
        if len(dice) > 1:
            raise _bad(text, "the Shovel's function takes one die")
        return Action(DIG, dice=dice, orient=canon, square=grid.parse_square(where), item=item)
    if at:
        shape, dot, orient = verb.partition(".")
        if not dot or orient not in TRANSFORMS:
            raise _bad(text, f"a tile is SHAPE.ORIENT@SQUARE with ORIENT in {' '.join(TRANSFORMS)}")
        return Action(PLACE, dice=dice, shape=shape, orient=orient, square=grid.parse_square(where))
    return None


def _die_verb(text: str, verb: str, dice: tuple[int, ...]) -> Action:
    """A die's own verb ('up', 'down', 'discard') or a defeat ('ooze+hammer', 'golem.red')."""
    if verb in (UP, DOWN, DISCARD):
        if len(dice) != 1:
            raise _bad(text, f"{verb} takes one die")
        return Action(verb, dice=dice)
    name, plus, helper = verb.partition("+")
    if plus and helper not in HELPERS:
        raise _bad(text, f"unknown helper {quote(helper)} (hammer, skey)")
    monster, _dot, colour = name.partition(".")
    if monster in MONSTER_DIE:
        if len(dice) != 1:
            raise _bad(text, "a defeat takes one die")
        if monster == "golem" and not colour:
            raise _bad(text, "a golem is named with its colour, like 4:golem.red")
        if colour and monster != "golem":
            raise _bad(text, f"only a golem takes a colour, not a {monster}")
        return Action(DEFEAT, dice=dice, shape=monster, colour=colour, item=helper)
    raise _bad(text, f"unknown verb {quote(verb)}")


def fmt(action: Action, grid: Grid) -> str:
    """The canonical text of an action (``parse(fmt(a)) == a``)."""
    k = action.kind
    if k == END:
        return "end"
    if k == OPEN:
        return "open+skey" if action.item == "skey" else "open"
    if k == BUY:
        return "buy"
    if k == CHOOSE:
        return f"buy{action.value}"
    source = action.item if action.item in SOURCE_ITEMS else "+".join(str(d) for d in action.dice)
    if k == PLACE:
        return f"{source}:{action.shape}.{action.orient}@{grid.square_name(action.square)}"
    if k == DIG:
        return f"{source}:dig.{action.orient}@{grid.square_name(action.square)}"
    if k in (ERASE, ADD):
        return f"{source}:{k}@{grid.edge_name(action.edge)}"
    if k in (UP, DOWN, DISCARD):
        return f"{source}:{k}"
    if k == DEFEAT:
        name = f"{action.shape}.{action.colour}" if action.colour else action.shape
        helper = f"+{action.item}" if action.item else ""
        return f"{source}:{name}{helper}"
    raise ValueError(f"unknown action kind {k!r}")


def to_json(action: Action, grid: Grid) -> dict[str, Any]:
    """JSON object for an action: only the fields the kind uses, squares and edges by name."""
    out: dict[str, Any] = {"kind": action.kind}
    if action.dice:
        out["dice"] = list(action.dice)
    if action.shape:
        out["monster" if action.kind == DEFEAT else "shape"] = action.shape
    if action.orient:
        out["orient"] = action.orient
    if action.square >= 0:
        out["square"] = grid.square_name(action.square)
    if action.edge >= 0:
        out["edge"] = grid.edge_name(action.edge)
    if action.colour:
        out["colour"] = action.colour
    if action.item:
        out["item"] = action.item
    if action.value:
        out["value"] = action.value
    return out


def from_json(obj: Any, grid: Grid) -> Action:
    """Inverse of :func:`to_json`; refuses unknown kinds, fields and types."""
    if not isinstance(obj, dict) or not isinstance(obj.get("kind"), str):
        raise InvalidActionError("json", "an action is an object with a 'kind'")
    allowed = {"kind", "dice", "shape", "monster", "orient", "square", "edge", "colour", "item", "value"}
    extra = set(obj) - allowed
    if extra:
        raise InvalidActionError("json", f"unknown field(s) {sorted(extra)}")
    if obj["kind"] not in KINDS:
        raise InvalidActionError("json", f"unknown kind {quote(obj['kind'])}")
    needs = {PLACE: "square", DIG: "square", ERASE: "edge", ADD: "edge"}.get(obj["kind"])
    if needs and needs not in obj:
        raise InvalidActionError("json", f"a '{obj['kind']}' action needs its '{needs}'")
    try:
        dice = obj.get("dice", [])
        if not isinstance(dice, list) or not all(isinstance(d, int) and not isinstance(d, bool)
                                                   for d in dice):
            raise ValueError("dice is a list of slot numbers")
        for key in ("shape", "monster", "orient", "colour", "item", "square", "edge"):
            if key in obj and not isinstance(obj[key], str):
                raise ValueError(f"{key} is a string")
        value = obj.get("value", 0)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError("value is a number")
        action = Action(
            kind=obj["kind"],
            dice=tuple(dice),
            shape=str(obj.get("monster", obj.get("shape", ""))),
            orient=obj.get("orient", ""),
            square=grid.parse_square(obj["square"]) if "square" in obj else -1,
            edge=grid.parse_edge(obj["edge"]) if "edge" in obj else -1,
            colour=obj.get("colour", ""),
            item=obj.get("item", ""),
            value=value,
        )
    except ValueError as exc:
        raise InvalidActionError("json", f"bad action {quote(obj)}: {exc}") from None
    # Round-trip through the notation: one grammar decides what is well formed.
    try:
        text = fmt(action, grid)
    except (ValueError, IndexError):
        raise InvalidActionError("json", f"bad action {quote(obj)}") from None
    if parse(text, grid) != action:
        raise InvalidActionError("json", f"bad action {quote(obj)}: fields do not fit its kind")
    return action
