"""The paper players' companion page's data: a seed's dice, and a sheet's score check.

The page gets every round's dice and each player's first bought dice in one answer, so
that once loaded it needs no connection (a phone on a table in a cellar). Each player's
bought dice come from their own stream (T4.6), so the page can show player 2's next die
without telling player 1 theirs. The score check is the engine's (mummy.tomb.paper):
the page sends the counts and shows the lines, the total and the achievements it gets.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Final

from mummy.tomb.content import is_map, map_ids, map_spec
from mummy.tomb.paper import TallyForm, check_tally
from mummy.tomb.rules import BUY_COST, ROUNDS, bought_die, round_dice
from mummy.tomb.scoring import LINE_LABELS, Tally

#: Bought dice given per player: more than any sheet buys in a game.
BOUGHT: Final = 40
MAX_PLAYERS: Final = 8


def companion_dice(seed: int, players: int) -> dict[str, Any]:
    """Every round's two dice and each player's bought dice, in order (T4.1, T4.6)."""
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"players: 1 to {MAX_PLAYERS}")
    return {
        "seed": seed,
        "rounds": [list(round_dice(seed, r)) for r in range(1, ROUNDS + 1)],
        "bought": [[bought_die(seed, seat, k) for k in range(BOUGHT)] for seat in range(players)],
        "buy_cost": BUY_COST,
        "form": [{"name": name, "hint": hint} for name, hint in TallyForm().fields],
        "maps": [{"id": m, "title": map_spec(m).title} for m in map_ids()],
        "lines": LINE_LABELS,
    }


def score_check(body: dict[str, Any]) -> dict[str, Any]:
    """The check of a typed count: ``{"map": ID, "tally": {...}, "lines": {...}?, "total": N?}``.
    Raises ValueError naming the faulty field."""
    map_id = body.get("map", "map1")
    if not isinstance(map_id, str) or not is_map(map_id):
        raise ValueError(f"map: unknown map {map_id!r}")
    raw = body.get("tally")
    if not isinstance(raw, dict):
        raise ValueError("tally: an object of counts")
    known = {f.name: f for f in fields(Tally)}
    counts: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in known:
            raise ValueError(f"tally.{name}: not a count of the sheet; counts: {', '.join(known)}")
        counts[name] = _count(name, value)
    lines, total = body.get("lines"), body.get("total")
    if lines is not None and not (isinstance(lines, dict) and all(_is_int(v) for v in lines.values())):
        raise ValueError("lines: an object of whole numbers")
    if total is not None and not _is_int(total):
        raise ValueError("total: a whole number")
    got = check_tally(Tally(**counts), map_spec(map_id), lines=lines, total=total)
    return {"lines": got.score.lines, "total": got.score.total, "achievements": list(got.score.achievements),
            "faults": list(got.faults), "differences": list(got.differences)}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -10_000 <= v <= 10_000


def _count(name: str, value: Any) -> Any:
    if name in ("key_track_full", "skeleton_key"):
        if not isinstance(value, bool):
            raise ValueError(f"tally.{name}: true or false")
        return value
    if name == "hits":
        if not (isinstance(value, list) and len(value) <= 12 and all(_is_int(v) for v in value)):
            raise ValueError("tally.hits: a list of the points in the Mummy's boxes")
        return tuple(value)
    if not _is_int(value) or value < 0:
        raise ValueError(f"tally.{name}: a whole number, 0 or more")
    return value


__all__ = ["companion_dice", "score_check"]
