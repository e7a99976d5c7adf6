"""The Tomb sheet's panels around the map, for print: the Tile Table, the Monster Log,
the Backpack, the Rounds Table, the Mummy and the scoring table (rulebook "Game Sheet
Anatomy" A, C–F; rulings T2, T4, T5, T7).

Each panel is drawn at a given place on the sheet (render/print_tomb.py lays them out)
and holds the boxes and circles a paper player fills in, plus the one-line rule it needs,
so the sheet can be played with the rulebook closed.
"""

from __future__ import annotations

from typing import Final

from mummy.render import print_icons as icons
from mummy.render.svg import INK, Svg
from mummy.tomb.content import ITEMS, MapSpec, TileShape

GREY: Final = "#333333"
#: The scoring lines of T7, with the rule each states.
SCORING: Final = (
    ("Oozes × skeletons", "defeated × defeated"),
    ("Zombies", "1/2/3/4: 5/10/20/30"),
    ("Golems", "1/2/3/4: 5/10/20/30"),
    ("Mimics", "4 each"),
    ("Mummy", "sum of the hits"),
    ("Magic items", "5 each collected"),
    ("Leftovers", "1 each (see below)"),
    ("Entrances", "1/2/3/4: 0/5/15/30"),
    ("Penalties", "−3 each (see below)"),
)
MULTIPLIERS: Final = (1, 1, 2, 2, 3, 3)


def section(svg: Svg, x: float, y: float, w: float, title: str, note: str = "") -> None:
    """A panel's title with a rule under it, and its note in small type."""
    svg.text(x, y + 9, title, 9.5, bold=True)
    svg.line(x, y + 12, x + w, y + 12, 0.8)
    if note:
        svg.text(x + w, y + 9, note, 5.8, anchor="end", fill=GREY)


def mark_circle(svg: Svg, cx: float, cy: float, r: float = 4.0) -> None:
    """A circle to tick: a paper player marks it."""
    svg.circle(cx, cy, r, fill="#ffffff", stroke=INK, stroke_width=0.7)


def draw_tile_table(svg: Svg, tiles: dict[str, TileShape], x: float, y: float, w: float) -> None:
    """The twelve shapes by die value and column, each with a circle to mark it (T2.3),
    the bonus die a finished row gives (T2.4: the opposite face), the key a finished
    column gives, and the room that takes two dice (T2.2)."""
    svg.open("g", class_="tile-table")
    section(svg, x, y, w, "TILE TABLE", "mark a shape the first time (T2.3)")
    box_w, row_h, top = 56.0, 47.0, y + 28
    svg.text(x + 22 + box_w / 2, top - 3, "a", 8, bold=True, anchor="middle")
    svg.text(x + 82 + box_w / 2, top - 3, "b", 8, bold=True, anchor="middle")
    svg.text(x + w - 20, top - 3, "row done", 6.5, anchor="middle", fill=GREY)
    for value in range(1, 7):
        ry = top + (value - 1) * row_h
        icons.die_face(svg, x, ry + row_h / 2 - 9, 16, value)
        for col, bx in (("a", x + 22), ("b", x + 82)):
            tile = tiles[f"{value}{col}"]
            draw_shape_box(svg, tile, bx, ry + 2, box_w, row_h - 4)
        mark_circle(svg, x + w - 34, ry + row_h / 2)
        svg.text(x + w - 27, ry + row_h / 2 + 2.5, "+", 8, bold=True)
        icons.die_face(svg, x + w - 20, ry + row_h / 2 - 7, 14, 7 - value)
    cy = top + 6 * row_h + 10
    for bx in (x + 22, x + 82):
        mark_circle(svg, bx + 8, cy)
        svg.text(bx + 15, cy + 2.5, "column: +", 6.5)
        icons.finding(svg, bx + 47, cy, 12, "key", "")
    room = tiles["room"]
    ry = cy + 10
    icons.shape(svg, x + 24, ry, 9, room.cells, room.openings)
    svg.text(x + 58, ry + 10, "Room: uses two dice", 7.5, bold=True)
    svg.text(x + 58, ry + 20, "of any values (T2.2)", 7.5)
    svg.close()


def draw_shape_box(svg: Svg, tile: TileShape, x: float, y: float, w: float, h: float) -> None:
    """One shape of the table, centred in its box, with its id, name and mark circle."""
    cell = 10.0
    cols = 1 + max(cx for cx, _ in tile.cells)
    rows = 1 + max(cy for _, cy in tile.cells)
    sx = x + (w - cols * cell) / 2
    sy = y + (h - 9 - rows * cell) / 2
    svg.open("g", class_="shape", data_shape=tile.id)
    svg.rect(x, y, w, h, stroke="#9a9a9a", stroke_width=0.5, rx=3)
    icons.shape(svg, sx, sy, cell, tile.cells, tile.openings)
    svg.text(x + 3, y + h - 3, f"{tile.id} {tile.name}", 5.8, fill=GREY)
    mark_circle(svg, x + w - 6, y + h - 6, 3.6)
    svg.close()


def monster_rows(spec: MapSpec) -> list[tuple[str, int | None, list[tuple[str, str, str]]]]:
    """The Monster Log's rows: a label, the die that defeats them (None: a key opens
    them), and per entry its picture and reward, from the map's log (T9, T10)."""
    sarcophagi = sum(1 for room in spec.rooms if room.finding == "sarcophagus")
    golems = [("golem+gem", colour, f"+{coins}") for colour, coins in spec.golem_coins.items()]
    return [
        ("Oozes", 1, [("ooze", "", f"+{c}") for c in spec.log["ooze"]]),
        ("Skeletons", 2, [("skeleton", "", f"+{c}") for c in spec.log["skeleton"]]),
        ("Sarcophagi (key)", None, [("sarcophagus", "", "") for _ in range(sarcophagi)]),
        ("Zombies", 3, [("zombie", "", f"+{c}") for c in spec.log["zombie"]]),
        ("Golems + gems", 4, golems),
        ("Mimics (+ key)", 5, [("mimic", "", f"+{c}") for c in spec.log["mimic"]]),
    ]


def draw_monster_log(svg: Svg, spec: MapSpec, x: float, y: float, w: float) -> None:
    """Oozes over their skeletons, sarcophagi over their zombies, golems with their gems
    by colour, mimics: each with the coins its defeat gives (T5.2–T5.5)."""
    svg.open("g", class_="monster-log")
    section(svg, x, y, w, "MONSTER LOG", "circle when found, left to right; cross off when defeated, "
            "take the coins and fill one !")
    row_h, top, pitch = 25.0, y + 18, 34.0
    for r, (label, die, entries) in enumerate(monster_rows(spec)):
        ry = top + r * row_h
        if die is None:
            icons.finding(svg, x + 6, ry + row_h / 2, 12, "key", "")
        else:
            icons.die_face(svg, x, ry + row_h / 2 - 6, 12, die)
        svg.text(x + 16, ry + row_h / 2 + 3, label, 7.8, bold=True)
        for i, (kind, what, reward) in enumerate(entries):
            cx = x + 92 + i * (pitch * 2 if kind == "golem+gem" else pitch)
            draw_log_entry(svg, cx, ry + 2, row_h - 4, kind, what, reward)
    svg.close()


def draw_log_entry(svg: Svg, x: float, y: float, h: float, kind: str, what: str, reward: str) -> None:
    """One entry of the Monster Log: a box with the monster and its reward."""
    if kind == "golem+gem":
        svg.rect(x, y, 62, h, stroke=INK, stroke_width=0.6, rx=3, data_log=kind, data_colour=what)
        icons.finding(svg, x + 11, y + h / 2, h * 0.82, "golem", what)
        icons.finding(svg, x + 32, y + h / 2, h * 0.82, "gem", what)
        svg.text(x + 59, y + h - 4, reward, 7, bold=True, anchor="end")
        return
    svg.rect(x, y, 30, h, stroke=INK, stroke_width=0.6, rx=3, data_log=kind)
    draw = {"skeleton": icons.skeleton, "zombie": icons.zombie}.get(kind)
    if draw is not None:
        draw(svg, x + 11, y + h / 2, h * 0.8)
    else:
        icons.finding(svg, x + 11, y + h / 2, h * 0.8, kind, what)
    svg.text(x + 28, y + h - 4, reward, 7, bold=True, anchor="end")


def draw_backpack(svg: Svg, spec: MapSpec, x: float, y: float, w: float) -> None:
    """Keys (the key track), coins (the coin track; beyond it coins are lost, T5.2) with
    what they buy (T4.3), and the four magic items with three uses each (T6)."""
    svg.open("g", class_="backpack")
    section(svg, x, y, w, "BACKPACK", "circle when gained, cross off when spent")
    svg.text(x, y + 27, "Keys", 7.8, bold=True)
    for i in range(spec.key_track):
        cx = x + 40 + i * 20
        svg.circle(cx, y + 24, 8, stroke=INK, stroke_width=0.7, data_track="key")
        icons.finding(svg, cx, y + 24, 11, "key", "")
    svg.text(x, y + 44, f"Coins (at most {spec.coin_track}; more are lost)", 7.8, bold=True)
    per_row = 10
    for i in range(spec.coin_track):
        cx = x + 8 + (i % per_row) * 17.5
        cy = y + 54 + (i // per_row) * 14
        svg.circle(cx, cy, 6.3, stroke=INK, stroke_width=0.6, data_track="coin")
        svg.text(cx, cy + 2.2, str(i + 1), 5.8, anchor="middle", fill=GREY)
    ty = y + 54 + ((spec.coin_track + per_row - 1) // per_row) * 14
    svg.text(x, ty, "coins: 1 turns a die ±1 (6+1 = 1) · 2 roll a die · 3 any value", 5.9, fill=GREY)
    for i, name in enumerate(ITEMS):
        iy = ty + 14 + i * 14.5
        icons.finding(svg, x + 6, iy, 13, "item", name)
        svg.text(x + 16, iy + 2.8, icons.ITEM_NAMES[name], 7.8, bold=True)
        svg.text(x + 76, iy + 2.8, "uses", 6, fill=GREY)
        for u in range(3):
            svg.rect(x + 96 + u * 13, iy - 5, 10, 10, stroke=INK, stroke_width=0.7, data_track=f"{name}-use")
    svg.close()


def draw_rounds(svg: Svg, x: float, y: float) -> None:
    """Twenty rounds of four dice slots: the two rolled, then bonus and bought (T4.1)."""
    svg.open("g", class_="rounds")
    section(svg, x, y, 184, "ROUNDS", "write the dice, cross off when used")
    for r in range(20):
        col, row = divmod(r, 10)
        rx, ry = x + col * 96, y + 18 + row * 14
        svg.text(rx + 12, ry + 8.5, f"R{r + 1}", 7, bold=True, anchor="end")
        for s in range(4):
            svg.rect(rx + 16 + s * 16, ry, 13, 11, stroke=INK, stroke_width=0.6 if s < 2 else 0.5,
                     stroke_dasharray=None if s < 2 else "1.5 1", data_round=r + 1)
    svg.close()


def draw_mummy(svg: Svg, x: float, y: float, w: float) -> None:
    """Six boxes of three alert marks; a box opens when its three marks are filled, and a
    6 records (21 − round) × its multiplier in the first open, empty box (T5.6)."""
    svg.open("g", class_="mummy")
    section(svg, x, y, w, "THE MUMMY")
    svg.text(x, y + 22, "A 6 hits it: write (21 − round) × m", 6.8, fill=GREY)
    svg.text(x, y + 30, "in the first open, empty box.", 6.8, fill=GREY)
    bw, gap = 54.0, (w - 3 * 54.0) / 2
    for k in range(6):
        col, row = k % 3, k // 3
        bx, by = x + col * (bw + gap), y + 38 + row * 60
        svg.rect(bx, by, bw, 54, stroke=INK, stroke_width=0.9, rx=3, data_mummy_box=k + 1)
        for m in range(3):
            cx = bx + 10 + m * 17
            svg.circle(cx, by + 10, 6, stroke=INK, stroke_width=0.7)
            svg.text(cx, by + 13.2, "!", 8.5, bold=True, anchor="middle")
        svg.rect(bx + 6, by + 20, bw - 12, 20, stroke=INK, stroke_width=0.7, fill="#ffffff")
        svg.text(bx + bw / 2, by + 50, f"× {MULTIPLIERS[k]}", 7.5, bold=True, anchor="middle")
    svg.close()


def draw_scoring(svg: Svg, x: float, y: float, w: float) -> None:
    """The final scoring lines of T7, each with its rule and a box, and the total."""
    svg.open("g", class_="scoring")
    section(svg, x, y, w, "FINAL SCORING")
    for i, (label, rule) in enumerate(SCORING):
        ly = y + 24 + i * 13.6
        svg.text(x, ly, label, 7.6, bold=True)
        svg.text(x, ly + 5.6, rule, 5.4, fill=GREY)
        svg.rect(x + w - 34, ly - 8, 34, 12, stroke=INK, stroke_width=0.6, data_score=label)
    ty = y + 24 + len(SCORING) * 13.6 + 4
    svg.text(x, ty, "TOTAL", 9, bold=True)
    svg.rect(x + w - 40, ty - 10, 40, 15, stroke=INK, stroke_width=1.4, data_score="total")
    svg.text(x, ty + 11, "Leftovers: circled monsters not defeated, unopened", 5.6, fill=GREY)
    svg.text(x, ty + 17.5, "sarcophagi, gems not crossed off, unspent keys.", 5.6, fill=GREY)
    svg.text(x, ty + 24, "Penalties: open openings, open entrances, open rooms.", 5.6, fill=GREY)
    svg.close()


__all__ = ["draw_backpack", "draw_monster_log", "draw_mummy", "draw_rounds", "draw_scoring", "draw_tile_table"]
