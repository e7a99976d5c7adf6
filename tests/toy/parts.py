"""Toy Tally's part in every layer: its kind, bots, narrator, simulation and terminal
front. Nothing outside this package and its registration (``tests/toy/__init__.py``)
knows the game exists."""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Mapping
from typing import Any

from mummy.bots.registry import bot_seed, make_agent
from mummy.core.errors import InvalidActionError
from mummy.core.protocol import EVERYONE
from mummy.core.records import RecordError, ReplayResult, check_header, replay_actions
from mummy.games import Choice, Option
from mummy.render.narrate import Line
from mummy.sim.columns import Column, seat_item
from tests.toy.game import ToyGame

FORMAT = "mummy-toy-record"


def parse(text: str, boxes: int) -> int:
    """``B3``: the third box (from 1)."""
    if len(text) < 2 or text[0] != "B" or not text[1:].isdecimal() or not 1 <= int(text[1:]) <= boxes:
        raise InvalidActionError("notation", f"{text!r} is no box: B1 to B{boxes}")
    return int(text[1:]) - 1


def places(scores: list[int]) -> list[int]:
    return [1 + sum(o > s for o in scores) for s in scores]


class ToyKind:
    name = "toy"
    title = "Toy Tally"
    record_format = FORMAT
    config_keys = ("boxes",)
    seats = (1, 4)
    engine = ToyGame

    @property
    def daily(self) -> dict[str, Any]:
        return {"boxes": "4"}

    def options(self) -> list[Option]:
        return [Option(key="boxes", label="Boxes", type="choice", default="4", rule="X1",
                       choices=[Choice(value="3", label="3 rounds"), Choice(value="4", label="4 rounds")],
                       help="How many boxes, and so rounds.")]

    def prepare(self) -> None:
        pass

    def validate(self, config: dict[str, Any], seats: int) -> dict[str, Any]:
        boxes = config.get("boxes", "4")
        if boxes not in ("3", "4"):
            raise ValueError("'boxes' is 3 or 4 (X1)")
        if not 1 <= seats <= 4:
            raise ValueError("Toy Tally seats 1 to 4 players")
        return {"boxes": boxes}

    def new(self, seed: int, config: dict[str, Any], names: list[str]) -> ToyGame:
        game = ToyGame(seed, len(names), int(config["boxes"]))
        game.names = names  # type: ignore[attr-defined]
        return game

    def apply(self, game: ToyGame, seat: int, text: str) -> tuple[str, int]:
        if text == "undo":
            game.undo(seat)
            return "undo", seat
        before = game.round
        action = game.apply(seat, parse(text, game.boxes))
        return f"B{action + 1}", EVERYONE if game.round != before else seat

    def to_act(self, game: ToyGame) -> list[int]:
        return game.to_act()

    def is_over(self, game: ToyGame) -> bool:
        return game.is_over

    def view(self, game: ToyGame, keep: Mapping[int, Any] | None = None) -> dict[str, Any]:
        return {"round": game.round, "die": None if game.is_over else game.die,
                "rows": [list(r) for r in game.rows], "scores": [game.score(s) for s in range(game.seat_count)]}

    def can_undo(self, game: ToyGame, seat: int) -> bool:
        return game.can_undo(seat)

    def legal(self, game: ToyGame, seat: int) -> list[str]:
        return [f"B{b + 1}" for b in game.legal_actions(seat)]

    def text(self, game: ToyGame, seat: int, action: Any) -> str:
        return f"B{action + 1}"

    def legal_json(self, game: ToyGame, seat: int) -> list[dict[str, Any]]:
        return [{"text": f"B{b + 1}", "box": b + 1} for b in game.legal_actions(seat)]

    def record(self, game: ToyGame) -> dict[str, Any]:
        return {"format": FORMAT, "version": 1, "seed": game.seed, "boxes": game.boxes,
                "players": list(getattr(game, "names", [f"player {i + 1}" for i in range(game.seat_count)])),
                "actions": [{"player": s, "action": f"B{a + 1}"} for s, a in game.history]}

    def replay_record(self, obj: Any) -> ReplayResult[ToyGame]:
        seed = check_header(obj, FORMAT, 1, "Toy Tally")
        players = obj.get("players")
        if not isinstance(players, list) or not 1 <= len(players) <= 4 or obj.get("boxes") not in (3, 4):
            raise RecordError("'players' (1 to 4 names) and 'boxes' (3 or 4) are needed")
        game = self.new(seed, {"boxes": str(obj["boxes"])}, [str(p) for p in players])
        error = replay_actions(obj.get("actions"), len(players), lambda p, t: self.apply(game, p, t))
        return ReplayResult(game, error)

    def result(self, game: ToyGame) -> dict[str, Any]:
        scores = [game.score(s) for s in range(game.seat_count)]
        return {"scores": scores, "places": places(scores)}

    def standing(self, config: dict[str, Any], result: dict[str, Any]) -> tuple[str, int | None, int | None, int]:
        return f"boxes-{config['boxes']}", result["scores"][0], None, -result["scores"][0]

    def rankable(self, result: dict[str, Any]) -> bool:
        return True

    def board_entry(self, place: str | None, score: int | None, turns: int | None) -> dict[str, Any]:
        return {"boxes": place, "score": score}


class RandomToy:
    """Any empty box, chosen by a function of the seed and the game (so it replays)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def act(self, game: ToyGame, seat: int) -> int:
        legal = game.legal_actions(seat)
        return legal[(self.seed * 31 + len(game.history) * 7 + seat) % len(legal)]


class GreedyToy:
    """A high die in the highest empty box, a low one in the lowest."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def act(self, game: ToyGame, seat: int) -> int:
        legal = game.legal_actions(seat)
        return legal[-1] if game.die >= 4 else legal[0]


class ToyNarrator:
    name = "toy"

    def before(self, game: ToyGame, seat: int, text: str) -> int:
        return game.die

    def narrate(self, game: ToyGame, seat: int, text: str, before: Any) -> Line:
        if text == "undo":
            return Line("Took the die back")
        return Line(f"Wrote {before} in box {text[1:]}", chance=None if game.is_over else f"round die {game.die}")

    def preview(self, game: ToyGame, seat: int, text: str) -> dict[str, Any]:
        box = parse(text, game.boxes)
        game.check(seat, box)
        return {"action": text, "sentence": f"Write {game.die} in box {box + 1}", "warnings": [], "uses_after": -1}


class ToySim:
    name = "toy"
    rotate = False
    needs = frozenset({"game", "seed", "bots", "scores", "places"})
    columns = (Column("score", "int64", "the seat's score (X3)", seat_item("scores")),)

    def problem(self, bots: list[str], sites: list[str]) -> str | None:
        return "Toy Tally seats 1 to 4 bots" if len(bots) > 4 else None

    def play(self, spec: Any) -> dict[str, Any]:
        started = time.perf_counter()
        game = ToyGame(spec.seed, len(spec.bots))
        agents = [make_agent("toy", b, bot_seed(spec.seed, i)) for i, b in enumerate(spec.bots)]
        while not game.is_over:
            for seat in game.to_act():
                game.apply(seat, agents[seat].act(game, seat))
        scores = [game.score(s) for s in range(game.seat_count)]
        return {"game": "toy", "index": spec.index, "seed": spec.seed, "bots": list(spec.bots), "scores": scores,
                "places": places(scores), "seconds": time.perf_counter() - started}

    def unflatten(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        return {"scores": [r["score"] for r in seats]}

    def summarise(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        by_bot: dict[str, list[int]] = {}
        for row in rows:
            for bot, score in zip(row["bots"], row["scores"], strict=True):
                by_bot.setdefault(bot, []).append(score)
        return {"game": "toy", "games": len(rows), "mean": {b: statistics.fmean(s) for b, s in by_bot.items()}}

    def format(self, summary: dict[str, Any]) -> list[str]:
        return [f"  {bot}: mean score {mean:.1f}" for bot, mean in summary["mean"].items()]

    def sections(self, rows: list[dict[str, Any]]) -> list[str]:
        return ["## Scores\n\n" + "\n".join(self.format(self.summarise(rows)))]


class ToyTerminal:
    name = "toy"

    def add_parser(self, sub: Any, seed: Any, positive: Any) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = sub.add_parser("toy", help="Toy Tally (a test's game)")
        parser.add_argument("--seed", type=seed, default=0)
        parser.add_argument("--bots", default="greedy")
        parser.add_argument("--players", type=int, default=0)
        parser.add_argument("--save", default=None)
        return parser

    def start(self, args: argparse.Namespace) -> int:
        bots = [b for b in args.bots.split(",") if b]
        seats = args.players + len(bots)
        game = ToyKind().new(args.seed, {"boxes": "4"}, [f"seat {i + 1}" for i in range(seats)])
        agents = {args.players + i: make_agent("toy", b, bot_seed(args.seed, args.players + i))
                  for i, b in enumerate(bots)}
        while not game.is_over:
            for seat in game.to_act():
                if seat in agents:
                    game.apply(seat, agents[seat].act(game, seat))
                else:
                    ToyKind().apply(game, seat, input(f"seat {seat + 1}, die {game.die}: box? "))
        print("scores:", ", ".join(str(game.score(s)) for s in range(seats)))
        if args.save:
            with open(args.save, "w", encoding="utf-8") as f:
                json.dump(ToyKind().record(game), f)
        return 0

    def describe(self, game: ToyGame) -> tuple[str, str]:
        rows = "\n".join(" ".join(str(v) for v in row) for row in game.rows)
        return rows, f"scores: {', '.join(str(game.score(s)) for s in range(game.seat_count))}"
