"""The terminal's part of each game: its ``mummy play`` options, setting the table, and
how ``mummy replay`` shows a replayed game. The CLI looks a game up in :data:`TERMINALS`
and never asks which one it is.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Final, Protocol

from mummy.bots.registry import bot_names, bot_seed, bots_help, make_agent
from mummy.core.errors import ContentError
from mummy.core.rng import new_seed
from mummy.games import Parts
from mummy.render.tomb_text import render_sheet
from mummy.render.treasure_text import render_game, result_text
from mummy.terminal.tomb_play import run as run_tomb
from mummy.terminal.treasure_play import run as run_treasure
from mummy.tomb.content import is_map, map_ids, register_map_text
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.scoring import score
from mummy.tomb.sheet import MODES
from mummy.treasure.content import sites
from mummy.treasure.game import MAX_PLAYERS, Seat, TreasureGame, deal_sites, random_first


def map_argument(text: str) -> str:
    """A ``--map`` option's value: a packaged map, a generated one's id, or a map file of
    one's own (checked, T10, and played under its custom id: a designer tries a map at
    once, and the record names the map by the hash of its text)."""
    if is_map(text):
        return text
    if os.path.isfile(text):
        try:
            with open(text, encoding="utf-8") as f:
                return register_map_text(f.read())
        except OSError as exc:
            raise argparse.ArgumentTypeError(f"cannot read {text}: {exc.strerror}") from None
        except ContentError as exc:
            raise argparse.ArgumentTypeError(f"{text}: {exc}") from None
    raise argparse.ArgumentTypeError(f"unknown map {text!r}; maps: {', '.join(map_ids())}, a generated "
                                     "map's id (gen-DIFFICULTY-SEED-ATTEMPT, from `mummy maps generate`) "
                                     "or a map file")


class TerminalKind(Protocol):
    name: str

    def add_parser(self, sub: Any, seed: Any, positive: Any) -> argparse.ArgumentParser:
        """The game's ``mummy play NAME`` parser (``seed`` and ``positive`` check numbers)."""
        ...

    def start(self, args: argparse.Namespace) -> int: ...

    def describe(self, game: Any) -> tuple[str, str]:
        """A replayed game: its sheets or sites drawn, and one line on how it stands."""
        ...


def bot_list(game: str, text: str) -> list[str] | None:
    """The bots named on the command line, or None after saying which are unknown."""
    bots = [b.strip() for b in text.split(",") if b.strip()]
    unknown = [b for b in bots if b not in bot_names(game)]
    if unknown:
        print(f"mummy: unknown bot(s) {', '.join(unknown)}; bots: {', '.join(bot_names(game))}", file=sys.stderr)
        return None
    return bots




def saves_and_bots(parser: argparse.ArgumentParser, game: str, bots_text: str) -> None:
    """The options every game's ``mummy play`` has: where to save, and which bots sit
    (the game's bots as the registry lists them)."""
    parser.add_argument("--save", metavar="FILE", help="write the game record here when the game ends")
    parser.add_argument("--bots", default="", help=f"{bots_text}; bots: {bots_help(game)}")


class TombTerminal:
    """Hot-seat players and bots on one shared roll of the dice a round."""

    name = "tomb"

    def add_parser(self, sub: Any, seed: Any, positive: Any) -> argparse.ArgumentParser:
        tomb: argparse.ArgumentParser = sub.add_parser("tomb", help="The Mummy's Tomb (roll-and-write)")
        tomb.add_argument("--map", default="map1", type=map_argument,
                          help="the map: map1 (default) to map5, a generated map's id, or a map file")
        tomb.add_argument("--seed", type=seed, default=None, help="seed for the dice (default: random)")
        tomb.add_argument("--players", type=positive, default=1, help="number of hot-seat players")
        tomb.add_argument("--mode", default="standard", choices=list(MODES), help="T8.2 starting bonus")
        saves_and_bots(tomb, self.name, "bot players after the people, e.g. strong,greedy")
        return tomb

    def start(self, args: argparse.Namespace) -> int:
        """Set the table from the command line and play until the game ends."""
        bots = bot_list(self.name, args.bots)
        if bots is None:
            return 2
        seed = args.seed if args.seed is not None else new_seed()
        players = [PlayerSetup(f"player {i + 1}", args.map, args.mode) for i in range(args.players)]
        players += [PlayerSetup(f"{b} bot {i + 1}", args.map, args.mode) for i, b in enumerate(bots)]
        agents = {args.players + i: make_agent(self.name, b, bot_seed(seed, args.players + i))
                  for i, b in enumerate(bots)}
        # A seed drawn at random stays unsaid (it fixes every future roll); the record keeps it.
        shown = f", seed {seed}" if args.seed is not None else ""
        print(f"The Mummy's Tomb on {args.map}{shown}. Type 'help' for the notation.")
        run_tomb(TombGame(seed, players), save_path=args.save, bots=agents)
        return 0

    def describe(self, game: TombGame) -> tuple[str, str]:
        show = "\n".join(render_sheet(game, i) for i in range(len(game.players)))
        scores = ", ".join(f"{p.name} {score(s).total}" for p, s in zip(game.players, game.sheets, strict=True))
        return show, f"game {'finished' if game.is_over else f'in progress (round {game.round})'}; scores: {scores}"


class TreasureTerminal:
    """Hot-seat players and bots taking turns at the dice."""

    name = "treasure"

    def add_parser(self, sub: Any, seed: Any, positive: Any) -> argparse.ArgumentParser:
        treasure: argparse.ArgumentParser = sub.add_parser("treasure", help="Mummy's Treasure (family dice game)")
        treasure.add_argument("--players", type=positive, default=1, help="people at the table (hot seat)")
        treasure.add_argument("--seed", type=seed, default=None, help="seed for shuffles and dice")
        treasure.add_argument("--site", default=None, choices=[*sites(), "random"],
                              help="the first seat's site (the others take the next ones), "
                                   "or 'random': sites dealt at random (R2.1)")
        treasure.add_argument("--first", default="1", help="the seat that starts (1-4), or 'random' (R2.3)")
        treasure.add_argument("--movable", action="store_true", help="R5.1: tiles may be rearranged")
        saves_and_bots(treasure, self.name, "bot seats after the people, e.g. strong")
        return treasure

    def start(self, args: argparse.Namespace) -> int:
        """Set the table from the command line and play until the game ends."""
        bots = bot_list(self.name, args.bots)
        if bots is None:
            return 2
        if args.players + len(bots) > MAX_PLAYERS:
            print(f"mummy play treasure: 1 to {MAX_PLAYERS} players, bots included (R2.1)", file=sys.stderr)
            return 2
        seed = args.seed if args.seed is not None else new_seed()
        labels = [f"player {i + 1}" for i in range(args.players)] + [f"{b} bot {i + 1}" for i, b in enumerate(bots)]
        if args.site == "random":
            dealt = deal_sites(seed, len(labels))
        else:
            names = list(sites())
            start = names.index(args.site) if args.site else 0
            dealt = [names[(start + i) % len(names)] for i in range(len(labels))]
        if args.first == "random":
            first = random_first(seed, len(labels))
        elif args.first.isdecimal() and args.first.isascii() and 1 <= int(args.first) <= len(labels):
            first = int(args.first) - 1
        else:
            print(f"mummy play treasure: --first is a seat from 1 to {len(labels)}, or 'random'", file=sys.stderr)
            return 2
        seats = [Seat(label, site) for label, site in zip(labels, dealt, strict=True)]
        agents = {args.players + i: make_agent(self.name, b, bot_seed(seed, args.players + i))
                  for i, b in enumerate(bots)}
        variant = " (movable tiles)" if args.movable else ""
        shown = f", seed {seed}" if args.seed is not None else ""
        print(f"Mummy's Treasure{variant}{shown}; {seats[first].name} starts. Type 'help' for the notation.")
        run_treasure(TreasureGame(seed, seats, movable=args.movable, first=first), save_path=args.save, bots=agents)
        return 0

    def describe(self, game: TreasureGame) -> tuple[str, str]:
        return render_game(game), result_text(game) if game.is_over else "game in progress"


#: Each game's terminal front, by the game's name (its registration's ``terminal``).
TERMINALS: Final[Parts] = Parts("terminal")
