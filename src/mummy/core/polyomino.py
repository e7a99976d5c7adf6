"""Polyominoes with marked outline edges, and their distinct orientations.

A shape is a set of cells ``(x, y)`` (x to the right, y down) plus a set of marked
outline sides ``((x, y), side)``: the Tomb marks openings, Treasure marks nothing. The
eight symmetries of the square are named ``r0..r3`` (quarter turns clockwise) and
``f0..f3`` (mirror left↔right, then quarter turns clockwise). Orientations that give
the same cells *and* the same marks are one orientation: the first name in the order
``r0 r1 r2 r3 f0 f1 f2 f3`` is its canonical name (T2.2: identical ones count once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mummy.core.errors import quote

Cell = tuple[int, int]
Mark = tuple[Cell, str]

TRANSFORMS: Final = ("r0", "r1", "r2", "r3", "f0", "f1", "f2", "f3")

_ROT_SIDE: Final = {"N": "E", "E": "S", "S": "W", "W": "N"}
_MIRROR_SIDE: Final = {"N": "N", "S": "S", "E": "W", "W": "E"}


def _rotate(cells: frozenset[Cell], marks: frozenset[Mark]) -> tuple[frozenset[Cell], frozenset[Mark]]:
    # Quarter turn clockwise with y down: (x, y) -> (-y, x).
    return (
        frozenset((-y, x) for x, y in cells),
        frozenset(((-y, x), _ROT_SIDE[s]) for (x, y), s in marks),
    )


def _mirror(cells: frozenset[Cell], marks: frozenset[Mark]) -> tuple[frozenset[Cell], frozenset[Mark]]:
    return (
        frozenset((-x, y) for x, y in cells),
        frozenset(((-x, y), _MIRROR_SIDE[s]) for (x, y), s in marks),
    )


def _normalise(cells: frozenset[Cell], marks: frozenset[Mark]) -> tuple[frozenset[Cell], frozenset[Mark]]:
    """Translate so that the bounding box starts at (0, 0)."""
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return (
        frozenset((x - mx, y - my) for x, y in cells),
        frozenset(((x - mx, y - my), s) for (x, y), s in marks),
    )


@dataclass(frozen=True)
class Orientation:
    """One distinct orientation of a shape, normalised to a (0, 0) bounding box."""

    name: str
    cells: frozenset[Cell]
    marks: frozenset[Mark]

    @property
    def anchor(self) -> Cell:
        """The top-most, then left-most cell: where notation pins the tile (``@J1``)."""
        return min(self.cells, key=lambda c: (c[1], c[0]))

    @property
    def width(self) -> int:
        return max(x for x, _ in self.cells) + 1

    @property
    def height(self) -> int:
        return max(y for _, y in self.cells) + 1


def transform(cells: frozenset[Cell], marks: frozenset[Mark], name: str) -> Orientation:
    """Apply one named symmetry and normalise."""
    if name not in TRANSFORMS:
        raise ValueError(f"unknown orientation {quote(name)}; use one of {' '.join(TRANSFORMS)}")
    c, m = cells, marks
    if name[0] == "f":
        c, m = _mirror(c, m)
    for _ in range(int(name[1])):
        c, m = _rotate(c, m)
    c, m = _normalise(c, m)
    return Orientation(name, c, m)


def orientations(cells: frozenset[Cell], marks: frozenset[Mark]) -> dict[str, Orientation]:
    """Map every transform name to its canonical distinct orientation."""
    seen: dict[tuple[frozenset[Cell], frozenset[Mark]], Orientation] = {}
    result: dict[str, Orientation] = {}
    for name in TRANSFORMS:
        o = transform(cells, marks, name)
        key = (o.cells, o.marks)
        if key not in seen:
            seen[key] = o
        result[name] = seen[key]
    return result


def distinct_orientations(cells: frozenset[Cell], marks: frozenset[Mark]) -> list[Orientation]:
    """The distinct orientations, in canonical order."""
    out: list[Orientation] = []
    for o in orientations(cells, marks).values():
        if o not in out:
            out.append(o)
    return out


def parse_drawing(rows: list[str]) -> frozenset[Cell]:
    """Cells of a drawing such as ``["#.", "##"]`` (``#`` a cell, ``.`` empty)."""
    cells = set()
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                cells.add((x, y))
            elif ch != ".":
                raise ValueError(f"unexpected character {ch!r} in shape drawing (use # and .)")
    if not cells:
        raise ValueError("shape drawing has no cells")
    return frozenset(cells)


def is_connected(cells: frozenset[Cell]) -> bool:
    """True when the cells form one edge-connected polyomino."""
    start = next(iter(cells))
    todo, seen = [start], {start}
    while todo:
        x, y = todo.pop()
        for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


def outline(cells: frozenset[Cell]) -> set[Mark]:
    """Every outline side of the shape (sides not shared with another cell)."""
    steps = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    out: set[Mark] = set()
    for x, y in cells:
        for side, (dx, dy) in steps.items():
            if (x + dx, y + dy) not in cells:
                out.add(((x, y), side))
    return out
