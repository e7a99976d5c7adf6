"""How hard a Tomb map is, measured: the strong bot's mean on a fixed set of dice (T10).

A map's difficulty is not guessed from how much stone it has: the strong bot plays it
solo in standard mode on the same dice for every map (:data:`SEEDS`, apart from the
bench's seeds and the bots' tuning seeds), and its mean score places the map in a band.
Map 1, the rulebook's, is standard; Map 2 is hard. The bot and the dice being seeded,
the same map always measures the same.

:func:`generate` draws a map of the asked difficulty: the attempts of
:mod:`mummy.tomb.generate` for that seed, in turn, until one measures inside its band.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Final

from mummy.sim.spec import GameSpec
from mummy.sim.tomb import TombSim
from mummy.tomb.generate import DIFFICULTIES, map_id

#: The dice every map is measured on: one solo game per seed. Thirty, because one game's
#: score varies by some 35 points: the mean of 30 is within about 6 of the map's own.
SEEDS: Final = tuple(range(8000, 8030))
#: The bot whose mean is a map's difficulty.
BOT: Final = "strong"
#: The strong bot's mean score in each band: [low, high). Set around Map 1, the rulebook's
#: map and the standard one, which measures 168.6: a band is 30 points wide, about five
#: times the error of a 30-game mean.
BANDS: Final = {"easy": (180.0, math.inf), "standard": (150.0, 180.0), "hard": (-math.inf, 150.0)}


@dataclass(frozen=True)
class Measured:
    """A map's measure: the strong bot's mean over ``games`` games and its band."""

    map_id: str
    mean: float
    games: int
    band: str
    attempts: int = 1
    scores: tuple[int, ...] = ()


def band_of(mean: float) -> str:
    """The difficulty whose band holds this mean."""
    return next(name for name, (low, high) in BANDS.items() if low <= mean < high)


def measure(map_name: str, seeds: Iterable[int] = SEEDS, jobs: int = 1) -> Measured:
    """The strong bot's mean on ``map_name`` over the given dice (a process pool when
    ``jobs`` > 1; the result is the same either way)."""
    specs = [GameSpec("tomb", i, seed, (BOT,), map=map_name) for i, seed in enumerate(seeds)]
    if jobs > 1:
        from mummy.sim.runner import run

        scores = [line["scores"][0] for line in run(specs, jobs=jobs)]
    else:
        scores = [TombSim().play(spec)["scores"][0] for spec in specs]
    mean = round(statistics.fmean(scores), 1)
    return Measured(map_name, mean, len(scores), band_of(mean), scores=tuple(scores))


def generate(difficulty: str, seed: int, *, attempts: int = 24, jobs: int = 1,
             seeds: Iterable[int] = SEEDS, told: Callable[[Measured], None] | None = None) -> Measured:
    """The first attempt for ``seed`` whose measure falls in ``difficulty``'s band.

    ``told`` hears each attempt's measure (for a progress line). Raises ValueError when
    none of ``attempts`` does, which the bands make rare."""
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}; use one of {', '.join(DIFFICULTIES)}")
    dice = tuple(seeds)
    for attempt in range(attempts):
        got = measure(map_id(difficulty, seed, attempt), dice, jobs)
        got = replace(got, attempts=attempt + 1)
        if told is not None:
            told(got)
        if got.band == difficulty:
            return got
    raise ValueError(f"no {difficulty} map for seed {seed} in {attempts} attempts; try another seed")


__all__ = ["BANDS", "BOT", "SEEDS", "Measured", "band_of", "generate", "measure"]
