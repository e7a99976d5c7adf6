"""Mummy's Treasure's registration, and its kind: the family dice game where players take
turns at five symbol dice to fill their excavation site (``mummy.treasure`` holds the rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mummy.core.errors import IllegalActionError
from mummy.core.protocol import EVERYONE
from mummy.core.records import ReplayResult
from mummy.games.registration import Bot, Choice, Game, Option, Page
from mummy.treasure.actions import fmt as treasure_fmt
from mummy.treasure.actions import parse as treasure_parse
from mummy.treasure.actions import to_json as treasure_json
from mummy.treasure.board import site_board
from mummy.treasure.content import sites
from mummy.treasure.game import MAX_PLAYERS, Seat, TreasureGame
from mummy.treasure.record import RECORD_FORMAT as TREASURE_RECORD
from mummy.treasure.record import replay_record as treasure_replay
from mummy.treasure.record import snapshot as treasure_snapshot
from mummy.treasure.record import to_record as treasure_record


class TreasureKind:
    """Mummy's Treasure: turns in seat order."""

    name = "treasure"
    title = "Mummy's Treasure"
    record_format = TREASURE_RECORD
    config_keys: tuple[str, ...] = ("sites", "movable", "first")
    seats = (1, MAX_PLAYERS)  # R2.1: two to four players, or one alone
    engine = TreasureGame

    @property
    def daily(self) -> dict[str, Any]:
        return {"sites": ["oasis"], "first": 0, "movable": False}

    def options(self) -> list[Option]:
        names = [Choice(value=s, label=s.title()) for s in sites()]
        return [
            Option(key="sites", label="Site", type="seat-choice", choices=names, default=None, rule="R2.1",
                   help="Each seat's excavation site (by default, each seat the next site in turn)."),
            Option(key="first", label="Who starts", type="seat", choices=[], default=0, rule="R2.3",
                   help="The seat that takes the first turn."),
            Option(key="movable", label="Movable tiles variant", type="flag", choices=[], default=False,
                   rule="R5.1", help="In the variant, tiles already on your site may be rearranged to make "
                                     "room for a new one."),
        ]

    def prepare(self) -> None:
        for name in sites():
            site_board(name)

    def validate(self, config: dict[str, Any], seats: int) -> dict[str, Any]:
        if not 1 <= seats <= MAX_PLAYERS:
            raise ValueError(f"Mummy's Treasure seats 1 to {MAX_PLAYERS} players (R2.1)")
        names = list(sites())
        chosen = config.get("sites") or [names[i % len(names)] for i in range(seats)]
        if not isinstance(chosen, list) or len(chosen) != seats or any(s not in names for s in chosen):
            raise ValueError(f"'sites' needs one of {', '.join(names)} per seat")
        first = config.get("first", 0)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < seats:
            raise ValueError("'first' is a seat number (R2.3)")
        movable = config.get("movable", False)
        if not isinstance(movable, bool):
            raise ValueError("'movable' is true or false (R5.1)")
        return {"sites": chosen, "first": first, "movable": movable}

    def new(self, seed: int, config: dict[str, Any], names: list[str]) -> TreasureGame:
        seats = [Seat(n, s) for n, s in zip(names, config["sites"], strict=True)]
        return TreasureGame(seed, seats, movable=config["movable"], first=config["first"])

    def apply(self, game: TreasureGame, seat: int, text: str) -> tuple[str, int]:
        if text == "undo":
            # Online, a take or a pass cannot be taken back: the next pile tile or the next
            # player's view has been shown. (Rolls are random events: nothing before them.)
            raise IllegalActionError("undo", "online, a tile taken or a turn passed stands")
        action = game.apply(seat, treasure_parse(text, game.grid(seat)))
        return treasure_fmt(action, game.grid(seat)), EVERYONE

    def to_act(self, game: TreasureGame) -> list[int]:
        return game.to_act()

    def is_over(self, game: TreasureGame) -> bool:
        return game.is_over

    def view(self, game: TreasureGame, keep: Mapping[int, Any] | None = None) -> dict[str, Any]:
        return treasure_snapshot(game)  # every Treasure action affects everyone: nothing is kept

    def can_undo(self, game: TreasureGame, seat: int) -> bool:
        return False  # online, a take or a pass stands (see apply)

    def legal(self, game: TreasureGame, seat: int) -> list[str]:
        grid = game.grid(seat)
        return [treasure_fmt(a, grid) for a in game.legal_actions(seat)]

    def legal_json(self, game: TreasureGame, seat: int) -> list[dict[str, Any]]:
        grid = game.grid(seat)
        return [{"text": treasure_fmt(a, grid), **treasure_json(a, grid)} for a in game.legal_actions(seat)]

    def text(self, game: TreasureGame, seat: int, action: Any) -> str:
        return treasure_fmt(action, game.grid(seat))

    def record(self, game: TreasureGame) -> dict[str, Any]:
        return treasure_record(game)

    def replay_record(self, obj: Any) -> ReplayResult[TreasureGame]:
        return treasure_replay(obj)

    def result(self, game: TreasureGame) -> dict[str, Any]:
        st = game.state
        return {"squares": game.scores(), "places": game.places(), "turns": list(st.turns),
                "reason": st.reason, "winner": st.winner}

    def standing(self, config: dict[str, Any], result: dict[str, Any]) -> tuple[str, int | None, int | None, int]:
        turns = result["turns"][0]
        return config["sites"][0], result["squares"][0], turns, turns

    def rankable(self, result: dict[str, Any]) -> bool:
        return bool(result["reason"] == "full")  # R4.3: a site left unfilled sets no record

    def board_entry(self, place: str | None, score: int | None, turns: int | None) -> dict[str, Any]:
        return {"site": place, "turns": turns}


TREASURE: Final = Game(
    name="treasure", title=TreasureKind.title, kind="mummy.games.treasure:TreasureKind",
    summary="A family dice game: roll five symbol dice up to three times, take a treasure tile whose symbols "
            "you rolled and fit it on your excavation site; the first full site wins.",
    bots=(
        Bot("random", "mummy.bots.treasure:RandomTreasureAgent", "plays a legal move at random: a baseline"),
        Bot("greedy", "mummy.bots.treasure:GreedyTreasureAgent", "takes the biggest tile it can: a beginner"),
        Bot("strong", "mummy.bots.treasure:StrongTreasureAgent",
            "weighs where each tile fits and what it leaves: a good player"),
        Bot("exact", "mummy.analysis.treasure:ValueTreasureAgent",
            "plays the fewest expected turns to fill its site, worked out exactly: the strongest"),
        Bot("mcts", "mummy.envs.mcts:MctsAgent", "OpenSpiel's Monte Carlo tree search", extra="research"),
    ),
    sim="mummy.sim.treasure:TreasureSim", terminal="mummy.terminal.kinds:TreasureTerminal",
    narrator="mummy.render.narrate_treasure:TreasureNarrator", printer="mummy.render.printing:TreasurePrint",
    analysis="mummy.analysis.review:TreasureAnalysis", content="mummy.web.content:treasure_content",
    page=Page(module="./treasure.js", stylesheet="/static/css/treasure.css"),
)
