"""Seeded maps for The Mummy's Tomb (T10): a map is a pure function of its id.

A generated map's id names everything that made it, ``gen-standard-42-3``: the
difficulty's layout, the seed, and the attempt. The text is rebuilt from the id on any
machine, in any process, so a generated map plays everywhere a packaged one does (the
server, the browser, the terminal, simulation, the research environments) without being
stored anywhere: the id is the map. ``GENERATOR`` is part of the id's meaning; were the
drawing below ever changed, old ids would draw other maps, so a change must come with a
new prefix.

How hard a map is, is measured, not guessed (``mummy.sim.difficulty``): the strong bot
plays it on a fixed set of dice, and an attempt whose mean falls outside the band of its
difficulty is passed over for the next. This module only draws; it plays nothing.

The drawing: stone blocks of one to six squares, apart from each other, so that every
free square stays reachable; one entrance on each side of the border; eight rooms (four
sarcophagi, a gem of each colour) on stone squares facing free ones; and the findings of
Map 1's kinds and counts, none on a square in front of a room or an entrance. The layouts
differ in how much stone there is, how many coins lie on the floor, and above all how far
from the entrances the findings lie (what the strong bot's score follows most).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Final

from mummy.core.grid import STEPS, column_name

#: The generator's version, the first word of its ids.
GENERATOR: Final = "gen"
SIZE: Final = 12
COLOURS: Final = ("red", "blue", "green", "yellow")
ITEMS: Final = ("wand", "shovel", "hammer", "skeleton-key")
#: Stone blocks (width, height) the drawing chooses from.
BLOCKS: Final = ((2, 2), (2, 2), (2, 1), (1, 2), (3, 2), (2, 3), (2, 2))
ID_PATTERN: Final = re.compile(r"^gen-(easy|standard|hard)-(\d{1,9})-(\d{1,4})$")


@dataclass(frozen=True)
class Layout:
    """What a difficulty's maps are drawn with (the measured band is in the simulation)."""

    stone: tuple[int, int]  # least and most stone squares
    coins: tuple[int, ...]  # the coins on the floor, one square each
    reach: float  # findings drawn with weight (1 + steps from the nearest entrance) ** reach


LAYOUTS: Final = {
    "easy": Layout(stone=(20, 26), coins=(3, 3, 2, 2, 2, 2, 1, 1, 1, 1), reach=0.0),
    "standard": Layout(stone=(28, 36), coins=(3, 3, 2, 2, 2, 2, 1, 1, 1, 1), reach=1.5),
    "hard": Layout(stone=(42, 50), coins=(3, 2, 2, 2, 2, 1, 1, 1, 1, 1), reach=4.0),
}
DIFFICULTIES: Final = tuple(LAYOUTS)

Square = tuple[int, int]


def map_id(difficulty: str, seed: int, attempt: int = 0) -> str:
    """The id of a generated map: ``gen-DIFFICULTY-SEED-ATTEMPT``."""
    if difficulty not in LAYOUTS:
        raise ValueError(f"unknown difficulty {difficulty!r}; use one of {', '.join(DIFFICULTIES)}")
    return f"{GENERATOR}-{difficulty}-{seed}-{attempt}"


def parse_id(text: str) -> tuple[str, int, int] | None:
    """``(difficulty, seed, attempt)`` of a generated map's id, or None for another id."""
    m = ID_PATTERN.match(text)
    return (m.group(1), int(m.group(2)), int(m.group(3))) if m else None


def square_name(square: Square) -> str:
    """The notation's name of a square given as (x, y): (0, 0) is A1."""
    return f"{column_name(square[0])}{square[1] + 1}"


class _Drawing:
    """One attempt's drawing, step by step, from its own random stream."""

    def __init__(self, rng: random.Random, layout: Layout) -> None:
        self.rng = rng
        self.layout = layout
        self.stone: set[Square] = set()
        self.reserved: set[Square] = set()  # free squares kept clear of findings
        self.entrances: list[Square] = []
        self.lines: list[str] = []

    def free(self) -> list[Square]:
        return [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) not in self.stone]

    def place_stone(self) -> None:
        """Blocks of stone, never touching another block (not even at a corner), until the
        layout's amount is reached."""
        low, high = self.layout.stone
        target = self.rng.randint(low, high)
        tries = 0
        while len(self.stone) < target and tries < 2000:
            tries += 1
            w, h = self.rng.choice(BLOCKS)
            x, y = self.rng.randrange(SIZE - w + 1), self.rng.randrange(SIZE - h + 1)
            block = {(x + i, y + j) for i in range(w) for j in range(h)}
            halo = {(a + dx, b + dy) for a, b in block for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            if halo & self.stone or len(self.stone) + len(block) > high:
                continue
            self.stone |= block

    def connected(self) -> bool:
        """Every free square reachable from every other (blocks apart make it so, unless
        they wall off a corner against the border)."""
        free = set(self.free())
        start = next(iter(free))
        seen, todo = {start}, [start]
        while todo:
            x, y = todo.pop()
            for dx, dy in STEPS.values():
                n = (x + dx, y + dy)
                if n in free and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen == free

    def place_entrances(self) -> None:
        """One entrance on each side of the border, on a free square away from the corners."""
        last = SIZE - 1
        for side in "NESW":
            line = {"N": [(i, 0) for i in range(1, last)], "S": [(i, last) for i in range(1, last)],
                    "W": [(0, i) for i in range(1, last)], "E": [(last, i) for i in range(1, last)]}[side]
            square = self.rng.choice([s for s in line if s not in self.stone and s not in self.reserved])
            self.reserved.add(square)
            self.entrances.append(square)
            self.lines.append(f"entrance: {square_name(square)} {side}")

    def place_rooms(self) -> None:
        """Eight rooms on stone squares, each facing its own free square; at most two per
        block side."""
        faces: list[tuple[Square, str, Square]] = []
        for x, y in sorted(self.stone):
            for side, (dx, dy) in STEPS.items():
                front = (x + dx, y + dy)
                if 0 <= front[0] < SIZE and 0 <= front[1] < SIZE and front not in self.stone:
                    faces.append(((x, y), side, front))
        self.rng.shuffle(faces)
        findings = ["sarcophagus"] * 4 + [f"gem {c}" for c in COLOURS]
        self.rng.shuffle(findings)
        used: set[Square] = set()
        for square, side, front in faces:
            if not findings:
                break
            if square in used or front in self.reserved:
                continue
            used.add(square)
            self.reserved.add(front)
            self.lines.append(f"room: {square_name(square)} {side} {findings.pop()}")
        if findings:
            raise _Retry

    def distances(self) -> dict[Square, int]:
        """Steps from the nearest entrance to every free square."""
        seen = {sq: 0 for sq in self.entrances}
        todo = list(self.entrances)
        for x, y in todo:
            for dx, dy in STEPS.values():
                n = (x + dx, y + dy)
                if n not in seen and 0 <= n[0] < SIZE and 0 <= n[1] < SIZE and n not in self.stone:
                    seen[n] = seen[(x, y)] + 1
                    todo.append(n)
        return seen

    def place_findings(self) -> None:
        """Each finding on a free square drawn with a weight of its distance from the
        nearest entrance to the layout's power: near the entrances on easy maps, far on
        hard ones. Findings are what a sheet scores, and a corridor must reach them."""
        far = self.distances()
        spots = [sq for sq in self.free() if sq not in self.reserved]
        weights = [(far[sq] + 1) ** self.layout.reach for sq in spots]
        kinds = ([f"coins: {{}} {c}" for c in self.layout.coins] + ["key: {}"] * 4 + ["ooze: {}"] * 6
                 + [f"golem: {{}} {c}" for c in COLOURS] + ["mimic: {}"] * 6 + [f"item: {{}} {i}" for i in ITEMS])
        for kind in kinds:
            i = self.rng.choices(range(len(spots)), weights)[0]
            self.lines.append(kind.format(square_name(spots.pop(i))))
            weights.pop(i)

    def grid_lines(self) -> list[str]:
        return ["  " + "".join("#" if (x, y) in self.stone else "." for x in range(SIZE)) for y in range(SIZE)]


class _Retry(Exception):
    """This drawing went nowhere: draw again from the same stream."""


LOG: Final = ("log ooze: 1 1 1 1 1 1", "log skeleton: 1 1 2 2 3 3", "log zombie: 2 2 3 3",
              "log golem: red 2 blue 2 green 3 yellow 3", "log mimic: 1 1 2 2 3 3", "key-track: 6",
              "coin-track: 40")


def map_text(difficulty: str, seed: int, attempt: int = 0) -> str:
    """The map file of ``gen-DIFFICULTY-SEED-ATTEMPT`` (docs/tomb-formats.md): the same
    text for the same id, always."""
    ident = map_id(difficulty, seed, attempt)
    rng = random.Random(f"{ident}")
    while True:
        d = _Drawing(rng, LAYOUTS[difficulty])
        d.place_stone()
        if not d.connected():
            continue
        try:
            d.place_entrances()
            d.place_rooms()
        except (_Retry, IndexError):
            continue
        d.place_findings()
        break
    stone = len(d.stone)
    head = [f"# A generated map (T10): {difficulty}, seed {seed}, attempt {attempt}; {stone} stone squares,",
            f"# {sum(LAYOUTS[difficulty].coins)} coins on the floor. Rebuilt from its name by mummy.tomb.generate.",
            f"name: {ident}", f"title: Generated {difficulty} {seed}.{attempt}", "grid:", *d.grid_lines(), "end"]
    return "\n".join([*head, *d.lines, *LOG]) + "\n"


__all__ = ["DIFFICULTIES", "GENERATOR", "LAYOUTS", "Layout", "map_id", "map_text", "parse_id"]
