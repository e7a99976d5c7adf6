"""Grid geometry: squares, edges and integer bitboards over both.

Why this layout: legal-move generation is the hot path of every game here, and it is
almost entirely set algebra over squares and edges. Python integers are fast, arbitrary
width bitsets, so a set of squares or edges is one ``int`` (as python-chess does with
its bitboards).

Squares are numbered row by row with a *stride* of ``width + 1``: square ``(x, y)`` is bit
``y * stride + x`` and the extra column is never set. That padding makes every edge
family a pure shift of the square set:

* the north edge of square ``i`` is edge ``i``, its south edge is ``i + stride``;
* its west edge is ``off + i`` and its east edge ``off + i + 1``, with
  ``off = stride * (height + 1)``.

So "all edges of these squares" or "the edges between set A and set B" are a handful
of shifts and ands, with no loop over squares.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Final

from mummy.core.errors import quote

SIDES: Final = "NESW"
#: Unit steps (dx, dy) for the sides N, E, S, W, with y growing downwards.
STEPS: Final = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE: Final = {"N": "S", "S": "N", "E": "W", "W": "E"}


def iter_bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask`` from the lowest up."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    """Number of set bits."""
    return mask.bit_count()


def column_name(x: int) -> str:
    """Column letters as in the rulebook: 0 → ``A``, 25 → ``Z``, 26 → ``AA``."""
    name = ""
    x += 1
    while x:
        x, rem = divmod(x - 1, 26)
        name = chr(ord("A") + rem) + name
    return name


@dataclass(frozen=True)
class Grid:
    """A ``width × height`` grid of squares with named squares and edges (T1.1, T1.2)."""

    width: int
    height: int

    @property
    def stride(self) -> int:
        return self.width + 1

    @property
    def edge_offset(self) -> int:
        """Index of the first vertical (west/east) edge."""
        return self.stride * (self.height + 1)

    # -- squares ---------------------------------------------------------------------------
    def square(self, x: int, y: int) -> int:
        return y * self.stride + x

    def xy(self, square: int) -> tuple[int, int]:
        y, x = divmod(square, self.stride)
        return x, y

    def on_grid(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def squares(self) -> Iterator[int]:
        for y in range(self.height):
            for x in range(self.width):
                yield self.square(x, y)

    @property
    def all_squares(self) -> int:
        mask = 0
        for sq in self.squares():
            mask |= 1 << sq
        return mask

    def square_name(self, square: int) -> str:
        name = self.square_names().get(square)
        if name is None:
            raise ValueError(f"square index {square} is not on the {self.width}×{self.height} grid")
        return name

    def square_names(self) -> dict[int, str]:
        """Every square's name by index (shared: do not change it), for code that names
        many squares at once, such as a sheet's snapshot."""
        return _square_names(self.width, self.height)

    def edge_names(self) -> dict[int, str]:
        """Every edge's canonical name by index (shared: do not change it)."""
        return _edge_names(self.width, self.height)

    def parse_square(self, text: str) -> int:
        """Parse ``"J1"`` (case-insensitive, ASCII only: ``A１`` with a full-width digit is
        no square name). Raises ``ValueError`` off the grid."""
        text = text.strip().upper()
        if not text.isascii():
            raise ValueError(f"{quote(text)} is not a square name like 'J1' (ASCII letters and digits)")
        i = 0
        while i < len(text) and text[i].isalpha():
            i += 1
        letters, digits = text[:i], text[i:]
        if not letters or not digits.isdigit():
            raise ValueError(f"{quote(text)} is not a square name like 'J1'")
        x = 0
        for ch in letters:
            x = x * 26 + (ord(ch) - ord("A") + 1)
        x -= 1
        y = int(digits) - 1
        if not self.on_grid(x, y):
            raise ValueError(f"square {quote(text)} is off the {self.width}×{self.height} grid")
        return self.square(x, y)

    # -- edges -----------------------------------------------------------------------------
    def edge(self, square: int, side: str) -> int:
        """Edge index of one side of a square."""
        if side == "N":
            return square
        if side == "S":
            return square + self.stride
        if side == "W":
            return self.edge_offset + square
        if side == "E":
            return self.edge_offset + square + 1
        raise ValueError(f"unknown side {quote(side)}")

    def edge_squares(self, edge: int) -> tuple[int | None, int | None]:
        """The on-grid squares on either side of an edge: (north or west, south or east)."""
        if edge < self.edge_offset:
            below = edge
            x, y = self.xy(below)
            a = self.square(x, y - 1) if self.on_grid(x, y - 1) else None
            b = below if self.on_grid(x, y) else None
        else:
            right = edge - self.edge_offset
            x, y = self.xy(right)
            a = self.square(x - 1, y) if self.on_grid(x - 1, y) else None
            b = right if self.on_grid(x, y) else None
        return a, b

    def edge_name(self, edge: int) -> str:
        """Canonical name: ``J1n`` (north of J1) or ``C3w``; ``s``/``e`` only on the far border."""
        name = self.edge_names().get(edge)
        if name is None:
            raise ValueError(f"edge index {edge} is not an edge of the grid")
        return name

    def _edge_name(self, edge: int) -> str:
        a, b = self.edge_squares(edge)
        horizontal = edge < self.edge_offset
        if b is not None:
            return self.square_name(b) + ("n" if horizontal else "w")
        if a is None:
            raise ValueError(f"edge index {edge} is not an edge of the grid")
        return self.square_name(a) + ("s" if horizontal else "e")

    def parse_edge(self, text: str) -> int:
        """Parse ``"E4n"`` / ``"E4:N"`` / ``"e4 s"``: a square and a side letter."""
        raw = text.strip().replace(":", "").replace(" ", "")
        if len(raw) < 3 or raw[-1].upper() not in SIDES:
            raise ValueError(f"{quote(text)} is not an edge name like 'E4n' (square, then side N/E/S/W)")
        return self.edge(self.parse_square(raw[:-1]), raw[-1].upper())

    def is_border(self, edge: int) -> bool:
        a, b = self.edge_squares(edge)
        return a is None or b is None

    def edges_of(self, squares: int) -> int:
        """Every edge of every square in the set, as one edge bitboard."""
        off = self.edge_offset
        return squares | (squares << self.stride) | (squares << off) | (squares << (off + 1))

    @property
    def horizontal_edges(self) -> int:
        mask = 0
        for y in range(self.height + 1):
            for x in range(self.width):
                mask |= 1 << (y * self.stride + x)
        return mask

    @property
    def vertical_edges(self) -> int:
        mask = 0
        for y in range(self.height):
            for x in range(self.width + 1):
                mask |= 1 << (self.edge_offset + y * self.stride + x)
        return mask

    def squares_mask(self, squares: list[int] | tuple[int, ...]) -> int:
        mask = 0
        for sq in squares:
            mask |= 1 << sq
        return mask


# Names are asked for on every snapshot and every listed action (the server sends both
# after each move): made once per grid size, they cost a dictionary lookup.
@cache
def _square_names(width: int, height: int) -> dict[int, str]:
    grid = Grid(width, height)
    return {grid.square(x, y): f"{column_name(x)}{y + 1}" for y in range(height) for x in range(width)}


@cache
def _edge_names(width: int, height: int) -> dict[int, str]:
    grid = Grid(width, height)
    names = {}
    for edge in iter_bits(grid.horizontal_edges | grid.vertical_edges):
        names[edge] = grid._edge_name(edge)
    return names
