"""The registry of game kinds: the one place that knows which games there are.

Every engine has the same state shape (:class:`mummy.core.protocol.GameState`: who may
act, legal actions, checked and fast apply, undo, chance events, returns, copy). What
differs between games is everything around the state, and a :class:`GameKind` says it
for one game: how a game is set up from a stored configuration and seed, its notation
(text and JSON, per seat, since squares are named on the seat's own grid), how it is
described to a seat (never the seed, a future roll or a pile's hidden order), its result,
its record, and how it ranks on a leaderboard. The CLI, the simulator, the terminal and
the server look a kind up in :data:`KINDS` by name (or with :func:`kind_of` for a game in
hand) and never ask which game it is.

Adding a third game means a rules package with an engine of that shape and one more
``GameKind`` here (see ``docs/architecture.md``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Final, Protocol

from mummy.core.errors import IllegalActionError
from mummy.core.grid import Grid
from mummy.core.protocol import EVERYONE, GameState
from mummy.core.records import ReplayResult
from mummy.tomb.actions import END
from mummy.tomb.actions import Action as TombAction
from mummy.tomb.actions import fmt as tomb_fmt
from mummy.tomb.actions import parse as tomb_parse
from mummy.tomb.actions import to_json as tomb_json
from mummy.tomb.board import tomb_map
from mummy.tomb.content import CUSTOM_PREFIX, canonical_map_text, custom_map_text, is_map, map_ids, register_map_text
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.record import RECORD_FORMAT as TOMB_RECORD
from mummy.tomb.record import replay_record as tomb_replay
from mummy.tomb.record import snapshot as tomb_snapshot
from mummy.tomb.record import to_record as tomb_record
from mummy.tomb.scoring import ranking, score
from mummy.tomb.sheet import MODES
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

__all__ = ["EVERYONE", "KINDS", "GameKind", "commitment", "kind_named", "kind_of", "kind_of_record",
           "prepare_content"]


def commitment(kind: str, seed: int | str | None, nonce: str) -> str:
    """The public SHA-256 commitment to a game's secret seed (with a secret nonce): it
    is published when the game starts, and the record reveals seed and nonce at the end."""
    return hashlib.sha256(f"mummy:{kind}:{seed}:{nonce}".encode()).hexdigest()


class GameKind(Protocol):
    name: str
    title: str  # the game's name as people read it
    record_format: str  # the "format" of its records
    config_keys: tuple[str, ...]  # the set-up's fields (what validate reads)

    @property
    def daily(self) -> dict[str, Any]:
        """The daily challenge's set-up: one solo game a day for everybody (a copy)."""
        ...

    def validate(self, config: dict[str, Any], seats: int) -> dict[str, Any]: ...

    def new(self, seed: int, config: dict[str, Any], names: list[str]) -> Any: ...

    def apply(self, game: Any, seat: int, text: str) -> tuple[str, int]:
        """Apply checked; return the canonical text and the seat it affects (or EVERYONE)."""
        ...

    def to_act(self, game: Any) -> list[int]: ...

    def is_over(self, game: Any) -> bool: ...

    def view(self, game: Any, keep: Mapping[int, Any] | None = None) -> dict[str, Any]:
        """The public state. ``keep``: parts of an earlier view still true, by the seat
        they show (a seat no action has affected since, see :meth:`apply`), which a view
        may take as they are instead of making them again (the server makes a view after
        every move of every game)."""
        ...

    def can_undo(self, game: Any, seat: int) -> bool:
        """Whether ``undo`` would take something back for this seat now."""
        ...

    def legal(self, game: Any, seat: int) -> list[str]: ...

    def text(self, game: Any, seat: int, action: Any) -> str:
        """An action value (a bot's choice) in the notation."""
        ...

    def legal_json(self, game: Any, seat: int) -> list[dict[str, Any]]:
        """The legal actions as data (each action's JSON form and its ``text``), in the
        order of :meth:`legal`: a client reads these and never parses the notation."""
        ...

    def record(self, game: Any) -> dict[str, Any]: ...

    def replay_record(self, obj: Any) -> ReplayResult[Any]:
        """Replay a record (checked); raises the game's ``RecordError`` if it is not one."""
        ...

    def result(self, game: Any) -> dict[str, Any]: ...

    def standing(self, config: dict[str, Any], result: dict[str, Any]) -> tuple[str, int | None, int | None, int]:
        """A finished solo game on a board: where it was played (map or site), its score,
        its turns, and the number it ranks by (lower first)."""
        ...

    def rankable(self, result: dict[str, Any]) -> bool:
        """Whether a finished solo game belongs on the board at all."""
        ...

    def board_entry(self, place: str | None, score: int | None, turns: int | None) -> dict[str, Any]:
        """A board's row in the game's own words (map and score, or site and turns)."""
        ...


class TombKind:
    """The Tomb: everyone plays their own sheet on the round's shared dice."""

    name = "tomb"
    title = "The Mummy's Tomb"
    record_format = TOMB_RECORD
    # "map_text": a custom map's text (the editor's), stored with the game so that a
    # server started afresh registers the map again when it loads the game (``new``).
    config_keys: tuple[str, ...] = ("map", "mode", "map_text")

    @property
    def daily(self) -> dict[str, Any]:
        return {"map": "map1", "mode": "standard"}
    MAX_TEXTS = 100_000  # remembered action texts per map (see legal)

    def __init__(self) -> None:
        self._texts: dict[str, dict[TombAction, str]] = {}
        self._json: dict[str, dict[TombAction, dict[str, Any]]] = {}

    def validate(self, config: dict[str, Any], seats: int) -> dict[str, Any]:
        map_id, text = self._map_of(config)
        mode = config.get("mode", "standard")
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)} (T8.2)")
        if not 1 <= seats <= 8:
            raise ValueError("a Tomb game online seats 1 to 8 players")
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


class TreasureKind:
    """Mummy's Treasure: turns in seat order."""

    name = "treasure"
    title = "Mummy's Treasure"
    record_format = TREASURE_RECORD
    config_keys: tuple[str, ...] = ("sites", "movable", "first")

    @property
    def daily(self) -> dict[str, Any]:
        return {"sites": ["oasis"], "first": 0, "movable": False}

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


_TOMB: Final[GameKind] = TombKind()
_TREASURE: Final[GameKind] = TreasureKind()
KINDS: Final[dict[str, GameKind]] = {k.name: k for k in (_TOMB, _TREASURE)}
_BY_ENGINE: Final[dict[type, GameKind]] = {TombGame: _TOMB, TreasureGame: _TREASURE}


def kind_named(name: str) -> GameKind:
    """The kind of the game called ``name``; a ValueError lists the games there are."""
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(KINDS)}") from None


def kind_of(game: GameState[Any]) -> GameKind:
    """The kind of an engine game in hand."""
    return _BY_ENGINE[type(game)]


def kind_of_record(obj: Any) -> GameKind | None:
    """The kind whose records carry this object's ``format``, if any."""
    fmt = obj.get("format") if isinstance(obj, dict) else None
    return next((k for k in KINDS.values() if k.record_format == fmt), None)


def prepare_content() -> None:
    """Build every map's and site's precomputed tables now, not in the first game's move."""
    for map_id in map_ids():
        tomb_map(map_id)
    for name in sites():
        site_board(name)
