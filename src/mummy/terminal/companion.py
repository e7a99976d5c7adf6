"""``mummy companion tomb``: the dice for a table of paper players, and their score check.

A group playing The Mummy's Tomb on paper needs the round's two dice, the round count,
and now and then a bought die (T4.3), each player's from their own stream (T4.6): the
companion shows them, big, from a seed it prints, so the group can play the same dice
again another day (or against the online game on that seed). At the end, ``score``
asks for a sheet's counts and checks them (mummy.tomb.paper): the lines, the total and
the achievements as the engine scores them, and any count no sheet could show.
Input and output are injected (terminal/common.loop), so it is tested without a terminal.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Final

from mummy.core.rng import new_seed
from mummy.tomb.content import map_spec
from mummy.tomb.paper import TallyForm, check_tally
from mummy.tomb.rules import ROUNDS, bought_die, round_dice
from mummy.tomb.scoring import Tally

PIPS: Final = {1: ("     ", "  o  ", "     "), 2: ("o    ", "     ", "    o"), 3: ("o    ", "  o  ", "    o"),
               4: ("o   o", "     ", "o   o"), 5: ("o   o", "  o  ", "o   o"), 6: ("o   o", "o   o", "o   o")}
HELP: Final = """\
Enter or 'n': the next round        'p': the previous round
'b' or 'b N': player N (default 1) buys a die for 2 coins (T4.3): their next die, from their own stream (T4.6)
'score': check a sheet's final count (T7)     'seed': the seed again     'quit': leave"""


def big_dice(values: tuple[int, ...]) -> str:
    """Dice drawn with pips, side by side, readable across a table."""
    rows = ["  ".join("+-------+" for _ in values)]
    rows += ["  ".join(f"| {PIPS[v][i]} |" for v in values) for i in range(3)]
    rows.append("  ".join("+-------+" for _ in values))
    rows.append("  ".join(f"    {v}    " for v in values))
    return "\n".join(rows)


class CompanionSession:
    """The round, each player's bought dice so far, and a score check in progress."""

    def __init__(self, seed: int, players: int = 1, map_id: str = "map1") -> None:
        self.seed, self.players, self.map_id = seed, players, map_id
        self.round = 1
        self.bought = [0] * players
        self.finished = False
        self.answers: dict[str, Any] | None = None  # a score check's answers so far

    def screen(self) -> str:
        a, b = round_dice(self.seed, self.round)
        return (f"The Mummy's Tomb, seed {self.seed}: round {self.round} of {ROUNDS}\n"
                f"{big_dice((a, b))}\n(Enter: next round; 'help' for more)")

    def step(self, line: str) -> str:
        if self.answers is not None:
            return self.answer(line.strip())
        command, *rest = line.strip().lower().split() or [""]
        if command in ("", "n", "next"):
            if self.round == ROUNDS:
                return "That was the last round (T4.1). Type 'score' to check a sheet, or 'quit'."
            self.round += 1
            return self.screen()
        if command in ("p", "prev", "previous"):
            self.round = max(1, self.round - 1)
            return self.screen()
        if command in ("b", "buy"):
            return self.buy(rest)
        if command == "score":
            self.answers = {}
            return self.question()
        if command == "seed":
            return f"Seed {self.seed}: `mummy companion tomb --seed {self.seed}` gives these dice again."
        if command in ("q", "quit", "exit"):
            self.finished = True
            return f"Goodbye. The seed was {self.seed}."
        return HELP

    def buy(self, rest: list[str]) -> str:
        try:
            player = int(rest[0]) if rest else 1
        except ValueError:
            return f"'b N' names a player from 1 to {self.players}"
        if not 1 <= player <= self.players:
            return f"there are {self.players} players: 'b N' with N from 1 to {self.players}"
        k = self.bought[player - 1]
        self.bought[player - 1] += 1
        face = bought_die(self.seed, player - 1, k)
        return f"Player {player}'s bought die #{k + 1} (2 coins, T4.3):\n{big_dice((face,))}"

    def question(self) -> str:
        fields = TallyForm().fields
        _, hint = fields[len(self.answers or {})]
        return f"Score check ({len(self.answers or {}) + 1}/{len(fields)}), {hint}:"

    def answer(self, text: str) -> str:
        assert self.answers is not None
        key, _ = TallyForm().fields[len(self.answers)]
        try:
            self.answers[key] = _parse(key, text)
        except ValueError as exc:
            return f"{exc}; again: {self.question()}"
        if len(self.answers) < len(TallyForm().fields):
            return self.question()
        tally, self.answers = Tally(**self.answers), None
        return report(tally, self.map_id)


def _parse(key: str, text: str) -> Any:
    if key in ("key_track_full", "skeleton_key"):
        if text.lower() not in ("y", "n", "yes", "no"):
            raise ValueError("answer y or n")
        return text.lower().startswith("y")
    if key == "hits":
        return tuple(int(v) for v in text.replace(",", " ").split())
    value = int(text or "0")
    if value < 0:
        raise ValueError("a count is 0 or more")
    return value


def report(tally: Tally, map_id: str) -> str:
    """The check of a count, in lines a player reads at the table."""
    got = check_tally(tally, map_spec(map_id))
    lines = [f"  {name.replace('_', ' '):<18} {points:>4}" for name, points in got.score.lines.items()]
    out = ["Your sheet, scored (T7):", *lines, f"  {'total':<18} {got.score.total:>4}"]
    out.append("Achievements: " + (", ".join(got.score.achievements) or "none (each needs 180 or more)"))
    out += [f"Check this: {f}" for f in got.faults]
    return "\n".join(out)


def add_parser(sub: Any, seed: Any, positive: Any) -> None:
    """``mummy companion tomb [--seed N] [--players N] [--map M]``."""
    from mummy.terminal.kinds import map_argument

    comp = sub.add_parser("companion", help="the dice for paper players at a table, and a score check")
    comp.add_argument("game", choices=["tomb"], help="the game (The Mummy's Tomb)")
    comp.add_argument("--seed", type=seed, default=None, help="the dice's seed (default: a new one, printed)")
    comp.add_argument("--players", type=positive, default=1, help="players at the table (for bought dice)")
    comp.add_argument("--map", default="map1", type=map_argument, help="the map played (for the score check)")
    comp.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from mummy.terminal.common import loop

    seed = args.seed if args.seed is not None else new_seed() % 1_000_000
    loop(CompanionSession(seed, args.players, args.map), input, print)
    sys.stdout.flush()
    return 0
