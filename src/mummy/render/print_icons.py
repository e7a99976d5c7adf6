"""The Tomb's pictures for print: findings, monsters, items and the Tile Table's shapes.

Why separate pictures for paper: the browser's (web/static/js/tomb/draw.js) lean on
colour; a sheet printed in black and white must not. Every picture here is a black
outline with a shape of its own, and the four colours of the golems and gems each have
a shape behind them too, as the rulebook's sheet has ("matching shapes behind the golems
and the gems"): red a circle, blue a square, green a triangle, yellow a diamond, each
with its initial. Each function draws one picture centred on ``(cx, cy)`` in a square of
side ``s``.
"""

from __future__ import annotations

import math
from typing import Final

from mummy.core.polyomino import Cell, Mark
from mummy.render.svg import INK, Svg

#: Okabe-Ito colours (as in the browser), light enough to print under black lines.
COLOUR_FILL: Final = {"red": "#f4b38a", "blue": "#8cc4ea", "green": "#8fd9c0", "yellow": "#f6ef8a"}
COLOUR_SHAPE: Final = {"red": "circle", "blue": "square", "green": "triangle", "yellow": "diamond"}
ITEM_NAMES: Final = {"wand": "Wand", "shovel": "Shovel", "hammer": "Hammer", "skeleton-key": "Skeleton Key"}
#: A finding kind in words, for the legend and the titles a screen reader reads.
FINDING_NAMES: Final = {"coins": "coins", "key": "key", "ooze": "ooze", "golem": "golem", "mimic": "mimic",
                        "item": "magic item", "sarcophagus": "sarcophagus", "gem": "gem"}
LIGHT: Final = "#ffffff"


def colour_shape(svg: Svg, cx: float, cy: float, s: float, colour: str, *, letter: bool = True) -> None:
    """The colour's own shape (filled with its colour) and its initial."""
    r = s * 0.46
    fill = COLOUR_FILL[colour]
    kind = COLOUR_SHAPE[colour]
    if kind == "circle":
        svg.circle(cx, cy, r, fill=fill, stroke=INK, stroke_width=s * 0.05)
    elif kind == "square":
        svg.rect(cx - r * 0.9, cy - r * 0.9, r * 1.8, r * 1.8, fill=fill, stroke=INK, stroke_width=s * 0.05)
    elif kind == "triangle":
        svg.polygon([(cx, cy - r * 1.05), (cx + r * 1.05, cy + r * 0.8), (cx - r * 1.05, cy + r * 0.8)],
                    fill=fill, stroke=INK, stroke_width=s * 0.05)
    else:
        svg.polygon([(cx, cy - r * 1.1), (cx + r * 1.1, cy), (cx, cy + r * 1.1), (cx - r * 1.1, cy)],
                    fill=fill, stroke=INK, stroke_width=s * 0.05)
    if letter:
        svg.text(cx, cy + s * 0.14 + (s * 0.08 if kind == "triangle" else 0), colour[0].upper(), s * 0.38,
                 bold=True, anchor="middle")


def coins(svg: Svg, cx: float, cy: float, s: float, amount: int) -> None:
    """A coin: a double ring with the amount."""
    svg.circle(cx, cy, s * 0.4, fill="#fff6d5", stroke=INK, stroke_width=s * 0.06)
    svg.circle(cx, cy, s * 0.31, stroke=INK, stroke_width=s * 0.025)
    svg.text(cx, cy + s * 0.15, str(amount), s * 0.42, bold=True, anchor="middle")


def key(svg: Svg, cx: float, cy: float, s: float, *, skull: bool = False) -> None:
    """A key: a ring, a shaft and two teeth (the Skeleton Key's ring has eyes)."""
    w = s * 0.08
    ring = cx - s * 0.2
    svg.circle(ring, cy, s * (0.17 if not skull else 0.2), fill=LIGHT, stroke=INK, stroke_width=w)
    if skull:
        svg.circle(ring - s * 0.07, cy - s * 0.03, s * 0.04, fill=INK)
        svg.circle(ring + s * 0.07, cy - s * 0.03, s * 0.04, fill=INK)
    x0 = ring + s * (0.17 if not skull else 0.2)
    svg.path(f"M{x0:.2f} {cy:.2f}H{cx + s * 0.42:.2f}M{cx + s * 0.34:.2f} {cy:.2f}v{s * 0.16:.2f}"
             f"M{cx + s * 0.2:.2f} {cy:.2f}v{s * 0.13:.2f}", stroke=INK, stroke_width=w)


def ooze(svg: Svg, cx: float, cy: float, s: float) -> None:
    """An ooze: a slime drop with two eyes."""
    d = (f"M{cx - s * 0.4:.2f} {cy + s * 0.3:.2f}Q{cx - s * 0.35:.2f} {cy - s * 0.42:.2f} {cx:.2f} {cy - s * 0.38:.2f}"
         f"Q{cx + s * 0.35:.2f} {cy - s * 0.42:.2f} {cx + s * 0.4:.2f} {cy + s * 0.3:.2f}Z")
    svg.path(d, fill="#cfeadf", stroke=INK, stroke_width=s * 0.06)
    svg.circle(cx - s * 0.12, cy - s * 0.02, s * 0.06, fill=INK)
    svg.circle(cx + s * 0.12, cy - s * 0.02, s * 0.06, fill=INK)


def skeleton(svg: Svg, cx: float, cy: float, s: float) -> None:
    """A skeleton: a skull with a jaw."""
    svg.circle(cx, cy - s * 0.08, s * 0.3, fill=LIGHT, stroke=INK, stroke_width=s * 0.06)
    svg.rect(cx - s * 0.16, cy + s * 0.14, s * 0.32, s * 0.2, fill=LIGHT, stroke=INK, stroke_width=s * 0.06)
    svg.circle(cx - s * 0.11, cy - s * 0.08, s * 0.07, fill=INK)
    svg.circle(cx + s * 0.11, cy - s * 0.08, s * 0.07, fill=INK)


def zombie(svg: Svg, cx: float, cy: float, s: float) -> None:
    """A zombie: a square head with stitched mouth and crossed eyes."""
    svg.rect(cx - s * 0.3, cy - s * 0.32, s * 0.6, s * 0.64, fill="#dfe8d0", stroke=INK, stroke_width=s * 0.06)
    e = s * 0.07
    for ex in (cx - s * 0.13, cx + s * 0.13):
        ey = cy - s * 0.1
        svg.path(f"M{ex - e:.2f} {ey - e:.2f}L{ex + e:.2f} {ey + e:.2f}"
                 f"M{ex + e:.2f} {ey - e:.2f}L{ex - e:.2f} {ey + e:.2f}", stroke=INK, stroke_width=s * 0.04)
    svg.path(f"M{cx - s * 0.16:.2f} {cy + s * 0.16:.2f}H{cx + s * 0.16:.2f}", stroke=INK, stroke_width=s * 0.04)


def golem(svg: Svg, cx: float, cy: float, s: float, colour: str) -> None:
    """A golem: its colour's shape behind a blocky figure."""
    colour_shape(svg, cx, cy, s, colour, letter=False)
    w = s * 0.05
    svg.rect(cx - s * 0.08, cy - s * 0.3, s * 0.16, s * 0.14, fill=LIGHT, stroke=INK, stroke_width=w)
    svg.rect(cx - s * 0.16, cy - s * 0.14, s * 0.32, s * 0.26, fill=LIGHT, stroke=INK, stroke_width=w)
    svg.path(f"M{cx - s * 0.1:.2f} {cy + s * 0.12:.2f}v{s * 0.18:.2f}M{cx + s * 0.1:.2f} {cy + s * 0.12:.2f}"
             f"v{s * 0.18:.2f}M{cx - s * 0.16:.2f} {cy - s * 0.1:.2f}l{-s * 0.12:.2f} {s * 0.18:.2f}"
             f"M{cx + s * 0.16:.2f} {cy - s * 0.1:.2f}l{s * 0.12:.2f} {s * 0.18:.2f}", stroke=INK, stroke_width=w * 1.4)
    svg.text(cx, cy + s * 0.06, colour[0].upper(), s * 0.2, bold=True, anchor="middle")


def gem(svg: Svg, cx: float, cy: float, s: float, colour: str) -> None:
    """A gem: its colour's shape behind a cut stone."""
    colour_shape(svg, cx, cy, s, colour, letter=False)
    w = s * 0.05
    top, mid, bot = cy - s * 0.2, cy - s * 0.06, cy + s * 0.26
    svg.polygon([(cx - s * 0.14, top), (cx + s * 0.14, top), (cx + s * 0.26, mid), (cx, bot), (cx - s * 0.26, mid)],
                fill=LIGHT, stroke=INK, stroke_width=w)
    svg.path(f"M{cx - s * 0.26:.2f} {mid:.2f}H{cx + s * 0.26:.2f}", stroke=INK, stroke_width=w * 0.7)
    svg.text(cx, cy + s * 0.1, colour[0].upper(), s * 0.16, bold=True, anchor="middle")


def mimic(svg: Svg, cx: float, cy: float, s: float) -> None:
    """A mimic: a treasure chest with teeth."""
    w = s * 0.06
    svg.rect(cx - s * 0.36, cy - s * 0.26, s * 0.72, s * 0.52, fill="#f1dccd", stroke=INK, stroke_width=w)
    svg.path(f"M{cx - s * 0.36:.2f} {cy - s * 0.06:.2f}" + "".join(
        f"L{cx - s * 0.36 + s * 0.09 * (i + 1):.2f} {cy + (s * 0.08 if i % 2 == 0 else -s * 0.06):.2f}"
        for i in range(8)), stroke=INK, stroke_width=w * 0.7)


def sarcophagus(svg: Svg, cx: float, cy: float, s: float) -> None:
    """A sarcophagus: a coffin with a cross band."""
    svg.polygon([(cx - s * 0.14, cy - s * 0.4), (cx + s * 0.14, cy - s * 0.4), (cx + s * 0.24, cy - s * 0.18),
                 (cx + s * 0.16, cy + s * 0.4), (cx - s * 0.16, cy + s * 0.4), (cx - s * 0.24, cy - s * 0.18)],
                fill="#efe6d2", stroke=INK, stroke_width=s * 0.06)
    svg.path(f"M{cx - s * 0.2:.2f} {cy - s * 0.06:.2f}H{cx + s * 0.2:.2f}", stroke=INK, stroke_width=s * 0.04)


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + (r if i % 2 == 0 else r * 0.45) * math.sin(i * math.pi / 5),
             cy - (r if i % 2 == 0 else r * 0.45) * math.cos(i * math.pi / 5)) for i in range(10)]


def item(svg: Svg, cx: float, cy: float, s: float, name: str) -> None:
    """A magic item: each its own tool, on a small star-shaped spark of magic."""
    svg.polygon(_star(cx, cy, s * 0.48), fill="#e3f1fb", stroke=INK, stroke_width=s * 0.03)
    w = s * 0.08
    if name == "wand":
        svg.line(cx - s * 0.22, cy + s * 0.22, cx + s * 0.12, cy - s * 0.12, w)
        svg.polygon(_star(cx + s * 0.16, cy - s * 0.16, s * 0.12), fill=INK)
    elif name == "shovel":
        svg.path(f"M{cx:.2f} {cy - s * 0.3:.2f}V{cy:.2f}M{cx - s * 0.09:.2f} {cy - s * 0.3:.2f}"
                 f"H{cx + s * 0.09:.2f}", stroke=INK, stroke_width=w)
        svg.path(f"M{cx - s * 0.13:.2f} {cy:.2f}H{cx + s * 0.13:.2f}V{cy + s * 0.16:.2f}L{cx:.2f} {cy + s * 0.3:.2f}"
                 f"L{cx - s * 0.13:.2f} {cy + s * 0.16:.2f}Z", fill=INK)
    elif name == "hammer":
        svg.line(cx, cy - s * 0.12, cx, cy + s * 0.32, w)
        svg.rect(cx - s * 0.22, cy - s * 0.28, s * 0.44, s * 0.17, fill=INK)
    else:
        key(svg, cx, cy, s * 0.8, skull=True)


def finding(svg: Svg, cx: float, cy: float, s: float, kind: str, what: str | int) -> None:
    """Any finding of a map square or room by its kind (T5.1)."""
    if kind == "coins":
        coins(svg, cx, cy, s, int(what))
    elif kind == "key":
        key(svg, cx, cy, s)
    elif kind == "ooze":
        ooze(svg, cx, cy, s)
    elif kind == "golem":
        golem(svg, cx, cy, s, str(what))
    elif kind == "gem":
        gem(svg, cx, cy, s, str(what))
    elif kind == "mimic":
        mimic(svg, cx, cy, s)
    elif kind == "sarcophagus":
        sarcophagus(svg, cx, cy, s)
    else:
        item(svg, cx, cy, s, str(what))


def shape(svg: Svg, x: float, y: float, cell: float, cells: frozenset[Cell], openings: frozenset[Mark]) -> None:
    """A tile of the Tile Table: its squares, thick walls, and its openings as gaps with
    short end ticks (the walls a player draws, T1.4)."""
    for cx, cy in cells:
        svg.rect(x + cx * cell, y + cy * cell, cell, cell, fill="#eeeeee", stroke="#9a9a9a", stroke_width=0.4)
    for cx, cy in sorted(cells):
        for side, (dx, dy) in {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}.items():
            if (cx + dx, cy + dy) in cells:
                continue
            x1, y1, x2, y2 = side_line(x + cx * cell, y + cy * cell, cell, side)
            if ((cx, cy), side) in openings:
                svg.line(x1, y1, x2, y2, cell * 0.06, stroke_dasharray=f"{cell * 0.12:.2f} {cell * 0.12:.2f}")
            else:
                svg.line(x1, y1, x2, y2, cell * 0.16, stroke_linecap="square")


def side_line(x: float, y: float, cell: float, side: str) -> tuple[float, float, float, float]:
    """The line of a square's side, the square's top-left corner at ``(x, y)``."""
    return {"N": (x, y, x + cell, y), "S": (x, y + cell, x + cell, y + cell),
            "W": (x, y, x, y + cell), "E": (x + cell, y, x + cell, y + cell)}[side]


def die_face(svg: Svg, x: float, y: float, s: float, value: int) -> None:
    """A die showing ``value`` in pips, top-left corner at ``(x, y)``."""
    svg.rect(x, y, s, s, fill=LIGHT, stroke=INK, stroke_width=s * 0.07, rx=s * 0.16)
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
             5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
    for px, py in spots[value]:
        svg.circle(x + s * (0.25 + px * 0.25), y + s * (0.25 + py * 0.25), s * 0.09, fill=INK)


__all__ = ["COLOUR_FILL", "COLOUR_SHAPE", "FINDING_NAMES", "ITEM_NAMES", "die_face", "finding", "shape", "side_line"]
