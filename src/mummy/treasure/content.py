"""Mummy's Treasure content as data: symbols, the 48 tiles in six piles, the sites (R1).

Like the Tomb's maps, the files live in the package (``treasure/data``) and every fault
is reported with its file and line (:class:`~mummy.core.errors.ContentError`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from mummy.core.content import numbered_lines
from mummy.core.errors import ContentError
from mummy.core.grid import Grid

#: The six symbols in their canonical order (R1.1): Scarab, Ankh, Eye, Pyramid, Cobra, Jackal.
SYMBOLS: Final = "SAEPCJ"
SYMBOL_NAMES: Final = {"S": "scarab", "A": "ankh", "E": "eye", "P": "pyramid", "C": "cobra", "J": "jackal"}
DICE: Final = 5
#: Rolls a turn: the first roll and up to two rerolls (R3.1).
ROLLS: Final = 3
TILES_PER_PILE: Final = 8

#: What the tiles of a pile need, as the sorted counts of their symbols (R1.2).
NEED_SHAPES: Final = {
    "one": (1,),
    "two": (1, 1),
    "pair": (2,),
    "pair+one": (2, 1),
    "three": (3,),
    "two-pairs": (2, 2),
}


_ORDER: Final = {s: i for i, s in enumerate(SYMBOLS)}


def sort_symbols(symbols: str) -> str:
    """Symbols in canonical order, so equal multisets are equal strings."""
    return "".join(sorted(symbols, key=_ORDER.__getitem__))


@dataclass(frozen=True)
class Tile:
    """One treasure tile: its pile, its index in the pile's list (R1.2), size and needs."""

    id: str  # "scroll-3": pile and 1-based number in the pile's list
    pile: str
    rows: int
    cols: int
    needs: str  # canonical symbol string, e.g. "SSA"

    @property
    def area(self) -> int:
        return self.rows * self.cols


@dataclass(frozen=True)
class Pile:
    name: str
    rows: int
    cols: int
    need_shape: str
    tiles: tuple[Tile, ...]


@dataclass(frozen=True)
class Site:
    """An excavation site (R1.3): a grid and the mask of its squares."""

    name: str
    grid: Grid
    squares: int

    @property
    def area(self) -> int:
        return self.squares.bit_count()


def parse_piles(text: str, file: str = "tiles.txt") -> dict[str, Pile]:
    """Parse and validate the tile file: six piles of eight, needs matching the pile."""
    piles: dict[str, Pile] = {}
    for number, line in numbered_lines(text, lone_hash_is_comment=False):
        parts = line.split()
        if len(parts) < 4:
            raise ContentError(file, number, "expected: pile ROWSxCOLS NEED tile...")
        name, size, shape, *needs = parts
        if not name.isalpha() or not name.islower():
            raise ContentError(file, number, f"pile name {name!r} must be lower-case letters")
        if name in piles:
            raise ContentError(file, number, f"pile {name!r} is defined twice")
        try:
            rows_s, cols_s = size.lower().split("x")
            rows, cols = int(rows_s), int(cols_s)
        except ValueError:
            raise ContentError(file, number, f"size {size!r} is not ROWSxCOLS like 2x3") from None
        if not (1 <= rows <= cols <= 9):
            raise ContentError(file, number, f"size {size} must be ROWSxCOLS with 1 <= rows <= cols")
        if shape not in NEED_SHAPES:
            raise ContentError(file, number, f"unknown need {shape!r}; one of {', '.join(NEED_SHAPES)}")
        if len(needs) != TILES_PER_PILE:
            raise ContentError(file, number, f"pile {name} has {len(needs)} tiles, not {TILES_PER_PILE}")
        tiles = []
        for i, need in enumerate(needs, start=1):
            if set(need) - set(SYMBOLS):
                raise ContentError(file, number, f"tile {need!r}: symbols are {' '.join(SYMBOLS)}")
            counts = tuple(sorted(Counter(need).values(), reverse=True))
            if counts != NEED_SHAPES[shape]:
                raise ContentError(file, number, f"tile {need} does not need '{shape}'")
            tiles.append(Tile(f"{name}-{i}", name, rows, cols, sort_symbols(need)))
        piles[name] = Pile(name, rows, cols, shape, tuple(tiles))
    if len(piles) != 6:
        raise ContentError(file, len(text.splitlines()) or 1, f"expected six piles, found {len(piles)}")
    return piles


def parse_sites(text: str, file: str = "sites.txt") -> dict[str, Site]:
    """Parse and validate the site file: named grids of '#' squares."""
    sites: dict[str, Site] = {}
    lines = numbered_lines(text, lone_hash_is_comment=False)
    i = 0
    while i < len(lines):
        number, line = lines[i]
        key, _, name = line.partition(":")
        if key.strip() != "site" or not name.strip():
            raise ContentError(file, number, f"expected 'site: NAME', got {line!r}")
        name = name.strip()
        if name in sites:
            raise ContentError(file, number, f"site {name!r} is defined twice")
        rows: list[str] = []
        i += 1
        while i < len(lines) and lines[i][1] != "end":
            row_no, row = lines[i]
            if set(row) - {"#", "."}:
                raise ContentError(file, row_no, f"site row {row!r} may hold only '#' and '.'")
            if rows and len(row) != len(rows[0]):
                raise ContentError(file, row_no,
                                   f"site row has {len(row)} squares, the first has {len(rows[0])}")
            rows.append(row)
            i += 1
        if i == len(lines):
            raise ContentError(file, number, f"site {name} has no closing 'end' line")
        if not rows or "#" not in "".join(rows):
            raise ContentError(file, number, f"site {name} has no squares")
        grid = Grid(len(rows[0]), len(rows))
        mask = 0
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch == "#":
                    mask |= 1 << grid.square(x, y)
        sites[name] = Site(name, grid, mask)
        i += 1
    if not sites:
        raise ContentError(file, 1, "no site defined")
    return sites


def _data(name: str) -> tuple[str, str]:
    res = resources.files("mummy.treasure").joinpath("data").joinpath(name)
    return res.read_text(encoding="utf-8"), f"mummy/treasure/data/{name}"


@cache
def piles() -> dict[str, Pile]:
    """The six packaged piles in size order (R1.2)."""
    return parse_piles(*_data("tiles.txt"))


@cache
def sites() -> dict[str, Site]:
    """The four packaged excavation sites (R1.3)."""
    return parse_sites(*_data("sites.txt"))


def all_tiles() -> dict[str, Tile]:
    return {t.id: t for p in piles().values() for t in p.tiles}
