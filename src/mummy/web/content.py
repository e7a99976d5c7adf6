"""The games' content as the browser needs it: what a sheet or a site looks like before
anyone plays, and the shapes of the tiles in every orientation (for previews).

Everything comes from the packaged, validated content files; the browser never has to
know the file formats or repeat the orientation rules (T2.2): it gets each orientation's
squares and openings relative to the notation's anchor.
"""

from __future__ import annotations

from typing import Any

from mummy.core.grid import Grid
from mummy.core.polyomino import TRANSFORMS, orientations
from mummy.tomb.board import DIG_VARIANTS
from mummy.tomb.content import TABLE_SHAPES, MapSpec, map_ids, map_spec, tile_table
from mummy.tomb.rules import ALERTS, BUY_COST, CHOOSE_COST, ROUNDS, ROW_BONUS, ROW_SIZE, TURN_COST
from mummy.tomb.scoring import ACHIEVEMENT_MIN, ACHIEVEMENTS, LINE_LABELS, LINES
from mummy.treasure.content import DICE, ROLLS, SYMBOLS, piles, sites

#: What each of T7's achievements needs, in words (besides a total of ACHIEVEMENT_MIN).
TOMB_ACHIEVEMENT_NEEDS: dict[str, str] = {
    "Master of the Undead": "every ooze, skeleton and zombie of the map defeated",
    "Magical Warden": "every golem defeated and all four magic items collected",
    "Treasure Hunter": "every mimic defeated, the key track filled once, and the Skeleton Key collected",
    "The Mapmaker": "no penalty points: no open opening, entrance or room",
    "Mummy Slayer": "all six hits on the Mummy",
}


def _squares(grid: Grid, mask: int) -> list[str]:
    return [grid.square_name(sq) for sq in grid.squares() if mask >> sq & 1]


def tomb_shapes() -> dict[str, Any]:
    """Every Tile Table shape and the room: name, and per orientation the squares and
    openings as offsets from the anchor (the top-most, then left-most square)."""
    out: dict[str, Any] = {}
    for shape in tile_table().values():
        named = orientations(shape.cells, shape.openings)
        distinct: dict[str, Any] = {}
        aliases: dict[str, str] = {}
        for name in TRANSFORMS:
            o = named[name]
            aliases[name] = o.name
            if o.name in distinct:
                continue
            ax, ay = o.anchor
            distinct[o.name] = {
                "cells": sorted([x - ax, y - ay] for x, y in o.cells),
                "openings": sorted([x - ax, y - ay, side] for (x, y), side in o.marks),
            }
        out[shape.id] = {"name": shape.name, "orients": distinct, "aliases": aliases}
    return out


def tomb_map_content(map_id: str) -> dict[str, Any]:
    """A map as drawn before play: grid, stone, entrances, rooms and every finding."""
    return map_content(map_spec(map_id))


def map_content(spec: MapSpec) -> dict[str, Any]:
    """A validated map as drawn (:func:`tomb_map_content`), registered or not (the editor's)."""
    grid = spec.grid
    name = grid.square_name

    def edge(square: int, side: str) -> str:
        return grid.edge_name(grid.edge(square, side))

    findings: list[dict[str, Any]] = []
    findings += [{"square": name(sq), "kind": "coins", "amount": n} for sq, n in spec.coins.items()]
    findings += [{"square": name(sq), "kind": "key"} for sq in spec.keys]
    findings += [{"square": name(sq), "kind": "ooze", "number": i + 1} for i, sq in enumerate(spec.oozes)]
    findings += [{"square": name(sq), "kind": "golem", "colour": c} for c, sq in spec.golems.items()]
    findings += [{"square": name(sq), "kind": "mimic", "number": i + 1} for i, sq in enumerate(spec.mimics)]
    findings += [{"square": name(sq), "kind": "item", "item": item} for item, sq in spec.items.items()]
    return {
        "id": spec.id,
        "title": spec.title,
        "width": grid.width,
        "height": grid.height,
        "stone": _squares(grid, spec.stone),
        "entrances": [{"square": name(sq), "side": side, "edge": edge(sq, side)} for sq, side in spec.entrances],
        "rooms": [{"square": name(r.square), "side": r.side, "opening": edge(r.square, r.side),
                   "finding": r.finding, "colour": r.colour} for r in spec.rooms],
        "findings": findings,
        "log": {k: list(v) for k, v in spec.log.items()},
        "golem_coins": dict(spec.golem_coins),
        "key_track": spec.key_track,
        "coin_track": spec.coin_track,
    }


def tomb_content() -> dict[str, Any]:
    """All the Tomb's content for the browser: maps, shapes, the Tile Table layout (its
    rows, each the two shapes of a die value) and the rules' constants the page shows."""
    return {
        "maps": {m: tomb_map_content(m) for m in map_ids()},
        "shapes": tomb_shapes(),
        "table": [list(TABLE_SHAPES[i:i + 2]) for i in range(0, len(TABLE_SHAPES), 2)],
        "rules": {"rounds": ROUNDS, "alerts": ALERTS, "row_size": ROW_SIZE, "dig_sides": list(DIG_VARIANTS),
                  "costs": {"up": TURN_COST, "down": TURN_COST, "buy": BUY_COST, "choose": CHOOSE_COST},
                  "row_bonus": list(ROW_BONUS)},
        "results": tomb_results(),
    }


def tomb_results() -> dict[str, Any]:
    """How the Tomb's final result reads (T7): the score lines in the engine's order, each
    ``[key, label]`` with the engine's label (every page that shows a line reads it from
    here, so they cannot disagree), the total last (``total``, the result's ``scores``);
    what a total counts (``units``: one, many); and the achievements the engine awards,
    each ``[name, needs]``, with the total each also needs."""
    return {
        "rule": "T7",
        "lines": [[key, LINE_LABELS[key]] for key in LINES] + [["total", "Total"]],
        "units": {"total": ["point", "points"]},
        "achievements": [[name, TOMB_ACHIEVEMENT_NEEDS[name]] for name in ACHIEVEMENTS],
        "achievement_min": ACHIEVEMENT_MIN,
    }


def treasure_results() -> dict[str, Any]:
    """How Treasure's final result reads (R4; most squares covered wins by R4.2): the lines
    of the results table, each ``[key, label]``, the total last (``total``, the result's
    ``squares``); and what the total and the turns count (``units``: one, many).
    Treasure has no achievements."""
    return {
        "rule": "R4.2",
        "lines": [["site", "Site"], ["tiles", "Tiles placed"], ["turns", "Turns taken"],
                  ["filled", "Filled the site (R4.1)"], ["total", "Squares covered"]],
        "units": {"total": ["square covered", "squares covered"], "turns": ["turn", "turns"]},
        "achievements": [],
        "achievement_min": None,
    }


def treasure_content() -> dict[str, Any]:
    """All of Treasure's content for the browser: the sites' shapes, the piles and the
    rules' constants the page shows (the symbols in their canonical order)."""
    return {
        "results": treasure_results(),
        "rules": {"rolls": ROLLS, "dice": DICE, "symbols": SYMBOLS},
        "sites": {
            s.name: {"rows": s.grid.height, "cols": s.grid.width, "squares": _squares(s.grid, s.squares)}
            for s in sites().values()
        },
        "piles": [
            {"pile": p.name, "rows": p.rows, "cols": p.cols, "needs": p.need_shape,
             "tiles": [{"tile": t.id, "needs": t.needs, "rows": t.rows, "cols": t.cols} for t in p.tiles]}
            for p in piles().values()
        ],
    }
