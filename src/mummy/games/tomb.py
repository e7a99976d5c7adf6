"""The Mummy's Tomb's registration, and its kind: the roll-and-write where everyone
maps their own dungeon on the round's shared dice (``mummy.tomb`` holds the rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mummy.core.grid import Grid
from mummy.core.protocol import EVERYONE
from mummy.core.records import ReplayResult
from mummy.games.registration import Bot, Choice, Game, Option, Page
from mummy.tomb.actions import END
from mummy.tomb.actions import Action as TombAction
from mummy.tomb.actions import fmt as tomb_fmt
from mummy.tomb.actions import parse as tomb_parse
from mummy.tomb.actions import to_json as tomb_json
from mummy.tomb.board import tomb_map
from mummy.tomb.content import (
    CUSTOM_PREFIX,
    canonical_map_text,
    custom_map_text,
    is_map,
    map_ids,
    map_spec,
    register_map_text,
)
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.record import RECORD_FORMAT as TOMB_RECORD
from mummy.tomb.record import replay_record as tomb_replay
from mummy.tomb.record import snapshot as tomb_snapshot
from mummy.tomb.record import to_record as tomb_record
from mummy.tomb.scoring import ranking, score
from mummy.tomb.sheet import MODES

#: Each mode of T8.2 as a player chooses it.
MODE_LABELS: Final[dict[str, str]] = {"standard": "Standard", "easy": "Easy (start with 3 coins)",
                                      "kids": "Kids (start with 5 coins and a key)"}


class TombKind:
    """The Tomb: everyone plays their own sheet on the round's shared dice."""

    name = "tomb"
    title = "The Mummy's Tomb"
    record_format = TOMB_RECORD
    # "map_text": a custom map's text (the editor's), stored with the game so that a
    # server started afresh registers the map again when it loads the game (``new``).
    config_keys: tuple[str, ...] = ("map", "mode", "map_text")
    seats = (1, 8)  # online: any number plays on paper (T8.1), eight sheets fit a screen
    engine = TombGame

    @property
    def daily(self) -> dict[str, Any]:
        return {"map": "map1", "mode": "standard"}
    MAX_TEXTS = 100_000  # remembered action texts per map (see legal)

    def options(self) -> list[Option]:
        maps = [Choice(value=m, label=map_spec(m).title) for m in map_ids()]
        modes = [Choice(value=m, label=MODE_LABELS[m]) for m in MODES]
        return [
            Option(key="map", label="Map", type="choice", choices=maps, default="map1", rule="T1",
                   help="The dungeon everyone maps; a generated map's id or a custom map's text also do."),
            Option(key="mode", label="Mode", type="choice", choices=modes, default="standard", rule="T8.2",
                   help="Everyone plays their own sheet on the same dice, at the same time."),
        ]

    def prepare(self) -> None:
        for map_id in map_ids():
            tomb_map(map_id)

    def __init__(self) -> None:
        self._texts: dict[str, dict[TombAction, str]] = {}
        self._json: dict[str, dict[TombAction, dict[str, Any]]] = {}

    def validate(self, config: dict[str, Any], seats: int) -> dict[str, Any]:
        map_id, text = self._map_of(config)
        mode = config.get("mode", "standard")
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)} (T8.2)")
        low, high = self.seats
        if not low <= seats <= high:
            raise ValueError(f"a Tomb game online seats {low} to {high} players")
        return {"map": map_id, "mode": mode, **({"map_text": text} if text is not None else {})}

    @staticmethod
    def _map_of(config: dict[str, Any]) -> tuple[str, str | None]:
        """The set-up's map id, and a custom map's text (to store with the game): a
        ``map_text`` is checked (T10) and registered, and its id is the map; a custom
        map named by its id alone must be one this process holds (the server looks the
        text up in its table of maps first)."""
        map_id, text = config.get("map", "map1"), config.get("map_text")
        if text is None and isinstance(map_id, str) and map_id.startswith(CUSTOM_PREFIX):
            text = custom_map_text(map_id)
            if text is None:
                raise ValueError(f"unknown map {map_id!r}: a custom map this server does not hold; "
                                 "send its text (map_text, T10)")
        if text is not None:
            if not isinstance(text, str):
                raise ValueError("map_text: a map file's text (docs/tomb-formats.md)")
            made = register_map_text(text)  # a ContentError (a ValueError) names the line at fault
            if isinstance(map_id, str) and map_id.startswith(CUSTOM_PREFIX) and map_id != made:
                raise ValueError(f"map {map_id!r} is not the map of map_text, which is {made!r}")
            return made, canonical_map_text(text)
        if not isinstance(map_id, str) or not is_map(map_id):
            raise ValueError(f"unknown map {map_id!r}; maps: {', '.join(map_ids())}, a generated map's id "
                             "(gen-DIFFICULTY-SEED-ATTEMPT) or a custom map's text (map_text, T10)")
        return map_id, None

    def new(self, seed: int, config: dict[str, Any], names: list[str]) -> TombGame:
        # A game stored before T4.6 gave each seat its own bought dice is marked "buys":
        # "shared" (migration 0003), and replays under the rule it was played by. A custom
        # map's text, stored with the game, is registered again (a server started afresh).
        if config.get("map_text") is not None:
            register_map_text(config["map_text"])
        return TombGame(seed, [PlayerSetup(n, config["map"], config["mode"]) for n in names],
                        shared_buys=config.get("buys") == "shared")

    def apply(self, game: TombGame, seat: int, text: str) -> tuple[str, int]:
        if text == "undo":
            game.undo(seat)
            return "undo", seat
        action = game.apply(seat, tomb_parse(text, game.maps[seat].grid))
        # The last player to end a round starts the next one (or the turn after round
        # 20) for everybody, which leaves their own sheet playing again; any other action
        # changes only the acting player's sheet.
        everyone = action.kind == END and seat in game.to_act()
        return tomb_fmt(action, game.maps[seat].grid), EVERYONE if everyone else seat

    def to_act(self, game: TombGame) -> list[int]:
        return game.to_act()

    def is_over(self, game: TombGame) -> bool:
        return game.is_over

    def view(self, game: TombGame, keep: Mapping[int, Any] | None = None) -> dict[str, Any]:
        # A sheet's picture depends on that sheet and the round only, which an action
        # affecting another seat leaves as they were: kept pictures are taken as they are.
        keep = keep or {}
        return {"round": game.round, "dice": list(game.dice),
                "sheets": [keep[i] if i in keep else tomb_snapshot(game, i) for i in range(len(game.players))]}

    def can_undo(self, game: TombGame, seat: int) -> bool:
        return game.can_undo(seat)

    def legal(self, game: TombGame, seat: int) -> list[str]:
        # Every move sends the mover dozens of legal actions, and most of them were sent
        # the move before as well: their texts are remembered per map (the actions on one
        # map are finitely many; a full memo is started afresh rather than grown).
        texts, grid = self._memo(game, seat)
        out = []
        for action in game.legal_actions(seat):
            text = texts.get(action)
            if text is None:
                text = texts[action] = tomb_fmt(action, grid)
            out.append(text)
        return out

    def legal_json(self, game: TombGame, seat: int) -> list[dict[str, Any]]:
        # Remembered per map like the texts (the objects are shared: callers read them).
        texts, grid = self._memo(game, seat)
        objs = self._json.setdefault(game.maps[seat].id, {})
        if len(objs) > self.MAX_TEXTS:
            objs.clear()
        out = []
        for action in game.legal_actions(seat):
            obj = objs.get(action)
            if obj is None:
                text = texts.get(action) or tomb_fmt(action, grid)
                obj = objs[action] = {"text": text, **tomb_json(action, grid)}
            out.append(obj)
        return out

    def text(self, game: TombGame, seat: int, action: Any) -> str:
        texts, grid = self._memo(game, seat)
        text = texts.get(action)
        return text if text is not None else tomb_fmt(action, grid)

    def _memo(self, game: TombGame, seat: int) -> tuple[dict[TombAction, str], Grid]:
        """The remembered action texts of the seat's map, and its grid to format others."""
        texts = self._texts.setdefault(game.maps[seat].id, {})
        if len(texts) > self.MAX_TEXTS:
            texts.clear()
        return texts, game.maps[seat].grid

    def record(self, game: TombGame) -> dict[str, Any]:
        return tomb_record(game)

    def replay_record(self, obj: Any) -> ReplayResult[TombGame]:
        return tomb_replay(obj)

    def result(self, game: TombGame) -> dict[str, Any]:
        scores = [score(s) for s in game.sheets]
        return {"scores": [s.total for s in scores], "places": ranking(scores),
                "lines": [s.lines for s in scores], "achievements": [list(s.achievements) for s in scores]}

    def standing(self, config: dict[str, Any], result: dict[str, Any]) -> tuple[str, int | None, int | None, int]:
        return config["map"], result["scores"][0], None, -result["scores"][0]

    def rankable(self, result: dict[str, Any]) -> bool:
        return True  # every finished sheet has a score (T7)

    def board_entry(self, place: str | None, score: int | None, turns: int | None) -> dict[str, Any]:
        return {"map": place, "score": score}


TOMB: Final = Game(
    name="tomb", title=TombKind.title, kind="mummy.games.tomb:TombKind",
    summary="A roll-and-write: twenty rounds of shared dice; each player maps a dungeon with corridor tiles, "
            "collects treasure, defeats monsters and hits the Mummy.",
    bots=(
        Bot("random", "mummy.bots.tomb:RandomTombAgent", "plays a legal move at random: a baseline"),
        Bot("greedy", "mummy.bots.tomb:GreedyTombAgent", "takes the move that scores most now: a beginner"),
        Bot("strong", "mummy.bots.registry:seated_strong", "plans each round with a beam search: a good player"),
        Bot("expert", "mummy.bots.registry:seated_expert",
            "weighs its plans against the dice of rounds to come: the strongest, and the slowest"),
        Bot("mcts", "mummy.envs.mcts:MctsAgent", "OpenSpiel's Monte Carlo tree search", extra="research"),
    ),
    sim="mummy.sim.tomb:TombSim", terminal="mummy.terminal.kinds:TombTerminal",
    narrator="mummy.render.narrate_tomb:TombNarrator", printer="mummy.render.printing:TombPrint",
    analysis="mummy.analysis.review:TombAnalysis", content="mummy.web.content:tomb_content",
    page=Page(module="./tomb.js", stylesheet="/static/css/tomb.css"),
)
