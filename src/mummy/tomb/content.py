"""The Tomb's content as data: the Tile Table and the maps (T2.1, T9, T10).

Content lives in small line-oriented text files inside the package (``tomb/data``), so
that a designer can read and edit them and so that every fault can be reported with its
file and line. Loading validates everything T10 asks for and raises
:class:`~mummy.core.errors.ContentError` naming the file, the line and the fault.
The package never reads ``../shared`` at run time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Final

from mummy.core.content import numbered_lines
from mummy.core.errors import ContentError
from mummy.core.grid import OPPOSITE, SIDES, STEPS, Grid
from mummy.core.polyomino import Cell, Mark, is_connected, outline, parse_drawing

COLOURS: Final = ("red", "blue", "green", "yellow")
ITEMS: Final = ("wand", "shovel", "hammer", "skeleton-key")
TABLE_SHAPES: Final = tuple(f"{v}{c}" for v in range(1, 7) for c in "ab")
MONSTERS: Final = ("ooze", "skeleton", "zombie", "golem", "mimic")


@dataclass(frozen=True)
class TileShape:
    """One shape of the Tile Table (or the room): squares and openings (T1.4, T2.1)."""

    id: str
    name: str
    cells: frozenset[Cell]
    openings: frozenset[Mark]


@dataclass(frozen=True)
class Room:
    """A stone square with one room opening and a finding (T1.3)."""

    square: int
    side: str
    finding: str  # "sarcophagus" or "gem"
    colour: str | None = None


@dataclass(frozen=True)
class MapSpec:
    """A map as written in its file, validated (T9, T10)."""

    id: str
    title: str
    grid: Grid
    stone: int
    entrances: tuple[tuple[int, str], ...]
    rooms: tuple[Room, ...]
    coins: dict[int, int]
    keys: tuple[int, ...]
    oozes: tuple[int, ...]
    golems: dict[str, int]
    mimics: tuple[int, ...]
    items: dict[str, int]
    log: dict[str, tuple[int, ...]]
    golem_coins: dict[str, int]
    key_track: int
    coin_track: int
    source: str = field(default="", compare=False)


def _err(file: str, line: int, message: str) -> ContentError:
    return ContentError(file, line, message)


def parse_tiles(text: str, file: str = "tiles.txt") -> dict[str, TileShape]:
    """Parse and validate a Tile Table file."""
    shapes: dict[str, TileShape] = {}
    for number, raw in numbered_lines(text):
        parts = raw.split()
        if len(parts) < 3:
            raise _err(file, number, "expected: id name drawing opening...")
        sid, name, drawing, *opens = parts
        if sid in shapes:
            raise _err(file, number, f"shape {sid!r} is defined twice")
        if sid not in (*TABLE_SHAPES, "room"):
            raise _err(file, number, f"unknown shape id {sid!r} (1a..6b or room)")
        try:
            cells = parse_drawing(drawing.split("/"))
        except ValueError as exc:
            raise _err(file, number, str(exc)) from None
        if not is_connected(cells):
            raise _err(file, number, f"shape {sid} is not one connected piece")
        edges = outline(cells)
        openings: set[Mark] = set()
        for token in opens:
            try:
                xy, side = token.split(":")
                xs, ys = xy.split(",")
                mark: Mark = ((int(xs), int(ys)), side.upper())
            except ValueError:
                raise _err(file, number, f"opening {token!r} is not x,y:SIDE") from None
            if mark[1] not in SIDES or mark not in edges:
                raise _err(file, number, f"opening {token} is not on the outline of {sid}")
            if mark in openings:
                raise _err(file, number, f"opening {token} is listed twice")
            openings.add(mark)
        if not openings:
            raise _err(file, number, f"shape {sid} has no opening (T1.4)")
        shapes[sid] = TileShape(sid, name, cells, frozenset(openings))
    missing = [s for s in (*TABLE_SHAPES, "room") if s not in shapes]
    if missing:
        raise _err(file, len(text.splitlines()) or 1, f"missing shapes: {' '.join(missing)}")
    return shapes


def _int(file: str, number: int, token: str, what: str) -> int:
    try:
        value = int(token)
    except ValueError:
        raise _err(file, number, f"{what} {token!r} is not a whole number") from None
    if value <= 0:
        raise _err(file, number, f"{what} must be positive, not {value}")
    return value


def parse_map(text: str, file: str = "map.txt") -> MapSpec:
    """Parse and validate a map file (T10); see docs/tomb-formats.md for the format."""
    lines = numbered_lines(text)
    fields_seen: dict[str, int] = {}
    grid_rows: list[str] = []
    entrances: list[tuple[int, str]] = []
    rooms: list[Room] = []
    coins: dict[int, int] = {}
    keys: list[int] = []
    oozes: list[int] = []
    golems: dict[str, int] = {}
    mimics: list[int] = []
    items: dict[str, int] = {}
    log: dict[str, tuple[int, ...]] = {}
    golem_coins: dict[str, int] = {}
    occupied: dict[int, int] = {}  # square -> line of the finding placed there
    name = title = ""
    key_track = coin_track = 0
    grid: Grid | None = None
    stone = 0

    i = 0
    deferred: list[tuple[int, str, str]] = []
    while i < len(lines):
        number, raw = lines[i]
        key, sep, value = raw.strip().partition(":")
        key, value = key.strip(), value.strip()
        if not sep:
            raise _err(file, number, f"expected 'key: value', got {raw.strip()!r}")
        if key == "grid":
            i += 1
            while i < len(lines) and lines[i][1].strip() != "end":
                row_no, row = lines[i]
                row = row.strip()
                if set(row) - {".", "#"}:
                    raise _err(file, row_no, f"grid row {row!r} may hold only '.' and '#'")
                if grid_rows and len(row) != len(grid_rows[0]):
                    raise _err(file, row_no, f"grid row has {len(row)} squares, "
                               f"the first row has {len(grid_rows[0])}")
                grid_rows.append(row)
                i += 1
            if i == len(lines):
                raise _err(file, number, "grid has no closing 'end' line")
            if not grid_rows:
                raise _err(file, number, "grid is empty")
            grid = Grid(len(grid_rows[0]), len(grid_rows))
            for y, row in enumerate(grid_rows):
                for x, ch in enumerate(row):
                    if ch == "#":
                        stone |= 1 << grid.square(x, y)
            i += 1
            continue
        if key in ("name", "title", "key-track", "coin-track") or key.startswith("log "):
            if key in fields_seen:
                raise _err(file, number, f"{key!r} is given twice (first on line {fields_seen[key]})")
            fields_seen[key] = number
        if key == "name":
            name = value
        elif key == "title":
            title = value
        elif key == "key-track":
            key_track = _int(file, number, value, "key-track")
        elif key == "coin-track":
            coin_track = _int(file, number, value, "coin-track")
        elif key.startswith("log "):
            monster = key[4:]
            tokens = value.split()
            if monster == "golem":
                if len(tokens) % 2:
                    raise _err(file, number, "log golem wants colour/coins pairs")
                for colour, amount in zip(tokens[::2], tokens[1::2], strict=True):
                    if colour not in COLOURS:
                        raise _err(file, number, f"unknown colour {colour!r}")
                    if colour in golem_coins:
                        raise _err(file, number, f"golem {colour} is logged twice")
                    golem_coins[colour] = _int(file, number, amount, "coins")
            elif monster in MONSTERS:
                log[monster] = tuple(_int(file, number, t, "coins") for t in tokens)
            else:
                raise _err(file, number, f"unknown monster {monster!r} in the log")
        elif key in ("entrance", "room", "coins", "key", "ooze", "golem", "mimic", "item"):
            deferred.append((number, key, value))
        else:
            raise _err(file, number, f"unknown field {key!r}")
        i += 1

    if grid is None:
        raise _err(file, len(text.splitlines()) or 1, "the map has no grid")
    if not name:
        raise _err(file, 1, "the map has no 'name:' line")

    def square(number: int, token: str) -> int:
        assert grid is not None
        try:
            return grid.parse_square(token)
        except ValueError as exc:
            raise _err(file, number, str(exc)) from None

    def free_square(number: int, token: str, what: str) -> int:
        sq = square(number, token)
        if stone >> sq & 1:
            raise _err(file, number, f"{what} on {token} is on stone, not a free square")
        if sq in occupied:
            raise _err(file, number, f"{token} already holds a finding (line {occupied[sq]})")
        occupied[sq] = number
        return sq

    room_squares: dict[int, int] = {}
    for number, key, value in deferred:
        tokens = value.split()
        if key == "entrance":
            if len(tokens) != 2 or tokens[1].upper() not in SIDES:
                raise _err(file, number, "expected 'entrance: SQUARE SIDE'")
            sq, side = square(number, tokens[0]), tokens[1].upper()
            if stone >> sq & 1:
                raise _err(file, number, f"entrance square {tokens[0]} is stone")
            if not grid.is_border(grid.edge(sq, side)):
                raise _err(file, number, f"entrance {tokens[0]} {side} is not on the border (T1.3)")
            if (sq, side) in entrances:
                raise _err(file, number, f"entrance {tokens[0]} {side} is listed twice")
            entrances.append((sq, side))
        elif key == "room":
            if len(tokens) < 3 or tokens[1].upper() not in SIDES:
                raise _err(file, number, "expected 'room: SQUARE SIDE sarcophagus|gem COLOUR'")
            sq, side = square(number, tokens[0]), tokens[1].upper()
            if not stone >> sq & 1:
                raise _err(file, number, f"room {tokens[0]} is not a stone square (T1.3)")
            if sq in room_squares:
                raise _err(file, number, f"room {tokens[0]} is listed twice "
                           f"(line {room_squares[sq]}); a room has one opening (T1.3)")
            dx, dy = STEPS[side]
            x, y = grid.xy(sq)
            if not grid.on_grid(x + dx, y + dy) or stone >> grid.square(x + dx, y + dy) & 1:
                raise _err(file, number, f"room {tokens[0]} {side} does not face a free square (T10)")
            room_squares[sq] = number
            if tokens[2] == "sarcophagus" and len(tokens) == 3:
                rooms.append(Room(sq, side, "sarcophagus"))
            elif tokens[2] == "gem" and len(tokens) == 4 and tokens[3] in COLOURS:
                if any(r.colour == tokens[3] for r in rooms):
                    raise _err(file, number, f"a second {tokens[3]} gem")
                rooms.append(Room(sq, side, "gem", tokens[3]))
            else:
                raise _err(file, number, "a room holds 'sarcophagus' or 'gem COLOUR'")
        elif key == "coins":
            if len(tokens) != 2:
                raise _err(file, number, "expected 'coins: SQUARE AMOUNT'")
            coins[free_square(number, tokens[0], "coins")] = _int(file, number, tokens[1], "coins")
        elif key in ("key", "ooze", "mimic"):
            if len(tokens) != 1:
                raise _err(file, number, f"expected '{key}: SQUARE'")
            sq = free_square(number, tokens[0], key)
            {"key": keys, "ooze": oozes, "mimic": mimics}[key].append(sq)
        elif key == "golem":
            if len(tokens) != 2 or tokens[1] not in COLOURS:
                raise _err(file, number, f"expected 'golem: SQUARE COLOUR' ({'/'.join(COLOURS)})")
            if tokens[1] in golems:
                raise _err(file, number, f"a second {tokens[1]} golem")
            golems[tokens[1]] = free_square(number, tokens[0], "golem")
        elif key == "item":
            if len(tokens) != 2 or tokens[1] not in ITEMS:
                raise _err(file, number, f"expected 'item: SQUARE ITEM' ({'/'.join(ITEMS)})")
            if tokens[1] in items:
                raise _err(file, number, f"a second {tokens[1]}")
            items[tokens[1]] = free_square(number, tokens[0], "item")

    # Cross-checks (T10: counts match the log).
    end_line = len(text.splitlines()) or 1

    def need(key: str, count: int) -> None:
        line = fields_seen.get(f"log {key}", end_line)
        got = len(log.get(key, ()))
        if got != count:
            raise _err(file, line, f"log {key} has {got} entries, the map needs {count}")

    sarcophagi = sum(1 for r in rooms if r.finding == "sarcophagus")
    need("ooze", len(oozes))
    need("skeleton", len(oozes))
    need("zombie", sarcophagi)
    need("mimic", len(mimics))
    gem_colours = {r.colour for r in rooms if r.finding == "gem"}
    if set(golems) != gem_colours:
        raise _err(file, end_line, f"golem colours {sorted(golems)} do not match gem colours "
                   f"{sorted(c for c in gem_colours if c)}")
    if set(golem_coins) != set(golems):
        raise _err(file, fields_seen.get("log golem", end_line),
                   f"log golem names {sorted(golem_coins)}, the map has {sorted(golems)}")
    if not entrances:
        raise _err(file, end_line, "the map has no entrance")
    if not key_track:
        raise _err(file, end_line, "the map has no 'key-track:' line")
    if not coin_track:
        raise _err(file, end_line, "the map has no 'coin-track:' line")
    return MapSpec(
        id=name,
        title=title or name,
        grid=grid,
        stone=stone,
        entrances=tuple(entrances),
        rooms=tuple(rooms),
        coins=coins,
        keys=tuple(keys),
        oozes=tuple(oozes),
        golems={c: golems[c] for c in COLOURS if c in golems},
        mimics=tuple(mimics),
        items=items,
        log=log,
        golem_coins={c: golem_coins[c] for c in COLOURS if c in golem_coins},
        key_track=key_track,
        coin_track=coin_track,
        source=file,
    )


def _data(name: str) -> tuple[str, str]:
    res = resources.files("mummy.tomb").joinpath("data").joinpath(name)
    return res.read_text(encoding="utf-8"), f"mummy/tomb/data/{name}"


@cache
def tile_table() -> dict[str, TileShape]:
    """The packaged Tile Table (T2.1)."""
    text, file = _data("tiles.txt")
    return parse_tiles(text, file)


def map_ids() -> list[str]:
    """Ids of the packaged maps, in order."""
    names = [p.name for p in resources.files("mummy.tomb").joinpath("data").iterdir()]
    return sorted(n[:-4] for n in names if n.startswith("map") and n.endswith(".txt"))


@cache
def map_spec(map_id: str) -> MapSpec:
    """A packaged map by id (``map1``, ``map2``)."""
    if map_id not in map_ids():
        raise ValueError(f"unknown map {map_id!r}; maps: {', '.join(map_ids())}")
    text, file = _data(f"{map_id}.txt")
    return parse_map(text, file)


def load_map_file(path: str | Path) -> MapSpec:
    """A map from a file of the user's (a designer's own map)."""
    p = Path(path)
    return parse_map(p.read_text(encoding="utf-8"), str(p))


__all__ = [
    "COLOURS",
    "ITEMS",
    "OPPOSITE",
    "TABLE_SHAPES",
    "MapSpec",
    "Room",
    "TileShape",
    "load_map_file",
    "map_ids",
    "map_spec",
    "parse_map",
    "parse_tiles",
    "tile_table",
]
