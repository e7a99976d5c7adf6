"""``mummy maps``: the Tomb's maps, how hard each measures, and new ones drawn from a seed.

``mummy maps`` lists the packaged maps with their measured difficulty (the strong bot's
mean on the fixed dice of :mod:`mummy.sim.difficulty`, written in each map file and
checked by the tests). ``mummy maps generate --seed N [--difficulty D] [--out FILE]``
draws a map, measures it, and passes over attempts until one falls in the difficulty's
band; the map file goes to standard output without ``--out``, the measures to standard
error. Its name (``gen-standard-42-0``) is a map id every other command takes. ``mummy
maps measure MAP`` measures one map, an id or a designer's own file.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any


def add_parser(sub: Any, seed: Any) -> None:
    """The ``maps`` command and its ``generate`` subcommand."""
    maps = sub.add_parser("maps", help="list the Tomb's maps; 'maps generate' draws a new one")
    maps.set_defaults(run=list_maps)
    inner = maps.add_subparsers(dest="maps_command")
    gen = inner.add_parser("generate", help="draw a map of a measured difficulty from a seed (T10)")
    gen.add_argument("--seed", type=seed, required=True, help="the drawing's seed")
    gen.add_argument("--difficulty", default="standard", choices=("easy", "standard", "hard"),
                     help="the band the strong bot's mean must fall in (default standard, as Map 1)")
    gen.add_argument("--out", metavar="FILE", default=None, help="write the map file here (default: stdout)")
    gen.add_argument("--attempts", type=int, default=24, help="attempts before giving up (default 24)")
    gen.add_argument("--jobs", type=int, default=1, help="processes measuring the map (default 1)")
    gen.add_argument("--games", type=int, default=None,
                     help="measure on the first GAMES of the fixed dice only (quicker, rougher; default all)")
    gen.set_defaults(run=generate_map)
    mea = inner.add_parser("measure", help="measure a map's difficulty: the strong bot's mean on the fixed dice")
    mea.add_argument("map", help="a map id (map1, gen-hard-12-0, ...) or a map file of your own")
    mea.add_argument("--jobs", type=int, default=1, help="processes playing the games (default 1)")
    mea.add_argument("--games", type=int, default=None,
                     help="the first GAMES of the fixed dice only (quicker, rougher; default all)")
    mea.add_argument("--json", action="store_true", help="print the measure as JSON, with each game's score")
    mea.set_defaults(run=measure_map)


def list_maps(args: argparse.Namespace) -> int:
    from mummy.sim.difficulty import band_of
    from mummy.tomb.content import map_ids, map_spec

    for map_id in map_ids():
        spec = map_spec(map_id)
        measured = (f"{band_of(spec.measured)} by measure: the strong bot's mean {spec.measured:.1f}"
                    if spec.measured is not None else "not measured")
        print(f"{map_id}: {spec.title}; {measured}")
    print("Generated maps: `mummy maps generate --seed N --difficulty easy|standard|hard`; "
          "their ids (gen-DIFFICULTY-SEED-ATTEMPT) work wherever a map is asked for.")
    return 0


def band_words(low: float, high: float) -> str:
    """A band's bounds in words: an open end is said as "under" or "or more"."""
    if low == -math.inf:
        return f"a mean under {high:g}"
    if high == math.inf:
        return f"a mean of {low:g} or more"
    return f"a mean in [{low:g}, {high:g})"


def measure_map(args: argparse.Namespace) -> int:
    """The strong bot's mean on a map over the fixed dice, and its band: a designer's own
    map file is checked (T10) and measured under its custom id."""
    import json
    import os

    from mummy.core.errors import ContentError
    from mummy.sim.difficulty import SEEDS, measure
    from mummy.tomb.content import is_map, register_map_text

    map_id = args.map
    if not is_map(map_id):
        if not os.path.isfile(map_id):
            print(f"mummy maps measure: {map_id!r} is neither a map id nor a file", file=sys.stderr)
            return 1
        try:
            with open(map_id, encoding="utf-8") as f:
                map_id = register_map_text(f.read())
        except (OSError, ContentError) as exc:
            print(f"mummy maps measure: {args.map}: {exc}", file=sys.stderr)
            return 1
    dice = SEEDS[:args.games] if args.games else SEEDS
    got = measure(map_id, dice, args.jobs)
    if args.json:
        print(json.dumps({"map": got.map_id, "mean": got.mean, "band": got.band, "games": got.games,
                          "seeds": list(dice), "scores": list(got.scores)}))
    else:
        print(f"{args.map}: the strong bot's mean {got.mean:.1f} over {got.games} games ({got.band}); "
              f"scores {' '.join(map(str, got.scores))}")
    return 0


def generate_map(args: argparse.Namespace) -> int:
    from mummy.sim.difficulty import BANDS, SEEDS, Measured, generate
    from mummy.tomb.generate import map_text, parse_id

    low, high = BANDS[args.difficulty]

    def told(m: Measured) -> None:
        verdict = "in the band" if m.band == args.difficulty else f"{m.band}, passed over"
        print(f"attempt {m.attempts}: {m.map_id}: the strong bot's mean {m.mean:.1f} over {m.games} games "
              f"({verdict})", file=sys.stderr)

    dice = SEEDS[:args.games] if args.games else SEEDS
    print(f"measuring on {len(dice)} fixed dice; {args.difficulty} is {band_words(low, high)}", file=sys.stderr)
    try:
        got = generate(args.difficulty, args.seed, attempts=args.attempts, jobs=args.jobs, seeds=dice, told=told)
    except ValueError as exc:
        print(f"mummy maps generate: {exc}", file=sys.stderr)
        return 1
    ident = parse_id(got.map_id)
    assert ident is not None
    line = (f"measured: {got.mean:.1f}" if got.games == len(SEEDS)
            else f"# measured: {got.mean:.1f} on {got.games} of the {len(SEEDS)} dice (--games {got.games})")
    text = map_text(*ident).replace("grid:\n", f"{line}\ngrid:\n", 1)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        print(f"mummy maps generate: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}: {got.map_id} ({got.band}, mean {got.mean:.1f})", file=sys.stderr)
    return 0
