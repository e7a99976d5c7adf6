"""Par and review for a record of either game, found by the record's format.

Like the other layers' parts (``sim/kinds.py``, ``render/narrate.py``), each game's
analysis is named by its registration and found in :data:`ANALYSES` under the game's
name, so callers (the command line, the server) never ask which game a record is::

    from mummy.analysis.review import par, review
    report = review(record, player=0, progress=lambda done, total: ...)
    score = par(record, player=0)

Both are pure functions of the record: no I/O, no clock, JSON-ready dicts.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from mummy.analysis.common import Progress, ReviewError
from mummy.analysis.tomb import DEFAULT as TOMB_DEFAULT
from mummy.analysis.tomb import TombAnalyst, bot_plan, tomb_par, tomb_review
from mummy.analysis.tomb import move as tomb_move
from mummy.analysis.treasure import DEFAULT as TREASURE_DEFAULT
from mummy.analysis.treasure import Options, TreasureAnalyst, best_of, treasure_par, treasure_review
from mummy.analysis.treasure import move as treasure_move
from mummy.analysis.treasure_values import TreasureValues
from mummy.bots.registry import bot_seed
from mummy.bots.tomb_search import Beam
from mummy.games import KINDS, Parts, kind_of_record

#: The sizes of the strongest bots' searches an analysis is made at (:meth:`GameAnalysis.at`):
#: "full" is theirs (docs/analysis.md); "quick" a fraction of it, for tests and small
#: machines (a whole game's par in a second or two, not a minute).
EFFORTS: Final = ("full", "quick")


class GameAnalysis(Protocol):
    name: str

    def par(self, record: Any, player: int, progress: Progress | None = None) -> dict[str, Any]:
        """``par``, ``score``, ``result`` (positive: better than the bot), ``better``
        (which way the score is better), ``bot`` and the bot's game as a ``record``;
        ``progress(done, total)`` as the bot plays."""
        ...

    def review(self, record: Any, player: int, progress: Progress | None) -> dict[str, Any]:
        """``decisions``, ``mistakes`` (indexes into them, biggest first),
        ``lost_by_group`` (the chart), ``total_lost``, ``unit``."""
        ...

    def at(self, effort: str) -> GameAnalysis:
        """This analysis with the searches of ``effort`` (one of :data:`EFFORTS`)."""
        ...

    def hint(self, game: Any, player: int) -> dict[str, Any]:
        """The strongest bot's choice for ``player`` now, as a review's move (``actions``
        in the notation, their JSON, ``worth``, ``exact``, ``bot``)."""
        ...


class TombAnalysis:
    """The Tomb's par and review by ``analyst`` (the strongest bot at its default effort;
    a test may put a smaller search here)."""

    name = "tomb"

    def __init__(self, analyst: TombAnalyst = TOMB_DEFAULT) -> None:
        self.analyst = analyst

    def par(self, record: Any, player: int, progress: Progress | None = None) -> dict[str, Any]:
        return tomb_par(record, player, self.analyst, progress)

    def review(self, record: Any, player: int, progress: Progress | None) -> dict[str, Any]:
        return tomb_review(record, player, progress, self.analyst)

    def at(self, effort: str) -> TombAnalysis:
        # "quick": the expert's last-round and leftover searches included (at full size
        # they took two thirds of a quick par's time).
        if effort == "quick":
            return TombAnalysis(TombAnalyst("expert", Beam(2, 3, 4), Beam(1, 2, 2), 2, last=Beam(30, 50, 8),
                                            rest=Beam(4, 8, 4)))
        return TombAnalysis(TOMB_DEFAULT)

    def hint(self, game: Any, player: int) -> dict[str, Any]:
        """The strongest bot's plan up to the end of the round or a bought die (seeded as
        par seeds it)."""
        plan = bot_plan(self.analyst.agent(bot_seed(game.seed, player)), game, player)
        return {**tomb_move(plan, 0.0, game.maps[player].grid), "worth": None, "exact": None, "bot": self.analyst.bot}


class TreasureAnalysis:
    """Treasure's par and review by ``analyst`` (see :class:`TombAnalysis`)."""

    name = "treasure"

    def __init__(self, analyst: TreasureAnalyst = TREASURE_DEFAULT) -> None:
        self.analyst = analyst

    def par(self, record: Any, player: int, progress: Progress | None = None) -> dict[str, Any]:
        return treasure_par(record, player, self.analyst, progress)

    def review(self, record: Any, player: int, progress: Progress | None) -> dict[str, Any]:
        return treasure_review(record, player, progress, self.analyst)

    def at(self, effort: str) -> TreasureAnalysis:
        return TreasureAnalysis(TreasureAnalyst("exact", exact_free=3) if effort == "quick" else TREASURE_DEFAULT)

    def hint(self, game: Any, player: int) -> dict[str, Any]:
        """The choice with the fewest expected turns to fill the site (the exact values,
        docs/analysis.md §4), worth the expected total turns of the game."""
        legal = game.legal_actions(player)
        if len(legal) == 1:  # the roll that starts a turn, or a forced take: nothing to weigh
            return {**treasure_move(legal[0], 0.0, game.grid(player)), "worth": None, "exact": None,
                    "bot": self.analyst.bot}
        options, analysis = Options(TreasureValues(game.boards[player], self.analyst.exact_free)).of(game, player)
        action, value = best_of(options)
        turns = game.state.turns[player]
        return {**treasure_move(action, turns + value, game.grid(player)), "exact": analysis.exact,
                "bot": self.analyst.bot}


#: Each game's analysis, by the game's name (its registration's ``analysis``).
ANALYSES: Final[Parts] = Parts("analysis")


def analysis_of(record: Any) -> GameAnalysis:
    """The analysis for a record's game, or a ReviewError naming the formats there are."""
    kind = kind_of_record(record)
    if kind is None:
        formats = " or ".join(repr(k.record_format) for k in KINDS.values())
        raise ReviewError(f"not a game record ('format' must be {formats})")
    if kind.name not in ANALYSES:
        raise ReviewError(f"{kind.title} has no analysis: no par or review")
    analysis: GameAnalysis = ANALYSES[kind.name]
    return analysis


def par(record: Any, player: int = 0, progress: Progress | None = None) -> dict[str, Any]:
    """The strongest bot's result on the record's own dice, and the player's against it."""
    return analysis_of(record).par(record, player, progress)


def review(record: Any, player: int = 0, progress: Progress | None = None) -> dict[str, Any]:
    """Every decision of ``player`` against the strongest bot's (see each game's module)."""
    return analysis_of(record).review(record, player, progress)


__all__ = ["ANALYSES", "EFFORTS", "GameAnalysis", "TombAnalysis", "TreasureAnalysis", "analysis_of", "par", "review"]
