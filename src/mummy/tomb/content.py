"""The Tomb's content as data: the Tile Table and the maps (T2.1, T9, T10).

Content lives in small line-oriented text files inside the package (``tomb/data``), so
that a designer can read and edit them and so that every fault can be reported with its
file and line. Loading validates everything T10 asks for and raises
:class:`~mummy.core.errors.ContentError` naming the file, the line and the fault.
The package never reads ``../shared`` at run time.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
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
    #: A custom map's canonical text, which its games and records carry (else None).
    text: str | None = field(default=None, compare=False)
    #: the strong bot's mean on the measuring dice (mummy.sim.difficulty), if measured
    measured: float | None = None


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
    """Parse and validate a map file (T10); see docs/tomb-formats.md for the format.

    In named steps: read the lines (the grid and the single-valued fields), then place
    what stands on squares once the grid is known (entrances, rooms, findings), then
    cross-check the counts against the log. Every fault names its file and line."""
    draft = _MapDraft(file, len(text.splitlines()) or 1)
    draft.read(numbered_lines(text))
    grid = draft.require_grid()
    for number, key, value in draft.deferred:
        draft.place(grid, number, key, value.split())
    draft.cross_check()
    return draft.spec(grid)


#: Fields given once per map (a second one is a fault).
_SINGLE_FIELDS: Final = ("name", "title", "key-track", "coin-track", "measured")
#: Fields that stand on a square: placed once the grid is known, whatever the line order.
_PLACED_FIELDS: Final = ("entrance", "room", "coins", "key", "ooze", "golem", "mimic", "item")


@dataclass
class _MapDraft:
    """A map file as read so far. Why a class: the steps of :func:`parse_map` share what
    earlier lines said (the grid, the squares already holding a finding, the line of
    each field for later messages)."""

    file: str
    end_line: int  # the line a fault of the whole file is reported on
    fields_seen: dict[str, int] = field(default_factory=dict)  # field -> its line
    grid_rows: list[str] = field(default_factory=list)
    grid: Grid | None = None
    stone: int = 0
    name: str = ""
    title: str = ""
    key_track: int = 0
    coin_track: int = 0
    measured: float | None = None
    log: dict[str, tuple[int, ...]] = field(default_factory=dict)
    golem_coins: dict[str, int] = field(default_factory=dict)
    deferred: list[tuple[int, str, str]] = field(default_factory=list)  # (line, field, value)
    entrances: list[tuple[int, str]] = field(default_factory=list)
    rooms: list[Room] = field(default_factory=list)
    room_squares: dict[int, int] = field(default_factory=dict)  # square -> line
    coins: dict[int, int] = field(default_factory=dict)
    keys: list[int] = field(default_factory=list)
    oozes: list[int] = field(default_factory=list)
    golems: dict[str, int] = field(default_factory=dict)
    mimics: list[int] = field(default_factory=list)
    items: dict[str, int] = field(default_factory=dict)
    occupied: dict[int, int] = field(default_factory=dict)  # square -> line of the finding placed there

    # -- step 1: the lines -----------------------------------------------------------------
    def read(self, lines: list[tuple[int, str]]) -> None:
        """Read every line: a grid block, or one 'key: value' field."""
        i = 0
        while i < len(lines):
            number, raw = lines[i]
            key, sep, value = raw.strip().partition(":")
            key, value = key.strip(), value.strip()
            if not sep:
                raise _err(self.file, number, f"expected 'key: value', got {raw.strip()!r}")
            if key == "grid":
                i = self.read_grid(lines, i)
                continue
            self.read_field(number, key, value)
            i += 1

    def read_grid(self, lines: list[tuple[int, str]], i: int) -> int:
        """The grid block that starts on line ``lines[i]``, up to its 'end' line: rows of
        '.' (free) and '#' (stone) of one width. Returns the index after the block."""
        number = lines[i][0]
        i += 1
        while i < len(lines) and lines[i][1].strip() != "end":
            row_no, row = lines[i]
            row = row.strip()
            if set(row) - {".", "#"}:
                raise _err(self.file, row_no, f"grid row {row!r} may hold only '.' and '#'")
            if self.grid_rows and len(row) != len(self.grid_rows[0]):
                raise _err(self.file, row_no, f"grid row has {len(row)} squares, "
                           f"the first row has {len(self.grid_rows[0])}")
            self.grid_rows.append(row)
            i += 1
        if i == len(lines):
            raise _err(self.file, number, "grid has no closing 'end' line")
        if not self.grid_rows:
            raise _err(self.file, number, "grid is empty")
        grid = self.grid = Grid(len(self.grid_rows[0]), len(self.grid_rows))
        for y, row in enumerate(self.grid_rows):
            for x, ch in enumerate(row):
                if ch == "#":
                    self.stone |= 1 << grid.square(x, y)
        return i + 1

    def read_field(self, number: int, key: str, value: str) -> None:
        """One 'key: value' line other than the grid."""
        if key in _SINGLE_FIELDS or key.startswith("log "):
            if key in self.fields_seen:
                raise _err(self.file, number, f"{key!r} is given twice (first on line {self.fields_seen[key]})")
            self.fields_seen[key] = number
        if key == "name":
            self.name = value
        elif key == "title":
            self.title = value
        elif key == "measured":
            try:
                self.measured = float(value)
            except ValueError:
                raise _err(self.file, number, f"'measured' is the strong bot's mean score, a number, not {value!r}") \
                    from None
        elif key == "key-track":
            self.key_track = _int(self.file, number, value, "key-track")
        elif key == "coin-track":
            self.coin_track = _int(self.file, number, value, "coin-track")
        elif key.startswith("log "):
            self.read_log(number, key[4:], value.split())
        elif key in _PLACED_FIELDS:
            self.deferred.append((number, key, value))
        else:
            raise _err(self.file, number, f"unknown field {key!r}")

    def read_log(self, number: int, monster: str, tokens: list[str]) -> None:
        """A line of the coin log (T5.2): a monster's coins in order, or the golems' by colour."""
        file = self.file
        if monster == "golem":
            if len(tokens) % 2:
                raise _err(file, number, "log golem wants colour/coins pairs")
            for colour, amount in zip(tokens[::2], tokens[1::2], strict=True):
                if colour not in COLOURS:
                    raise _err(file, number, f"unknown colour {colour!r}")
                if colour in self.golem_coins:
                    raise _err(file, number, f"golem {colour} is logged twice")
                self.golem_coins[colour] = _int(file, number, amount, "coins")
        elif monster in MONSTERS:
            self.log[monster] = tuple(_int(file, number, t, "coins") for t in tokens)
        else:
            raise _err(file, number, f"unknown monster {monster!r} in the log")

    def require_grid(self) -> Grid:
        """The grid, which the placing step needs, and the name, which every map has."""
        if self.grid is None:
            raise _err(self.file, self.end_line, "the map has no grid")
        if not self.name:
            raise _err(self.file, 1, "the map has no 'name:' line")
        return self.grid

    # -- step 2: what stands on squares ----------------------------------------------------
    def place(self, grid: Grid, number: int, key: str, tokens: list[str]) -> None:
        """One deferred line: an entrance, a room, or a finding on a free square."""
        if key == "entrance":
            self.place_entrance(grid, number, tokens)
        elif key == "room":
            self.place_room(grid, number, tokens)
        else:
            self.place_finding(grid, number, key, tokens)

    def square(self, grid: Grid, number: int, token: str) -> int:
        try:
            return grid.parse_square(token)
        except ValueError as exc:
            raise _err(self.file, number, str(exc)) from None

    def free_square(self, grid: Grid, number: int, token: str, what: str) -> int:
        """A free square that holds no other finding (T5.1: one per square)."""
        sq = self.square(grid, number, token)
        if self.stone >> sq & 1:
            raise _err(self.file, number, f"{what} on {token} is on stone, not a free square")
        if sq in self.occupied:
            raise _err(self.file, number, f"{token} already holds a finding (line {self.occupied[sq]})")
        self.occupied[sq] = number
        return sq

    def place_entrance(self, grid: Grid, number: int, tokens: list[str]) -> None:
        """An entrance: a free square's side on the border (T1.3)."""
        file = self.file
        if len(tokens) != 2 or tokens[1].upper() not in SIDES:
            raise _err(file, number, "expected 'entrance: SQUARE SIDE'")
        sq, side = self.square(grid, number, tokens[0]), tokens[1].upper()
        if self.stone >> sq & 1:
            raise _err(file, number, f"entrance square {tokens[0]} is stone")
        if not grid.is_border(grid.edge(sq, side)):
            raise _err(file, number, f"entrance {tokens[0]} {side} is not on the border (T1.3)")
        if (sq, side) in self.entrances:
            raise _err(file, number, f"entrance {tokens[0]} {side} is listed twice")
        self.entrances.append((sq, side))

    def place_room(self, grid: Grid, number: int, tokens: list[str]) -> None:
        """A room: a stone square with one opening facing a free square, holding a
        sarcophagus or a gem of a colour (T1.3, T10)."""
        file = self.file
        if len(tokens) < 3 or tokens[1].upper() not in SIDES:
            raise _err(file, number, "expected 'room: SQUARE SIDE sarcophagus|gem COLOUR'")
        sq, side = self.square(grid, number, tokens[0]), tokens[1].upper()
        if not self.stone >> sq & 1:
            raise _err(file, number, f"room {tokens[0]} is not a stone square (T1.3)")
        if sq in self.room_squares:
            raise _err(file, number, f"room {tokens[0]} is listed twice "
                       f"(line {self.room_squares[sq]}); a room has one opening (T1.3)")
        dx, dy = STEPS[side]
        x, y = grid.xy(sq)
        if not grid.on_grid(x + dx, y + dy) or self.stone >> grid.square(x + dx, y + dy) & 1:
            raise _err(file, number, f"room {tokens[0]} {side} does not face a free square (T10)")
        self.room_squares[sq] = number
        if tokens[2] == "sarcophagus" and len(tokens) == 3:
            self.rooms.append(Room(sq, side, "sarcophagus"))
        elif tokens[2] == "gem" and len(tokens) == 4 and tokens[3] in COLOURS:
            if any(r.colour == tokens[3] for r in self.rooms):
                raise _err(file, number, f"a second {tokens[3]} gem")
            self.rooms.append(Room(sq, side, "gem", tokens[3]))
        else:
            raise _err(file, number, "a room holds 'sarcophagus' or 'gem COLOUR'")

    def place_finding(self, grid: Grid, number: int, key: str, tokens: list[str]) -> None:
        """A finding on a free square (T5.1): coins, a key, a monster or an item."""
        file = self.file
        if key == "coins":
            if len(tokens) != 2:
                raise _err(file, number, "expected 'coins: SQUARE AMOUNT'")
            self.coins[self.free_square(grid, number, tokens[0], "coins")] = _int(file, number, tokens[1], "coins")
        elif key in ("key", "ooze", "mimic"):
            if len(tokens) != 1:
                raise _err(file, number, f"expected '{key}: SQUARE'")
            sq = self.free_square(grid, number, tokens[0], key)
            {"key": self.keys, "ooze": self.oozes, "mimic": self.mimics}[key].append(sq)
        elif key == "golem":
            if len(tokens) != 2 or tokens[1] not in COLOURS:
                raise _err(file, number, f"expected 'golem: SQUARE COLOUR' ({'/'.join(COLOURS)})")
            if tokens[1] in self.golems:
                raise _err(file, number, f"a second {tokens[1]} golem")
            self.golems[tokens[1]] = self.free_square(grid, number, tokens[0], "golem")
        elif key == "item":
            if len(tokens) != 2 or tokens[1] not in ITEMS:
                raise _err(file, number, f"expected 'item: SQUARE ITEM' ({'/'.join(ITEMS)})")
            if tokens[1] in self.items:
                raise _err(file, number, f"a second {tokens[1]}")
            self.items[tokens[1]] = self.free_square(grid, number, tokens[0], "item")

    # -- step 3: the counts ----------------------------------------------------------------
    def cross_check(self) -> None:
        """T10: the log has an entry per monster on the map, golems match gems, and the
        entrances and tracks are there."""
        file, end_line = self.file, self.end_line
        sarcophagi = sum(1 for r in self.rooms if r.finding == "sarcophagus")
        self.need("ooze", len(self.oozes))
        self.need("skeleton", len(self.oozes))
        self.need("zombie", sarcophagi)
        self.need("mimic", len(self.mimics))
        gem_colours = {r.colour for r in self.rooms if r.finding == "gem"}
        if set(self.golems) != gem_colours:
            raise _err(file, end_line, f"golem colours {sorted(self.golems)} do not match gem colours "
                       f"{sorted(c for c in gem_colours if c)}")
        if set(self.golem_coins) != set(self.golems):
            raise _err(file, self.fields_seen.get("log golem", end_line),
                       f"log golem names {sorted(self.golem_coins)}, the map has {sorted(self.golems)}")
        if not self.entrances:
            raise _err(file, end_line, "the map has no entrance")
        if not self.key_track:
            raise _err(file, end_line, "the map has no 'key-track:' line")
        if not self.coin_track:
            raise _err(file, end_line, "the map has no 'coin-track:' line")

    def need(self, key: str, count: int) -> None:
        """The log of ``key`` has ``count`` entries (reported on its line, if it has one)."""
        line = self.fields_seen.get(f"log {key}", self.end_line)
        got = len(self.log.get(key, ()))
        if got != count:
            raise _err(self.file, line, f"log {key} has {got} entries, the map needs {count}")

    def spec(self, grid: Grid) -> MapSpec:
        """The validated map, golems and their coins in the order of COLOURS."""
        return MapSpec(
            id=self.name,
            title=self.title or self.name,
            grid=grid,
            stone=self.stone,
            entrances=tuple(self.entrances),
            rooms=tuple(self.rooms),
            coins=self.coins,
            keys=tuple(self.keys),
            oozes=tuple(self.oozes),
            golems={c: self.golems[c] for c in COLOURS if c in self.golems},
            mimics=tuple(self.mimics),
            items=self.items,
            log=self.log,
            golem_coins={c: self.golem_coins[c] for c in COLOURS if c in self.golem_coins},
            key_track=self.key_track,
            coin_track=self.coin_track,
            source=self.file,
            measured=self.measured,
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


def is_map(map_id: str) -> bool:
    """A map this package can draw: a packaged one, a generated one's id, or a custom map
    registered in this process (T10)."""
    from mummy.tomb.generate import parse_id

    return map_id in map_ids() or parse_id(map_id) is not None or custom_map_text(map_id) is not None


# -- custom maps: a map's text registered by its content ------------------------------------
#: The prefix of a custom map's id; the rest is the start of the SHA-256 of its canonical text.
CUSTOM_PREFIX: Final = "custom-"
#: The longest map text taken (a 12x12 map is about 1,300 characters).
MAX_MAP_TEXT: Final = 20_000
#: The most custom maps a process keeps: a cache, not a store. The least recently used
#: goes, and whoever holds a map's text (a game's set-up, a record, the server's table)
#: registers it again: nothing depends on room here.
MAX_CUSTOM_MAPS: Final = 1_000
#: id -> canonical text, least recently used first. Keyed by the text's hash: every
#: process derives the same id from the same text, so the id means the same map anywhere.
_CUSTOM: OrderedDict[str, str] = OrderedDict()
_CUSTOM_LOCK = threading.Lock()  # (registered from the server's worker threads)


def canonical_map_text(text: str) -> str:
    """A map's text as it is hashed and kept: Unix line ends, no trailing spaces on a
    line, no blank lines at the end, one final newline (so a text saved on another system
    keeps its id)."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def custom_map_id(text: str) -> str:
    """The id of a custom map: ``custom-`` and the first 12 hex digits of the SHA-256 of
    its canonical text."""
    digest = hashlib.sha256(canonical_map_text(text).encode("utf-8")).hexdigest()
    return f"{CUSTOM_PREFIX}{digest[:12]}"


def register_map_text(text: str) -> str:
    """Validate a map's text (T10, :func:`parse_map`; :class:`ContentError` as ``mummy
    check-map``) and register it, letting the least recently used go: its id."""
    canon = canonical_map_text(text)
    if len(canon) > MAX_MAP_TEXT:
        raise _err("custom map", 1, f"a map's text is at most {MAX_MAP_TEXT} characters, not {len(canon)}")
    map_id = custom_map_id(canon)
    with _CUSTOM_LOCK:
        if map_id in _CUSTOM:
            _CUSTOM.move_to_end(map_id)
            return map_id
    parse_map(canon, "custom map")  # outside the lock: a few milliseconds for a big map
    with _CUSTOM_LOCK:
        _CUSTOM[map_id] = canon
        while len(_CUSTOM) > MAX_CUSTOM_MAPS:
            _CUSTOM.popitem(last=False)
    return map_id


def forget_custom_map(map_id: str) -> None:
    """Unregister a custom map, as a fresh process would not know it (the tests)."""
    with _CUSTOM_LOCK:
        _CUSTOM.pop(map_id, None)
    map_spec.cache_clear()


def custom_map_text(map_id: str) -> str | None:
    """The canonical text of a custom map this process holds now, else None."""
    with _CUSTOM_LOCK:
        return _CUSTOM.get(map_id)


def fault_square(text: str, line: int) -> str | None:
    """The square a map file's line names (``room: C3 N ...`` names C3), if it names one
    on the grid: where an editor shows that line's fault."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    key, sep, value = lines[line - 1].partition(":")
    tokens = value.split()
    if not sep or key.strip() not in _PLACED_FIELDS or not tokens:
        return None
    size = _grid_size(text)
    if size is None:
        return None
    grid = Grid(*size)
    try:
        return grid.square_name(grid.parse_square(tokens[0]))
    except ValueError:
        return None


def _grid_size(text: str) -> tuple[int, int] | None:
    """(width, height) of the text's grid block, if it has one (faults aside)."""
    rows: list[str] = []
    inside = False
    for _, line in numbered_lines(text):
        if line.partition(":")[0].strip() == "grid":
            inside = True
        elif inside and line == "end":
            break
        elif inside:
            rows.append(line)
    return (len(rows[0]), len(rows)) if rows else None


@lru_cache(maxsize=512)
def map_spec(map_id: str) -> MapSpec:
    """A map by id: a packaged one (``map1``, ``map2``), a generated one rebuilt from its
    id (``gen-standard-42-0``, see :mod:`mummy.tomb.generate`), or a registered custom
    map (``custom-…``, :func:`register_map_text`), whose id replaces its ``name:``."""
    from mummy.tomb.generate import map_text, parse_id

    generated = parse_id(map_id)
    if generated is not None:
        return parse_map(map_text(*generated), f"{map_id} (generated)")
    custom = custom_map_text(map_id)
    if custom is not None:
        return replace(parse_map(custom, f"{map_id} (custom)"), id=map_id, text=custom)
    if map_id not in map_ids():
        raise ValueError(f"unknown map {map_id!r}; maps: {', '.join(map_ids())}, a generated map's id "
                         "(gen-DIFFICULTY-SEED-ATTEMPT) or a registered custom map's (custom-…)")
    text, file = _data(f"{map_id}.txt")
    return parse_map(text, file)


def load_map_file(path: str | Path) -> MapSpec:
    """A map from a file of the user's (a designer's own map)."""
    p = Path(path)
    return parse_map(p.read_text(encoding="utf-8"), str(p))


__all__ = [
    "COLOURS",
    "CUSTOM_PREFIX",
    "ITEMS",
    "MAX_MAP_TEXT",
    "OPPOSITE",
    "TABLE_SHAPES",
    "MapSpec",
    "Room",
    "TileShape",
    "canonical_map_text",
    "custom_map_id",
    "custom_map_text",
    "fault_square",
    "forget_custom_map",
    "is_map",
    "load_map_file",
    "map_ids",
    "map_spec",
    "parse_map",
    "parse_tiles",
    "register_map_text",
    "tile_table",
]
