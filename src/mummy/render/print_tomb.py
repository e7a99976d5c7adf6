"""The Tomb's printable player sheet as SVG: the whole paper sheet on one page.

A pure function of a map (:class:`~mummy.tomb.content.MapSpec`), the Tile Table, the
paper and an optional seed: the map with stone, rooms, entrances and findings; the Tile
Table with its rewards; the Monster Log; the Backpack; the Mummy's boxes; the Rounds
Table; the scoring table; the map's name and a seed line (rulebook "Game Sheet Anatomy").
The PDF is made from this SVG (render/pdf.py), so the two never differ.

The sheet is laid out once on a box of ``SHEET`` points and scaled to fit the paper's
printable area (A4 or US Letter), so both papers hold the same sheet. Every square,
room, entrance and finding of the map carries ``data-*`` attributes naming it, which the
tests compare with the map, and which a screen reader's title text repeats.
"""

from __future__ import annotations

from typing import Final

from mummy.core.grid import column_name
from mummy.render import print_icons as icons
from mummy.render.print_tomb_panels import (
    draw_backpack,
    draw_monster_log,
    draw_mummy,
    draw_rounds,
    draw_scoring,
    draw_tile_table,
)
from mummy.render.svg import INK, PAPERS, Svg, document
from mummy.tomb.content import MapSpec, Room, TileShape

#: The sheet's own box in points, before it is scaled to the paper.
SHEET: Final = (567.0, 816.0)
#: The blank margin every printer leaves, in points (about 7 mm).
MARGIN: Final = 18.0
#: Where the map goes on the sheet: x, y, width, height.
MAP_BOX: Final = (0.0, 40.0, 372.0, 372.0)
STONE_FILL: Final = "#d9d9d9"
HATCH: Final = "#7a7a7a"
WALL: Final = 2.4  # the thick lines: border, blocks, rooms


def tomb_sheet(spec: MapSpec, tiles: dict[str, TileShape], paper: str = "a4", seed: int | None = None) -> str:
    """The player sheet of ``spec`` as a standalone SVG document sized to ``paper``."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; papers: {', '.join(PAPERS)}")
    width, height = PAPERS[paper]
    scale = min((width - 2 * MARGIN) / SHEET[0], (height - 2 * MARGIN) / SHEET[1])
    ox = (width - SHEET[0] * scale) / 2
    oy = (height - SHEET[1] * scale) / 2
    body = Svg()
    body.open("g", transform=f"translate({ox:.3f} {oy:.3f}) scale({scale:.5f})", class_="sheet")
    draw_header(body, spec, seed)
    draw_map(body, spec, *MAP_BOX)
    draw_legend(body, 0.0, 414.0, 372.0)
    draw_tile_table(body, tiles, 384.0, 40.0, 183.0)
    draw_monster_log(body, spec, 0.0, 462.0, 372.0)
    draw_backpack(body, spec, 384.0, 462.0, 183.0)
    draw_rounds(body, 0.0, 640.0)
    draw_mummy(body, 196.0, 640.0, 176.0)
    draw_scoring(body, 384.0, 640.0, 183.0)
    body.close()
    return document(width, height, body, f"The Mummy's Tomb: player sheet, {spec.title}",
                    data_map=spec.id, data_paper=paper)


def draw_header(svg: Svg, spec: MapSpec, seed: int | None) -> None:
    """The game's and the map's names, the player's name to write, and the seed line."""
    width = SHEET[0]
    svg.text(0, 15, "THE MUMMY'S TOMB", 17, bold=True)
    svg.text(width, 15, f"{spec.title}  ·  {spec.id}", 11, bold=True, anchor="end", data_role="map-name")
    svg.text(0, 32, "Player:", 9)
    svg.line(36, 33, 200, 33, 0.6)
    if seed is None:
        svg.text(214, 32, "Seed:", 9, data_role="seed")
        svg.line(242, 33, 320, 33, 0.6)
        note = "dice from the companion? write their seed here"
    else:
        svg.text(214, 32, f"Seed: {seed}", 9, bold=True, data_role="seed")
        note = f"the same dice for everyone on it (T4.6): mummy companion tomb --seed {seed}"
    svg.text(width, 32, note, 7, anchor="end", fill="#333333")


def map_geometry(spec: MapSpec, x: float, y: float, w: float, h: float) -> tuple[float, float, float]:
    """The map's grid origin and square size inside its box, with room around it for
    the coordinates (top and left) and the entrance arrows (all four sides)."""
    g = spec.grid
    cell = min((w - 38) / g.width, (h - 34) / g.height)
    gx = x + 28 + ((w - 38) - cell * g.width) / 2
    gy = y + 24
    return gx, gy, cell


def draw_map(svg: Svg, spec: MapSpec, x: float, y: float, w: float, h: float) -> None:
    """The map: squares (stone hatched), walls of the border and the blocks, rooms with
    their findings and openings, entrances with arrows, and the findings on squares."""
    g = spec.grid
    gx, gy, cell = map_geometry(spec, x, y, w, h)
    svg.open("g", class_="map", data_origin=f"{gx:.2f} {gy:.2f}", data_cell=f"{cell:.4f}",
             data_width=g.width, data_height=g.height)
    rooms = {room.square: room for room in spec.rooms}
    for sq in g.squares():
        draw_square(svg, spec, sq, gx, gy, cell, rooms.get(sq))
    draw_coordinates(svg, spec, gx, gy, cell)
    draw_walls(svg, spec, gx, gy, cell)
    for room in spec.rooms:
        draw_room(svg, spec, room, gx, gy, cell)
    for sq, side in spec.entrances:
        draw_entrance(svg, spec, sq, side, gx, gy, cell)
    draw_findings(svg, spec, gx, gy, cell)
    svg.close()


def draw_square(svg: Svg, spec: MapSpec, sq: int, gx: float, gy: float, cell: float, room: Room | None) -> None:
    g = spec.grid
    sx, sy = g.xy(sq)
    name = g.square_name(sq)
    x, y = gx + sx * cell, gy + sy * cell
    if room is not None:
        svg.rect(x, y, cell, cell, fill=STONE_FILL, stroke="none", data_square=name, data_kind="room")
    elif spec.stone >> sq & 1:
        svg.rect(x, y, cell, cell, fill=STONE_FILL, stroke="none", data_square=name, data_kind="stone")
        hatch(svg, x, y, cell)
    else:
        svg.rect(x, y, cell, cell, fill="#ffffff", stroke="#9a9a9a", stroke_width=0.5,
                 data_square=name, data_kind="free")


def hatch(svg: Svg, x: float, y: float, c: float) -> None:
    """Diagonal hatching inside one square (stone), drawn line by line so it needs no
    SVG pattern (which svglib does not draw)."""
    parts = []
    for k in range(1, 4):
        s = k * c / 2
        x1, y1 = x + max(0.0, s - c), y + min(s, c)
        x2, y2 = x + min(s, c), y + max(0.0, s - c)
        parts.append(f"M{x1:.2f} {y1:.2f}L{x2:.2f} {y2:.2f}")
    svg.path("".join(parts), stroke=HATCH, stroke_width=c * 0.03)


def draw_coordinates(svg: Svg, spec: MapSpec, gx: float, gy: float, cell: float) -> None:
    g = spec.grid
    size = min(9.0, cell * 0.34)
    for col in range(g.width):
        svg.text(gx + (col + 0.5) * cell, gy - 13, column_name(col), size, bold=True, anchor="middle")
    for row in range(g.height):
        svg.text(gx - 19, gy + (row + 0.5) * cell + size * 0.36, str(row + 1), size, bold=True, anchor="middle")


def _neighbour_stone(spec: MapSpec, sq: int, side: str) -> bool | None:
    """Whether the square across ``side`` is stone (None: off the grid)."""
    g = spec.grid
    sx, sy = g.xy(sq)
    dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[side]
    if not g.on_grid(sx + dx, sy + dy):
        return None
    return bool(spec.stone >> g.square(sx + dx, sy + dy) & 1)


def draw_walls(svg: Svg, spec: MapSpec, gx: float, gy: float, cell: float) -> None:
    """The thick lines a tile may rest against: the map's border and the edges between
    free and stone squares, but the entrances and the rooms' openings (T1.2, T1.3)."""
    g = spec.grid
    gaps = {g.edge(sq, side) for sq, side in spec.entrances} | {g.edge(r.square, r.side) for r in spec.rooms}
    drawn: set[int] = set()
    parts = []
    for sq in g.squares():
        sx, sy = g.xy(sq)
        stone = bool(spec.stone >> sq & 1)
        for side in "NESW":
            edge = g.edge(sq, side)
            across = _neighbour_stone(spec, sq, side)
            if edge in gaps or edge in drawn or across is stone:
                continue  # an opening, drawn already, or between two squares of one kind
            drawn.add(edge)
            x1, y1, x2, y2 = icons.side_line(gx + sx * cell, gy + sy * cell, cell, side)
            parts.append(f"M{x1:.2f} {y1:.2f}L{x2:.2f} {y2:.2f}")
    svg.path("".join(parts), stroke=INK, stroke_width=WALL, stroke_linecap="square", class_="walls")


def draw_room(svg: Svg, spec: MapSpec, room: Room, gx: float, gy: float, cell: float) -> None:
    """A room: a small white chamber in the stone, walled in black on three sides, its
    opening a dashed gap with an arrow into the room, and its finding inside (T1.3)."""
    g = spec.grid
    sx, sy = g.xy(room.square)
    x, y = gx + sx * cell, gy + sy * cell
    name = g.square_name(room.square)
    svg.open("g", class_="room", data_room=name, data_side=room.side, data_finding=room.finding,
             data_colour=room.colour)
    svg.add("title", f"{name}: a room with a {room.colour + ' ' if room.colour else ''}{room.finding}, "
            f"its opening on the {room.side} side")
    svg.rect(x, y, cell, cell, fill="#ffffff", stroke="none")
    for side in "NESW":
        x1, y1, x2, y2 = icons.side_line(x, y, cell, side)
        if side == room.side:
            svg.line(x1, y1, x2, y2, 0.8, stroke_dasharray=f"{cell * 0.1:.2f} {cell * 0.08:.2f}")
        else:
            svg.line(x1, y1, x2, y2, WALL * 1.5, stroke_linecap="square")
    kind, what = ("gem", room.colour or "") if room.finding == "gem" else ("sarcophagus", "")
    icons.finding(svg, x + cell / 2, y + cell / 2, cell * 0.74, kind, what)
    svg.close()


def draw_entrance(svg: Svg, spec: MapSpec, sq: int, side: str, gx: float, gy: float, cell: float) -> None:
    """An entrance: a gap in the border with an arrow pointing in from outside (T1.3)."""
    g = spec.grid
    sx, sy = g.xy(sq)
    x, y = gx + sx * cell, gy + sy * cell
    x1, y1, x2, y2 = icons.side_line(x, y, cell, side)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    out = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[side]
    a, b = cell * 0.28, cell * 0.3  # arrow's length and half width
    tip = (mx + out[0] * 1.5, my + out[1] * 1.5)
    base = (mx + out[0] * (1.5 + a), my + out[1] * (1.5 + a))
    across = (out[1], out[0])
    name = g.square_name(sq)
    svg.open("g", class_="entrance", data_entrance=name, data_side=side)
    svg.add("title", f"{name} {side}: an entrance")
    svg.line(x1, y1, x2, y2, 0.8, stroke_dasharray=f"{cell * 0.1:.2f} {cell * 0.08:.2f}")
    svg.polygon([tip, (base[0] + across[0] * b, base[1] + across[1] * b),
                 (base[0] - across[0] * b, base[1] - across[1] * b)], fill=INK)
    svg.close()


def draw_findings(svg: Svg, spec: MapSpec, gx: float, gy: float, cell: float) -> None:
    """Each finding on a free square (T5.1), in a group that names it."""
    g = spec.grid
    found: list[tuple[int, str, str | int]] = [(sq, "coins", n) for sq, n in spec.coins.items()]
    found += [(sq, "key", "") for sq in spec.keys]
    found += [(sq, "ooze", "") for sq in spec.oozes]
    found += [(sq, "mimic", "") for sq in spec.mimics]
    found += [(sq, "golem", colour) for colour, sq in spec.golems.items()]
    found += [(sq, "item", name) for name, sq in spec.items.items()]
    for sq, kind, what in sorted(found, key=lambda f: f[0]):
        sx, sy = g.xy(sq)
        name = g.square_name(sq)
        svg.open("g", class_="finding", data_square=name, data_finding=kind,
                 data_amount=what if kind == "coins" else None,
                 data_colour=what if kind == "golem" else None, data_item=what if kind == "item" else None)
        svg.add("title", f"{name}: {finding_words(kind, what)}")
        icons.finding(svg, gx + (sx + 0.5) * cell, gy + (sy + 0.5) * cell, cell * 0.72, kind, what)
        svg.close()


def finding_words(kind: str, what: str | int) -> str:
    if kind == "coins":
        return f"{what} coin{'s' if what != 1 else ''}"
    if kind == "golem":
        return f"the {what} golem"
    if kind == "item":
        return f"the {icons.ITEM_NAMES[str(what)]}"
    return f"a {icons.FINDING_NAMES[kind]}"


def draw_legend(svg: Svg, x: float, y: float, w: float) -> None:
    """What the map's pictures mean, in two rows under the map."""
    rows: tuple[tuple[tuple[str, str | int, str], ...], ...] = (
        (("stone", "", "stone"), ("coins", 2, "coins"), ("key", "", "key"), ("ooze", "", "ooze"),
         ("mimic", "", "mimic"), ("sarcophagus", "", "sarcophagus")),
        (("golem", "red", "golem"), ("gem", "red", "gem"), ("item", "wand", "Wand"),
         ("item", "shovel", "Shovel"), ("item", "hammer", "Hammer"), ("item", "skeleton-key", "Skeleton Key")),
    )
    step = w / 6
    svg.open("g", class_="legend")
    for r, row in enumerate(rows):
        for i, (kind, what, label) in enumerate(row):
            cx, cy = x + 8 + i * step, y + 7 + r * 14
            if kind == "stone":
                svg.rect(cx - 6, cy - 6, 12, 12, fill=STONE_FILL, stroke=INK, stroke_width=1.2)
                hatch(svg, cx - 6, cy - 6, 12)
            else:
                icons.finding(svg, cx, cy, 13, kind, what)
            svg.text(cx + 10, cy + 2.8, label, 7.2)
    draw_key_line(svg, x + 8, y + 36)
    svg.close()


def draw_key_line(svg: Svg, x: float, y: float) -> None:
    """The marks that are lines and shapes: entrance, opening, and the colours' shapes."""
    svg.polygon([(x, y + 3), (x - 4, y - 4), (x + 4, y - 4)], fill=INK)
    svg.text(x + 10, y + 2.5, "entrance", 7.2)
    svg.line(x + 48, y - 1, x + 62, y - 1, 0.8, stroke_dasharray="2 1.6")
    svg.text(x + 66, y + 2.5, "opening of an entrance or a room", 7.2)
    svg.text(x + 196, y + 2.5, "colours:", 7.2)
    for i, colour in enumerate(icons.COLOUR_SHAPE):
        icons.colour_shape(svg, x + 238 + i * 31, y - 0.5, 11, colour)
        svg.text(x + 245 + i * 31, y + 2.5, colour, 6)


__all__ = ["MARGIN", "SHEET", "draw_map", "map_geometry", "tomb_sheet"]
