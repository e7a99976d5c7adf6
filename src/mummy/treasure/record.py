"""Treasure game records and snapshots as JSON (docs/treasure-formats.md).

The record is the seed, the seats (name, site), the variant, the first seat and the
actions; replaying it reproduces every shuffle and roll (R2.2). The snapshot is the
public picture of a game: piles with their visible top tile and count, the dice, each
site's tiles, whose turn, and the result. It never shows a pile's hidden order.
"""

from __future__ import annotations

import json
from typing import Any, Final

from mummy.core.grid import iter_bits
from mummy.core.records import RecordError, ReplayResult, check_header, replay_actions
from mummy.treasure.actions import fmt, parse
from mummy.treasure.content import ROLLS, sites
from mummy.treasure.game import Seat, TreasureGame
from mummy.treasure.odds import odds_many

RECORD_FORMAT: Final = "mummy.treasure.record"
SNAPSHOT_FORMAT: Final = "mummy.treasure.state"
VERSION: Final = 1


def to_record(game: TreasureGame) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": VERSION,
        "seed": game.seed,
        "seats": [{"name": s.name, "site": s.site} for s in game.seats],
        "movable": game.movable,
        "first": game.first,
        "actions": [{"player": p, "action": fmt(a, game.grid(p))} for p, a in game.history],
    }
    if game.is_over:
        out["final"] = {"squares": game.scores(), "places": game.places(), "turns": list(game.state.turns)}
    return out


def dumps_record(game: TreasureGame) -> str:
    return json.dumps(to_record(game), indent=1)


def replay_record(obj: Any) -> ReplayResult[TreasureGame]:
    """Replay with every action checked; malformed records raise :class:`RecordError`."""
    seed = check_header(obj, RECORD_FORMAT, VERSION, "Treasure")
    seats_obj = obj.get("seats")
    if not isinstance(seats_obj, list) or not seats_obj:
        raise RecordError("'seats' must be a non-empty list")
    seats = []
    for i, s in enumerate(seats_obj):
        if not isinstance(s, dict) or not isinstance(s.get("site"), str) \
                or not isinstance(s.get("name", ""), str):
            raise RecordError(f"seat {i}: expected {{'name': TEXT, 'site': TEXT}}")
        if s["site"] not in sites():
            raise RecordError(f"seat {i}: unknown site {s['site']!r}")
        seats.append(Seat(s.get("name", f"player {i + 1}"), s["site"]))
    movable, first = obj.get("movable", False), obj.get("first", 0)
    if not isinstance(movable, bool) or not isinstance(first, int) or isinstance(first, bool):
        raise RecordError("'movable' is true/false and 'first' a seat number")
    try:
        game = TreasureGame(seed, seats, movable=movable, first=first)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    def apply_text(player: int, text: str) -> None:
        game.apply(player, parse(text, game.grid(player)))

    error = replay_actions(obj.get("actions"), len(seats), apply_text)
    if error:
        return ReplayResult(game, error)
    final = obj.get("final")
    if final is not None:
        if not game.is_over:
            return ReplayResult(game, RecordError("the record claims a final result, but its actions "
                                                  "do not finish the game"))
        got = to_record(game)["final"]
        if final != got:
            return ReplayResult(game, RecordError(f"the record claims {final}; replaying gives {got}"))
    return ReplayResult(game)


def snapshot(game: TreasureGame) -> dict[str, Any]:
    """The public state of the game (nothing about a pile below its top tile)."""
    st = game.state
    rolls_left = ROLLS - st.rolls
    tops = {p: game.top(p) for p in game.pile_names}
    visible = [t.needs for t in tops.values() if t is not None]
    chances = odds_many(visible, st.dice or None, rolls_left if st.dice else None) if not st.over else []
    chance_of = {o.needs: o for o in chances}
    piles_out = []
    for name, tile in tops.items():
        item: dict[str, Any] = {"pile": name, "left": game.pile_left(name), "top": None}
        if tile is not None:
            item["top"] = {"tile": tile.id, "needs": tile.needs, "rows": tile.rows, "cols": tile.cols,
                           "fits": not st.over and game.can_fit(st.current, tile)}
            if tile.needs in chance_of:
                o = chance_of[tile.needs]
                item["top"]["chance"] = {"fraction": f"{o.chance.numerator}/{o.chance.denominator}",
                                         "decimal": round(o.decimal, 6), "reroll": o.reroll}
        piles_out.append(item)
    seats_out = []
    for i, seat in enumerate(game.seats):
        board = game.boards[i]
        g = board.grid
        seats_out.append({
            "name": seat.name,
            "site": seat.site,
            "squares": board.squares.bit_count(),
            "covered": [g.square_name(q) for q in iter_bits(st.covered[i])],
            "tiles": [{"tile": p.tile, "square": g.square_name(p.square), "orient": p.orient}
                      for p in st.placed[i]],
            "turns": st.turns[i],
        })
    return {
        "format": SNAPSHOT_FORMAT,
        "version": VERSION,
        "movable": game.movable,
        "current": st.current,
        "rolls": st.rolls,
        "dice": st.dice,
        "piles": piles_out,
        "seats": seats_out,
        "over": st.over,
        "result": ({"reason": st.reason, "winner": st.winner, "squares": game.scores(),
                    "places": game.places()} if st.over else None),
    }


__all__ = ["RecordError", "ReplayResult", "dumps_record", "replay_record", "snapshot", "to_record"]
