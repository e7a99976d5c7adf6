"""What the server needs from each game, behind one interface (a registry, not if-chains).

A :class:`GameKind` builds an engine game from a stored set-up and seed, applies one
action given as text for a seat (checked; ``undo`` too), says which seats may act now and
which seats an accepted action changed (for stale-version checks), and describes the
game as a seat may see it: never the seed, a future roll or a pile's hidden order.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from mummy.core.errors import IllegalActionError
from mummy.core.grid import Grid
from mummy.tomb.actions import Action as TombAction
from mummy.tomb.actions import fmt as tomb_fmt
from mummy.tomb.actions import parse as tomb_parse
from mummy.tomb.board import tomb_map
from mummy.tomb.content import map_ids
from mummy.tomb.game import PlayerSetup, TombGame
from mummy.tomb.record import snapshot as tomb_snapshot
from mummy.tomb.record import to_record as tomb_record
from mummy.tomb.scoring import ranking, score
from mummy.tomb.sheet import MODES
from mummy.treasure.actions import fmt as treasure_fmt
from mummy.treasure.actions import parse as treasure_parse
from mummy.treasure.board import site_board
from mummy.treasure.content import sites
from mummy.treasure.game import MAX_PLAYERS, Seat, TreasureGame
from mummy.treasure.record import snapshot as treasure_snapshot
from mummy.treasure.record import to_record as treasure_record

EVERYONE: Final = -1


class GameKind(Protocol):
    name: str

    def validate(self, config: dict[str, Any], seats: int) -> dict[str, Any]: ...

    def new(self, seed: int, config: dict[str, Any], names: list[str]) -> Any: ...

    def apply(self, game: Any, seat: int, text: str) -> tuple[str, int]:
        """Apply checked; return the canonical text and the seat it affects (or EVERYONE)."""
        ...

    def to_act(self, game: Any) -> list[int]: ...

    def is_over(self, game: Any) -> bool: ...

    def view(self, game: Any) -> dict[str, Any]: ...

    def can_undo(self, game: Any, seat: int) -> bool:
        """Whether ``undo`` would take something back for this seat now."""
        ...

    def legal(self, game: Any, seat: int) -> list[str]: ...

    def text(self, game: Any, seat: int, action: Any) -> str:
        """An action value (a bot's choice) in the notation."""
        ...

    def record(self, game: Any) -> dict[str, Any]: ...

    def result(self, game: Any) -> dict[str, Any]: ...


class TombKind:
    """The Tomb: everyone plays their own sheet on the round's shared dice."""

    name = "tomb"
    MAX_TEXTS = 100_000  # remembered action texts per map (see legal)

    def __init__(self) -> None:
        self._texts: dict[str, dict[TombAction, str]] = {}

    def validate(self, config: dict[str, Any], seats: int) -> dict[str, Any]:
        map_id = config.get("map", "map1")
        mode = config.get("mode", "standard")
        if map_id not in map_ids():
            raise ValueError(f"unknown map {map_id!r}; maps: {', '.join(map_ids())}")
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)} (T8.2)")
        if not 1 <= seats <= 8:
            raise ValueError("a Tomb game online seats 1 to 8 players")
        return {"map": map_id, "mode": mode}

    def new(self, seed: int, config: dict[str, Any], names: list[str]) -> TombGame:
        # A game stored before T4.6 gave each seat its own bought dice is marked "buys":
        # "shared" (migration 0003), and replays under the rule it was played by.
        return TombGame(seed, [PlayerSetup(n, config["map"], config["mode"]) for n in names],
                        shared_buys=config.get("buys") == "shared")

    def apply(self, game: TombGame, seat: int, text: str) -> tuple[str, int]:
        if text == "undo":
            game.undo(seat)
            return "undo", seat
        action = game.check(seat, tomb_parse(text, game.maps[seat].grid))
        before = (game.round, [s.phase for i, s in enumerate(game.sheets) if i != seat])
        game.push(seat, action)
        after = (game.round, [s.phase for i, s in enumerate(game.sheets) if i != seat])
        # The last player to end a round starts the next one for everybody; every other
        # action changes only the acting player's sheet.
        return tomb_fmt(action, game.maps[seat].grid), EVERYONE if before != after else seat

    def to_act(self, game: TombGame) -> list[int]:
        return [i for i, s in enumerate(game.sheets) if s.phase in ("play", "after")]

    def is_over(self, game: TombGame) -> bool:
        return game.is_over

    def view(self, game: TombGame) -> dict[str, Any]:
        return {"round": game.round, "dice": list(game.dice),
                "sheets": [tomb_snapshot(game, i) for i in range(len(game.players))]}

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

    def result(self, game: TombGame) -> dict[str, Any]:
        scores = [score(s) for s in game.sheets]
        return {"scores": [s.total for s in scores], "places": ranking(scores),
                "lines": [s.lines for s in scores], "achievements": [list(s.achievements) for s in scores]}


class TreasureKind:
    """Mummy's Treasure: turns in seat order."""

    name = "treasure"

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
        return [] if game.is_over else [game.state.current]

    def is_over(self, game: TreasureGame) -> bool:
        return game.is_over

    def view(self, game: TreasureGame) -> dict[str, Any]:
        return treasure_snapshot(game)

    def can_undo(self, game: TreasureGame, seat: int) -> bool:
        return False  # online, a take or a pass stands (see apply)

    def legal(self, game: TreasureGame, seat: int) -> list[str]:
        grid = game.grid(seat)
        return [treasure_fmt(a, grid) for a in game.legal_actions(seat)]

    def text(self, game: TreasureGame, seat: int, action: Any) -> str:
        return treasure_fmt(action, game.grid(seat))

    def record(self, game: TreasureGame) -> dict[str, Any]:
        return treasure_record(game)

    def result(self, game: TreasureGame) -> dict[str, Any]:
        st = game.state
        return {"squares": game.scores(), "places": game.places(), "turns": list(st.turns),
                "reason": st.reason, "winner": st.winner}


KINDS: Final[dict[str, GameKind]] = {"tomb": TombKind(), "treasure": TreasureKind()}


def prepare_content() -> None:
    """Build every map's and site's precomputed tables now, not in the first game's move."""
    for map_id in map_ids():
        tomb_map(map_id)
    for name in sites():
        site_board(name)
