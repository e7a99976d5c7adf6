"""A map made ready for play: every placement precomputed as bitboards.

Why: legal-move generation is the hot path. Everything that depends only on the map
(where each orientation of each shape fits on free squares, which edges its openings,
walls and inner edges occupy, which openings turn into dead ends against the border)
is computed once per map here, and indexed by opening edge, so that the engine only
looks at placements that can touch the dungeon's current open openings.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from mummy.core.errors import quote
from mummy.core.grid import SIDES, STEPS, Grid, iter_bits
from mummy.core.polyomino import TRANSFORMS, Orientation, distinct_orientations, orientations
from mummy.tomb.content import ITEMS, TABLE_SHAPES, MapSpec, Room, TileShape, map_spec, tile_table

#: Shape ids in index order: the twelve table shapes, the room, and the Shovel's square.
SHAPES: Final = (*TABLE_SHAPES, "room", "dig")
SHAPE_INDEX: Final = {s: i for i, s in enumerate(SHAPES)}
ROOM: Final = SHAPE_INDEX["room"]
DIG: Final = SHAPE_INDEX["dig"]

#: The Shovel's one-square tiles (T6.3): one or two openings, named by their sides.
DIG_VARIANTS: Final = ("n", "e", "s", "w", "ne", "ns", "nw", "es", "ew", "sw")


@dataclass(frozen=True, slots=True)
class Placement:
    """One way a tile can lie on the map's free squares (before looking at the sheet)."""

    pid: int
    shape: str
    orient: str  # canonical transform name, or the Shovel's open sides ("ne")
    anchor: int  # top-most, then left-most square covered
    squares: int  # T3.1: squares covered
    openings: int  # opening edges of the tile
    walls: int  # wall edges of the tile (T3.3 checks these)
    walls_after: int  # walls drawn once placed: tile walls plus dead-ended border openings
    inner: int  # inner edges (T1.4)
    connects: int  # entrance edges and room openings that its openings connect


class TombMap:
    """A validated map plus its precomputed placement tables and static edge masks."""

    def __init__(self, spec: MapSpec, tiles: dict[str, TileShape]) -> None:
        self.spec = spec
        self.id = spec.id
        self.grid = g = spec.grid
        self.tiles = tiles
        # Every transform name of every tile, to its distinct orientation: checking a
        # player's action names one, and working them out again each time was a large
        # share of a move's check.
        self._orientations = {shape: orientations(t.cells, t.openings) for shape, t in tiles.items()}
        self.stone = spec.stone
        self.free = g.all_squares & ~spec.stone
        self.entrance_edges = 0
        for sq, side in spec.entrances:
            self.entrance_edges |= 1 << g.edge(sq, side)
        self.room_by_edge: dict[int, tuple[int, Room]] = {}
        self.room_edges = 0
        for i, room in enumerate(spec.rooms):
            e = g.edge(room.square, room.side)
            self.room_by_edge[e] = (i, room)
            self.room_edges |= 1 << e
        self.connectable = self.entrance_edges | self.room_edges
        # Border and block edges of free squares (T1.2).
        self.border_block = 0
        for sq in iter_bits(self.free):
            x, y = g.xy(sq)
            for side, (dx, dy) in STEPS.items():
                nx, ny = x + dx, y + dy
                if not g.on_grid(nx, ny) or self.stone >> g.square(nx, ny) & 1:
                    self.border_block |= 1 << g.edge(sq, side)
        self.h_edges = g.horizontal_edges
        self.v_edges = g.vertical_edges
        # T6.1(a): walls the Wand may erase, as far as the map alone decides.
        self.erasable_static = ~(self.border_block & ~self.connectable)
        # Findings on squares (T5.1): one kind per square.
        self.finding_at: dict[int, tuple[str, str | int]] = {}
        for sq, n in spec.coins.items():
            self.finding_at[sq] = ("coins", n)
        for sq in spec.keys:
            self.finding_at[sq] = ("key", 1)
        for sq in spec.oozes:
            self.finding_at[sq] = ("ooze", 1)
        for sq in spec.mimics:
            self.finding_at[sq] = ("mimic", 1)
        for colour, sq in spec.golems.items():
            self.finding_at[sq] = ("golem", colour)
        for item, sq in spec.items.items():
            self.finding_at[sq] = ("item", item)
        self.findings_mask = g.squares_mask(list(self.finding_at))
        self.colours = tuple(spec.golems)
        self.items = ITEMS
        self._build_placements()

    # -- precomputation --------------------------------------------------------------------
    def _shape_orientations(self, shape: str) -> list[Orientation]:
        if shape == "dig":
            out = []
            for sides in DIG_VARIANTS:
                marks = frozenset(((0, 0), s.upper()) for s in sides)
                out.append(Orientation(sides, frozenset({(0, 0)}), marks))
            return out
        t = self.tiles[shape]
        return distinct_orientations(t.cells, t.openings)

    def _build_placements(self) -> None:
        g = self.grid
        self.placements: list[Placement] = []
        self.index: dict[tuple[str, str, int], int] = {}
        # by_edge[e][shape_index] -> tuple of (pid, squares, openings, edges that must
        # not already carry a wall)
        by_edge: dict[int, list[list[tuple[int, int, int, int]]]] = {}
        for shape in SHAPES:
            si = SHAPE_INDEX[shape]
            for o in self._shape_orientations(shape):
                ax, ay = o.anchor
                for y0 in range(g.height - o.height + 1):
                    for x0 in range(g.width - o.width + 1):
                        squares = 0
                        for cx, cy in o.cells:
                            squares |= 1 << g.square(x0 + cx, y0 + cy)
                        if squares & self.stone:
                            continue
                        openings = 0
                        for (cx, cy), side in o.marks:
                            openings |= 1 << g.edge(g.square(x0 + cx, y0 + cy), side)
                        around = g.edges_of(squares)
                        inner = 0
                        outline = 0
                        for cx, cy in o.cells:
                            sq = g.square(x0 + cx, y0 + cy)
                            for side, (dx, dy) in STEPS.items():
                                e = 1 << g.edge(sq, side)
                                if (cx + dx, cy + dy) in o.cells:
                                    inner |= e
                                else:
                                    outline |= e
                        assert around == inner | outline
                        walls = outline & ~openings
                        dead = openings & self.border_block & ~self.connectable
                        anchor = g.square(x0 + ax, y0 + ay)
                        p = Placement(
                            pid=len(self.placements),
                            shape=shape,
                            orient=o.name,
                            anchor=anchor,
                            squares=squares,
                            openings=openings,
                            walls=walls,
                            walls_after=walls | dead,
                            inner=inner,
                            connects=openings & self.connectable,
                        )
                        self.placements.append(p)
                        self.index[(shape, o.name, anchor)] = p.pid
                        # The wall test of legal-move generation: T3.3 for tiles; for the
                        # Shovel, the rulebook's "a square that has no walls yet" (T6.3).
                        forbidden = walls | openings if shape == "dig" else walls
                        row = (p.pid, squares, openings, forbidden)
                        for e in iter_bits(openings):
                            lists = by_edge.setdefault(e, [[] for _ in SHAPES])
                            lists[si].append(row)
        empty: tuple[tuple[int, int, int, int], ...] = ()
        self.by_edge: dict[int, tuple[tuple[tuple[int, int, int, int], ...], ...]] = {
            e: tuple(tuple(rows) for rows in lists) for e, lists in by_edge.items()
        }
        self.empty_row = tuple(empty for _ in SHAPES)

    # -- lookups ---------------------------------------------------------------------------
    def candidates(self, edge: int, shape_index: int) -> tuple[tuple[int, int, int, int], ...]:
        """Placements of a shape with an opening on ``edge``:
        (pid, squares, openings, edges that must not carry a wall yet)."""
        return self.by_edge.get(edge, self.empty_row)[shape_index]

    def canonical_orient(self, shape: str, name: str) -> str:
        """The canonical transform for ``name`` (identical orientations count once, T2.2)."""
        if shape == "dig":
            sides = "".join(s for s in "nesw" if s in name.lower())
            if sides not in DIG_VARIANTS or len(sides) != len(name):
                raise ValueError(f"a Shovel square has one or two open sides (like 'ne'), not {quote(name)}")
            return sides
        return self._orientation(shape, name).name

    def oriented(self, shape: str, orient: str) -> Orientation:
        if shape == "dig":
            marks = frozenset(((0, 0), s.upper()) for s in orient)
            return Orientation(orient, frozenset({(0, 0)}), marks)
        return self._orientation(shape, orient)

    def _orientation(self, shape: str, name: str) -> Orientation:
        named = self._orientations[shape]  # KeyError for a shape that is no tile
        if name not in named:
            raise ValueError(f"unknown orientation {quote(name)}; use one of {' '.join(TRANSFORMS)}")
        return named[name]

    def edge_name(self, edge: int) -> str:
        return self.grid.edge_name(edge)

    def square_name(self, square: int) -> str:
        return self.grid.square_name(square)


@lru_cache(maxsize=64)
def tomb_map(map_id: str) -> TombMap:
    """The map ``map_id``, prepared once per process. Bounded: any number of generated and
    custom maps may be played over a server's life, and a map not played for a while is
    prepared again when it is (the packaged ones stay, being always in use)."""
    return TombMap(map_spec(map_id), tile_table())


__all__ = [
    "DIG",
    "DIG_VARIANTS",
    "ROOM",
    "SHAPES",
    "SHAPE_INDEX",
    "SIDES",
    "TRANSFORMS",
    "Grid",
    "Placement",
    "TombMap",
    "tomb_map",
]
