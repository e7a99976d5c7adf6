"""Game records and sheet snapshots as JSON (formats documented in docs/tomb-formats.md).

A *record* is what a game is: the seed, the players (name, map, mode) and the actions
in order. Replaying it reproduces every die and every sheet (T4.6). A *snapshot* is a
read-only picture of one player's sheet for other tools: covered squares with tile
numbers, walls and openings, findings, tracks, dice and score.
"""

from __future__ import annotations

import json
from typing import Any, Final, NamedTuple

from mummy.core.errors import ContentError
from mummy.core.grid import iter_bits
from mummy.core.records import RecordError, ReplayResult, check_header, replay_actions
from mummy.tomb.actions import fmt, parse
from mummy.tomb.content import ITEMS, TABLE_SHAPES, register_map_text
from mummy.tomb.game import PlayerSetup, TombGame, round_dice
from mummy.tomb.scoring import score
from mummy.tomb.sheet import MODES, Sheet

RECORD_FORMAT: Final = "mummy.tomb.record"
SNAPSHOT_FORMAT: Final = "mummy.tomb.sheet"
# Version 2: each seat buys dice from its own stream (T4.6). Version 1 records, where the
# k-th bought die was the same for every seat, still replay under their own rule.
VERSION: Final = 2
SHARED_BUYS_VERSION: Final = 1
SNAPSHOT_VERSION: Final = 1


def to_record(game: TombGame) -> dict[str, Any]:
    """The JSON record of a game: seed, players and actions in order."""
    out: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": SHARED_BUYS_VERSION if game.shared_buys else VERSION,
        "seed": game.seed,
        "players": [{"name": p.name, "map": p.map, "mode": p.mode} for p in game.players],
        "actions": [
            {"player": player, "action": fmt(action, game.maps[player].grid)}
            for player, action in game.history
        ],
    }
    # A custom map (the editor's) travels with its record: replayed elsewhere, its text is
    # registered again and its id, derived from the text, names the same map.
    # The text is the map's own (``MapSpec.text``), not the registry's, which may have let
    # it go since the game began.
    custom = {m.id: m.spec.text for m in game.maps if m.spec.text is not None}
    if custom:
        out["maps"] = custom
    if game.is_over:
        out["final"] = [score(s).total for s in game.sheets]
    return out


def dumps_record(game: TombGame) -> str:
    return json.dumps(to_record(game), indent=1)


def _register_maps(obj: dict[str, Any]) -> None:
    """Register the record's custom maps (``"maps"``: id -> map file text), each checked
    (T10) and its id derived again from its text."""
    maps = obj.get("maps", {})
    if not isinstance(maps, dict):
        raise RecordError("'maps' must be an object: custom map id -> map file text")
    for map_id, text in maps.items():
        if not isinstance(text, str):
            raise RecordError(f"map {map_id!r}: its text must be a string")
        try:
            made = register_map_text(text)
        except ContentError as exc:
            raise RecordError(f"map {map_id!r} is not a valid map: {exc}") from None
        if made != map_id:
            raise RecordError(f"map {map_id!r}: its text is the map {made!r}")


def _players(obj: dict[str, Any]) -> list[PlayerSetup]:
    players = obj.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError("'players' must be a non-empty list")
    out = []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise RecordError(f"player {i} is not an object")
        name, map_id, mode = p.get("name", f"player {i + 1}"), p.get("map", "map1"), p.get("mode", "standard")
        if not all(isinstance(v, str) for v in (name, map_id, mode)):
            raise RecordError(f"player {i}: name, map and mode are strings")
        if mode not in MODES:
            raise RecordError(f"player {i}: unknown mode {mode!r} (T8.2)")
        out.append(PlayerSetup(name, map_id, mode))
    return out


def replay_record(obj: Any) -> ReplayResult[TombGame]:
    """Replay a record with every action checked. Malformed records raise
    :class:`RecordError`; an action that does not replay is reported in the result."""
    seed = check_header(obj, RECORD_FORMAT, (SHARED_BUYS_VERSION, VERSION), "Tomb")
    _register_maps(obj)
    try:
        game = TombGame(seed, _players(obj), shared_buys=obj["version"] == SHARED_BUYS_VERSION)
    except ValueError as exc:
        raise RecordError(str(exc)) from None

    def apply_text(player: int, text: str) -> None:
        game.apply(player, parse(text, game.maps[player].grid))

    error = replay_actions(obj.get("actions"), len(game.players), apply_text, lambda: f", round {game.round}")
    if error:
        return ReplayResult(game, error)
    final = obj.get("final")
    if final is not None:
        got = [score(s).total for s in game.sheets]
        if not game.is_over:
            return ReplayResult(game, RecordError(f"the record claims final scores {final}, "
                                                  "but its actions do not finish the game"))
        if final != got:
            return ReplayResult(game, RecordError(f"the record claims final scores {final}; "
                                                  f"replaying gives {got}"))
    return ReplayResult(game)


def snapshot(game: TombGame, player: int) -> dict[str, Any]:
    """A stable JSON picture of one player's sheet (docs/tomb-formats.md)."""
    s: Sheet = game.sheets[player]
    m = s.map
    # Names looked up in the grid's tables directly: a snapshot names a hundred or so
    # squares and edges, and the server makes one after every move.
    names = _Names(m.grid.square_names(), m.grid.edge_names())
    openings = s.open_openings()
    sc = score(s)
    return {
        "format": SNAPSHOT_FORMAT,
        "version": SNAPSHOT_VERSION,
        "player": player,
        "name": game.players[player].name,
        "map": m.id,
        "mode": s.mode,
        "round": game.round,
        "round_dice": list(round_dice(game.seed, game.round)),
        "phase": s.phase,
        "covered": {names.squares[q]: n for q, n in sorted(s.tile_at().items())},
        "tiles": _tiles(s, names),
        "walls": names.edges_of(s.walls),
        "open_openings": names.edges_of(openings),
        "passages": names.edges_of(s.open_edges() & ~m.connectable & ~openings),
        "entrances": _entrances(s, names),
        "rooms": _rooms(s, names),
        "findings": _findings(s, names),
        "tracks": _tracks(s),
        "dice": {
            "row": [{"slot": i + 1, "value": d.value, "source": d.source, "used": d.used}
                    for i, d in enumerate(s.row)],
            "next_round": list(s.next_bonus),
            "bought": s.buys,
        },
        "score": {"lines": sc.lines, "total": sc.total, "achievements": list(sc.achievements)},
        "events": list(s.events),
    }


class _Names(NamedTuple):
    """The grid's square and edge names, looked up once per snapshot."""

    squares: dict[int, str]
    edges: dict[int, str]

    def edges_of(self, mask: int) -> list[str]:
        return [self.edges[e] for e in iter_bits(mask)]


def _tiles(s: Sheet, names: _Names) -> list[dict[str, Any]]:
    """The tiles in the order placed, numbered from 1, with the squares each covers."""
    out = []
    for n, pid in enumerate(s.tiles, start=1):
        p = s.map.placements[pid]
        out.append({"n": n, "shape": p.shape, "orient": p.orient, "square": names.squares[p.anchor],
                    "squares": [names.squares[q] for q in iter_bits(p.squares)]})
    return out


def _findings(s: Sheet, names: _Names) -> list[dict[str, Any]]:
    """The findings on covered squares (T5.1): what, where, and how many coins or which
    colour or item."""
    m = s.map
    out = []
    for sq in iter_bits(s.covered & m.findings_mask):
        kind, what = m.finding_at[sq]
        item: dict[str, Any] = {"square": names.squares[sq], "kind": kind}
        if kind == "coins":
            item["amount"] = what
        elif kind in ("golem", "item"):
            item["colour" if kind == "golem" else "item"] = what
        out.append(item)
    return out


def _rooms(s: Sheet, names: _Names) -> list[dict[str, Any]]:
    """Each room of the map: its opening connected, closed or open, and whether its
    finding is collected (T3.4)."""
    m = s.map
    # Each of these walks the sheet: once per snapshot, not once per room.
    connected, closed = s.connected_rooms(), s.closed_rooms()
    out = []
    for i, room in enumerate(m.spec.rooms):
        e = m.grid.edge(room.square, room.side)
        state = "connected" if connected >> e & 1 else "closed" if closed >> e & 1 else "open"
        out.append({"square": names.squares[room.square], "opening": names.edges[e], "finding": room.finding,
                    "colour": room.colour, "state": state, "collected": bool(s.rooms_found >> i & 1)})
    return out


def _entrances(s: Sheet, names: _Names) -> list[dict[str, Any]]:
    """Each entrance of the map: connected, closed or open, and which one the dungeon
    started from (T3.2)."""
    m = s.map
    # Each of these walks the sheet: once per snapshot, not once per entrance.
    connected, closed = s.connected_entrances(), s.closed_entrances()
    out = []
    for sq, side in m.spec.entrances:
        e = m.grid.edge(sq, side)
        state = "connected" if connected >> e & 1 else "closed" if closed >> e & 1 else "open"
        out.append({"edge": names.edges[e], "state": state, "start": e == s.start})
    return out


def _tracks(s: Sheet) -> dict[str, Any]:
    """The sheet's tracks: coins, keys, items, the Tile Table, monsters and the Mummy."""
    return {
        "coins": s.coins,
        "coins_gained": s.coins_gained,
        "keys": s.keys,
        "keys_gained": s.keys_gained,
        "keys_used": s.keys_used,
        "items": {name: {"found": bool(s.items_found >> i & 1), "uses": s.item_uses[i]}
                  for i, name in enumerate(ITEMS)},
        "tile_table": {"marked": [t for i, t in enumerate(TABLE_SHAPES) if s.marks >> i & 1],
                       "rows_paid": [r + 1 for r in range(6) if s.rows_paid >> r & 1],
                       "columns_paid": [c for i, c in enumerate("ab") if s.cols_paid >> i & 1]},
        "monsters": _monsters(s),
        "alerts": s.alerts,
        "mummy_hits": [{"round": r, "points": p} for r, p in s.hits],
    }


def _monsters(s: Sheet) -> dict[str, Any]:
    """Each kind of monster: how many are circled and defeated (T5.3)."""
    return {
        "oozes": {"circled": s.oozes_found, "defeated": s.oozes_defeated},
        "skeletons": {"circled": s.skeletons_circled(),
                      "defeated": [i + 1 for i in range(len(s.map.spec.oozes)) if s.skel_defeated >> i & 1]},
        "sarcophagi": {"circled": s.sarc_found, "opened": s.sarc_opened},
        "zombies": {"circled": s.sarc_opened, "defeated": s.zombies_defeated},
        "golems": {c: {"circled": bool(s.golems_found >> i & 1),
                       "gem": bool(s.gems_found >> i & 1),
                       "defeated": bool(s.golems_defeated >> i & 1)}
                   for i, c in enumerate(s.map.colours)},
        "mimics": {"circled": s.mimics_found, "defeated": s.mimics_defeated},
    }


__all__ = ["RecordError", "ReplayResult", "dumps_record", "replay_record", "snapshot", "to_record"]
