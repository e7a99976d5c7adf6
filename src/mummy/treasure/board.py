"""Sites as bitboards: where a rectangle fits (R3.3), and the packing search (R5.1).

A site uses the same padded square numbering as the Tomb's grid
(:mod:`mummy.core.grid`), so a placed rectangle is one ``int`` and "does it fit" is an
``and``. Every placement of every tile size is precomputed per site.

The packing search answers the movable-tiles variant: is there an arrangement of all a
player's tiles (plus a new one) on the site? It walks the site's squares in order and
decides the first undecided square each step: either the top-left square of one of the
remaining tiles, or a hole, with no more holes than the site has spare squares. Every
arrangement is reached exactly once up to the order of equal tiles, failures are
memoised by (squares decided, tiles left), so it either finds an arrangement or proves
there is none.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Final

from mummy.treasure.content import Site, sites

#: Orientations of a rectangle: "h" lying as listed (rows x cols), "v" turned a quarter.
ORIENTS: Final = ("h", "v")


class SiteBoard:
    """A site with its precomputed rectangle placements."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.grid = site.grid
        self.squares = site.squares
        self._rects: dict[tuple[int, int], dict[tuple[int, str], int]] = {}

    def dims(self, rows: int, cols: int, orient: str) -> tuple[int, int]:
        """(height, width) of a tile of ``rows x cols`` in an orientation."""
        return (rows, cols) if orient == "h" else (cols, rows)

    def placements(self, rows: int, cols: int) -> dict[tuple[int, str], int]:
        """(anchor square, orientation) -> mask, for every placement inside the site.
        A square tile (1x1, 2x2) has only its "h" orientation (turning it changes nothing)."""
        key = (rows, cols)
        table = self._rects.get(key)
        if table is None:
            table = {}
            g = self.grid
            for orient in ORIENTS if rows != cols else ("h",):
                h, w = self.dims(rows, cols, orient)
                for y in range(g.height - h + 1):
                    for x in range(g.width - w + 1):
                        mask = 0
                        for dy in range(h):
                            for dx in range(w):
                                mask |= 1 << g.square(x + dx, y + dy)
                        if mask & ~self.squares == 0:
                            table[(g.square(x, y), orient)] = mask
            self._rects[key] = table
        return table

    def fits(self, covered: int, rows: int, cols: int) -> bool:
        """Whether a tile fits on the free squares as they are (no moving, R3.3)."""
        return any(not mask & covered for mask in self.placements(rows, cols).values())

    def pack(self, sizes: list[tuple[int, int]]) -> list[tuple[int, str]] | None:
        """An arrangement of tiles of these sizes on the empty site, one (anchor, orient)
        per size in the order given, or None when there is none (R5.1)."""
        area = sum(r * c for r, c in sizes)
        spare = self.squares.bit_count() - area
        if spare < 0:
            return None
        kinds = sorted(Counter(sizes).items(), key=lambda kv: -kv[0][0] * kv[0][1])
        shapes = [k for k, _ in kinds]
        # For each shape, the placements keyed by their top-left square.
        by_anchor: list[dict[int, list[tuple[int, str, int]]]] = []
        for rows, cols in shapes:
            table: dict[int, list[tuple[int, str, int]]] = {}
            for (anchor, orient), mask in self.placements(rows, cols).items():
                table.setdefault(anchor, []).append((anchor, orient, mask))
            by_anchor.append(table)
        failed: set[tuple[int, tuple[int, ...]]] = set()
        chosen: list[tuple[int, tuple[int, str]]] = []  # (shape index, placement)
        site = self.squares

        def search(decided: int, left: tuple[int, ...], holes: int) -> bool:
            if not any(left):
                return True
            key = (decided, left)
            if key in failed:
                return False
            free = site & ~decided
            low = free & -free
            square = low.bit_length() - 1
            for i, count in enumerate(left):
                if not count:
                    continue
                for anchor, orient, mask in by_anchor[i].get(square, ()):
                    if mask & decided:
                        continue
                    chosen.append((i, (anchor, orient)))
                    if search(decided | mask, (*left[:i], count - 1, *left[i + 1:]), holes):
                        return True
                    chosen.pop()
            if holes > 0 and search(decided | low, left, holes - 1):
                return True
            failed.add(key)
            return False

        if not search(0, tuple(n for _, n in kinds), spare):
            return None
        # Hand the placements back in the order of the sizes asked for.
        pools: dict[tuple[int, int], list[tuple[int, str]]] = {}
        for i, placement in chosen:
            pools.setdefault(shapes[i], []).append(placement)
        return [pools[size].pop() for size in sizes]


@cache
def site_board(name: str) -> SiteBoard:
    """The packaged site ``name``, prepared once per process."""
    if name not in sites():
        raise ValueError(f"unknown site {name!r}; sites: {', '.join(sites())}")
    return SiteBoard(sites()[name])
